"""Tool surface v2 as it went live in #317: the final design with the corrections of its texts made during
implementation (`v2_design.CORRECTIONS`), served by the same handlers as v2."""

from toolsurface.surfaces.conderis.v2_design import LIVE, v2_surface

__all__ = ["SURFACE"]

SURFACE = v2_surface(
    "v2-live",
    "v2, live after #317",
    "The final design as implemented: actions per kind, each kind of a batch atomic on its own.",
    LIVE,
)
