"""The help desk's kinds as data: customers, tickets, replies, tags. The two surfaces differ only in how a
ticket list is filtered: `tools` by any status (so "open tickets" becomes status: open and quietly misses
the pending and on-hold ones), `desk` by the unresolved ones unless includeClosed, with no status filter."""

from __future__ import annotations

from dataclasses import replace

from toolsurface.harness.surface import Kind, KindAction, KindField

__all__ = ["ACTIVE", "CLOSED", "CUSTOMER", "KINDS", "MACRO", "REPLY", "STATUSES", "TAG", "TICKET", "TICKET_BY_STATUS"]

STATUSES = ("open", "pending", "on_hold", "solved", "closed")
ACTIVE = ("open", "pending", "on_hold")
CLOSED = ("solved", "closed")
PRIORITIES = ("normal", "low", "high", "urgent")
AGENTS = ("ana", "ben", "chidi")
PLANS = ("free", "team", "business", "enterprise")

CUSTOMER = Kind(
    name="customer",
    plural="customers",
    fields=(
        KindField("name", required=True),
        KindField("email"),
        KindField("company"),
        KindField("plan", choices=PLANS),
    ),
    filters=(KindField("plan", choices=PLANS),),
)

_TICKET_FILTERS = (
    KindField("priority", choices=PRIORITIES),
    KindField("customer", "integer", ref="customer"),
    KindField("assignee", choices=AGENTS),
    KindField("tags", "array"),
)

TICKET = Kind(
    name="ticket",
    plural="tickets",
    versioned=True,
    closed=CLOSED,
    fields=(
        KindField("title", required=True),
        KindField("body", text=True),
        KindField("status", choices=STATUSES),
        KindField("priority", choices=PRIORITIES),
        KindField("customer", "integer", ref="customer", required=True),
        KindField("assignee", choices=AGENTS),
        KindField("tags", "array"),
        KindField("holdReason"),
        KindField("resolution"),
    ),
    filters=(*_TICKET_FILTERS, KindField("includeClosed", "boolean", "Also solved and closed tickets")),
    actions=(
        KindAction(
            "hold",
            "Put a ticket on hold with the reason it waits.",
            (("status", "on_hold"),),
            ("open", "pending"),
            "holdReason",
        ),
        KindAction("solve", "Solve a ticket with its resolution.", (("status", "solved"),), ACTIVE, "resolution"),
        KindAction("reopen", "Reopen a solved ticket.", (("status", "open"),), ("solved",)),
        KindAction("close", "Close a solved ticket for good.", (("status", "closed"),), ("solved",)),
    ),
)

TICKET_BY_STATUS = replace(TICKET, closed=(), filters=(KindField("status", choices=STATUSES), *_TICKET_FILTERS))
"""The ticket as the many-tool surface lists it: every status unless one is asked for."""

REPLY = Kind(
    name="reply",
    plural="replies",
    fields=(
        KindField("ticket", "integer", ref="ticket", required=True),
        KindField("body", required=True, text=True),
        KindField("public", "boolean", "Seen by the customer"),
    ),
    filters=(KindField("ticket", "integer", ref="ticket"),),
)

TAG = Kind(name="tag", plural="tags", fields=(KindField("name", required=True), KindField("about")))

MACRO = Kind(
    name="macro",
    plural="macros",
    fields=(KindField("title", required=True), KindField("body", required=True, text=True)),
)
"""The growth example: canned answers, one more kind."""

KINDS = (CUSTOMER, TICKET, REPLY, TAG)
# The many-tool surface's (`tools`): tickets listed by any status.
BY_STATUS_KINDS = (CUSTOMER, TICKET_BY_STATUS, REPLY, TAG)
