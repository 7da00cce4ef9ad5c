"""What the Conderis surfaces share: the parameters (project, paging, version), so no surface copies them, and
the definition of a surface of the study, whose tools module is imported only when it is built or served."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Kind, Stub, SurfaceDefinition
from toolsurface.stubs.paging import DEFAULT_PAGE, MAX_PAGE
from toolsurface.surfaces._authoring import ToolData, prop
from toolsurface.surfaces.conderis.kinds import COMMIT, KINDS
from toolsurface.surfaces.conderis.pieces import ours

__all__ = ["SECRET_EXAMPLE", "ToolsModule", "cursor_paging", "offset_paging", "project_id", "study", "version"]

Schema = dict[str, Any]

SECRET_EXAMPLE = ours(", e.g. a secret stored by mistake", 75, name="example")
"""What item_delete is for, in every series."""


def project_id(note: str = "") -> Schema:
    return prop("string", note)


def version(note: str = "Version read with item_get") -> Schema:
    return prop("integer", note)


def cursor_paging(default: int = DEFAULT_PAGE, maximum: int = MAX_PAGE) -> dict[str, Schema]:
    """The one paging contract of the newer surfaces: limit and an opaque cursor (the project's `page`)."""
    return {
        "limit": prop("integer", "Entries per page" + ours(f" (default {default}, at most {maximum})")),
        "cursor": prop(
            "string", "nextCursor of the previous answer" + ours(" (it has total, hasMore, nextCursor)", 109, 915)
        ),
    }


def offset_paging(default: int = DEFAULT_PAGE, maximum: int = MAX_PAGE) -> dict[str, Schema]:
    return {
        "offset": prop("integer", "Number of results to skip"),
        "limit": prop("integer", "Maximum number of results" + ours(f" (default {default}, max {maximum})")),
    }


@dataclass(frozen=True)
class ToolsModule:
    """A module of a surface's tools, each declared beside its handler, with its `build(kinds, *context)` and
    `stub(fixture, *context)`; imported when the surface is built or served, never to list it."""

    name: str
    context: tuple[Any, ...] = ()

    def build(self, kinds: Sequence[Kind]) -> list[ToolData]:
        built: list[ToolData] = import_module(self.name).build(kinds, *self.context)
        return built

    def stub(self, fixture: Path | None = None) -> Stub:
        made: Stub = import_module(self.name).stub(fixture, *self.context)
        return made


def study(name: str, title: str, purpose: str, tools: ToolsModule, instructions: str) -> SurfaceDefinition:
    """A surface of the Conderis study: measured with its five kinds, grown by commit, its tools and stub from
    `tools`, with the server instructions of its naming (`instructions`)."""
    return SurfaceDefinition(
        name=name,
        title=title,
        purpose=purpose,
        build=tools.build,
        kinds=KINDS,
        growth_kind=COMMIT,
        stub=tools.stub,
        instructions=instructions,
    )
