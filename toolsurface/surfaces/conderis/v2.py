"""Tool surface v2, final design: the eight tools as #311 measured them after its sessions (6,386 chars, the
page's 4th version); the texts as corrected during implementation are `v2_live`."""

from toolsurface.surfaces.conderis.v2_design import FINAL, v2_surface

__all__ = ["SURFACE"]

SURFACE = v2_surface(
    "v2",
    "v2, final design",
    "Eight tools; tasks are the active ones unless includeClosed, proposal actions need no version.",
    FINAL,
)
