"""A configuration's servers measured together: a row per server (its list, or why it has none) and the total
every session of that client pays for them all, with its share of the context windows given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.mcp_config._list import ListedServer
from toolsurface.harness.mcp_config._model import McpConfig
from toolsurface.harness.output import Column, Table, View, counted, render, shown
from toolsurface.harness.surface import INCLUDABLE_PARTS

if TYPE_CHECKING:
    from toolsurface.harness.measure import Measurement, PartSize

__all__ = [
    "SERVER_COLUMNS",
    "ConfigTotals",
    "ServerRow",
    "config_totals",
    "parse_windows",
    "totals_markdown",
    "totals_view",
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
    """One server's row: `chars` and `tokens` are what a session pays for it, its tools and the parts beside them
    that are counted (`parts`, each advertised one's size); `tool_chars` and `tool_tokens` the tools alone."""

    name: str
    key: str
    status: str
    tools: int | None
    chars: int | None
    tokens: int | None
    why: str
    tool_chars: int | None = None
    tool_tokens: int | None = None
    parts: tuple[PartSize, ...] = ()

    @property
    def beside(self) -> str:
        """The parts counted beside its tools that hold something, in words with their chars: `instructions 1,574,
        4 prompts 960`."""
        return ", ".join(_part_words(p) for p in self.parts if p.chars)

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in vars(self).items() if k != "parts"}
        return {**data, "parts": [asdict(p) for p in self.parts]}


def _part_words(part: PartSize) -> str:
    from toolsurface.harness.surface import PART_WORDS

    if part.entries is None:
        return f"{PART_WORDS[part.part]} {part.chars:,}"
    return f"{part.entries} {PART_WORDS[part.part]} {part.chars:,}"


@dataclass(frozen=True)
class ConfigTotals:
    """A configuration's servers together: a row per server, and what every session pays for those listed (their
    tools and the parts `include` names). `complete` is False when a server could not be listed: the total then
    leaves it out."""

    config: McpConfig
    rows: tuple[ServerRow, ...]
    tools: int
    chars: int
    tokens: int | None
    windows: tuple[int, ...] = ()
    include: tuple[str, ...] = ()

    @property
    def listed(self) -> int:
        return sum(1 for r in self.rows if r.status in ("listed", "given"))

    @property
    def unlisted(self) -> list[ServerRow]:
        return [r for r in self.rows if r.status == "failed"]

    @property
    def complete(self) -> bool:
        return not self.unlisted

    @property
    def counted(self) -> str:
        """What the total counts, in words."""
        from toolsurface.harness.surface import join_words

        return "the tools" + (f" with their {join_words(self.include, 'and')}" if self.include else " alone")

    @property
    def label(self) -> str:
        """The total's row: `all (2 servers)`, or which it counts where one could not be listed."""
        if self.complete:
            return f"all ({counted(self.listed, 'server')})"
        servers = counted(self.listed + len(self.unlisted), "server")
        return f"{self.listed} of {servers} (not listed: {', '.join(r.name for r in self.unlisted)})"

    def problem(self, what: str) -> str | None:
        """The line saying a server could not be listed and so `what`; None when every one was."""
        from toolsurface.harness.mcp_config._list import unlisted_problem

        return unlisted_problem(self.config.path, [(r.name, r.why) for r in self.unlisted], what)

    def share(self, tokens: int | None, window: int) -> float | None:
        return None if tokens is None else tokens / window

    def to_json(self) -> dict[str, Any]:
        total: dict[str, Any] = {
            "servers": self.listed,
            "complete": self.complete,
            "not_listed": [r.name for r in self.unlisted],
            "include": list(self.include),
            "tools": self.tools,
            "chars": self.chars,
            "tokens": self.tokens,
        }
        if self.windows:
            total["share"] = {str(w): self.share(self.tokens, w) for w in self.windows}
        return {**self.config.to_json(), "rows": [r.to_json() for r in self.rows], "total": total}


def config_totals(
    config: McpConfig,
    listed: Sequence[ListedServer],
    m: Measurement,
    windows: Sequence[int] = (),
    include: Sequence[str] = INCLUDABLE_PARTS,
    given: str | None = None,
) -> ConfigTotals:
    """A row per server of the configuration, in its order, with the figures `m` measured of those listed: its
    tools and the parts `include` names (default: every part a session pays for). `given`: the name `m` gives
    the server given on the command line, which a configured server that is the same one takes its figures from."""
    from toolsurface.harness.surface import included_keys

    by_name = {s.name: s for s in m.surfaces}
    keys = included_keys(include)
    rows = []
    for item in listed:
        name = item.name if item.taken is not None else given if item.given is not None else None
        measured = by_name.get(name) if name is not None else None
        if measured is None:
            rows.append(ServerRow(item.name, item.server.key, item.status, None, None, None, item.why))
            continue
        chars, tokens = measured.counted(include)
        parts = tuple(p for p in measured.parts if p.part in keys)
        rows.append(
            ServerRow(
                item.name,
                item.server.key,
                item.status,
                measured.tools,
                chars,
                tokens,
                item.why,
                tool_chars=measured.chars,
                tool_tokens=measured.tokens,
                parts=parts,
            )
        )
    done = [r for r in rows if r.chars is not None]
    tokens = sum(r.tokens for r in done if r.tokens is not None) if all(r.tokens is not None for r in done) else None
    return ConfigTotals(
        config=config,
        rows=tuple(rows),
        tools=sum(r.tools or 0 for r in done),
        chars=sum(r.chars or 0 for r in done),
        tokens=tokens,
        windows=tuple(windows),
        include=tuple(include),
    )


SERVER_COLUMNS = (
    Column("server"),
    Column("status"),
    Column("tools", numeric=True),
    Column("chars", numeric=True),
    Column("tokens", numeric=True),
    Column("beside", "beside the tools"),
    Column("why"),
)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _columns(t: ConfigTotals) -> list[Column]:
    """The server columns with a share per context window, before what is counted beside the tools and why;
    the column of the parts only where parts are counted."""
    shares = [Column(f"share_{w}", f"share of {w:,}", numeric=True) for w in t.windows]
    return [*SERVER_COLUMNS[:5], *shares, *SERVER_COLUMNS[5 if t.include else 6 :]]


def _beside(t: ConfigTotals, row: ServerRow | None, none: str = "-") -> list[str]:
    """The cell of the parts counted beside a row's tools (the total's empty), where parts are counted."""
    if not t.include:
        return []
    return [(row.beside or none) if row is not None else ""]


def _table(t: ConfigTotals) -> tuple[list[Column], list[list[str]]]:
    columns = _columns(t)
    rows = [
        [r.name, r.status, shown(r.tools), shown(r.chars), shown(r.tokens)]
        + [_share(t.share(r.tokens, w)) for w in t.windows]
        + _beside(t, r)
        + [r.why or "-"]
        for r in t.rows
    ]
    rows.append(
        [t.label, "", shown(t.tools), shown(t.chars), shown(t.tokens)]
        + [_share(t.share(t.tokens, w)) for w in t.windows]
        + _beside(t, None)
        + [""]
    )
    return columns, rows


def _title(t: ConfigTotals) -> str:
    return f"Servers of {t.config.path} ({t.config.described}): what every session pays for them together ({t.counted})"


def totals_view(t: ConfigTotals) -> View:
    """The servers' table, their total under a line; in markdown under its title's line; CSV its figures."""
    columns, rows = _table(t)
    table = Table(columns, rows, title=_title(t), sections={len(rows) - 2}, heading="{title}\n")
    records: list[list[object]] = []
    for r in t.rows:
        shares = [t.share(r.tokens, w) for w in t.windows]
        records.append([r.name, r.status, r.tools, r.chars, r.tokens, *shares, *_beside(t, r, ""), r.why])
    total = "all" if t.complete else t.label
    records.append([total, "", t.tools, t.chars, t.tokens, *(t.share(t.tokens, w) for w in t.windows)])
    records[-1] += [*_beside(t, None), ""]
    return View([table], data=t.to_json(), records=Table(_columns(t), records))


def totals_markdown(t: ConfigTotals) -> str:
    """The servers' table as markdown (a budget's summary)."""
    return str(render(totals_view(t), "markdown"))
