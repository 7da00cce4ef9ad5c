"""helpdesk-tools: one tool per kind and verb (24 tools), tickets listed by any status. Tools and handlers
come from the kinds (`stubs.engine`); the one hand-written handler adds the public-reply rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolsurface.stubs.engine import ItemStore, engine_stub, per_kind_handlers, per_kind_tools
from toolsurface.stubs.kit import Args, Handlers
from toolsurface.surfaces.helpdesk.kinds import CUSTOMER, MACRO, REPLY, TAG, TICKET_BY_STATUS
from toolsurface.surfaces.helpdesk.rules import check_public_reply

NAME = "helpdesk-tools"
TITLE = "Help desk, a tool per kind and verb"
PURPOSE = "The many-tool help desk: get, list, create, update, delete per kind and a tool per ticket action."
KINDS = (CUSTOMER, TICKET_BY_STATUS, REPLY, TAG)
GROWTH_KIND = MACRO
FIXTURE = Path(__file__).with_name("fixtures") / "helpdesk.json"

build = per_kind_tools
engine = per_kind_handlers(KINDS)
handlers: Handlers[ItemStore] = Handlers()


@handlers.tool("reply_create")
def reply_create(store: ItemStore, args: Args) -> Any:
    check_public_reply(store, args.values, "ticket_reopen")
    return engine.table["reply_create"](store, args)


STUB = engine_stub(KINDS, FIXTURE, engine | handlers)
