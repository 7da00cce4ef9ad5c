"""Writing a stub for one's own product: the starter files (`new_surface`) and what is still missing
(`check_surface`)."""

from toolsurface.harness.author._check import SurfaceCheck, check_surface
from toolsurface.harness.author._starter import Starter, new_surface

__all__ = ["Starter", "SurfaceCheck", "check_surface", "new_surface"]
