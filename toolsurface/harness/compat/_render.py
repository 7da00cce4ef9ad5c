"""The compat table as text: markdown, CSV, JSON and a rich table, a row per limit and a column per client,
version and mode. Returns strings and renderables; never prints."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from toolsurface.harness.compat._observe import Compat
from toolsurface.harness.output import Column, columns_markdown, csv_table, json_document, terminal_table

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


def _columns(compat: Compat) -> list[Column]:
    return [Column("Limit"), *(Column(c.label) for c in compat.columns)]


def _rows(compat: Compat) -> list[list[str]]:
    """A row per limit, then each client's status."""
    return [*([r.label, *r.cells] for r in compat.rows), ["status", *(c.status for c in compat.columns)]]


def compat_markdown(compat: Compat) -> str:
    return _NOTE + "\n\n" + columns_markdown(_columns(compat), _rows(compat))


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
    return [terminal_table("What each client did with each limit (first request)", _columns(compat), _rows(compat))]
