"""The help desk's one rule the kinds cannot say: a public reply goes to an unresolved ticket only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolsurface.stubs.engine import ItemStore
from toolsurface.stubs.kit import Refusal
from toolsurface.surfaces.helpdesk.kinds import ACTIVE

__all__ = ["check_public_reply"]


def check_public_reply(store: ItemStore, fields: Mapping[str, Any], reopen: str) -> None:
    """`reopen` names the tool or action that reopens a ticket on this surface."""
    ticket = store.items.get(fields.get("ticket"))  # type: ignore[arg-type]
    if not fields.get("public") or ticket is None or ticket.kind != "ticket":
        return
    status = ticket.fields.get("status")
    if status not in ACTIVE:
        raise Refusal(
            f"#{ticket.number} is {status}; a public reply needs an unresolved ticket ({', '.join(ACTIVE)}): "
            f"{reopen} it first",
            [reopen],
        )
