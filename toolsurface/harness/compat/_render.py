"""The compat table's view (harness.output.render makes each format of it): a row per limit and a column per
client, version and mode. Never prints."""

from __future__ import annotations

from dataclasses import asdict

from toolsurface.harness.compat._observe import Compat
from toolsurface.harness.output import Column, Table, Text, View, columns_of

__all__ = ["COMPAT_FORMAT", "compat_view"]

COMPAT_FORMAT = "toolsurface-compat/1"
_NOTE = (
    "What each client's first request carried of each probe tool (scripted endpoint on 127.0.0.1, server"
    " name 'stub'; shown, deferred, named, dropped and why; a name as sent with its length; schema keywords"
    " removed - or added +; the API's refusal where the scripted endpoint answered as the API does, a tool the"
    " API's error left unnamed judged again in a request without the other refused tools)"
)


def _columns(compat: Compat) -> list[Column]:
    return [Column("Limit"), *(Column(c.label) for c in compat.columns)]


def _rows(compat: Compat) -> list[list[str]]:
    """A row per limit, then each client's status."""
    return [*([r.label, *r.cells] for r in compat.rows), ["status", *(c.status for c in compat.columns)]]


def compat_view(compat: Compat) -> View:
    """A row per limit, a column per client, version and mode; in markdown under a note of how it was seen."""
    data = {
        "format": COMPAT_FORMAT,
        "columns": [asdict(c) for c in compat.columns],
        "rows": [asdict(r) for r in compat.rows],
        "duration_s": compat.duration_s,
    }
    title = "What each client did with each limit (first request)"
    records = Table(
        columns_of(["key", "limit", *(c.label for c in compat.columns)]),
        [[r.key, r.label, *r.cells] for r in compat.rows],
    )
    table = Table(_columns(compat), _rows(compat), title=title, heading="")
    return View([Text(markdown=_NOTE + "\n\n"), table], data=data, records=records, ascii=True, between="")
