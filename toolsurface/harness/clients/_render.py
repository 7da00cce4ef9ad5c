"""The clients table as text: markdown, CSV, JSON and a rich table. Returns strings and renderables; never prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from toolsurface.harness.clients._model import ClientRow, Part
from toolsurface.harness.output import csv_table, json_document, markdown_table, shown

if TYPE_CHECKING:
    from rich.console import RenderableType

CLIENTS_FORMAT = "toolsurface-clients/1"
_HEADER = [
    "Surface",
    "Client",
    "Mode",
    "Protocol",
    "Stub's shown",
    "Stub's deferred",
    "Built-in",
    "System prompt chars",
    "Server instructions chars",
    "Server's share",
    "Status",
]
_CSV_HEADER = [
    "surface", "client", "version", "mode", "builtins", "protocol",
    "shown_tools", "shown_chars", "shown_tokens", "deferred_tools", "deferred_chars", "deferred_tokens",
    "builtin_tools", "builtin_chars", "builtin_tokens", "system_chars", "instructions_chars", "server_share",
    "searches", "status", "duration_s",
]  # fmt: skip


def _part(part: Part | None) -> str:
    return "-" if part is None else f"{part.tools} · {part.chars:,} · {part.tokens:,}"


def _client(row: ClientRow) -> str:
    return f"{row.client} {row.version}" if row.version else row.client


def _mode(row: ClientRow) -> str:
    return f"{row.mode}, builtins on" if row.builtins and row.mode != "-" else row.mode


def _share(row: ClientRow) -> str:
    return "-" if row.server_share is None else f"{row.server_share:.0%}"


def _cells(row: ClientRow) -> list[str]:
    return [
        row.surface,
        _client(row),
        _mode(row),
        row.protocol or "-",
        _part(row.shown),
        _part(row.deferred),
        _part(row.builtin),
        shown(row.system_chars),
        shown(row.instructions_chars),
        _share(row),
        row.status,
    ]


def clients_markdown(rows: Sequence[ClientRow]) -> str:
    """The table, with a line saying what its cells hold."""
    note = (
        "What each client shows its model of the surface in its first request (tools · chars · o200k tokens; a"
        " deferred tool counted by its name; the server's share: its tools, names and instructions against all"
        " the model reads)\n\n"
    )
    return note + markdown_table(_HEADER, [_cells(r) for r in rows], {4, 5, 6, 7, 8, 9})


def clients_json(rows: Sequence[ClientRow]) -> str:
    return json_document({"format": CLIENTS_FORMAT, "rows": [asdict(r) for r in rows]}, ascii=True)


def clients_csv(rows: Sequence[ClientRow]) -> str:
    def flat(r: ClientRow) -> list[object]:
        parts: list[object] = []
        for part in (r.shown, r.deferred, r.builtin):
            parts += [part.tools, part.chars, part.tokens] if part is not None else [None, None, None]
        return [
            r.surface, r.client, r.version, r.mode, r.builtins, r.protocol, *parts, r.system_chars,
            r.instructions_chars, r.server_share, r.searches, r.status, r.duration_s,
        ]  # fmt: skip

    return csv_table(_CSV_HEADER, [flat(r) for r in rows])


def clients_rich(rows: Sequence[ClientRow]) -> list[RenderableType]:
    from rich.table import Table

    table = Table(title="What each client shows its model (first request; tools · chars · o200k tokens)")
    for n, column in enumerate(_HEADER):
        table.add_column(column, justify="right" if n in {4, 5, 6, 7, 8, 9} else "left")
    for row in rows:
        table.add_row(*_cells(row))
    return [table]
