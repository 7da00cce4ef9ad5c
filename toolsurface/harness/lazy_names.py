"""A package face whose names load when first used (PEP 562), for packages whose modules are heavy to import
and whose names are wanted by commands that do not need them all."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, modules: Sequence[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`: a name of its `__all__` is looked for in `modules`, in order
    (each one's own `__all__` says which names it holds), and kept in the package once found."""

    def getattr_(name: str) -> Any:
        face = sys.modules[package]
        if name in face.__all__:
            for module in modules:
                found = importlib.import_module(f"{package}.{module}")
                if name in found.__all__:
                    value = getattr(found, name)
                    setattr(face, name, value)
                    return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def dir_() -> list[str]:
        face = sys.modules[package]
        return sorted({*vars(face), *face.__all__})

    return getattr_, dir_
