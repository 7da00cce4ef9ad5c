"""helpdesk-tools: one tool per kind and verb (24 tools), tickets listed by any status. Tools and handlers
come from the kinds (`stubs.engine`); the one hand-written handler adds the public-reply rule (`_tools_stub`).
The engine loads when the surface is built or served: listing the installed surfaces reads only what is here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolsurface.harness.surface import Kind, Stub, ToolData
from toolsurface.surfaces.helpdesk.kinds import BY_STATUS_KINDS, MACRO

NAME = "helpdesk-tools"
TITLE = "Help desk, a tool per kind and verb"
PURPOSE = "The many-tool help desk: get, list, create, update, delete per kind and a tool per ticket action."
KINDS = BY_STATUS_KINDS
GROWTH_KIND = MACRO


def build(kinds: Sequence[Kind]) -> list[ToolData]:
    from toolsurface.stubs.engine import per_kind_tools

    return per_kind_tools(kinds)


def STUB(fixture: Path | None) -> Stub:
    from toolsurface.surfaces.helpdesk._tools_stub import STUB as stub

    return stub(fixture)
