"""What surfaces with one tool per operation share: which kinds own which tools (each tool declared with its
handler, `kinds=`), and how a new kind becomes tools (`commit_list`, `commit_link`, `commit_unlink`) under a
series' own conventions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.surface import Kind, KindField, KindTool
from toolsurface.stubs.kit import Handlers
from toolsurface.surfaces._authoring import ToolData, make_tool, prop

__all__ = ["Conventions", "build_per_kind"]


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


def build_per_kind(handlers: Handlers[Any], kinds: Sequence[Kind], conventions: Conventions) -> list[ToolData]:
    """The series' own tools for the kinds it knows, then the tools of each kind it does not know."""
    known = {name for declared in handlers.declared.values() for name in declared.kinds}
    tools = handlers.definitions(kinds)
    for kind in kinds:
        if kind.name not in known:
            tools.extend(kind_tool(kind, spec, conventions) for spec in kind.tools)
    return tools
