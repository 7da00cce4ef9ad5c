"""budget: a tool list, a client's configuration or a project's configured targets held to their budgets.

A request (what is held, the limits, the probe and answer limits, the ratchet) goes in and one typed outcome with
its exit code comes out (`run_budget`), for every path: the verb with a list, `--mcp-config`, the configured
targets and client configurations, the ratchet, the pre-commit hook and the Action. Beneath it: one list listed,
probed where its answers are checked, measured and judged (`check_list`); the configured targets with what grew
since their last log entry (`check_targets`); a client's configuration against its budgets (`budget_config`); the
ratchet that moves a configured budget (`ratchet`). Names load when first used, so the verb starts light."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.harness.budget._configuration import ConfigBudget, budget_config, check_config_budget
    from toolsurface.harness.budget._list import AnswerBudget, CheckedList, ListBudget, check_list, judged
    from toolsurface.harness.budget._ratchet import Ratchet, RatchetStep, plan_ratchet, ratchet
    from toolsurface.harness.budget._request import (
        BudgetLimits,
        BudgetOutcome,
        BudgetRequest,
        ClientConfiguration,
        ConfiguredTargets,
        OneList,
        RatchetRequest,
    )
    from toolsurface.harness.budget._run import run_budget
    from toolsurface.harness.budget._targets import CheckedTarget, check_targets

# The modules a name is looked for in; each one's own __all__ says which names it holds.
_MODULES = ("_list", "_request", "_run", "_targets", "_ratchet", "_configuration")

__all__ = [
    "AnswerBudget",
    "BudgetLimits",
    "BudgetOutcome",
    "BudgetRequest",
    "CheckedList",
    "CheckedTarget",
    "ClientConfiguration",
    "ConfigBudget",
    "ConfiguredTargets",
    "ListBudget",
    "OneList",
    "Ratchet",
    "RatchetRequest",
    "RatchetStep",
    "budget_config",
    "check_config_budget",
    "check_list",
    "check_targets",
    "judged",
    "plan_ratchet",
    "ratchet",
    "run_budget",
]

__getattr__, __dir__ = lazy_names(__name__, _MODULES)
