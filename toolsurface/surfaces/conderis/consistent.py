"""The control series: the 27 old tools with the inconsistencies fixed, descriptions cut to v2 length, plus
task_block (28 tools). Its tools, each declared beside its handler, are `consistent_tools`, imported when the
surface is built or served."""

from toolsurface.surfaces.conderis._shared import ToolsModule, study
from toolsurface.surfaces.conderis.instructions import BEFORE_V2

__all__ = ["SURFACE"]

SURFACE = study(
    "consistent",
    "Consistency fixes only",
    "The 27 old tools with the inconsistencies fixed and descriptions cut to v2 length, plus task_block.",
    ToolsModule("toolsurface.surfaces.conderis.consistent_tools"),
    BEFORE_V2,
)
