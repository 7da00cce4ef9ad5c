"""helpdesk: five generic tools over the kinds (the kind an argument), tickets listed unresolved unless
includeClosed, no status filter. Tools and handlers come from the kinds (`stubs.engine`); the one
hand-written handler adds the public-reply rule."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from toolsurface.stubs.engine import ItemStore, consolidated_handlers, consolidated_tools, engine_stub
from toolsurface.stubs.kit import Args, Handlers
from toolsurface.surfaces.helpdesk.kinds import KINDS, MACRO
from toolsurface.surfaces.helpdesk.rules import check_public_reply

NAME = "helpdesk"
TITLE = "Help desk, five generic tools"
PURPOSE = "The consolidated help desk: item_get, item_list, item_store, item_action, item_delete over every kind."
GROWTH_KIND = MACRO
FIXTURE = Path(__file__).with_name("fixtures") / "helpdesk.json"

build = partial(consolidated_tools, prefix="item")
engine = consolidated_handlers("item")
handlers: Handlers[ItemStore] = Handlers()


@handlers.tool("item_store")
def item_store(store: ItemStore, args: Args) -> Any:
    if args.str("kind") == "reply" and not args.has("number"):
        check_public_reply(store, args.obj("fields") or {}, "item_action reopen")
    return engine.table["item_store"](store, args)


STUB = engine_stub(KINDS, FIXTURE, engine | handlers)
