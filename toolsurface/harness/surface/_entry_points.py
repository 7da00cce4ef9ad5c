"""The entry points of one group, found as importlib.metadata's `entry_points(group=...)` finds them, without
importing it where the import path is plain folders: importing importlib.metadata (and the email package it
reads metadata with) takes longer than `toolsurface list` takes to do everything else it does for itself.

Where only importlib.metadata can say (an import path entry that is a zip file or holds eggs, or a finder of
its own that finds distributions), it is asked instead; the entry points are the same either way.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

__all__ = ["EntryPointLike", "declared_entry_points"]


class EntryPointLike(Protocol):
    """What is used of an entry point: importlib.metadata's EntryPoint, or the one read here."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    @property
    def module(self) -> str: ...

    def load(self) -> Any: ...


# importlib.metadata's own pattern of an entry point's value: module, attribute path, extras.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


@dataclass(frozen=True)
class _EntryPoint:
    name: str
    value: str
    group: str

    def _match(self) -> re.Match[str]:
        found = _VALUE.match(self.value)
        if found is None:
            raise ValueError(f"{self.value!r} is not an entry point's module:attribute")
        return found

    @property
    def module(self) -> str:
        return self._match().group("module")

    def load(self) -> Any:
        found = self._match()
        loaded: Any = import_module(found.group("module"))
        for attribute in filter(None, (found.group("attr") or "").split(".")):
            loaded = getattr(loaded, attribute)
        return loaded


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _pairs(text: str, group: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of `group` in an entry_points.txt, read as importlib.metadata reads it."""
    pairs, section = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == group:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs


def _plain_folders(path: Sequence[str]) -> list[tuple[str, str]] | None:
    """Each import path entry's metadata folders (*.dist-info, *.egg-info) with their distribution's name,
    as importlib.metadata orders them (by path entry, then by name in the order each first appears); None
    where only importlib.metadata can say."""
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in map(_kind, sys.meta_path)):
        return None
    found: list[tuple[str, str]] = []
    for entry in path:
        root = entry or "."
        if not os.path.isdir(root):
            if os.path.exists(root):
                return None  # a zip file
            continue
        try:
            children = os.listdir(root)
        except OSError:
            continue
        by_name: dict[str, list[str]] = {}
        for child in children:
            low = child.lower()
            if low.endswith(".egg"):
                return None
            if low.endswith((".dist-info", ".egg-info")):
                stem = os.path.splitext(child)[0].partition("-")[0]
                by_name.setdefault(_normalized(stem), []).append(os.path.join(root, child))
        found += [(name, folder) for name, folders in by_name.items() for folder in folders]
    return found


def _kind(finder: object) -> type:
    return finder if isinstance(finder, type) else type(finder)


def declared_entry_points(group: str, path: Sequence[str] | None = None) -> list[EntryPointLike]:
    """The entry points of `group` of every distribution on `path` (default sys.path), the first of each
    distribution's name only, in importlib.metadata's order."""
    folders = _plain_folders(sys.path if path is None else path)
    if folders is None:
        return _from_importlib(group, sys.path if path is None else path)
    seen: set[str] = set()
    found: list[EntryPointLike] = []
    for name, folder in folders:
        if name in seen:
            continue
        seen.add(name)
        try:
            with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
                text = file.read()
        except OSError:
            continue
        found += [_EntryPoint(n, v, group) for n, v in _pairs(text, group)]
    return found


def _from_importlib(group: str, path: Sequence[str]) -> list[EntryPointLike]:
    """importlib.metadata's `entry_points(group=...)`, on `path`: the first distribution of each name."""
    from importlib.metadata import distributions

    seen: set[str] = set()
    found: list[EntryPointLike] = []
    for dist in distributions(path=list(path)):
        name = getattr(dist, "_normalized_name", None) or _normalized(dist.metadata["Name"] or "")
        if name not in seen:
            seen.add(name)
            found += dist.entry_points.select(group=group)
    return found
