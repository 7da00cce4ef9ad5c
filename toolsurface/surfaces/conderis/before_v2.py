"""Tool surface before v2: the 27 tools Conderis served, inconsistencies included. Its tools, each declared
beside its handler, are `before_v2_tools`, imported when the surface is built or served."""

from toolsurface.surfaces.conderis._shared import ToolsModule, study
from toolsurface.surfaces.conderis.instructions import BEFORE_V2

__all__ = ["SURFACE"]

SURFACE = study(
    "before-v2",
    "Before v2",
    "The 27 tools Conderis served before v2, inconsistencies included.",
    ToolsModule("toolsurface.surfaces.conderis.before_v2_tools"),
    BEFORE_V2,
)
