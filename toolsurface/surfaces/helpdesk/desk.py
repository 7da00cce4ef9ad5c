"""helpdesk: five generic tools over the kinds (the kind an argument), tickets listed unresolved unless
includeClosed, no status filter. Tools and handlers come from the kinds (`stubs.engine`); the one
hand-written handler adds the public-reply rule (`_desk_stub`). Its server also serves one skill through the
skills extension (SEP-2640): how to triage a ticket with these tools (`skills/ticket-triage.md`). The engine loads
when the surface is built or served: listing the installed surfaces reads only what is here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolsurface.harness.surface import Kind, Stub, ToolData
from toolsurface.surfaces.helpdesk import FIXTURE
from toolsurface.surfaces.helpdesk.kinds import KINDS, MACRO

__all__ = ["FIXTURE", "GROWTH_KIND", "KINDS", "NAME", "PURPOSE", "SKILLS", "STUB", "TITLE", "build"]

NAME = "helpdesk"
TITLE = "Help desk, five generic tools"
PURPOSE = "The consolidated help desk: item_get, item_list, item_store, item_action, item_delete over every kind."
GROWTH_KIND = MACRO
SKILLS = [
    {
        "frontmatter": {
            "name": "ticket-triage",
            "description": "Triage a customer's ticket: find duplicates, set priority and assignee, reply, or hold it.",
        },
        "body": (Path(__file__).parent / "skills" / "ticket-triage.md").read_text(encoding="utf-8"),
    }
]


def build(kinds: Sequence[Kind]) -> list[ToolData]:
    from toolsurface.stubs.engine import consolidated_tools

    return consolidated_tools(kinds, prefix="item")


def STUB(fixture: Path | None) -> Stub:
    from toolsurface.surfaces.helpdesk._desk_stub import STUB as stub

    return stub(fixture)
