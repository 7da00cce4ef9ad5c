"""helpdesk-tools' stub: the handlers the kinds make, a tool per kind and verb (`stubs.engine`), and the one
hand-written handler, which adds the public-reply rule. Loaded when the surface is served, not when it is
listed."""

from __future__ import annotations

from typing import Any

from toolsurface.stubs.engine import ItemStore, engine_stub, per_kind_handlers
from toolsurface.stubs.kit import Args, Handlers
from toolsurface.surfaces.helpdesk import FIXTURE
from toolsurface.surfaces.helpdesk.kinds import BY_STATUS_KINDS as KINDS
from toolsurface.surfaces.helpdesk.rules import check_public_reply

engine = per_kind_handlers(KINDS)
handlers: Handlers[ItemStore] = Handlers()


@handlers.tool("reply_create")
def reply_create(store: ItemStore, args: Args) -> Any:
    check_public_reply(store, args.values, "ticket_reopen")
    return engine.table["reply_create"](store, args)


STUB = engine_stub(KINDS, FIXTURE, engine | handlers)
