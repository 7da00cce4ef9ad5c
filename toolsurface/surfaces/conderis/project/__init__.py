"""The fixed Conderis project a stub serves: typed records and the product's rules, shared by every surface.

Surfaces differ in how calls are named and checked; what a call does to the project is decided here,
once, one module per concern: the state and finding items (`_state`), field and version checks
(`_values`), items (`_items`), tasks (`_tasks`), memories and pages (`_notes`), proposals
(`_proposals`), relations and history (`_relations`), deletion requests (`_deletions`), text search
(`_search`), the project as a whole (`_project`) and its whole state as written and read back (`_dump`).
"""

from toolsurface.surfaces.conderis.project._dump import ProjectDump
from toolsurface.surfaces.conderis.project._project import Project
from toolsurface.surfaces.conderis.project._records import (
    Caller,
    DeletionRequest,
    HistoryEntry,
    Item,
    Person,
    ProjectInfo,
    Proposal,
    Relation,
)

__all__ = [
    "Caller",
    "DeletionRequest",
    "HistoryEntry",
    "Item",
    "Person",
    "Project",
    "ProjectDump",
    "ProjectInfo",
    "Proposal",
    "Relation",
]
