"""The compat table as text: markdown, CSV, JSON and a rich table, a row per limit and a column per client,
version and mode. Returns strings and renderables; never prints."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from toolsurface.harness.compat._observe import Compat
from toolsurface.harness.output import csv_table, json_document, markdown_table

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["COMPAT_FORMAT", "compat_csv", "compat_json", "compat_markdown", "compat_rich"]

COMPAT_FORMAT = "toolsurface-compat/1"
_NOTE = (
    "What each client's first request carried of each probe tool (scripted endpoint on 127.0.0.1, server"
    " name 'stub'; shown, deferred, named, dropped and why; a name as sent with its length; schema keywords"
    " removed - or added +; the API's refusal where the scripted endpoint answered as the API does, a tool the"
    " API's error left unnamed judged again in a request without the other refused tools)"
)


def _header(compat: Compat) -> list[str]:
    return ["Limit", *(c.label for c in compat.columns)]


def compat_markdown(compat: Compat) -> str:
    rows = [[r.label, *r.cells] for r in compat.rows]
    status = ["status", *(c.status for c in compat.columns)]
    return _NOTE + "\n\n" + markdown_table(_header(compat), [*rows, status])


def compat_json(compat: Compat) -> str:
    data = {
        "format": COMPAT_FORMAT,
        "columns": [asdict(c) for c in compat.columns],
        "rows": [asdict(r) for r in compat.rows],
        "duration_s": compat.duration_s,
    }
    return json_document(data, ascii=True)


def compat_csv(compat: Compat) -> str:
    return csv_table(
        ["key", "limit", *(c.label for c in compat.columns)], [[r.key, r.label, *r.cells] for r in compat.rows]
    )


def compat_rich(compat: Compat) -> list[RenderableType]:
    from rich.table import Table

    table = Table(title="What each client did with each limit (first request)")
    for column in _header(compat):
        table.add_column(column)
    for row in compat.rows:
        table.add_row(row.label, *row.cells)
    table.add_row("status", *(c.status for c in compat.columns))
    return [table]
