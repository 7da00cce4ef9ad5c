"""helpdesk's stub: the handlers the kinds make for five generic tools (`stubs.engine`), and the one hand-written
handler, which adds the public-reply rule. Loaded when the surface is served, not when it is listed."""

from __future__ import annotations

from typing import Any

from toolsurface.stubs.engine import ItemStore, consolidated_handlers, engine_stub
from toolsurface.stubs.kit import Args, Handlers
from toolsurface.surfaces.helpdesk import FIXTURE
from toolsurface.surfaces.helpdesk.kinds import KINDS
from toolsurface.surfaces.helpdesk.rules import check_public_reply

engine = consolidated_handlers("item")
handlers: Handlers[ItemStore] = Handlers()


@handlers.tool("item_store")
def item_store(store: ItemStore, args: Args) -> Any:
    if args.str("kind") == "reply" and not args.has("number"):
        check_public_reply(store, args.obj("fields") or {}, "item_action reopen")
    return engine.table["item_store"](store, args)


STUB = engine_stub(KINDS, FIXTURE, engine | handlers)
