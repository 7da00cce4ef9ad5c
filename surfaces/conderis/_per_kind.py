"""What surfaces with one tool per operation share: which kinds own which tools, and how a new kind
becomes tools (`commit_list`, `commit_link`, `commit_unlink`) under a series' own conventions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from harness.surface import Kind, KindField, KindTool, StubFactory, SurfaceDefinition
from surfaces._authoring import ToolData, make_tool, prop
from surfaces.conderis._shared import study

__all__ = ["Conventions", "OwnedTool", "build_per_kind", "per_kind_surface"]


@dataclass(frozen=True)
class OwnedTool:
    """A tool and the kinds it serves; it is part of the list when any of them is, or always if none."""

    tool: ToolData
    kinds: tuple[str, ...] = ()


def _plain_name(field: KindField) -> str:
    return field.name


def _plain_note(field: KindField) -> str:
    return field.note


@dataclass(frozen=True)
class Conventions:
    """How a series writes the tools of a kind it did not know when it was designed."""

    project: dict[str, Any]
    paging: Callable[[Kind], dict[str, Any]]
    param_name: Callable[[KindField], str] = _plain_name
    param_note: Callable[[KindField], str] = _plain_note


def kind_tool(kind: Kind, spec: KindTool, conventions: Conventions) -> ToolData:
    properties: dict[str, Any] = {"projectId": conventions.project}
    properties.update({conventions.param_name(f): prop(f.type, conventions.param_note(f)) for f in spec.params})
    if spec.verb == "list":
        properties.update(conventions.paging(kind))
    required = ["projectId", *(conventions.param_name(f) for f in spec.params if f.name in spec.required)]
    return make_tool(f"{kind.name}_{spec.verb}", spec.summary, spec.access, properties, required)


def build_per_kind(owned: Sequence[OwnedTool], kinds: Sequence[Kind], conventions: Conventions) -> list[ToolData]:
    """The series' own tools for the kinds it knows, then the tools of each kind it does not know."""
    present = {k.name for k in kinds}
    known = {name for o in owned for name in o.kinds}
    tools = [o.tool for o in owned if not o.kinds or present.intersection(o.kinds)]
    for kind in kinds:
        if kind.name not in known:
            tools.extend(kind_tool(kind, spec, conventions) for spec in kind.tools)
    return tools


def _build(owned: Sequence[OwnedTool], conventions: Conventions, kinds: Sequence[Kind]) -> list[ToolData]:
    return build_per_kind(owned, kinds, conventions)


def per_kind_surface(
    name: str, title: str, purpose: str, owned: Sequence[OwnedTool], conventions: Conventions, stub: StubFactory
) -> SurfaceDefinition:
    """A surface of one tool per operation, with the old tools' server instructions."""
    from surfaces.conderis.instructions import BEFORE_V2

    return study(name, title, purpose, partial(_build, tuple(owned), conventions), stub, BEFORE_V2)
