"""A configuration's servers measured together: a row per server (its list, or why it has none) and the total
every session of that client pays for them all, with its share of the context windows given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.mcp_config._list import ListedServer
from toolsurface.harness.mcp_config._model import McpConfig
from toolsurface.harness.output import Column, columns_csv, columns_markdown, json_document, shown, terminal_table
from toolsurface.harness.redact import redacted_text

if TYPE_CHECKING:
    from rich.console import RenderableType

    from toolsurface.harness.measure import Measurement

__all__ = [
    "SERVER_COLUMNS",
    "ConfigTotals",
    "ServerRow",
    "config_totals",
    "parse_windows",
    "totals_csv",
    "totals_json",
    "totals_markdown",
    "totals_rich",
]


def parse_windows(text: str | None) -> tuple[int, ...]:
    """`--context-window 200000,1000000`: whole numbers of tokens above 0."""
    if text is None:
        return ()
    windows = []
    for part in text.split(","):
        part = part.strip().replace("_", "")
        if not part.isdigit() or int(part) <= 0:
            raise ToolsurfaceError(
                f"--context-window {text!r}: expected a whole number of tokens above 0 (or several, comma-separated)"
            )
        windows.append(int(part))
    return tuple(windows)


@dataclass(frozen=True)
class ServerRow:
    name: str
    key: str
    status: str
    tools: int | None
    chars: int | None
    tokens: int | None
    why: str

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass(frozen=True)
class ConfigTotals:
    config: McpConfig
    rows: tuple[ServerRow, ...]
    tools: int
    chars: int
    tokens: int | None
    windows: tuple[int, ...] = ()

    @property
    def listed(self) -> int:
        return sum(1 for r in self.rows if r.status == "listed")

    def share(self, tokens: int | None, window: int) -> float | None:
        return None if tokens is None else tokens / window

    def to_json(self) -> dict[str, Any]:
        total: dict[str, Any] = {
            "servers": self.listed,
            "tools": self.tools,
            "chars": self.chars,
            "tokens": self.tokens,
        }
        if self.windows:
            total["share"] = {str(w): self.share(self.tokens, w) for w in self.windows}
        return {**self.config.to_json(), "rows": [r.to_json() for r in self.rows], "total": total}


def config_totals(
    config: McpConfig, listed: Sequence[ListedServer], m: Measurement, windows: Sequence[int] = ()
) -> ConfigTotals:
    """A row per server of the configuration, in its order, with the figures `m` measured of those listed."""
    by_name = {s.name: s for s in m.surfaces}
    rows = []
    for item in listed:
        measured = by_name.get(item.name) if item.taken is not None else None
        why = redacted_text(item.problem or "; ".join(item.server.notes))
        if measured is None:
            rows.append(ServerRow(item.name, item.server.key, item.status, None, None, None, why))
        else:
            rows.append(
                ServerRow(item.name, item.server.key, "listed", measured.tools, measured.chars, measured.tokens, why)
            )
    done = [r for r in rows if r.status == "listed"]
    tokens = sum(r.tokens for r in done if r.tokens is not None) if all(r.tokens is not None for r in done) else None
    return ConfigTotals(
        config=config,
        rows=tuple(rows),
        tools=sum(r.tools or 0 for r in done),
        chars=sum(r.chars or 0 for r in done),
        tokens=tokens,
        windows=tuple(windows),
    )


SERVER_COLUMNS = (
    Column("server"),
    Column("status"),
    Column("tools", numeric=True),
    Column("chars", numeric=True),
    Column("tokens", numeric=True),
    Column("why"),
)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _columns(t: ConfigTotals) -> list[Column]:
    """The server columns with a share per context window, before `why`."""
    shares = [Column(f"share_{w}", f"share of {w:,}", numeric=True) for w in t.windows]
    return [*SERVER_COLUMNS[:5], *shares, SERVER_COLUMNS[5]]


def _table(t: ConfigTotals) -> tuple[list[Column], list[list[str]]]:
    columns = _columns(t)
    rows = [
        [r.name, r.status, shown(r.tools), shown(r.chars), shown(r.tokens)]
        + [_share(t.share(r.tokens, w)) for w in t.windows]
        + [r.why or "-"]
        for r in t.rows
    ]
    servers = "server" if t.listed == 1 else "servers"
    rows.append(
        [f"all ({t.listed} {servers})", "", shown(t.tools), shown(t.chars), shown(t.tokens)]
        + [_share(t.share(t.tokens, w)) for w in t.windows]
        + [""]
    )
    return columns, rows


def _title(t: ConfigTotals) -> str:
    return f"Servers of {t.config.path} ({t.config.described}): what every session pays for them together"


def totals_rich(t: ConfigTotals) -> list[RenderableType]:
    columns, rows = _table(t)
    return [terminal_table(_title(t), columns, rows, sections={len(rows) - 2})]


def totals_markdown(t: ConfigTotals) -> str:
    columns, rows = _table(t)
    return f"{_title(t)}\n" + columns_markdown(columns, rows)


def totals_csv(t: ConfigTotals) -> str:
    rows: list[list[object]] = [
        [r.name, r.status, r.tools, r.chars, r.tokens, *(t.share(r.tokens, w) for w in t.windows), r.why]
        for r in t.rows
    ]
    rows.append(["all", "", t.tools, t.chars, t.tokens, *(t.share(t.tokens, w) for w in t.windows), ""])
    return columns_csv(_columns(t), rows)


def totals_json(t: ConfigTotals) -> str:
    return json_document(t.to_json())
