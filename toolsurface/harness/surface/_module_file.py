"""Importing a Python file a user names (a surface module, a handler module) under a name of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from toolsurface.harness.errors import SurfaceLoadError, ToolsurfaceError

__all__ = [
    "import_module_file",
]

# The import names toolsurface had before it installed one, `toolsurface`: each is now a subpackage of it.
_FORMER_NAMES = ("harness", "stubs", "surfaces", "sessions")


def import_module_file(path: Path, prefix: str) -> ModuleType:
    """The module at `path`; one that cannot be imported is one line naming the file and why."""
    if not path.is_file():
        raise SurfaceLoadError(f"{path}: no such file")
    module_name = f"{prefix}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise SurfaceLoadError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except ToolsurfaceError:
        raise
    except BaseException as error:
        sys.modules.pop(module_name, None)
        if isinstance(error, KeyboardInterrupt):
            raise
        moved = _former_name(error)
        if moved is not None:
            raise SurfaceLoadError(
                f"{path}: imports {moved!r}, which toolsurface now names 'toolsurface.{moved}'"
            ) from None
        raise SurfaceLoadError(f"{path}: failed to import: {type(error).__name__}: {error}") from None
    return module


def _former_name(error: BaseException) -> str | None:
    """The former toolsurface import name a module failed on (`stubs`, `harness.surface`, ...), if that is why."""
    if not isinstance(error, ImportError) or not error.name:
        return None
    if error.name.split(".")[0] not in _FORMER_NAMES:
        return None
    try:
        found = importlib.util.find_spec(f"toolsurface.{error.name}")
    except ImportError:
        found = None
    return error.name if found is not None else None
