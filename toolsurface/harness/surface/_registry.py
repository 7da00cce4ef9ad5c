"""Finding surfaces: bundled and installed ones by entry point, or a `.py` module or JSON snapshot by path."""

from __future__ import annotations

import functools
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError, ToolsurfaceError, UnknownSurface
from toolsurface.harness.surface._entry_points import EntryPointLike, declared_entry_points
from toolsurface.harness.surface._model import Kind, SurfaceDefinition
from toolsurface.harness.surface._module_file import import_module_file
from toolsurface.harness.surface._parts import parts_from_wire
from toolsurface.harness.surface._server_name import file_server_name
from toolsurface.harness.surface._skills import declared_skills
from toolsurface.harness.surface._snapshot_file import Snapshot, load_snapshot
from toolsurface.harness.surface._study import Study, default_study, find_studies, study_of

__all__ = [
    "ENTRY_POINT_GROUP",
    "bundled_definitions",
    "default_surfaces",
    "is_surface_path",
    "known_names",
    "own_study",
    "own_study_file",
    "resolve",
    "resolve_all",
    "studies",
    "study_calls",
    "study_file",
    "study_for",
]

ENTRY_POINT_GROUP = "toolsurface.surfaces"


def _entry_points() -> Mapping[str, EntryPointLike]:
    return _entry_points_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _entry_points_on(path: tuple[str, ...]) -> Mapping[str, EntryPointLike]:
    """Read once per import path: each read walks every installed distribution."""
    return MappingProxyType({ep.name: ep for ep in declared_entry_points(ENTRY_POINT_GROUP, path)})


def studies() -> list[Study]:
    """The studies the packages of the installed surfaces declare (`STUDY`)."""
    return find_studies(_entry_points().values())


def study_for(specs: Sequence[str]) -> Study | None:
    """The study whose defaults apply to these surfaces (none named: the default study's)."""
    return study_of(specs, studies())


def study_file(specs: Sequence[str], what: str) -> Path:
    """The file `what` (queries, task, seed_figures) of the study of these surfaces (`study_for`)."""
    study = study_for(specs)
    if study is None:
        raise ToolsurfaceError(f"no installed study declares {what.replace('_', ' ')}; name a file")
    return study.file(what)


# What each study file is for, and the option that names one instead.
_OWN = {"queries": ("queries", "--queries FILE"), "task": ("round-trip task", "--task FILE")}


def own_study(specs: Sequence[str]) -> Study | None:
    """The one study all of `specs` belong to (none named: the default study); None for a surface of no study
    (a module, a snapshot, a live server) or surfaces of several: another study's files never apply to them."""
    found = studies()
    if not specs:
        return default_study(found)
    return next((s for s in found if all(spec in s.surfaces for spec in specs)), None)


def own_study_file(specs: Sequence[str], what: str, labels: Sequence[str] | None = None) -> Path:
    """The file `what` (queries, task) of the one study all of `specs` belong to (none named: the default
    study's). A surface of no study (a module, a snapshot, a live server) has none of its own: one line saying
    so, rather than another study's. `labels` name the surfaces in that line (a live server by its name)."""
    if not specs:
        return study_file(specs, what)
    whole = own_study(specs)
    if whole is not None:
        return whole.file(what)
    found = studies()
    noun, option = _OWN.get(what, (what.replace("_", " "), "a file"))
    shown = list(labels or specs)
    alone = [label for spec, label in zip(specs, shown, strict=True) if not any(spec in s.surfaces for s in found)]
    if alone:
        hint = (
            "; `toolsurface new queries` (given the same surface or server) writes a starter one"
            if what == "queries"
            else ""
        )
        them = "them" if what == "queries" else "one"
        return _no_own(f"{alone[0]} has no {noun} of its own (it belongs to no study): name {them} with {option}{hint}")
    return _no_own(f"{', '.join(shown)} belong to different studies: name the {noun} with {option}")


def _no_own(message: str) -> Path:
    raise ToolsurfaceError(message)


def study_calls(spec: str) -> Path | None:
    """The calls file of a surface's study for that surface (what `probe` calls), where it has one."""
    return next((found for s in studies() if (found := s.calls_for(spec)) is not None), None)


def default_surfaces() -> tuple[str, ...]:
    """The surfaces measured when none is named: the default study's, in its order."""
    study = default_study(studies())
    return study.surfaces if study is not None else ()


def known_names() -> list[str]:
    names = list(_entry_points())
    first = default_surfaces()
    bundled = [n for n in first if n in names]
    return bundled + sorted(n for n in names if n not in first)


def _from_entry_point(ep: EntryPointLike) -> SurfaceDefinition:
    try:
        loaded = ep.load()
    except Exception as error:
        raise SurfaceLoadError(
            f"surface {ep.name!r} ({ep.value}): failed to load: {type(error).__name__}: {error}"
        ) from None
    if isinstance(loaded, ModuleType):
        definition = _from_module(loaded, f"{ep.name} ({ep.value})", default_name=ep.name)
    elif isinstance(loaded, SurfaceDefinition):
        definition = loaded
    else:
        raise SurfaceLoadError(
            f"surface {ep.name!r} ({ep.value}): is a {type(loaded).__name__}, not a SurfaceDefinition or module"
        )
    return replace(definition, name=ep.name, source=definition.source or f"entry point {ep.value}")


def _from_module(module: ModuleType, origin: str, default_name: str) -> SurfaceDefinition:
    # A module defines SURFACE, or build(kinds) with KINDS, GROWTH_KIND, NAME, TITLE, PURPOSE and STUB (the
    # factory of its stub, e.g. stubs.kit.stub_factory; without one the surface is served for listing only),
    # and what its server advertises beside the tools: INSTRUCTIONS, PROMPTS, RESOURCES, RESOURCE_TEMPLATES, SKILLS
    # (harness.surface._skills.declared_skills).
    surface = getattr(module, "SURFACE", None)
    if isinstance(surface, SurfaceDefinition):
        return replace(surface, source=surface.source or origin)
    build = getattr(module, "build", None)
    if not callable(build):
        raise SurfaceLoadError(f"{origin}: defines neither SURFACE (a SurfaceDefinition) nor build(kinds)")
    kinds: Sequence[Any] = getattr(module, "KINDS", ())
    growth = getattr(module, "GROWTH_KIND", None)
    if not all(isinstance(k, Kind) for k in kinds) or not (growth is None or isinstance(growth, Kind)):
        raise SurfaceLoadError(f"{origin}: KINDS and GROWTH_KIND must be Kind records")
    stub = getattr(module, "STUB", None)
    if stub is not None and not callable(stub):
        raise SurfaceLoadError(
            f"{origin}: STUB must be a stub factory (toolsurface.stubs.kit.stub_factory), not {type(stub).__name__}"
        )
    parts = parts_from_wire(
        {
            key: getattr(module, attribute)
            for key, attribute in _PART_ATTRIBUTES.items()
            if getattr(module, attribute, None) is not None
        },
        origin,
    )
    declared = getattr(module, "SKILLS", None)
    return SurfaceDefinition(
        name=str(getattr(module, "NAME", default_name)),
        title=str(getattr(module, "TITLE", default_name)),
        purpose=str(getattr(module, "PURPOSE", (module.__doc__ or "").strip().split("\n")[0])),
        build=build,
        kinds=tuple(kinds),
        growth_kind=growth,
        source=origin,
        stub=stub,
        instructions=parts.instructions,
        prompts=parts.prompts,
        resources=parts.resources,
        resource_templates=parts.resource_templates,
        skills=declared_skills(declared, origin) if declared is not None else None,
    )


_PART_ATTRIBUTES = {
    "instructions": "INSTRUCTIONS",
    "prompts": "PROMPTS",
    "resources": "RESOURCES",
    "resourceTemplates": "RESOURCE_TEMPLATES",
}


def _load_module_file(path: Path) -> SurfaceDefinition:
    module = import_module_file(path, "toolsurface_user_surface")
    return _from_module(module, str(path), default_name=path.stem)


def is_surface_path(spec: str) -> bool:
    """Whether a surface spec names a file (a module or a snapshot) rather than a registered surface."""
    return spec.endswith((".py", ".json")) or "/" in spec or "\\" in spec


def resolve(spec: str) -> SurfaceDefinition | Snapshot:
    """A surface name, a path to a `.py` surface module, or a path to a tools/list JSON snapshot."""
    if is_surface_path(spec):
        path = Path(spec)
        if path.suffix == ".py":
            return _load_module_file(path)
        if path.suffix == ".json" or path.is_file():
            return load_snapshot(path)
        raise SurfaceLoadError(f"{path}: not a .py surface module or a .json tools list")
    found = _entry_points().get(spec)
    if found is None:
        raise UnknownSurface(spec, known_names())
    return _from_entry_point(found)


def resolve_all(specs: Sequence[str]) -> list[SurfaceDefinition | Snapshot]:
    """Each spec resolved. Two snapshot files of one server (its list before and after a change) carry its one
    name; where that name is taken by another surface of the command, each such file goes by its file's name."""
    items = [resolve(spec) for spec in specs]
    counts = Counter(item.name for item in items)
    stems = Counter(_stem(item) for item in items)
    return [
        replace(item, name=stem, aliases=(*item.aliases, item.name))
        if isinstance(item, Snapshot)
        and counts[item.name] > 1
        and (stem := _stem(item)) not in counts
        and stems[stem] == 1
        else item
        for item in items
    ]


def _stem(item: SurfaceDefinition | Snapshot) -> str:
    return file_server_name(item.path) if isinstance(item, Snapshot) else item.name


def bundled_definitions() -> list[SurfaceDefinition]:
    found = _entry_points()
    return [_from_entry_point(found[name]) for name in default_surfaces() if name in found]
