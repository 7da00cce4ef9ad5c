"""Tool surface v2, final design: eight tools as the page's newest version describes them."""

from surfaces.conderis._eight import eight_tool_surface
from surfaces.conderis._eight_design import FINAL

__all__ = ["SURFACE"]

SURFACE = eight_tool_surface(
    "v2",
    "v2, final design",
    "Eight tools; tasks are the active ones unless includeClosed, proposal actions need no version.",
    FINAL,
)
