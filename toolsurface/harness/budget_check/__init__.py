"""A tool list against its budget: listed (a surface as built, a live server through a real client), its tools'
answers probed on the same connection where they are checked, measured and judged in one typed result, for the
budget verb and each configured target alike."""

from toolsurface.harness.budget_check._check import AnswerBudget, CheckedList, ListBudget, check_list, judged

__all__ = ["AnswerBudget", "CheckedList", "ListBudget", "check_list", "judged"]
