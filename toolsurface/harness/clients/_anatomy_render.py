"""What each client kept of each part (clients --anatomy) as text: a table per surface, a row as listed and a row per
client, a column per part; with --per-tool, what each client did to each part of each tool. Declared once as
columns, in a view every format is rendered from; never prints."""

from __future__ import annotations

from collections.abc import Sequence

from toolsurface.harness.clients._anatomy import KEPT, NONE, ClientAnatomy, KeptPart, ToolKept
from toolsurface.harness.clients._model import ClientRow
from toolsurface.harness.clients._render import CLIENTS_FORMAT, _json_row
from toolsurface.harness.measure import ANATOMY_COUNTER, ANATOMY_PARTS, PART_LABELS
from toolsurface.harness.output import Block, Column, Table, Text, View

__all__ = [
    "ANATOMY_CSV_COLUMNS",
    "TOOL_ANATOMY_CSV_COLUMNS",
    "clients_anatomy_view",
]

Anatomies = Sequence[ClientAnatomy | None]

_WHO = (Column("surface"), Column("client"), Column("version"), Column("mode"))
_PART_FIGURES = (
    Column("part"),
    Column("listed_chars", numeric=True),
    Column("listed_tokens", numeric=True),
    Column("kept_chars", numeric=True),
    Column("kept_tokens", numeric=True),
    Column("how"),
    Column("tools", numeric=True),
)
# A row per client row and part; with --per-tool, per client row, tool and part.
ANATOMY_CSV_COLUMNS = (*_WHO, *_PART_FIGURES)
TOOL_ANATOMY_CSV_COLUMNS = (*_WHO, Column("tool"), Column("as"), *_PART_FIGURES[:-1])
_SENT = Column("sent", numeric=True)
_OWN = Column("own", "client's own", numeric=True)
_TOOL_COLUMNS = (
    Column("surface"),
    Column("client"),
    Column("mode"),
    Column("tool"),
    Column("as"),
    Column("tokens", "tokens listed -> kept", numeric=True),
    Column("changes", "what became of its parts (listed -> kept tokens)"),
    _SENT,
    _OWN,
)

_NOTE = (
    f"{ANATOMY_COUNTER} tokens of each part the client kept, of those listed (its first request; a part's word where"
    " not all of it was kept, with how many tools: cut, dropped, rewritten in place, extended with text of the"
    " client's own, not observed); sent: the definitions as sent; client's own: sent less kept (its envelope and"
    " prefix, what it added or rewrote)"
)


def _client(a: ClientAnatomy) -> str:
    return f"{a.client} {a.version}" if a.version else a.client


def _cell(p: KeptPart) -> str:
    if p.how == NONE:
        return "-"
    kept = "?" if p.kept_tokens is None else f"{p.kept_tokens:,}"
    if p.how == KEPT:
        return kept
    return f"{kept} ({p.how}, {p.tools:,} tools)" if p.tools != 1 else f"{kept} ({p.how}, 1 tool)"


def _shown(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _by_surface(anatomies: Anatomies) -> dict[str, list[ClientAnatomy]]:
    found: dict[str, list[ClientAnatomy]] = {}
    for a in anatomies:
        if a is not None:
            found.setdefault(a.surface, []).append(a)
    return found


def _table(found: Sequence[ClientAnatomy]) -> tuple[list[Column], list[list[str]]]:
    """A row as listed, then a row per client: a column per part the tools have."""
    first = found[0]
    present = [n for n, p in enumerate(first.parts) if p.listed_chars]
    columns = [
        Column("client"),
        Column("mode"),
        *(Column(PART_LABELS[ANATOMY_PARTS[n]], numeric=True) for n in present),
        _SENT,
        _OWN,
    ]
    listed = sum(p.listed_tokens for p in first.parts)
    rows = [["as listed", "", *(f"{first.parts[n].listed_tokens:,}" for n in present), f"{listed:,}", "-"]]
    for a in found:
        cells = [_cell(a.parts[n]) for n in present]
        rows.append([_client(a), a.mode, *cells, f"{a.sent_tokens:,}", _shown(a.own_tokens)])
    return columns, rows


def _changes(t: ToolKept) -> str:
    """A tool's parts that were not simply kept, each with its tokens listed -> kept."""
    if t.note:
        return t.note
    said = []
    for p in t.parts:
        if p.how in (KEPT, NONE):
            continue
        kept = "?" if p.kept_tokens is None else f"{p.kept_tokens:,}"
        said.append(f"{PART_LABELS[p.part]} {p.how} ({p.listed_tokens:,} -> {kept})")
    if t.added:
        said.append("added " + ", ".join(t.added))
    return "; ".join(said) or "all kept"


def _tool_rows(anatomies: Anatomies) -> list[list[str]]:
    rows = []
    for a in anatomies:
        if a is None:
            continue
        for t in a.tools:
            listed = sum(p.listed_tokens for p in t.parts)
            kept = sum(p.kept_tokens or 0 for p in t.parts)
            rows.append(
                [a.surface, _client(a), a.mode, t.tool, t.how, f"{listed:,} -> {kept:,}", _changes(t), _shown(t.sent_tokens),
                 _shown(t.own_tokens)]
            )  # fmt: skip
    return rows


def _title(surface: str) -> str:
    return f"What each client kept of each part: {surface}"


def clients_anatomy_view(rows: Sequence[ClientRow], anatomies: Anatomies, per_tool: bool = False) -> View:
    """The clients' rows, then a table per surface of what each client kept of each part (`per_tool`: and of each
    tool); JSON each row with its `anatomy`, CSV a row per client row and part (`per_tool`: and tool)."""
    from toolsurface.harness.clients._render import clients_blocks

    blocks: list[Block] = [Text(markdown=f"\n### What each client kept of each part\n\n{_NOTE}:\n")]
    for surface, each in _by_surface(anatomies).items():
        columns, cells = _table(each)
        blocks.append(Table(columns, cells, title=_title(surface), caption=_NOTE, heading="\n{title}\n\n", footing=""))
    if per_tool:
        title = "What each client kept of each tool"
        blocks += [
            Table(_TOOL_COLUMNS, _tool_rows(anatomies), title=title, heading="\nTool by tool:\n\n"),
        ]
    data = []
    for row, anatomy in zip(rows, anatomies, strict=True):
        entry = _json_row(row, per_tool)
        entry["anatomy"] = anatomy.to_json() if anatomy is not None else None
        data.append(entry)
    found: list[list[object]] = []
    for a in anatomies:
        if a is None:
            continue
        who = [a.surface, a.client, a.version, a.mode]
        if not per_tool:
            found += [[*who, *_figures(p), p.tools] for p in a.parts]
            continue
        found += [[*who, t.tool, t.how, *_figures(p)] for t in a.tools for p in t.parts]
    records = Table(TOOL_ANATOMY_CSV_COLUMNS if per_tool else ANATOMY_CSV_COLUMNS, found)
    return View(
        [*clients_blocks(rows, per_tool), *blocks],
        data={"format": CLIENTS_FORMAT, "rows": data},
        records=records,
        ascii=True,
        between="",
    )


def _figures(p: KeptPart) -> list[object]:
    return [p.part, p.listed_chars, p.listed_tokens, p.kept_chars, p.kept_tokens, p.how]
