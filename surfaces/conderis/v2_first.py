"""Tool surface v2 as first designed: item_list filters tasks by status, every action checks the version."""

from surfaces.conderis._eight import eight_tool_surface
from surfaces.conderis._eight_design import FIRST

__all__ = ["SURFACE"]

SURFACE = eight_tool_surface(
    "v2-first",
    "v2, first design",
    "Eight tools as first measured; tasks filtered by status, approve and reject need the version.",
    FIRST,
)
