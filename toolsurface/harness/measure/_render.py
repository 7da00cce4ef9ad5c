"""A measurement's view (every format is rendered from it) and the tables of the files `measure --out` writes.
Never prints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from toolsurface.harness.measure._columns import (
    BY_KINDS_COLUMNS,
    COUNTERS_COLUMNS,
    PARTS_COLUMNS,
    PER_TOOL_COLUMNS,
    STANDING_COLUMNS,
    SURFACE_COLUMNS,
    MeasureColumns,
)
from toolsurface.harness.measure._measure import Measurement, SurfaceMeasurement
from toolsurface.harness.output import (
    Block,
    Column,
    Table,
    Text,
    View,
    columns_of,
    keys,
    labels,
    markdown_cell,
    markdown_table,
    shown,
    signed,
)
from toolsurface.harness.surface import PART_WORDS
from toolsurface.harness.terminal import one_line

__all__ = [
    "by_kinds_records",
    "by_kinds_rows",
    "counters_records",
    "measure_records",
    "measure_view",
    "measured_as",
    "parts_records",
    "per_tool_records",
    "per_tool_rows",
    "standing_lines",
    "whole_title",
]


# How the parts are headed in tables, in PART_KEYS order.
PART_TITLES = {key: words.capitalize() for key, words in PART_WORDS.items()}


def _surface_row(s: SurfaceMeasurement) -> list[object]:
    g = s.growth
    return [
        s.name,
        s.title,
        s.tools,
        s.chars,
        s.tokens,
        g.kind if g else None,
        g.tools if g else None,
        g.chars if g else None,
        g.tokens if g else None,
        s.protocol_version,
    ]


def standing_lines(m: Measurement) -> list[str]:
    """A line per surface whose standing among the corpus of public servers' lists was asked for."""
    return [f"{s.name}: {s.standing.line()}" for s in m.surfaces if s.standing is not None]


def _standing_row(s: SurfaceMeasurement) -> list[object]:
    """A surface's standing in STANDING_COLUMNS (measure.csv's, after its own columns)."""
    if s.standing is None:
        return [None] * len(STANDING_COLUMNS)
    tokens, per_tool = s.standing.tokens, s.standing.tokens_per_tool
    return [
        round(tokens.percentile, 1) if tokens is not None else None,
        round(per_tool.value, 2) if per_tool is not None else None,
        round(per_tool.percentile, 1) if per_tool is not None else None,
        s.standing.servers,
        s.standing.listed,
        s.standing.counter,
    ]


def _stood(m: Measurement) -> bool:
    return any(s.standing is not None for s in m.surfaces)


def measure_records(m: Measurement) -> Table:
    """measure.csv."""
    # measure.csv's columns, then each list's standing when asked for, then each counter's figures.
    standing = keys(STANDING_COLUMNS) if _stood(m) else []
    if not m.counters:
        rows = [[*_surface_row(s), *(_standing_row(s) if standing else [])] for s in m.surfaces]
        return Table(columns_of([*keys(SURFACE_COLUMNS), *standing]), rows)
    # With counters asked for: which one `tokens` is, then each counter's figures under its name.
    header = [*keys(SURFACE_COLUMNS), *standing, MeasureColumns.counter.key]
    for c in m.counters:
        header += [
            f"{MeasureColumns.tokens.key} ({c.name})",
            f"{MeasureColumns.framing.key} ({c.name})",
            f"{MeasureColumns.ratio_to_o200k.label} ({c.name})",
        ]
    rows = []
    for s in m.surfaces:
        row = [*_surface_row(s), *(_standing_row(s) if standing else []), m.counters[0].name]
        for f in s.counts:
            row += [f.tokens, f.framing, _ratio(f.ratio)]
        rows.append(row)
    return Table(columns_of(header), rows)


def per_tool_rows(m: Measurement) -> list[list[object]]:
    """A row per tool of every surface, in PER_TOOL_COLUMNS (per_tool.csv's, the report's per-tool table's)."""
    return [[s.name, t.name, t.chars, t.tokens, t.marginal_tokens] for s in m.surfaces for t in s.per_tool]


def per_tool_records(m: Measurement) -> Table:
    """per_tool.csv."""
    if not m.counters:
        return Table(PER_TOOL_COLUMNS, per_tool_rows(m))
    header = [*keys(PER_TOOL_COLUMNS), MeasureColumns.counter.key]
    for c in m.counters:
        header += [f"{MeasureColumns.tokens.key} ({c.name})", f"{MeasureColumns.marginal_tokens.key} ({c.name})"]
    rows = []
    for s in m.surfaces:
        for index, t in enumerate(s.per_tool):
            row: list[object] = [s.name, t.name, t.chars, t.tokens, t.marginal_tokens, m.counters[0].name]
            for f in s.counts:
                row += [f.per_tool[index].tokens, f.per_tool[index].marginal_tokens]
            rows.append(row)
    return Table(columns_of(header), rows)


def _ratio(value: float | None) -> str | None:
    return f"{value:.2f}" if value is not None else None


def _framings(m: Measurement) -> list[int | None]:
    """Each counter's framing: the same request for every list, so one figure per counter."""
    return [f.framing for f in m.surfaces[0].counts] if m.surfaces else [None] * len(m.counters)


def measured_as(servers: Iterable[bool]) -> str:
    """What the rows of a table are, by whether each is a server's list as listed (live, or a snapshot of one):
    `surface` (bundled, or a module of the user's), `server`, or `surface or server`."""
    found = set(servers)
    return "server" if found == {True} else "surface or server" if found == {True, False} else "surface"


def whole_title(what: str) -> str:
    """The title of a table of every part a session is sent: the whole surface, or all a server advertises."""
    return "The whole surface per session" if what == "surface" else f"Everything each {what} advertises, per session"


def _what(m: Measurement) -> str:
    return measured_as(s.server for s in m.surfaces)


def _whole_title(m: Measurement) -> str:
    return whole_title(_what(m))


def _by_counter(m: Measurement) -> tuple[list[str], list[list[str]]]:
    """Rows of surfaces and a last row for the framing; a column per counter, and its ratio to o200k."""
    from toolsurface.harness.measure._counts import is_o200k

    header = [_what(m).capitalize()]
    for c in m.counters:
        header += [c.name] if is_o200k(c.id) else [c.name, "÷ o200k"]
    rows = []
    for s in m.surfaces:
        row = [s.title if s.title != s.name else s.name]
        for c, f in zip(m.counters, s.counts, strict=True):
            row += [shown(f.tokens)] if is_o200k(c.id) else [shown(f.tokens), _ratio(f.ratio) or "-"]
        rows.append(row)
    framing = ["framing (the request without the list)"]
    for c, n in zip(m.counters, _framings(m), strict=True):
        framing += ["-"] if is_o200k(c.id) else [shown(n), "-"]
    prompts = [f.tool_prompt for f in m.surfaces[0].counts] if m.surfaces else []
    if not any(p is not None for p in prompts):
        return header, [*rows, framing]
    prompt = ["tool-use prompt the provider adds (in the framing)"]
    for c, n in zip(m.counters, prompts, strict=True):
        prompt += ["-"] if is_o200k(c.id) else [shown(n) if n is not None else "-", "-"]
    return header, [*rows, framing, prompt]


def _counters_text(m: Measurement) -> str:
    """The tools' tokens as each counter counts them, side by side, with what each counter is."""
    if not m.counters:
        return ""
    header, rows = _by_counter(m)
    legend = "".join(f"- `{c.name}`: {c.label} ({c.source})\n" for c in m.counters)
    return (
        "Tokens by counter (the tools' tokens: for a counter of requests, the request with the list minus the"
        " framing)\n" + markdown_table(header, rows, set(range(1, len(header)))) + "\n" + legend
    )


def counters_records(m: Measurement) -> Table:
    """counters.csv: one row per surface and counter: its figures, the ratio to o200k, and where the counts came
    from."""
    rows: list[list[object]] = [
        [s.name, f.counter, c.source, f.tokens, f.framing, _ratio(f.ratio), f.growth_tokens]
        for s in m.surfaces
        for c, f in zip(m.counters, s.counts, strict=True)
    ]
    return Table(COUNTERS_COLUMNS, rows)


def by_kinds_rows(m: Measurement) -> list[list[object]]:
    """A row per surface and number of kinds, in BY_KINDS_COLUMNS (by_kinds.csv's, the report's table's)."""
    return [[s.name, p.kinds, p.kind, p.tools, p.chars, p.tokens] for s in m.surfaces for p in s.by_kinds]


def by_kinds_records(m: Measurement) -> Table:
    """by_kinds.csv."""
    return Table(BY_KINDS_COLUMNS, by_kinds_rows(m))


def parts_records(m: Measurement) -> Table:
    """parts.csv: each part of each surface, the tools first, and the total per session; no rows for parts not
    recorded."""
    rows: list[list[object]] = []
    for s in m.surfaces:
        rows.append([s.name, "tools", True, s.tools, s.chars, s.tokens])
        rows += [[s.name, p.part, p.advertised, p.entries, p.chars, p.tokens] for p in s.parts]
        rows.append([s.name, "total", True, None, s.total_chars, s.total_tokens])
    return Table(PARTS_COLUMNS, rows)


def _part_cell(chars: int, tokens: int | None, entries: int | None = None, advertised: bool = True) -> str:
    if not advertised:
        return "-"
    size = f"{chars:,}" + (f" / {tokens:,}" if tokens is not None else "")
    return f"{size} ({entries:,})" if entries is not None else size


def _parts_rows(m: Measurement) -> list[list[str]]:
    """A row per surface: the tools the model is shown, each part, the total, and (where any surface has app-only
    tools) those in a column of their own, never in the total."""
    apps = any(s.app_only_tools for s in m.surfaces)
    rows = []
    for s in m.surfaces:
        if not s.parts_recorded:
            cells = ["not recorded"] * len(PART_TITLES)
        else:
            cells = [_part_cell(p.chars, p.tokens, p.entries, p.advertised) for p in s.parts]
        tools = _part_cell(s.shown_chars, s.shown_tokens, s.tools - s.app_only_tools)
        apart = [_part_cell(s.app_only_chars, s.app_only_tokens, s.app_only_tools)] if apps else []
        rows.append([s.name, tools, *cells, _part_cell(s.total_chars, s.total_tokens), *apart])
    return rows


def _answers_rows(m: Measurement) -> list[list[str]]:
    """A row per probed tool of every surface whose snapshot recorded its answers."""
    from toolsurface.harness.measure._answers import answer_rows

    return [
        [shown(v) for v in row] for s in m.surfaces if s.answers is not None for row in answer_rows(s.name, s.answers)
    ]


def _answers_title(m: Measurement) -> str:
    counters = sorted({s.answers.counter for s in m.surfaces if s.answers is not None})
    return f"What the tools' answers cost, as probed (snapshot --probe; tokens: {', '.join(counters)})"


def _grown(m: Measurement) -> tuple[bool, bool]:
    """Whether any surface has a growth figure, and any its size by number of kinds: a surface of ours does, a
    live server or a snapshot never (its columns are left out rather than shown empty)."""
    return any(s.growth for s in m.surfaces), any(s.by_kinds for s in m.surfaces)


_STANDING_TITLE = (
    "Where each list stands among the corpus of public servers' lists (a percentile: the share of the corpus's"
    " lists below it, ties counted half)"
)


def _visibility_lines(m: Measurement) -> list[str]:
    from toolsurface.harness.measure._part_tables import apps_lines

    return apps_lines(m)


def malformed_lines(m: Measurement) -> list[str]:
    """A line per tool a client refuses, repairs or may drop as its server published it: measured as it is."""
    return [
        f"{s.name}: {t.name}: {t.problem}; measured as published (clients refuse, repair or drop such a tool)"
        for s in m.surfaces
        for t in s.per_tool
        if t.problem
    ]


def _size_blocks(m: Measurement) -> list[Block]:
    """The list size per surface: the terminal's table (growth as one kind more, the chars by number of kinds),
    and markdown's (growth in tools, chars and tokens)."""
    growth, by_kinds = _grown(m)
    named = replace(MeasureColumns.surface, label=_what(m))
    columns = [named, MeasureColumns.tools, MeasureColumns.chars, MeasureColumns.tokens]
    columns += [Column("growth")] if growth else []
    columns += [Column("chars by kinds")] if by_kinds else []
    rows, said = [], []
    for s in m.surfaces:
        row = [one_line(s.name), str(s.tools), shown(s.chars), shown(s.tokens)]
        cells = [s.title if s.title != s.name else s.name, str(s.tools), shown(s.chars), shown(s.tokens)]
        if growth:
            g = s.growth
            row.append(f"+1 kind ({g.kind}): {signed(g.tools)} tools, {signed(g.chars)} chars" if g else "-")
            cells.append(
                f"{g.kind}: {signed(g.tools)} tools, {signed(g.chars)} chars, {signed(g.tokens)} tokens" if g else "-"
            )
        if by_kinds:
            row.append(" → ".join(shown(p.chars) for p in s.by_kinds) or "-")
        rows.append(row)
        said.append(cells)
    title = f"List size (protocol {m.protocol_version}, {m.encoding})"
    header = [_what(m).capitalize(), "Tools", "Characters", "Tokens", *(["Growth by one kind"] if growth else [])]
    return [
        Table(columns, rows, title=title, markdown=False),
        Text(
            markdown=f"List size per {_what(m)} (compact JSON of the tools array as received, protocol"
            f" {m.protocol_version}; tokens: {m.encoding})\n" + markdown_table(header, said, {1, 2, 3})
        ),
    ]


def _lines(lines: Sequence[str], heading: str = "") -> list[Block]:
    """Lines said under a table: together in a terminal, a list in markdown under `heading`."""
    if not lines:
        return []
    listed = "".join(f"- {markdown_cell(line, 'spaced')}\n" for line in lines)
    return [Text("\n".join(lines), f"\n{heading}\n\n{listed}" if heading else f"\n{listed}")]


def _whole_blocks(m: Measurement) -> list[Block]:
    """Every part a session is sent, per surface; the skills, the parts not read and the drafts under it."""
    from toolsurface.harness.measure._part_tables import drafts_blocks, part_lines, skills_table

    apps = any(s.app_only_tools for s in m.surfaces)
    named = replace(MeasureColumns.surface, label=_what(m))
    whole = [
        named,
        MeasureColumns.tools,
        *(Column(title.lower(), numeric=True) for title in PART_TITLES.values()),
        Column("total", numeric=True),
        *([Column("app-only (not in the total)", numeric=True)] if apps else []),
    ]
    header = [_what(m).capitalize(), "Tools", *PART_TITLES.values(), "Total", *(["App-only (not in the total)"] * apps)]
    said = (
        f"\n{_whole_title(m)}, chars / tokens (entries) of each part: its compact JSON as received"
        " (the instructions by their text's characters), and the total\n"
    )
    skills = skills_table(m)
    return [
        Table(
            whole, _parts_rows(m), title=f"{_whole_title(m)}: chars / tokens (entries), {m.encoding}", markdown=False
        ),
        Text(markdown=said + markdown_table(header, _parts_rows(m), set(range(1, len(header))))),
        *([skills] if skills is not None else []),
        *_lines(part_lines(m)),
        *drafts_blocks(m),
    ]


def _counter_blocks(m: Measurement) -> list[Block]:
    header, rows = _by_counter(m)
    by_counter = [Column(label, numeric=index > 0) for index, label in enumerate(header)]
    title = "Tokens by counter (the tools' tokens; framing: the same request with no tools)"
    legend = "\n".join(f"{c.name}: {c.label} ({c.source})" for c in m.counters)
    return [Table(by_counter, rows, title=title, markdown=False), Text(legend, "\n" + _counters_text(m))]


def _answer_blocks(m: Measurement) -> list[Block]:
    from toolsurface.harness.measure._answers import ANSWER_COLUMNS

    answered = _answers_rows(m)
    if not answered:
        return []
    header = [label.capitalize() for label in labels(ANSWER_COLUMNS)]
    return [
        Table(ANSWER_COLUMNS, answered, title=_answers_title(m), markdown=False),
        Text(markdown=f"\n{_answers_title(m)}\n" + markdown_table(header, answered, set(range(2, 8)))),
    ]


def _per_tool_blocks(m: Measurement) -> list[Block]:
    from toolsurface.harness.measure._part_tables import apps_table

    others = m.counters[1:]
    columns = [*PER_TOOL_COLUMNS[1:], *(Column(f"marginal ({c.name})", numeric=True) for c in others)]
    header = ["Tool", "Characters", "Tokens", "Marginal tokens", *(f"Marginal ({c.name})" for c in others)]
    blocks: list[Block] = []
    for s in m.surfaces:
        rows = []
        for i, t in enumerate(s.per_tool):
            extra = [shown(f.per_tool[i].marginal_tokens) for f in s.counts[1:]]
            rows.append([one_line(t.name), shown(t.chars), shown(t.tokens), shown(t.marginal_tokens), *extra])
        said = [[t.name, *row[1:]] for t, row in zip(s.per_tool, rows, strict=True)]
        blocks += [
            Table(columns, rows, title=f"Per tool: {s.name}", markdown=False),
            Text(
                markdown=f"\nPer tool: {one_line(s.name)}\n" + markdown_table(header, said, set(range(1, len(header))))
            ),
        ]
    apps = apps_table(m)
    return [*blocks, *([apps] if apps is not None else [])]


def measure_view(m: Measurement, per_tool: bool = False) -> View:
    """The measurement as every format shows it: its list sizes, standing, the whole surface, counters, answers and
    (`per_tool`) each tool's figures; its CSV measure.csv's rows (`per_tool`: per_tool.csv's)."""
    blocks = [*_size_blocks(m), *_lines(standing_lines(m), _STANDING_TITLE)]
    blocks += _lines([*malformed_lines(m), *_visibility_lines(m)])
    if any(s.parts_recorded for s in m.surfaces):
        blocks += _whole_blocks(m)
    if m.counters:
        blocks += _counter_blocks(m)
    blocks += _answer_blocks(m)
    if per_tool:
        blocks += _per_tool_blocks(m)
    records = per_tool_records(m) if per_tool else measure_records(m)
    return View(blocks, data=m.to_json(), records=records, between="")
