"""The report as one HTML page to read: headline figures per surface, two surfaces side by side, each
tool's text one click away, the charts, the seed comparison and every run as a transcript.

One self-contained file that opens from disk and loads nothing: its style and script are inline, charts
are data: URIs, and its Content-Security-Policy forbids any other load. Everything that comes from data is
escaped: text through `html.escape`, the data the script reads as JSON with `<`, `>` and `&` escaped."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.measure import PER_TOOL_COLUMNS, SURFACE_COLUMNS, MeasureColumns
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
            f'<p class="growth" data-figure="growth">{growth}</p></article>'
        )
    columns = [*SURFACE_COLUMNS[:5], MeasureColumns.largest_tool, *SURFACE_COLUMNS[5:]]
    by_name = {s.name: s for s in bundle.surfaces}
    rows = []
    for s in bundle.surfaces:
        largest = max(s.tool_list, key=lambda t: t.chars).name if s.tool_list else None
        grown = s.growth
        rows.append(
            [
                _cell(s.name, False),
                _cell(s.title, False),
                _cell(s.tools, True),
                _cell(s.chars, True),
                _cell(s.tokens, True),
                _tool_cell(by_name, s.name, largest) if largest else _cell(None, False),
                _cell(grown.kind if grown else None, False),
                _cell(grown.tools if grown else None, True),
                _cell(grown.chars if grown else None, True),
                _cell(grown.tokens if grown else None, True),
                _cell(s.protocol_version, False),
            ]
        )
    note = next((t.note for t in bundle.tables if t.key == "list_size" and t.note), "")
    return (
        f'<section id="headline"><h2>Surfaces at a glance</h2><div class="cards">{"".join(cards)}</div>'
        f"{_table('table-surfaces', columns, rows, caption='List size per surface')}"
        f"{f'<p>{_t(note)}</p>' if note else ''}{_command(bundle, 'list_size')}</section>"
    )


def _compare(bundle: ReportBundle) -> str:
    names = [s.name for s in bundle.surfaces]
    if not names:
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
    ]
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label, present in (
            ("headline", "Surfaces", bool(bundle.surfaces)),
            ("compare", "Compare", bool(bundle.surfaces)),
            ("tools", "Tools", bool(bundle.surfaces)),
            ("charts", "Charts", bool(charts)),
            ("seed", "Seed", bool(bundle.seed)),
            ("sessions", "Sessions", bool(bundle.scores or bundle.runs)),
            ("tables", "More tables", any(t.key not in OWN_VIEWS for t in bundle.tables)),
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
        f"<title>toolsurface report</title><style>{_STYLE}</style></head><body>"
        f'<header><h1>toolsurface report</h1>{intro}<nav aria-label="Sections">{nav}</nav></header><main>'
        + "".join(sections)
        + f"</main>{_DIALOG}{_json_script('page-data', _page_data(bundle))}<script>{_SCRIPT}</script></body></html>\n"
    )


_STYLE = """
:root { color-scheme: light; --line: #d5d9de; --muted: #5f6b76; --bg: #f6f7f9; --accent: #1f5fa8;
  --refused: #b42318; --refused-bg: #fdecea; --fixed: #1e7b34; --fixed-bg: #e7f5ea;
  --undelivered: #8a5a00; --undelivered-bg: #fff4d6; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d232a; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 1.5rem; }
header { padding-top: 1.5rem; }
h1 { margin: 0 0 0.25rem; font-size: 1.6rem; }
h2 { margin: 2.5rem 0 0.75rem; font-size: 1.3rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h3 { margin: 1.5rem 0 0.5rem; font-size: 1.05rem; }
nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; position: sticky; top: 0; background: #fff;
  padding: 0.5rem 0; border-bottom: 1px solid var(--line); z-index: 2; }
nav a { color: var(--accent); text-decoration: none; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.85em; }
pre { background: var(--bg); padding: 0.75rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 0.75rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; }
.card h3 { margin: 0; }
.card .title { margin: 0 0 0.5rem; color: var(--muted); font-size: 0.9em; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 0 1rem; margin: 0; }
.card dt { color: var(--muted); }
.card dd { margin: 0; font-size: 1.15rem; font-weight: 600; }
.card .growth { margin: 0.5rem 0 0; font-size: 0.85em; color: var(--muted); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-tools { display: flex; align-items: center; gap: 0.75rem; margin: 0.5rem 0 0.25rem; }
.filter { padding: 0.3rem 0.5rem; border: 1px solid var(--line); border-radius: 4px; min-width: 16rem; font: inherit; }
.count { color: var(--muted); font-size: 0.85em; }
.table-wrap { overflow-x: auto; max-height: 36rem; overflow-y: auto; border: 1px solid var(--line); }
table.data { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
table.data caption { text-align: left; font-size: 0; height: 0; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; vertical-align: top; }
table.data th { background: var(--bg); position: sticky; top: 0; z-index: 1; white-space: nowrap; }
table.data th.text, table.data td.text { text-align: left; }
table.data th.num, table.data td.num { text-align: right; }
table.data tbody tr:hover { background: #f0f4fa; }
th button.sort { all: unset; cursor: pointer; font-weight: 600; }
th[aria-sort="ascending"] button.sort::after { content: " \\25B2"; font-size: 0.7em; }
th[aria-sort="descending"] button.sort::after { content: " \\25BC"; font-size: 0.7em; }
button.tool-link { all: unset; cursor: pointer; color: var(--accent); font-family: ui-monospace, Menlo, Consolas, monospace;
  font-size: 0.95em; text-decoration: underline dotted; }
button.tool-link:focus-visible, th button.sort:focus-visible { outline: 2px solid var(--accent); }
.pair { display: flex; gap: 1.5rem; margin: 0.5rem 0; }
.pair select { font: inherit; padding: 0.2rem 0.4rem; }
tr[data-change="added"] td:first-child { color: var(--fixed); font-weight: 600; }
tr[data-change="removed"] td:first-child { color: var(--refused); font-weight: 600; }
tr[data-change="changed"] td:first-child { color: var(--undelivered); font-weight: 600; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: 0.9em; }
.band-yes { color: var(--fixed); font-weight: 600; }
.band-no { color: var(--refused); font-weight: 600; }
tr[data-within="no"] { background: var(--refused-bg); }
details.run { border: 1px solid var(--line); border-radius: 6px; margin: 0.4rem 0; }
details.run > summary { cursor: pointer; padding: 0.5rem 0.75rem; background: var(--bg); }
details.run[open] > summary { border-bottom: 1px solid var(--line); }
details.run > *:not(summary) { margin-left: 0.75rem; margin-right: 0.75rem; }
.run-title { font-weight: 600; }
.badge { display: inline-block; padding: 0 0.4rem; border-radius: 3px; font-size: 0.85em; }
.badge.refused { background: var(--refused-bg); color: var(--refused); }
.badge.undelivered { background: var(--undelivered-bg); color: var(--undelivered); }
.status-ok { background: var(--fixed-bg); color: var(--fixed); }
.badge.status:not(.status-ok) { background: var(--refused-bg); color: var(--refused); }
.run-path { color: var(--muted); font-size: 0.85em; }
.run-error { color: var(--refused); }
ol.calls { list-style: none; padding: 0; margin: 0.5rem 0; }
li.call { display: grid; grid-template-columns: 2.5rem 1fr auto; gap: 0.15rem 0.75rem; padding: 0.3rem 0.5rem;
  border-left: 3px solid transparent; border-bottom: 1px solid #eef0f2; }
li.call .seq { color: var(--muted); }
li.call .what { overflow-wrap: anywhere; }
li.call .outcome { color: var(--muted); font-size: 0.85em; }
li.call .mark, li.call .message, li.call .allowed { grid-column: 2 / 4; margin: 0; font-size: 0.85em; }
li.call.listing { color: var(--muted); font-size: 0.85em; }
li.call[data-outcome="refused"] { border-left-color: var(--refused); background: var(--refused-bg); }
li.call[data-outcome="error"] { border-left-color: var(--refused); }
li.call[data-corrects] { border-left-color: var(--fixed); background: var(--fixed-bg); }
.mark { font-weight: 600; }
.mark-refused { color: var(--refused); }
.mark-corrects { color: var(--fixed); }
.mark-undelivered { color: var(--undelivered); }
ul.undelivered li { background: var(--undelivered-bg); border-left: 3px solid var(--undelivered); padding: 0.3rem 0.5rem;
  list-style: none; margin: 0.2rem 0; }
ul.undelivered, ul.checks { padding: 0; }
ul.checks li { list-style: none; }
li.check.pass .mark { color: var(--fixed); }
li.check.fail .mark { color: var(--refused); }
.command code { background: var(--bg); padding: 0.1rem 0.3rem; }
dialog#tool-dialog { max-width: min(60rem, 92vw); width: 60rem; max-height: 88vh; border: 1px solid var(--line);
  border-radius: 8px; padding: 1rem 1.5rem; }
dialog#tool-dialog::backdrop { background: rgba(20, 30, 40, 0.35); }
dialog#tool-dialog h2 { margin-top: 0; font-family: ui-monospace, Menlo, Consolas, monospace; }
dialog .close { float: right; }
[hidden] { display: none !important; }
"""

_SCRIPT = r"""
(function () {
  'use strict';
  window.__errors = [];
  window.addEventListener('error', function (e) { window.__errors.push(String(e.message || e)); });

  var data = JSON.parse(document.getElementById('page-data').textContent);
  var surfaces = {};
  data.surfaces.forEach(function (s) { surfaces[s.name] = s; });

  function visible(text) {
    return String(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, function (c) {
      var code = c.charCodeAt(0);
      return String.fromCharCode(code === 127 ? 0x2421 : 0x2400 + code);
    });
  }
  function fmt(n) {
    if (n === null || n === undefined || Number.isNaN(n)) { return '-'; }
    if (Number.isInteger(n)) { return n.toLocaleString('en-US'); }
    return n.toLocaleString('en-US', { maximumFractionDigits: 4 });
  }
  function signed(n) {
    if (n === null || n === undefined) { return '-'; }
    return (n > 0 ? '+' : n < 0 ? '\u2212' : '') + fmt(Math.abs(n));
  }

  // -- sortable, filterable tables --------------------------------------------------------------
  function sortRows(table) {
    var col = table.dataset.sortColumn;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = table.dataset.sortDir === 'descending' ? -1 : 1;
    var index = col === undefined ? -1 : Number(col);
    var numeric = index >= 0 && table.tHead.rows[0].cells[index].dataset.type === 'num';
    rows.sort(function (a, b) {
      if (index < 0) { return Number(a.dataset.index) - Number(b.dataset.index); }
      var x = a.cells[index].dataset.value, y = b.cells[index].dataset.value;
      var empty = (x === '' ? 1 : 0) - (y === '' ? 1 : 0);
      if (empty !== 0) { return empty; }
      var order = numeric ? Number(x) - Number(y) : x.localeCompare(y, 'en', { numeric: true });
      return order !== 0 ? dir * order : Number(a.dataset.index) - Number(b.dataset.index);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  function filterRows(table) {
    var box = document.querySelector('[data-filter-for="' + table.id + '"]');
    var words = (box ? box.value : '').toLowerCase().split(/\s+/).filter(Boolean);
    var rows = Array.prototype.slice.call(table.tBodies[0].rows), shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    var count = document.querySelector('[data-count-for="' + table.id + '"]');
    if (count) {
      count.textContent = (words.length ? fmt(shown) + ' of ' : '') + fmt(rows.length) + ' rows';
      count.dataset.shown = String(shown);
    }
    table.dataset.shown = String(shown);
  }
  function refresh(table) { sortRows(table); filterRows(table); }
  function setUp(table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.querySelector('button.sort').addEventListener('click', function () {
        var same = table.dataset.sortColumn === String(index);
        var dir = same && table.dataset.sortDir === 'ascending' ? 'descending' : 'ascending';
        table.dataset.sortColumn = String(index);
        table.dataset.sortDir = dir;
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
          other.setAttribute('aria-sort', other === th ? dir : 'none');
        });
        sortRows(table);
      });
    });
    var box = document.querySelector('[data-filter-for="' + table.id + '"]');
    if (box) { box.addEventListener('input', function () { filterRows(table); }); }
    filterRows(table);
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.data'), setUp);

  // -- the tool dialog ------------------------------------------------------------------------------
  var dialog = document.getElementById('tool-dialog');
  function findTool(surface, name) {
    var s = surfaces[surface];
    if (!s) { return null; }
    for (var i = 0; i < s.tool_list.length; i += 1) {
      if (s.tool_list[i].name === name) { return s.tool_list[i]; }
    }
    return null;
  }
  function openTool(surface, name) {
    var tool = findTool(surface, name);
    if (!tool) { return; }
    dialog.dataset.surface = surface;
    dialog.dataset.tool = name;
    document.getElementById('tool-dialog-title').textContent = visible(surface + ': ' + name);
    document.getElementById('tool-dialog-sizes').textContent =
      fmt(tool.chars) + ' chars, ' + fmt(tool.tokens) + ' tokens, ' + fmt(tool.marginal_tokens) + ' marginal tokens';
    document.getElementById('tool-dialog-description').textContent =
      tool.description === null ? '(no description)' : visible(tool.description);
    document.getElementById('tool-dialog-schema').textContent =
      tool.input_schema === null ? '(no inputSchema)' : visible(JSON.stringify(tool.input_schema, null, 2));
    document.getElementById('tool-dialog-wire').textContent = visible(tool.wire);
    if (!dialog.open) { dialog.showModal(); }
  }
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('button.tool-link') : null;
    if (link) { openTool(link.dataset.surface, link.dataset.tool); }
  });
  dialog.addEventListener('click', function (event) { if (event.target === dialog) { dialog.close(); } });

  // -- two surfaces side by side -------------------------------------------------------------------
  function row(cells, attrs) {
    var tr = document.createElement('tr');
    Object.keys(attrs || {}).forEach(function (k) { tr.setAttribute(k, attrs[k]); });
    cells.forEach(function (c) {
      var td = document.createElement('td');
      var numeric = typeof c === 'number' || c === null;
      td.className = numeric ? 'num' : 'text';
      if (c !== null && typeof c === 'object' && c.tool) {
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'tool-link';
        button.dataset.surface = c.surface;
        button.dataset.tool = c.tool;
        button.textContent = visible(c.tool);
        td.className = 'text';
        td.appendChild(button);
        td.dataset.value = c.tool;
      } else if (numeric) {
        td.textContent = fmt(c);
        td.dataset.value = c === null ? '' : String(c);
      } else {
        td.textContent = visible(c);
        td.dataset.value = String(c);
      }
      tr.appendChild(td);
    });
    return tr;
  }
  function toolsOf(name) {
    var out = {};
    (surfaces[name] ? surfaces[name].tool_list : []).forEach(function (t) { out[t.name] = t; });
    return out;
  }
  function whatChanged(x, y) {
    var parts = [];
    if (x.description !== y.description) { parts.push('description'); }
    if (JSON.stringify(x.input_schema) !== JSON.stringify(y.input_schema)) { parts.push('inputSchema'); }
    if (!parts.length) { parts.push('other fields'); }
    return parts.join(', ');
  }
  function diff(a, b) {
    return a === null || b === null ? null : b - a;
  }
  function compare() {
    var selectA = document.getElementById('compare-a'), selectB = document.getElementById('compare-b');
    if (!selectA) { return; }
    var a = selectA.value, b = selectB.value, toolsA = toolsOf(a), toolsB = toolsOf(b);
    var names = Object.keys(toolsA).concat(Object.keys(toolsB).filter(function (n) { return !(n in toolsA); }));
    var tools = document.getElementById('compare-tools'), changes = document.getElementById('compare-diff');
    var heads = tools.tHead.rows[0].cells;
    [['chars ', 1], ['chars ', 2], ['tokens ', 4], ['tokens ', 5]].forEach(function (h, i) {
      heads[h[1]].querySelector('button').textContent = h[0] + (i % 2 === 0 ? a : b);
    });
    heads[3].querySelector('button').textContent = 'chars ' + b + ' \u2212 ' + a;
    heads[6].querySelector('button').textContent = 'tokens ' + b + ' \u2212 ' + a;
    var toolRows = [], changeRows = [], counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
    names.forEach(function (name, index) {
      var x = toolsA[name] || null, y = toolsB[name] || null;
      var link = { tool: name, surface: y ? b : a };
      var cA = x ? x.chars : null, cB = y ? y.chars : null, tA = x ? x.tokens : null, tB = y ? y.tokens : null;
      toolRows.push(row([link, cA, cB, diff(cA, cB), tA, tB, diff(tA, tB)],
        { 'data-index': String(index), 'data-tool': name }));
      var change = !x ? 'added' : !y ? 'removed' : x.wire !== y.wire ? 'changed' : 'unchanged';
      counts[change] += 1;
      if (change !== 'unchanged') {
        var what = change === 'changed' ? whatChanged(x, y) : change === 'added' ? 'new tool' : 'tool gone';
        changeRows.push(row([change, link, what, cA, cB, cB === null ? -cA : cA === null ? cB : cB - cA],
          { 'data-index': String(changeRows.length), 'data-tool': name, 'data-change': change }));
      }
    });
    [[tools, toolRows], [changes, changeRows]].forEach(function (pair) {
      var body = pair[0].tBodies[0];
      while (body.firstChild) { body.removeChild(body.firstChild); }
      pair[1].forEach(function (r) { body.appendChild(r); });
      refresh(pair[0]);
    });
    var sa = surfaces[a], sb = surfaces[b];
    var summary = document.getElementById('compare-summary');
    summary.textContent = visible(a) + ': ' + fmt(sa.tools) + ' tools, ' + fmt(sa.chars) + ' chars, ' + fmt(sa.tokens) +
      ' tokens. ' + visible(b) + ': ' + fmt(sb.tools) + ' tools, ' + fmt(sb.chars) + ' chars, ' + fmt(sb.tokens) +
      ' tokens. Difference: ' + signed(sb.chars - sa.chars) + ' chars' +
      (sa.chars ? ' (' + signed(Math.round(1000 * (sb.chars - sa.chars) / sa.chars) / 10) + ' %)' : '') +
      (sa.tokens !== null && sb.tokens !== null ? ', ' + signed(sb.tokens - sa.tokens) + ' tokens.' : '.');
    var countLine = document.getElementById('compare-counts');
    countLine.textContent = counts.added + ' added, ' + counts.removed + ' removed, ' + counts.changed + ' changed, ' +
      counts.unchanged + ' unchanged.';
    ['added', 'removed', 'changed', 'unchanged'].forEach(function (k) { countLine.dataset[k] = String(counts[k]); });
    document.getElementById('compare-diff-title').textContent = 'What changed from ' + visible(a) + ' to ' + visible(b);
    var section = document.getElementById('compare');
    section.dataset.a = a;
    section.dataset.b = b;
  }
  ['compare-a', 'compare-b'].forEach(function (id) {
    var select = document.getElementById(id);
    if (select) { select.addEventListener('change', compare); }
  });
  compare();

  // -- transcripts ----------------------------------------------------------------------------------
  var runFilter = document.getElementById('filter-runs');
  function filterRuns() {
    var words = runFilter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var runs = Array.prototype.slice.call(document.querySelectorAll('details.run')), shown = 0;
    runs.forEach(function (run) {
      var text = run.querySelector('summary').textContent.toLowerCase() + ' ' + run.id.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      run.hidden = !keep;
      if (keep) { shown += 1; }
    });
    document.getElementById('count-runs').textContent = (words.length ? shown + ' of ' : '') + runs.length + ' runs';
  }
  if (runFilter) { runFilter.addEventListener('input', filterRuns); filterRuns(); }
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();

  window.addEventListener('load', function () {
    var images = Array.prototype.slice.call(document.images);
    var loaded = images.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
    document.body.setAttribute('data-charts', loaded + '/' + images.length);
    document.body.setAttribute('data-errors', String(window.__errors.length));
  });
  document.body.setAttribute('data-ready', '1');
})();
"""
