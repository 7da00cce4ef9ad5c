"""A surface's handlers kept in a module file of their own, beside the surface module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError
from toolsurface.harness.surface import import_module_file
from toolsurface.stubs.kit._handlers import Handlers


def load_handlers(path: Path, name: str = "handlers") -> Handlers[Any]:
    """The `Handlers` registry `name` of the module file at `path`; a file that fails is one line naming it."""
    module = import_module_file(path, "toolsurface_user_handlers")
    found = getattr(module, name, None)
    if not isinstance(found, Handlers):
        raise SurfaceLoadError(f"{path}: defines no {name} = Handlers() registry")
    return found
