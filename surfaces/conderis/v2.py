"""Tool surface v2, final design: the eight tools as #311 measured them after its sessions (6,386 chars, the
page's 4th version); the texts as corrected during implementation are `v2_live`."""

from surfaces.conderis._eight import eight_tool_surface
from surfaces.conderis._eight_design import FINAL

__all__ = ["SURFACE"]

SURFACE = eight_tool_surface(
    "v2",
    "v2, final design",
    "Eight tools; tasks are the active ones unless includeClosed, proposal actions need no version.",
    FINAL,
)
