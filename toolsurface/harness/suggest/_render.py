"""What suggest found, as tables declared once (families, the list before and after, findability through the
mapping) and the lines beside them, in one view every format is rendered from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolsurface.harness.output import Block, Column, Table, Text, View, counted, joined, signed
from toolsurface.harness.suggest._suggest import FamilyRow, Figures, QueryRow, Suggestion

if TYPE_CHECKING:
    from toolsurface.harness.clients import ClientRow

__all__ = [
    "FAMILY_COLUMNS",
    "LIST_COLUMNS",
    "QUERY_COLUMNS",
    "suggest_lines",
    "suggest_view",
]

FAMILY_COLUMNS = (
    Column("tool"),
    Column("by", "by"),
    Column("members", "tools it replaces (value)", max_width=60),
    Column("tools_before", "tools", numeric=True),
    Column("chars_before", "chars before", numeric=True),
    Column("chars_after", "chars after", numeric=True),
    Column("tokens_before", "tokens before", numeric=True),
    Column("tokens_after", "tokens after", numeric=True),
)
LIST_COLUMNS = (
    Column("surface"),
    Column("tools", numeric=True),
    Column("chars", numeric=True),
    Column("tokens", numeric=True),
)
QUERY_COLUMNS = (
    Column("query"),
    Column("scorer"),
    Column("expected_before", "expected before"),
    Column("rank_before", "rank", numeric=True),
    Column("expected_after", "expected on the candidate"),
    Column("rank_after", "rank", numeric=True),
)


def _members(row: FamilyRow) -> str:
    return ", ".join(f"{m} ({v})" for m, v in zip(row.members, row.values, strict=True))


def _family_cells(row: FamilyRow) -> list[Any]:
    b, a = row.before, row.after
    return [row.tool, row.parameter, _members(row), b.tools, b.chars, a.chars, b.tokens, a.tokens]


def _all_cells(result: Suggestion) -> list[Any]:
    """The families together: what their tools cost before and after."""
    rows = result.families
    tokens_b = [r.before.tokens for r in rows]
    tokens_a = [r.after.tokens for r in rows]
    return [
        "all families",
        "",
        counted(len(rows), "family", "families"),
        sum(r.before.tools for r in rows),
        sum(r.before.chars for r in rows),
        sum(r.after.chars for r in rows),
        None if None in tokens_b else sum(t or 0 for t in tokens_b),
        None if None in tokens_a else sum(t or 0 for t in tokens_a),
    ]


def _list_cells(result: Suggestion) -> list[list[Any]]:
    rows: list[list[Any]] = [[result.surface, *_figure_cells(result.before)]]
    if result.after is not None:
        rows.append([result.candidate, *_figure_cells(result.after)])
        rows.append(["change", *_change(result.before, result.after)])
    return rows


def _figure_cells(figures: Figures) -> list[Any]:
    return [figures.tools, figures.chars, figures.tokens]


def _percent(after: int, before: int) -> str:
    return f" ({after / before:.0%})" if before else ""


def _change(before: Figures, after: Figures) -> list[str]:
    tokens = "-"
    if before.tokens is not None and after.tokens is not None:
        tokens = signed(after.tokens - before.tokens) + _percent(after.tokens, before.tokens)
    return [
        signed(after.tools - before.tools),
        signed(after.chars - before.chars) + _percent(after.chars, before.chars),
        tokens,
    ]


def _query_cells(row: QueryRow) -> list[Any]:
    return [row.query, row.scorer, row.expected_before, row.rank_before, row.expected_after, row.rank_after]


def _firsts(rows: Sequence[QueryRow]) -> list[str]:
    """Per scorer, how many expected tools were ranked first, before and on the candidate."""
    said = []
    for scorer in dict.fromkeys(r.scorer for r in rows):
        mine = [r for r in rows if r.scorer == scorer and r.expected_before is not None]
        before = sum(1 for r in mine if r.rank_before == 1)
        after = sum(1 for r in mine if r.rank_after == 1)
        said.append(f"{scorer}: {before} of {len(mine)} ranked first before, {after} of {len(mine)} on the candidate")
    return said


def suggest_lines(result: Suggestion) -> list[str]:
    """What the tables do not say: that it is a proposal, what was kept and why, what each family's tool leaves
    to the designer, and the commands to check it."""
    if not result.found:
        lines = [
            f"No families in {result.surface}: no tools share an operation over different nouns, or a noun under"
            " several operations, with schemas that mostly agree; nothing written."
        ]
    else:
        lines = [f"The candidate is {result.proposal}."]
    if result.unpatterned:
        lines.append(
            f"{counted(len(result.unpatterned), 'name')} in no pattern (no verb first or last), kept as they are:"
            f" {', '.join(result.unpatterned)}."
        )
    for turned in result.turned_down:
        lines.append(f"Not proposed ({', '.join(turned.tools)}): {turned.why}.")
    for family in result.families:
        for note in family.notes:
            lines.append(f"{family.tool}: {note}.")
    for note in result.notes:
        lines.append(f"Edit these too: {note}.")
    if result.found:
        kept = len(result.kept)
        lines.append(f"{counted(kept, 'tool')} kept as they are.")
        if result.findability_note is not None:
            lines.append(f"Findability not measured: {result.findability_note}.")
        elif result.findability:
            lines.append("Findability through the mapping: " + "; ".join(_firsts(result.findability)) + ".")
    if result.files is not None:
        files = result.files
        lines.append(f"next: toolsurface measure {files.snapshot}")
        lines.append(
            f"next: toolsurface session replay RUN_DIR... --surface {files.snapshot} --mapping {files.mapping}"
        )
    return lines


def _list_title(result: Suggestion) -> str:
    return f"{result.surface} and its candidate (protocol {result.protocol_version}, {result.encoding})"


def _heading(text: str) -> str:
    """A markdown heading of its own words (a table's heading is a template its title fills)."""
    return "## " + text.replace("{", "{{").replace("}", "}}") + "\n\n"


def suggest_view(result: Suggestion, clients: Sequence[ClientRow] | None = None) -> View:
    """The list before and after, the families (a row of all of them last), findability through the mapping and the
    lines beside them; with `clients`, what each client shows of the candidate after them. CSV: the families."""
    blocks: list[Block] = [
        Table(LIST_COLUMNS, _list_cells(result), title=_list_title(result), heading="## {title}\n\n")
    ]
    families = [*(_family_cells(r) for r in result.families)]
    if result.found:
        rows = [*families, _all_cells(result)]
        title = f"Families of {result.surface}, each made one tool (a proposal the designer edits)"
        heading = _heading(f"Families of {result.surface}")
        blocks.append(Table(FAMILY_COLUMNS, rows, title=title, sections={len(rows) - 2}, heading=heading))
    if result.findability:
        title = f"Findability of {result.candidate} through the mapping"
        cells = [_query_cells(r) for r in result.findability]
        blocks.append(Table(QUERY_COLUMNS, cells, title=title, heading=_heading("Findability through the mapping")))
    lines = suggest_lines(result)
    blocks.append(Text("\n".join(lines), "\n".join(f"- {line}" for line in lines) + "\n", markup=True))
    records = Table(FAMILY_COLUMNS, [*families, _all_cells(result)] if families else [])
    data = result.to_json()
    view = View(blocks, data=data, records=records)
    if clients is None:
        return view
    from toolsurface.harness.clients import clients_blocks, clients_data

    data["clients"] = clients_data(clients)
    return joined([view, View([Text(markdown="\n")]), View(clients_blocks(clients))], data=data, records=records)
