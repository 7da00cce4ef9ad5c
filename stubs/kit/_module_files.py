"""A surface's handlers kept in a module file of their own, beside the surface module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from harness.errors import SurfaceLoadError, ToolsurfaceError
from stubs.kit._handlers import Handlers

__all__ = ["load_handlers"]


def load_handlers(path: Path, name: str = "handlers") -> Handlers[Any]:
    """The `Handlers` registry `name` of the module file at `path`; a file that fails is one line naming it."""
    module_name = f"toolsurface_user_handlers_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if not path.is_file() or spec is None or spec.loader is None:
        raise SurfaceLoadError(f"{path}: no such handler module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except ToolsurfaceError:
        raise
    except Exception as error:
        sys.modules.pop(module_name, None)
        raise SurfaceLoadError(f"{path}: failed to import: {type(error).__name__}: {error}") from None
    found = getattr(module, name, None)
    if not isinstance(found, Handlers):
        raise SurfaceLoadError(f"{path}: defines no {name} = Handlers() registry")
    return found
