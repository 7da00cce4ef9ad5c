"""A study: the surfaces a package compares, in their order, with the defaults the harness takes for them
(findability queries, the round-trip task, the seed's figures, the outcome checks of its scenarios). A package
of surfaces declares its own as `STUDY` in its `__init__`; the harness names none."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.surface._entry_points import EntryPointLike as EntryPoint

__all__ = ["STUDY_ATTRIBUTE", "Study", "default_study", "find_studies", "study_of"]

STUDY_ATTRIBUTE = "STUDY"


@dataclass(frozen=True)
class Study:
    """`surfaces`: the registered names, in the order tables and charts compare them. `queries`, `task` and
    `seed_figures`: the files findability, the round trip and the report's seed table read when none is
    named. `calls`: the folder of each surface's calls file (`SURFACE.json`), what `probe` calls of it when
    no calls file is named. `checks`: the module whose `CHECKS` maps the check types its scenarios use beyond
    the harness's own. `headline`: the baseline and the candidate whose list sizes the report compares in a sentence.
    `default`: the study measured when no surface is named."""

    name: str
    surfaces: tuple[str, ...]
    queries: Path | None = None
    task: Path | None = None
    seed_figures: Path | None = None
    calls: Path | None = None
    checks: str = ""
    headline: tuple[str, str] | None = None
    default: bool = False

    def file(self, what: str) -> Path:
        """`queries`, `task` or `seed_figures`; one the study does not declare is one line naming it."""
        found: Path | None = getattr(self, what)
        if found is None:
            raise ToolsurfaceError(f"the {self.name} study declares no {what.replace('_', ' ')}; name a file")
        return found

    def calls_for(self, surface: str) -> Path | None:
        """The calls file of one of its surfaces, where the study has one."""
        found = self.calls / f"{surface}.json" if self.calls is not None else None
        return found if found is not None and surface in self.surfaces and found.is_file() else None


def _package(entry: EntryPoint) -> str:
    module = entry.module
    return module.rpartition(".")[0] or module


def find_studies(entries: Iterable[EntryPoint]) -> list[Study]:
    """The studies the packages of these surface entry points declare, each once, in entry point order. A
    package that cannot be imported declares none here: its surfaces report the error when loaded."""
    found: dict[str, Study] = {}
    for entry in entries:
        package = _package(entry)
        if package in found:
            continue
        try:
            declared = getattr(import_module(package), STUDY_ATTRIBUTE, None)
        except Exception:
            continue
        if isinstance(declared, Study):
            found[package] = declared
    return list(dict.fromkeys(found.values()))


def default_study(studies: Sequence[Study]) -> Study | None:
    return next((s for s in studies if s.default), None)


def study_of(specs: Sequence[str], studies: Sequence[Study]) -> Study | None:
    """The study whose surfaces include every one of `specs`; none named, surfaces of no study (a module or a
    snapshot by path) or of several: the default study."""
    if specs:
        whole = next((s for s in studies if all(spec in s.surfaces for spec in specs)), None)
        if whole is not None:
            return whole
    return default_study(studies)
