"""Tools that could be one: a surface's families (one operation over several nouns, one noun under several
operations, with schemas that mostly agree), each made one tool the seed's way, written as a candidate snapshot
with a mapping from the old tools, and measured on the written file."""

from toolsurface.harness.suggest._candidate import PROPOSAL, Candidate, TurnedDown, candidate_of
from toolsurface.harness.suggest._families import MOSTLY, WIDEST, KeptApart, Plan, find_plans
from toolsurface.harness.suggest._merge import Merged, merge_family
from toolsurface.harness.suggest._names import NamedTool, read_name
from toolsurface.harness.suggest._render import (
    FAMILY_COLUMNS,
    LIST_COLUMNS,
    QUERY_COLUMNS,
    suggest_lines,
    suggest_view,
)
from toolsurface.harness.suggest._suggest import (
    SUGGEST_FORMAT,
    CandidateFiles,
    FamilyRow,
    Figures,
    QueryRow,
    Suggestion,
    candidate_files,
    check_outputs,
    clients_beside,
    suggest,
)

__all__ = [
    "FAMILY_COLUMNS",
    "LIST_COLUMNS",
    "MOSTLY",
    "PROPOSAL",
    "QUERY_COLUMNS",
    "SUGGEST_FORMAT",
    "WIDEST",
    "Candidate",
    "CandidateFiles",
    "FamilyRow",
    "Figures",
    "KeptApart",
    "Merged",
    "NamedTool",
    "Plan",
    "QueryRow",
    "Suggestion",
    "TurnedDown",
    "candidate_files",
    "candidate_of",
    "check_outputs",
    "clients_beside",
    "find_plans",
    "merge_family",
    "read_name",
    "suggest",
    "suggest_lines",
    "suggest_view",
]
