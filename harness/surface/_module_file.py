"""Importing a Python file a user names (a surface module, a handler module) under a name of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from harness.errors import SurfaceLoadError, ToolsurfaceError

__all__ = ["import_module_file"]


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
        raise SurfaceLoadError(f"{path}: failed to import: {type(error).__name__}: {error}") from None
    return module
