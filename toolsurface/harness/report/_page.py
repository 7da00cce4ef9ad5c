"""The report as one HTML page to read: headline figures per surface, two surfaces side by side, each
tool's text one click away, the charts, the seed comparison and every run as a transcript.

One self-contained file that opens from disk and loads nothing: its style and script (`page.css` and
`page.js` beside this module, package data) are inline, charts are data: URIs, and its
Content-Security-Policy forbids any other load. Everything that comes from data is escaped: text through
`html.escape`, the data the script reads as JSON with `<`, `>` and `&` escaped."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from toolsurface.harness.measure import PER_TOOL_COLUMNS, SURFACE_COLUMNS, MeasureColumns, measured_as
from toolsurface.harness.output import Column, shown, signed
from toolsurface.harness.report._bundle import BundleCall, BundleRun, BundleSurface, BundleTable, ReportBundle, SeedRow

__all__ = ["OWN_VIEWS", "render_page"]

# Report tables the page shows in views of its own; the others are shown as they are.
OWN_VIEWS = frozenset({"list_size", "per_tool", "sessions", "model_shown"})

_UNSHOWABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def _visible(text: str) -> str:
    """Control characters shown as their Unicode pictures (␀, ␛, ...) and a lone surrogate as �, so none
    reaches the page raw."""

    def picture(match: re.Match[str]) -> str:
        code = ord(match.group())
        return "\ufffd" if code >= 0xD800 else chr(0x2421) if code == 0x7F else chr(0x2400 + code)

    return _UNSHOWABLE.sub(picture, text)


def _t(value: Any) -> str:
    return html.escape(_visible(str(value)), quote=True)


def _safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text)


def _json_script(element_id: str, data: Any) -> str:
    # ASCII only, so a lone surrogate in a description is an escape JSON.parse reads, not a write error.
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


# -- tables ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cell:
    html: str
    value: int | float | str | None = None


def _cell(value: Any, numeric: bool) -> _Cell:
    """A value as the page shows it (READABLE); a number in a column of text as it is."""
    if value is None or (isinstance(value, float) and value != value):
        return _Cell("-", None)
    if isinstance(value, bool):
        return _Cell(_t(shown(value)), str(value))
    if numeric and isinstance(value, int | float):
        return _Cell(_t(shown(value)), value)
    return _Cell(_t(value), str(value))


def _tool_cell(surfaces: Mapping[str, BundleSurface], surface: str, tool: str) -> _Cell:
    known = surface in surfaces and any(t.name == tool for t in surfaces[surface].tool_list)
    if not known:
        return _Cell(f"<code>{_t(tool)}</code>", tool)
    return _Cell(_tool_link(surface, tool), tool)


def _tool_link(surface: str, tool: str) -> str:
    return (
        f'<button type="button" class="tool-link" data-surface="{_t(surface)}" data-tool="{_t(tool)}"'
        f' title="Description and schema">{_t(tool)}</button>'
    )


def _table(
    table_id: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[_Cell]],
    *,
    caption: str = "",
    row_attrs: Sequence[str] = (),
) -> str:
    """A sortable, filterable table: numbers right-aligned with separators, raw values in data-value."""
    head = "".join(
        f'<th scope="col" data-column="{_t(c.label)}" data-type="{"num" if c.numeric else "text"}"'
        f' class="{"num" if c.numeric else "text"}" aria-sort="none">'
        f'<button type="button" class="sort">{_t(c.label)}</button></th>'
        for c in columns
    )
    body = []
    for n, row in enumerate(rows):
        cells = []
        for column, cell in zip(columns, row, strict=True):
            value = "" if cell.value is None else _t(cell.value)
            cells.append(f'<td class="{"num" if column.numeric else "text"}" data-value="{value}">{cell.html}</td>')
        extra = f" {row_attrs[n]}" if n < len(row_attrs) and row_attrs[n] else ""
        body.append(f'<tr data-index="{n}"{extra}>{"".join(cells)}</tr>')
    cap = f"<caption>{_t(caption)}</caption>" if caption else ""
    return (
        f'<div class="table-tools"><input type="search" class="filter" id="filter-{table_id}"'
        f' data-filter-for="{table_id}" placeholder="Filter rows" aria-label="Filter rows of {_t(caption or table_id)}">'
        f' <span class="count" data-count-for="{table_id}">{len(rows):,} rows</span></div>'
        f'<div class="table-wrap"><table class="data" id="{table_id}">{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _command(bundle: ReportBundle, key: str) -> str:
    for table in bundle.tables:
        if table.key == key:
            return f'<p class="command"><code>{_t(table.command)}</code></p>'
    return ""


# -- sections --------------------------------------------------------------------------------------


def _headline(bundle: ReportBundle) -> str:
    # Growth is a figure of surfaces built from kinds; where none has one its columns are left out.
    grows = any(s.growth is not None for s in bundle.surfaces)
    cards = []
    for s in bundle.surfaces:
        growth = "-"
        if s.growth is not None:
            g = s.growth
            growth = (
                f"{signed(g.tools)} tools, {signed(g.chars)} chars, {signed(g.tokens)} tokens"
                f" by <code>{_t(g.kind)}</code>"
            )
        tokens = shown(s.tokens) if s.tokens is not None else "-"
        cards.append(
            f'<article class="card" data-surface="{_t(s.name)}"><h3>{_t(s.name)}</h3><p class="title">{_t(s.title)}</p>'
            f'<dl><dt>tools</dt><dd class="num" data-figure="tools">{shown(s.tools)}</dd>'
            f'<dt>chars</dt><dd class="num" data-figure="chars">{shown(s.chars)}</dd>'
            f'<dt>tokens</dt><dd class="num" data-figure="tokens">{tokens}</dd></dl>'
            + (f'<p class="growth" data-figure="growth">{growth}</p>' if grows else "")
            + "</article>"
        )
    growth_columns = list(SURFACE_COLUMNS[5:-1]) if grows else []
    columns = [*SURFACE_COLUMNS[:5], MeasureColumns.largest_tool, *growth_columns, SURFACE_COLUMNS[-1]]
    by_name = {s.name: s for s in bundle.surfaces}
    rows = []
    for s in bundle.surfaces:
        largest = max(s.tool_list, key=lambda t: t.chars).name if s.tool_list else None
        grown = s.growth
        growth_cells = [
            _cell(grown.kind if grown else None, False),
            _cell(grown.tools if grown else None, True),
            _cell(grown.chars if grown else None, True),
            _cell(grown.tokens if grown else None, True),
        ]
        rows.append(
            [
                _cell(s.name, False),
                _cell(s.title, False),
                _cell(s.tools, True),
                _cell(s.chars, True),
                _cell(s.tokens, True),
                _tool_cell(by_name, s.name, largest) if largest else _cell(None, False),
                *(growth_cells if grows else []),
                _cell(s.protocol_version, False),
            ]
        )
    note = next((t.note for t in bundle.tables if t.key == "list_size" and t.note), "")
    what = measured_as(s.server for s in bundle.surfaces)
    glance = {"surface": "Surfaces at a glance", "server": "Servers at a glance"}.get(what, "At a glance")
    return (
        f'<section id="headline"><h2>{glance}</h2><div class="cards">{"".join(cards)}</div>'
        f"{_table('table-surfaces', columns, rows, caption=f'List size per {what}')}"
        f"{f'<p>{_t(note)}</p>' if note else ''}{_command(bundle, 'list_size')}</section>"
    )


def _left_out(texts: Sequence[str]) -> str:
    """What the report leaves out for these surfaces, and how to add it."""
    if not texts:
        return ""
    items = "".join(f"<li>{_t(text)}</li>" for text in texts)
    return f'<section id="left-out"><h2>Not in this report</h2><ul>{items}</ul></section>'


def _compare(bundle: ReportBundle) -> str:
    names = [s.name for s in bundle.surfaces]
    if len(names) < 2:
        return ""
    a, b = names[0], names[-1]

    def select(element_id: str, label: str, chosen: str) -> str:
        options = "".join(
            f'<option value="{_t(n)}"{" selected" if n == chosen else ""}>{_t(n)}</option>' for n in names
        )
        return f'<label>{label} <select id="{element_id}">{options}</select></label>'

    per_tool = [
        Column("tool"),
        Column("chars A", numeric=True),
        Column("chars B", numeric=True),
        Column("chars B - A", numeric=True),
        Column("tokens A", numeric=True),
        Column("tokens B", numeric=True),
        Column("tokens B - A", numeric=True),
    ]
    diff = [
        Column("change"),
        Column("tool"),
        Column("what changed"),
        Column("chars before", numeric=True),
        Column("chars after", numeric=True),
        Column("chars difference", numeric=True),
    ]
    return (
        '<section id="compare"><h2>Two surfaces side by side</h2>'
        f'<form class="pair" onsubmit="return false">{select("compare-a", "A", a)} {select("compare-b", "B", b)}</form>'
        '<p id="compare-summary" aria-live="polite"></p>'
        "<h3>Per-tool sizes</h3>"
        f"{_table('compare-tools', per_tool, [], caption='Per-tool sizes of A and B')}"
        '<h3 id="compare-diff-title">What changed from A to B</h3><p id="compare-counts"></p>'
        f"{_table('compare-diff', diff, [], caption='Tools added, removed and changed from A to B')}"
        "</section>"
    )


def _tools(bundle: ReportBundle) -> str:
    columns = PER_TOOL_COLUMNS
    by_name = {s.name: s for s in bundle.surfaces}
    rows = [
        [
            _cell(s.name, False),
            _tool_cell(by_name, s.name, t.name),
            _cell(t.chars, True),
            _cell(t.tokens, True),
            _cell(t.marginal_tokens, True),
        ]
        for s in bundle.surfaces
        for t in s.tool_list
    ]
    return (
        '<section id="tools"><h2>Per-tool sizes</h2>'
        "<p>Click a tool's name for its description and schema, as the client received them.</p>"
        f"{_table('table-per-tool', columns, rows, caption='Per-tool sizes')}{_command(bundle, 'per_tool')}</section>"
    )


def _charts(bundle: ReportBundle, charts: Mapping[str, bytes]) -> str:
    titles = {c.key: c for c in bundle.charts}
    keys = [c.key for c in bundle.charts if c.key in charts] + [k for k in charts if k not in titles]
    if not keys:
        return ""
    figures = []
    for key in keys:
        info = titles.get(key)
        title = info.title if info else key
        data = base64.b64encode(charts[key]).decode("ascii")
        command = f" <code>{_t(info.command)}</code>" if info and info.command else ""
        figures.append(
            f'<figure id="chart-{_safe_id(key)}" data-chart="{_t(key)}"><img alt="{_t(title)}"'
            f' src="data:image/png;base64,{data}"><figcaption>{_t(title)}{command}</figcaption></figure>'
        )
    return f'<section id="charts"><h2>Charts</h2>{"".join(figures)}</section>'


def _seed_cell(value: Any) -> _Cell:
    """A seed or our value: a number sorts as one; a list (per-run values) or a text sorts as text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _Cell(_t(shown(value)), value)
    return _Cell(_t(shown(value)), None if value is None else shown(value))


def _seed(rows: Sequence[SeedRow], surfaces: Mapping[str, BundleSurface]) -> str:
    if not rows:
        return ""
    columns = [
        Column("what"),
        Column("surface"),
        Column("tool"),
        Column("unit"),
        Column("seed", numeric=True),
        Column("ours", numeric=True),
        Column("difference", numeric=True),
        Column("within band"),
        Column("seed lines"),
    ]
    cells, attrs = [], []
    for r in rows:
        within = {True: "yes", False: "no", None: "unknown"}[r.within_band]
        mark = {True: "✓ within", False: "✗ outside", None: "-"}[r.within_band]
        difference = _Cell("-", None) if r.difference is None else _Cell(_t(f"{r.difference:+.1%}"), r.difference)

        cells.append(
            [
                _cell(r.what, False),
                _cell(r.surface, False),
                _tool_cell(surfaces, r.surface or "", r.tool) if r.tool else _cell(None, False),
                _cell(r.unit, False),
                _seed_cell(r.seed),
                _seed_cell(r.ours),
                difference,
                _Cell(f'<span class="band band-{within}">{_t(mark)}</span>', within),
                _cell(", ".join(map(str, r.seed_lines)) or None, False),
            ]
        )
        attrs.append(f'id="seed-{_safe_id(r.id)}" data-seed-id="{_t(r.id)}" data-within="{within}"')
    table = _table("table-seed", columns, cells, caption="The seed's figures against ours", row_attrs=attrs)
    return (
        '<section id="seed"><h2>Against the seed</h2><p>Each figure the seed gives, ours beside it; the difference'
        " is (ours - seed) / seed.</p>"
        f"{table}</section>"
    )


def _scores_table(bundle: ReportBundle) -> str:
    columns = [
        Column("surface"),
        Column("agent"),
        Column("mode"),
        Column("scenario"),
        Column("runs", numeric=True),
        Column("status"),
        Column("calls per run"),
        Column("refused calls"),
        Column("undelivered calls"),
        Column("what was refused"),
        Column("outcome failures"),
        Column("errors"),
        Column("pass^1", numeric=True),
    ]
    rows = []
    for s in bundle.scores:
        refused = "; ".join(
            f"{g.tool}: {g.message} (corrected next {g.corrected_next} of {g.count})" for g in s.refused
        )
        failures = "; ".join(f"{f.check} ({f.runs} runs): {f.detail}" for f in s.outcome_failures)
        errors = "; ".join(f"{e.status}: {e.error} ({e.runs} runs)" for e in s.errors)
        undelivered = ", ".join(map(str, s.undelivered_per_run))
        if s.undelivered:
            undelivered += " (" + "; ".join(f"{g.tool}: {g.reason} ({g.count})" for g in s.undelivered) + ")"
        rows.append(
            [
                _cell(s.surface, False),
                _cell(s.client, False),
                _cell(s.mode, False),
                _cell(s.scenario, False),
                _cell(s.runs, True),
                _cell(", ".join(f"{name} {count}" for name, count in s.statuses.items()), False),
                _cell(", ".join(map(str, s.calls_per_run)), False),
                _cell(", ".join(map(str, s.refused_per_run)), False),
                _cell(undelivered or None, False),
                _cell(refused or None, False),
                _cell(failures or None, False),
                _cell(errors or None, False),
                _cell(s.pass_at_1, True),
            ]
        )
    title = f"Sessions: {bundle.scenario}, agent {bundle.agent}"
    return f"<h3>{_t(title)}</h3>{_table('table-sessions', columns, rows, caption=title)}{_command(bundle, 'sessions')}"


def _shown_table(bundle: ReportBundle) -> str:
    if not bundle.shown:
        return ""
    columns = [
        Column("surface"),
        Column("agent"),
        Column("mode"),
        *(
            Column(name, numeric=True)
            for name in (
                "stub's shown first",
                "stub's shown chars first",
                "stub's deferred first",
                "built-in first",
                "built-in chars first",
                "tools first",
                "stub tools first",
                "chars first",
                "tokens first",
                "tools last",
                "stub tools last",
                "chars last",
                "tokens last",
                "system prompt chars",
                "searches",
                "API input tokens, first request",
            )
        ),
    ]
    rows = [
        [
            _cell(r.surface, False),
            _cell(f"{r.agent} {r.agent_version}" if r.agent_version else r.agent, False),
            _cell(r.mode, False),
            *(
                _cell(v, True)
                for v in (
                    r.first_shown.tools if r.first_shown else None,
                    r.first_shown.chars if r.first_shown else None,
                    r.first_deferred.tools if r.first_deferred else None,
                    r.first_builtin.tools if r.first_builtin else None,
                    r.first_builtin.chars if r.first_builtin else None,
                    r.first_tools,
                    r.first_stub_tools,
                    r.first_chars,
                    r.first_tokens,
                    r.last_tools,
                    r.last_stub_tools,
                    r.last_chars,
                    r.last_tokens,
                    r.system_chars,
                    r.searches,
                    r.api_input_tokens_first,
                )
            ),
        ]
        for r in bundle.shown
    ]
    title = "What the model was shown (first request, and last after every search)"
    return f"<h3>{_t(title)}</h3>{_table('table-model-shown', columns, rows, caption=title)}"


def _call(run: BundleRun, call: BundleCall, tools: set[str]) -> str:
    if call.method != "tools/call":
        size = f", {shown(call.response_chars)} chars" if call.response_chars is not None else ""
        return (
            f'<li class="call listing" data-seq="{call.seq}" data-method="{_t(call.method)}">'
            f'<span class="seq num">{call.seq}</span><span class="what">{_t(call.method)}{size}</span></li>'
        )
    tool = call.tool or "?"
    name = _tool_link(run.surface, tool) if tool in tools else f"<code>{_t(tool)}</code>"
    arguments = json.dumps(call.arguments or {}, ensure_ascii=False, separators=(", ", ": "))
    marks = []
    attrs = [f'data-seq="{call.seq}"', f'data-tool="{_t(tool)}"', f'data-outcome="{_t(call.outcome)}"']
    if call.outcome == "refused":
        if call.corrected_by is not None:
            marks.append(f'<span class="mark mark-refused">refused, corrected by #{call.corrected_by}</span>')
            attrs.append(f'data-corrected-by="{call.corrected_by}"')
        else:
            marks.append('<span class="mark mark-refused">refused, not corrected next</span>')
    if call.corrects is not None:
        marks.append(f'<span class="mark mark-corrects">corrects #{call.corrects}</span>')
        attrs.append(f'data-corrects="{call.corrects}"')
    detail = ""
    if call.message:
        detail += f'<p class="message">{_t(call.message)}</p>'
    if call.allowed:
        detail += f'<p class="allowed">allowed: {_t(", ".join(call.allowed))}</p>'
    return (
        f'<li class="call outcome-{_safe_id(call.outcome)}" {" ".join(attrs)}>'
        f'<span class="seq num">{call.seq}</span>'
        f'<span class="what">{name} <code class="arguments">{_t(arguments)}</code></span>'
        f'<span class="outcome">{_t(call.outcome)}</span>{"".join(marks)}{detail}</li>'
    )


def _run(run: BundleRun, surfaces: Mapping[str, BundleSurface]) -> str:
    tools = {t.name for t in surfaces[run.surface].tool_list} if run.surface in surfaces else set()
    stub_calls = [c for c in run.calls if c.method == "tools/call"]
    passed = sum(1 for c in run.checks if c.passed)
    agent = f"{run.agent} {run.agent_version}" if run.agent_version else run.agent
    summary = (
        f'<span class="run-title">{_t(run.surface)} · {_t(agent)} · {_t(run.mode)} · {_t(run.scenario)} · run {run.run_index + 1}</span>'
        f' <span class="badge status status-{_safe_id(run.status)}">{_t(run.status)}</span>'
        f" {len(stub_calls)} calls"
        f' · <span class="badge{" refused" if run.refusals else ""}">{len(run.refusals)} refused</span>'
        f' · <span class="badge{" undelivered" if run.undelivered else ""}">{len(run.undelivered)} undelivered</span>'
        f" · checks {passed} of {len(run.checks)}"
    )
    parts = [f'<p class="run-path"><code>{_t(run.label)}</code></p>']
    if run.error:
        parts.append(f'<p class="run-error">{_t(run.error)}</p>')
    parts.append(f'<ol class="calls">{"".join(_call(run, c, tools) for c in run.calls)}</ol>')
    if run.undelivered:
        items = "".join(
            f'<li class="undelivered-call" data-tool="{_t(u.tool)}" data-reason="{_t(u.reason)}">'
            f'<span class="mark mark-undelivered">never reached the stub: {_t(u.reason)}</span>'
            f" <code>{_t(u.tool)}</code>{f' {_t(u.message)}' if u.message else ''}</li>"
            for u in run.undelivered
        )
        parts.append(f'<h4>Calls that never reached the stub</h4><ul class="undelivered">{items}</ul>')
    if run.checks:
        items = "".join(
            f'<li class="check {"pass" if c.passed else "fail"}" data-check="{_t(c.name)}">'
            f'<span class="mark">{"passed" if c.passed else "failed"}</span> {_t(c.name)}: {_t(c.detail)}</li>'
            for c in run.checks
        )
        parts.append(f'<h4>Outcome checks</h4><ul class="checks">{items}</ul>')
    if run.final_answer:
        parts.append(
            f'<details class="final-answer"><summary>Final answer</summary><pre>{_t(run.final_answer)}</pre></details>'
        )
    attrs = (
        f'id="{_t(run.id)}" data-surface="{_t(run.surface)}" data-agent="{_t(run.agent)}" data-mode="{_t(run.mode)}"'
        f' data-scenario="{_t(run.scenario)}" data-status="{_t(run.status)}" data-refused="{len(run.refusals)}" data-undelivered="{len(run.undelivered)}"'
    )
    return f'<details class="run" {attrs}><summary>{summary}</summary>{"".join(parts)}</details>'


def _sessions(bundle: ReportBundle) -> str:
    if not bundle.scores and not bundle.runs:
        return ""
    by_name = {s.name: s for s in bundle.surfaces}
    runs = "".join(_run(r, by_name) for r in bundle.runs)
    return (
        '<section id="sessions"><h2>Sessions</h2>'
        f"{_scores_table(bundle)}{_shown_table(bundle)}"
        '<h3 id="transcripts-title">Transcripts, call by call</h3>'
        '<p>Each run as the stub logged it. Marked: a <span class="mark mark-refused">refused</span> call, the'
        ' call that <span class="mark mark-corrects">corrects</span> it, and calls that'
        ' <span class="mark mark-undelivered">never reached the stub</span>.</p>'
        '<div class="table-tools"><input type="search" class="filter" id="filter-runs" placeholder="Filter runs"'
        ' aria-label="Filter runs"> <span class="count" id="count-runs"></span></div>'
        f'<div id="transcripts">{runs}</div></section>'
    )


def _generic_rows(table: BundleTable, surfaces: Mapping[str, BundleSurface]) -> list[list[_Cell]]:
    """A report table's cells; a tool named beside its surface opens the tool's text."""
    names = [c.label for c in table.columns]
    tool_at = names.index("tool") if "tool" in names and "surface" in names else None
    rows = []
    for row in table.rows:
        cells = []
        for n, (column, value) in enumerate(zip(table.columns, row, strict=True)):
            if n == tool_at and isinstance(value, str):
                cells.append(_tool_cell(surfaces, str(row[names.index("surface")]), value))
            else:
                cells.append(_cell(value, column.numeric))
        rows.append(cells)
    return rows


def _other_tables(tables: Sequence[BundleTable], surfaces: Mapping[str, BundleSurface]) -> str:
    shown = [t for t in tables if t.key not in OWN_VIEWS]
    if not shown:
        return ""
    parts = []
    for table in shown:
        columns = table.columns
        rows = _generic_rows(table, surfaces)
        note = f"<p>{_t(table.note)}</p>" if table.note else ""
        parts.append(
            f'<section class="report-table" id="section-{_safe_id(table.key)}"><h3>{_t(table.title)}</h3>'
            f"{_table('table-' + _safe_id(table.key), columns, rows, caption=table.title)}{note}"
            f'<p class="command"><code>{_t(table.command)}</code></p></section>'
        )
    return f'<section id="tables"><h2>More tables</h2>{"".join(parts)}</section>'


def _page_data(bundle: ReportBundle) -> dict[str, Any]:
    return {
        "surfaces": [
            {
                "name": s.name,
                "title": s.title,
                "tools": s.tools,
                "chars": s.chars,
                "tokens": s.tokens,
                "tool_list": [
                    {
                        "name": t.name,
                        "chars": t.chars,
                        "tokens": t.tokens,
                        "marginal_tokens": t.marginal_tokens,
                        "description": t.description,
                        "input_schema": t.input_schema,
                        "wire": t.wire,
                    }
                    for t in s.tool_list
                ],
            }
            for s in bundle.surfaces
        ]
    }


_DIALOG = (
    '<dialog id="tool-dialog" aria-labelledby="tool-dialog-title"><form method="dialog" class="close">'
    '<button type="submit" id="tool-dialog-close" aria-label="Close">Close</button></form>'
    '<h2 id="tool-dialog-title"></h2><p id="tool-dialog-sizes"></p>'
    '<h3>Description</h3><pre id="tool-dialog-description"></pre>'
    '<h3>inputSchema</h3><pre id="tool-dialog-schema"></pre>'
    '<details><summary>The tool as received (compact JSON)</summary><pre id="tool-dialog-wire"></pre></details>'
    "</dialog>"
)


@cache
def _asset(name: str) -> str:
    """The page's style or script, read from the package's data files."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


_CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline';"
    " base-uri 'none'; form-action 'none'"
)


def render_page(bundle: ReportBundle, charts: Mapping[str, bytes]) -> str:
    """One self-contained HTML page of the report; `charts` maps a chart's key to its PNG bytes."""
    surfaces = {s.name: s for s in bundle.surfaces}
    sections = [
        _headline(bundle),
        _compare(bundle),
        _tools(bundle),
        _charts(bundle, charts),
        _seed(bundle.seed, surfaces),
        _sessions(bundle),
        _other_tables(bundle.tables, surfaces),
        _left_out(bundle.left_out),
    ]
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label, present in (
            ("headline", "Surfaces", bool(bundle.surfaces)),
            ("compare", "Compare", len(bundle.surfaces) > 1),
            ("tools", "Tools", bool(bundle.surfaces)),
            ("charts", "Charts", bool(charts)),
            ("seed", "Seed", bool(bundle.seed)),
            ("sessions", "Sessions", bool(bundle.scores or bundle.runs)),
            ("tables", "More tables", any(t.key not in OWN_VIEWS for t in bundle.tables)),
            ("left-out", "Not here", bool(bundle.left_out)),
        )
        if present
    )
    made = f"Made {_t(bundle.created)}. " if bundle.created else ""
    intro = (
        f"<p>{made}Lists read in MCP protocol {_t(bundle.protocol_version)}; tokens are {_t(bundle.encoding)}."
        " Every table can be regenerated by the command under it.</p>"
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>toolsurface report</title><style>\n{_asset('page.css')}</style></head><body>"
        f'<header><h1>toolsurface report</h1>{intro}<nav aria-label="Sections">{nav}</nav></header><main>'
        + "".join(sections)
        + f"</main>{_DIALOG}{_json_script('page-data', _page_data(bundle))}<script>\n{_asset('page.js')}</script></body></html>\n"
    )
