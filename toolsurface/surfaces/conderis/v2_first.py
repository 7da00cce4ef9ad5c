"""Tool surface v2 as first designed: item_list filters tasks by status, every action checks the version."""

from toolsurface.surfaces.conderis.v2_design import FIRST, v2_surface

__all__ = ["SURFACE"]

SURFACE = v2_surface(
    "v2-first",
    "v2, first design",
    "Eight tools as first measured; tasks filtered by status, approve and reject need the version.",
    FIRST,
)
