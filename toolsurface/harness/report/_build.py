"""One report of a study: the seed's tables regenerated from measurements, CSV and JSON of each table,
PNG charts, and optionally one self-contained HTML page. A report reads runs; it never re-runs them."""

from __future__ import annotations

import functools
import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.files import ensure_directory, write_atomic_all
from toolsurface.harness.output import PLAIN, Column, json_document, labels, markdown_table, shown
from toolsurface.harness.report._apart import Apart
from toolsurface.harness.report._chart_process import ChartDrawer, chart_drawer
from toolsurface.harness.report._charts import (
    AnswersChart,
    FindabilityChart,
    KindsChart,
    RefusedChart,
    SizeByToolChart,
    warm_charts,
)

if TYPE_CHECKING:
    import pandas as pd

    from toolsurface.harness.analyze.findability import Findability, SearchObserver
    from toolsurface.harness.analyze.lint import LintResult
    from toolsurface.harness.analyze.roundtrip import RoundTrip
    from toolsurface.harness.live import TakenSnapshot
    from toolsurface.harness.measure import KeptLists, ListCounter, Measurable, Measurement
    from toolsurface.harness.report._bundle import SeedRow
    from toolsurface.harness.session.plan import PlannedSurface
    from toolsurface.harness.session.record import RunRecord
    from toolsurface.harness.session.score import Study
    from toolsurface.harness.session.tool_search import SearchRequest, ToolSearchRun

__all__ = ["AUTO_SEARCH", "Chart", "Lead", "LiveServer", "Report", "Table", "build_report"]

# The search client of a report by default: the first installed of the clients whose own search toolsurface reads.
AUTO_SEARCH = "auto"


@dataclass
class Table:
    key: str
    title: str
    frame: pd.DataFrame
    command: str
    note: str = ""


@dataclass
class Chart:
    key: str
    title: str
    path: Path
    command: str


@dataclass
class Report:
    out: Path
    tables: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    # What the report leaves out for these surfaces, each with how to add it (findability with no queries).
    left_out: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LiveServer:
    """Live servers reported beside the surfaces (one given with --url or -- CMD, a client configuration's):
    `listed`, their lists as taken once (measured with the surfaces), and `args`, how a printed command names them
    (`--mcp-config FILE`, then `--url URL` or `-- CMD ARGS...`). `together`: the configuration and its servers
    as listed, for the table of what they cost together."""

    listed: tuple[TakenSnapshot, ...]
    args: tuple[str, ...]
    together: Any = None


@dataclass(frozen=True)
class Lead:
    """What a report of servers' lists alone (the corpus's) puts first: `tables`, made from the lists as measured
    and linted; `command`, the one that writes the report again (under its charts); `left_out`, what it leaves
    out, each with how to add it, in place of the study's (queries and a task a corpus has none of)."""

    tables: Callable[[Measurement, LintResult], list[Table]]
    command: str
    left_out: tuple[str, ...] = ()


def _quote(items: Sequence[str]) -> str:
    """Arguments of a printed command, quoted for a shell where they need it."""
    return shlex.join(items)


@dataclass(frozen=True)
class _Given:
    """The surfaces as a printed command names them: each spec, then the live server's arguments last (after
    every option, since `--` ends them), so each command runs as printed."""

    specs: tuple[str, ...]
    live: tuple[str, ...] = ()

    def command(self, verb: str, *options: str) -> str:
        return f"toolsurface {_quote([*verb.split(), *self.specs, *options, *self.live])}"


def _report_command(
    study_dirs: Sequence[Path],
    out: Path,
    surfaces: Sequence[str] | None,
    queries: Path | None,
    task: Path | None,
    counters: Sequence[ListCounter] = (),
    live: LiveServer | None = None,
) -> str:
    """The `toolsurface report` that writes this report's tables and charts again."""
    from toolsurface.harness.measure import is_o200k

    args = [str(d) for d in study_dirs]
    for surface in surfaces or ():
        args += ["--surface", surface]
    for option, path in (("--queries", queries), ("--task", task)):
        if path is not None:
            args += [option, str(path)]
    if any(not is_o200k(c) for c in counters):
        args += ["--tokens", ",".join(c.id for c in counters)]
    return f"toolsurface report {_quote([*args, '--out', str(out), *(live.args if live else ())])}"


# -- tables ----------------------------------------------------------------------------------------


def _frame(columns: Sequence[Column], rows: Sequence[Sequence[Any]]) -> pd.DataFrame:
    """A table of rows in `columns`, each headed by its label."""
    import pandas as pd

    names = labels(columns)
    return pd.DataFrame([dict(zip(names, row, strict=True)) for row in rows], columns=names)


def _measure_tables(m: Measurement, given: _Given, surfaces: Sequence[str]) -> list[Table]:
    import pandas as pd

    from toolsurface.harness.measure import (
        BY_KINDS_COLUMNS,
        PER_TOOL_COLUMNS,
        MeasureColumns,
        by_kinds_rows,
        measured_as,
        per_tool_rows,
        whole_title,
    )
    from toolsurface.harness.surface import PART_WORDS, own_study

    by_name = {s.name: s for s in m.surfaces}
    what = measured_as(s.server for s in m.surfaces)
    largest = {s.name: s.largest(1)[0].name if s.per_tool else "" for s in m.surfaces}
    c = MeasureColumns
    size = _frame(
        (c.surface, c.title, c.tools, c.chars, c.tokens, c.largest_tool, c.protocol),
        [[s.name, s.title, s.tools, s.chars, s.tokens, largest[s.name], s.protocol_version] for s in m.surfaces],
    )
    per_tool = _frame(PER_TOOL_COLUMNS, per_tool_rows(m))
    growth = pd.DataFrame(
        [
            {
                "surface": s.name,
                "kind": s.growth.kind,
                "tools": s.growth.tools,
                "chars": s.growth.chars,
                "tokens": s.growth.tokens,
                "added tools": ", ".join(s.growth.added_tools) or "-",
                "changed tools": ", ".join(s.growth.changed_tools) or "-",
            }
            for s in m.surfaces
            if s.growth is not None
        ]
    )
    by_kinds = _frame(BY_KINDS_COLUMNS, by_kinds_rows(m))
    parts = pd.DataFrame(
        [
            {
                "surface": s.name,
                "tools chars": s.chars,
                "tools tokens": s.tokens,
                **{
                    f"{PART_WORDS[p.part]} {unit}": (p.chars if unit == "chars" else p.tokens) if p.advertised else None
                    for p in s.parts
                    for unit in ("chars", "tokens")
                },
                "total chars": s.total_chars,
                "total tokens": s.total_tokens,
            }
            for s in m.surfaces
        ]
    )
    # A part one surface advertises and another does not: its figures whole numbers, and none (not NaN) for the other.
    for column in parts.columns:
        if parts[column].dtype.kind == "f":
            parts[column] = pd.Series([None if pd.isna(v) else int(v) for v in parts[column]], dtype=object)
    study, note = own_study(surfaces), ""
    baseline, candidate = study.headline if study is not None and study.headline else ("", "")
    before, after = by_name.get(baseline), by_name.get(candidate)
    if after is not None and before is not None and before.chars:
        note = f"{candidate} is {1 - after.chars / before.chars:.0%} smaller than {baseline}."
    answered = _answers_probed(m, given)
    # Growth and sizes by kinds are figures of surfaces built from kinds (ours); a server's list has neither,
    # and an empty table would say nothing.
    grown = [
        Table("growth", "Growth by one kind", growth, given.command("measure", "--format", "json")),
        Table("by_kinds", "List size by number of kinds", by_kinds, given.command("measure", "--format", "json")),
    ]
    return [
        Table(
            "list_size",
            f"List size per {what} (protocol {m.protocol_version}, tokens {m.encoding})",
            size,
            given.command("measure", "--per-tool", "--format", "markdown"),
            note,
        ),
        *answered,
        Table(
            "surface_parts",
            f"{whole_title(what)}: the tools and each part beside them, by the same rule",
            parts,
            given.command("measure", "--format", "markdown"),
            "Each part is the compact JSON of what the server advertised (the instructions by their text's characters); a part"
            " the server does not advertise is -.",
        ),
        Table("per_tool", "Per-tool sizes", per_tool, given.command("measure", "--per-tool", "--format", "csv")),
        *(table for table in grown if not table.frame.empty),
    ]


def _anatomy_tables(m: Measurement, given: _Given) -> list[Table]:
    """Where each surface's tokens go, part by part, and each tool's tokens by part."""
    from toolsurface.harness.measure import anatomy_share_table, anatomy_token_table

    command = given.command("measure", "--anatomy", "--format", "markdown")
    shares, tools = anatomy_share_table(m), anatomy_token_table(m)
    return [
        Table(
            "anatomy",
            "Where the tokens go: each part's o200k tokens over a surface's tools, and its share",
            _frame(*shares),
            command,
            "Each tool counted once; each token goes to the part of its first character, so the parts add up.",
        ),
        Table("tool_anatomy", "Tokens by part, per tool (o200k)", _frame(*tools), command),
    ]


def _servers_table(m: Measurement, together: Any, given: _Given, live_name: str) -> Table:
    """What the servers of a client's configuration cost together, a row per server and the total; `live_name`:
    the first live server's, whose figures a configured server that is that one takes."""
    import pandas as pd

    from toolsurface.harness.mcp_config import config_totals

    config, listed = together
    totals = config_totals(config, listed, m, given=live_name)
    rows = [
        {
            "server": r.name,
            "status": r.status,
            "tools": r.tools,
            "chars": r.chars,
            "tokens": r.tokens,
            "why": r.why or "-",
        }
        for r in totals.rows
    ]
    rows.append(
        {
            "server": "all" if totals.complete else totals.label,
            "status": "",
            "tools": totals.tools,
            "chars": totals.chars,
            "tokens": totals.tokens,
            "why": "",
        }
    )
    frame = pd.DataFrame(rows).astype({"tools": "Int64", "chars": "Int64", "tokens": "Int64"})
    return Table(
        "servers",
        f"The servers of {config.path.name} ({config.described}) together",
        frame,
        given.command("measure", "--format", "markdown"),
        "What every session of that client pays for these servers' lists before its first question.",
    )


def _answers_probed(m: Measurement, given: _Given) -> list[Table]:
    """What the tools' answers cost, for the surfaces whose snapshot recorded them (snapshot --probe)."""
    from toolsurface.harness.measure import ANSWER_COLUMNS, answer_rows

    rows = [row for s in m.surfaces if s.answers is not None for row in answer_rows(s.name, s.answers)]
    if not rows:
        return []
    note = (
        "Each probed tool's answers as its snapshot recorded them (snapshot --probe): the text of each answer, its"
        " tokens by the counter the probe used; the largest call is the one that gave the largest answer."
    )
    title = "What the tools' answers cost, as probed"
    return [Table("answers_probed", title, _frame(ANSWER_COLUMNS, rows), given.command("measure"), note)]


def _counters_table(m: Measurement, given: _Given) -> Table:
    """The tools' tokens as each counter counts them, side by side with the ratio to o200k, and a row for the
    framing (the same request with no tools)."""
    import pandas as pd

    from toolsurface.harness.measure import MeasureColumns, is_o200k

    def row(surface: str, figures: Sequence[tuple[str, int | None, float | None]]) -> dict[str, Any]:
        cells: dict[str, Any] = {MeasureColumns.surface.label: surface}
        for (counter, tokens, ratio), info in zip(figures, m.counters, strict=True):
            cells[f"{MeasureColumns.tokens.label} ({counter})"] = tokens
            if not is_o200k(info.id):
                ratio_label = f"{MeasureColumns.ratio_to_o200k.label} ({counter})"
                cells[ratio_label] = round(ratio, 2) if ratio is not None else None
        return cells

    rows = [row(s.name, [(f.counter, f.tokens, f.ratio) for f in s.counts]) for s in m.surfaces]
    if m.surfaces:
        rows.append(
            row("framing (the request without the list)", [(f.counter, f.framing, None) for f in m.surfaces[0].counts])
        )
    # Objects, so a count stays a whole number beside the framing row's empty cells.
    frame = pd.DataFrame(rows, dtype=object)
    ids = ",".join(c.id for c in m.counters)
    note = " ".join(f"{c.name}: {c.label} ({c.source})." for c in m.counters)
    return Table(
        "tokens_by_counter",
        "Tokens by counter (the tools' tokens: for a counter of requests, the request with the list minus the framing)",
        frame,
        given.command("measure", "--tokens", ids, "--format", "markdown"),
        note,
    )


def _session_tables(study: Study, dirs: Sequence[str], listed: Sequence[str] = ()) -> list[Table]:
    """The study's tables, each under the `session score` that prints it; `listed`: how that command names the
    server's current list (--surface NAME, --url URL or -- CMD, last), where an imported study was scored with one."""
    import pandas as pd

    rows = []
    for s in study.surfaces:
        rows.append(
            {
                "surface": s.surface,
                "agent": s.client,
                "mode": s.mode,
                "scenario": s.scenario,
                "runs": s.runs,
                "status": ", ".join(f"{name} {count}" for name, count in s.statuses.items()),
                "calls per run": ", ".join(map(str, s.calls_per_run)),
                "refused calls": ", ".join(map(str, s.refused_per_run)),
                "undelivered calls": ", ".join(map(str, s.undelivered_per_run)),
                "what was refused": "; ".join(f"{g.tool}: {g.message}" for g in s.refused) or "-",
                "corrected next": ", ".join(f"{g.corrected_next} of {g.count}" for g in s.refused) or "-",
                "outcome failures": "; ".join(f"{f.check} ({f.runs} runs): {f.detail}" for f in s.outcome_failures)
                or "-",
                "what was undelivered": "; ".join(f"{g.tool}: {g.reason} ({g.count})" for g in s.undelivered) or "-",
                "errors": "; ".join(f"{e.status}: {e.error} ({e.runs} runs)" for e in s.errors) or "-",
                "pass^1": s.pass_at_1,
            }
        )
    comparisons = pd.DataFrame(
        [
            {
                "a": c.a,
                "b": c.b,
                "scenario": c.scenario,
                "metric": c.metric,
                "a mean": c.a_mean,
                "b mean": c.b_mean,
                "runs needed": c.runs_needed,
            }
            for c in study.comparisons
        ]
    )
    # Its JSON, not its table: the table gives a range of calls where this one gives every run's.
    command = f"toolsurface session score {_quote([*dirs, '--format', 'json', *listed])}"
    tables = [
        Table("sessions", f"Sessions: {study.scenario}, agent {study.agent}", pd.DataFrame(rows), command),
        Table("session_noise", "Runs per surface a difference needs (95 %)", comparisons, command),
    ]
    if study.shown:
        shown = pd.DataFrame(
            [
                {
                    "surface": r.surface,
                    "agent": f"{r.agent} {r.agent_version}" if r.agent_version else r.agent,
                    "mode": r.mode,
                    "stub's shown first": r.first_shown.tools if r.first_shown else None,
                    "stub's shown chars first": r.first_shown.chars if r.first_shown else None,
                    "stub's deferred first": r.first_deferred.tools if r.first_deferred else None,
                    "built-in first": r.first_builtin.tools if r.first_builtin else None,
                    "built-in chars first": r.first_builtin.chars if r.first_builtin else None,
                    "tools first": r.first_tools,
                    "stub tools first": r.first_stub_tools,
                    "chars first": r.first_chars,
                    "tokens first": r.first_tokens,
                    "tools last": r.last_tools,
                    "stub tools last": r.last_stub_tools,
                    "chars last": r.last_chars,
                    "tokens last": r.last_tokens,
                    "system prompt chars": r.system_chars,
                    "searches": r.searches,
                    "API input tokens, first request": r.api_input_tokens_first,
                }
                for r in study.shown
            ]
        )
        tables.append(
            Table(
                "model_shown", "What the model was shown (first request, and last after every search)", shown, command
            )
        )
        changes = _tool_changes(study, command)
        if changes is not None:
            tables.append(changes)
    imported = _imported_tools(study, command)
    if imported is not None:
        tables.append(imported)
    if study.answers:
        # Its table, which shows each share as the report does.
        tables.append(_answers_table(study, f"toolsurface session score {_quote([*dirs, *listed])}"))
    return tables


def _against_list(study: Study, items: Sequence[Measurable], live: bool) -> Study:
    """An imported study beside the server's current list: the live server's, else the one surface reported."""
    from dataclasses import replace

    from toolsurface.harness.session.score import listed_names, server_tools

    if not any(s.imported for s in study.surfaces) or not items or (len(items) > 1 and not live):
        return study
    item = items[-1]
    return replace(study, server_tools=server_tools(study, item.name, listed_names(item)))


def _list_args(study: Study, named: Sequence[str], live: LiveServer | None) -> list[str]:
    """How `session score` is given the list an imported study was scored against here (`_against_list`)."""
    if not study.server_tools:
        return []
    return list(live.args) if live is not None else ["--surface", named[-1]]


def _imported_tools(study: Study, command: str) -> Table | None:
    """Per imported server: the tools its sessions never called and the tools called that its list no longer has;
    without a list, a table of one note that says these need one."""
    import pandas as pd

    from toolsurface.harness.session.score import NEEDS_A_LIST

    if not any(s.imported for s in study.surfaces):
        return None
    rows = [
        {
            "server": row.server,
            "listed as": row.listed_as,
            "tools listed": len(row.listed),
            "tools never called": ", ".join(row.never_called) or "none",
            "called, no longer listed": ", ".join(f"{tool} ({n})" for tool, n in row.not_listed.items()) or "none",
        }
        for row in study.server_tools or []
    ]
    columns = ["server", "listed as", "tools listed", "tools never called", "called, no longer listed"]
    note = "" if study.server_tools is not None else NEEDS_A_LIST
    frame = pd.DataFrame(rows, columns=columns)
    return Table("imported_tools", "Imported sessions against the server's list", frame, command, note)


def _tool_changes(study: Study, command: str) -> Table | None:
    """Each of the stub's tools as each client's first request carried it, in runs that kept it: renamed, cut,
    its schema rewritten, left out; chars and o200k tokens as listed and as sent."""
    import pandas as pd

    from toolsurface.harness.clients import describe_description, describe_schema

    rows = [
        {
            "surface": r.surface,
            "agent": f"{r.agent} {r.agent_version}" if r.agent_version else r.agent,
            "mode": r.mode,
            "tool": t.tool,
            "sent as": t.sent_as,
            "as": t.how,
            "name": t.name_change or ("kept" if t.sent_as else None),
            "description": describe_description(t),
            "schema": describe_schema(t),
            "left out": ", ".join(t.dropped) or None,
            "chars listed": t.chars_before,
            "chars sent": t.chars_after if t.how not in ("dropped", "namespace") else None,
            "tokens listed": t.tokens_before,
            "tokens sent": t.tokens_after if t.how not in ("dropped", "namespace") else None,
            "refused by the API": t.refused,
        }
        for r in study.shown
        for t in r.first_sent or []
    ]
    if not rows:
        return None
    return Table(
        "tool_changes",
        "What each client did to each tool (first request; as listed and as sent)",
        pd.DataFrame(rows, dtype=object),
        command,
        "Matched by each client's own naming rule; a schema change is a keyword path added (+), removed (-) or"
        " changed (~).",
    )


def _answers_table(study: Study, command: str) -> Table:
    import pandas as pd

    from toolsurface.harness.session.score import marked_answers

    def whole(value: float | None) -> float | int | None:
        """A median as a whole number where it is one (half values where the runs had an even count)."""
        return int(value) if value is not None and float(value).is_integer() else value

    labels = study.labels()
    frame = pd.DataFrame(
        [
            {
                "surface": labels.get((r.surface, r.agent, r.mode, r.scenario), r.surface),
                "tool": r.tool,
                "calls": r.calls,
                "median chars": whole(r.median_chars),
                "largest chars": r.max_chars,
                "median tokens": whole(r.median_tokens),
                "largest tokens": r.max_tokens,
                "share of context": f"{r.share:.1%}" if r.share is not None else None,
            }
            for r in marked_answers(study)
        ],
        dtype=object,
    ).astype({"calls": "int64", "largest chars": "int64"})
    note = (
        "Each tools/call answer as the stub sent it (its text, o200k_base tokens); share of context: the tool's"
        " answers over what the surface put into the sessions, its tools list once and every answer, summed over"
        " the runs."
    )
    return Table("answers", "What tool answers cost, per surface and tool", frame, command, note)


@dataclass(frozen=True)
class AnalysisTables:
    """The analyzers' tables of a report, and the findability result its chart is drawn from."""

    tables: list[Table]
    findability: Findability | None
    roundtrip: RoundTrip | None
    left_out: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Analysis:
    """What the analyzers found over the report's surfaces, before any table is made of it; `absent` says why
    a client's own search's columns are absent (empty: they are there). Findability and the round trip are None where
    the surfaces have no queries or task (no study of theirs declares one and none was given)."""

    roundtrip: RoundTrip | None
    findability: Findability | None
    lint: LintResult
    absent: str


@dataclass(frozen=True)
class _Searched:
    """The report's surfaces as a client's own search plans them: those named, then the servers listed here."""

    named: tuple[str, ...]
    listed: tuple[TakenSnapshot, ...]

    def planned(self) -> list[PlannedSurface]:
        from toolsurface.harness.session.plan import plan_listed, plan_surface

        return [*(plan_surface(spec) for spec in self.named), *(plan_listed(taken) for taken in self.listed)]


def _client_search(specs: _Searched, wanted: str | None) -> tuple[SearchObserver | None, str | None, str]:
    """The own search over the surfaces of the client `wanted` (AUTO_SEARCH: the first whose search toolsurface reads
    that is installed, on PATH and new enough; None: no client), and its name; else None and the note that says why
    its columns are absent. A client wanted by name that is not installed is the report's error."""
    from toolsurface.harness.agents import client_card, search_clients
    from toolsurface.harness.session.tool_search import ToolSearchUnavailable, tool_search_client

    if wanted is None:
        return None, None, "No client's own search was asked for (--search-client none)."
    absent = ""
    for client in search_clients() if wanted == AUTO_SEARCH else (wanted,):
        try:
            tool_search_client(client)
        except ToolSearchUnavailable as error:
            if wanted != AUTO_SEARCH:
                raise
            absent = absent or f"{client_card(client).title}'s columns are absent: {error}."
            continue
        return functools.partial(_searched, specs, client), client, ""
    return None, None, absent


def _searched(specs: _Searched, client: str, searches: Sequence[SearchRequest]) -> list[ToolSearchRun]:
    """The searches made through the client's own search over the surfaces, each planned once."""
    from toolsurface.harness.session.tool_search import observe_tool_search

    return observe_tool_search(specs.planned(), searches, client=client)


def _roundtrip_table(trip: RoundTrip, given: _Given, options: Sequence[str], absent: str) -> Table:
    import pandas as pd

    from toolsurface.harness.agents import client_card

    rows = []
    for s in trip.surfaces:
        row: dict[str, Any] = {
            "surface": s.name,
            "tools loaded on demand": " + ".join(s.tools),
            "chars": s.chars,
            "tokens": s.tokens,
            "searches": s.searches,
            "whole list tokens": s.list_tokens,
        }
        if s.observed is not None:
            o = s.observed
            title = client_card(o.client).title
            row |= {
                f"{title} loaded": " + ".join(o.tools),
                f"{title} chars": o.chars,
                f"{title} tokens": o.tokens,
                "difference chars": o.difference_chars,
                "difference tokens": o.difference_tokens,
            }
        rows.append(row)
    client = trip.client
    if client is None:
        return Table(
            "roundtrip",
            f"Round trip for on-demand clients: {trip.task}",
            pd.DataFrame(rows),
            given.command("roundtrip", *options, "--format", "csv"),
            absent,
        )
    card = client_card(client.client)
    title = card.title
    note = (
        f"{title} {client.version} ({client.mode}, its own {card.search_tool}, one session per surface, a scripted"
        " model making one search per step): what its searches added to the next request's tools array, every tool"
        f" each search returned, as {title} presents it; difference: {title} - computed."
    )
    return Table(
        "roundtrip",
        f"Round trip for on-demand clients: {trip.task}, computed and as {title} {client.version} paid it",
        pd.DataFrame(rows),
        given.command("roundtrip", *options, "--client", card.name, "--format", "csv"),
        note,
    )


def _findability_table(found: Findability, given: _Given, options: Sequence[str], absent: str) -> Table:
    import pandas as pd

    from toolsurface.harness.agents import client_card

    client = found.client
    rows = []
    for s in found.surfaces:
        for r in s.queries:
            row: dict[str, Any] = {
                "surface": s.name,
                "query": r.query,
                "scorer": r.scorer,
                "expected": r.expected,
                "rank": r.rank,
                "top": r.top,
                "missing words": ", ".join(r.missing) or "-",
            }
            if client is not None:
                row["returned"] = ", ".join(r.returned) if r.returned is not None else "-"
            rows.append(row)
    title = "Findability: rank of the intended tool per query (keyword: name 3, first sentence 2, rest 1; BM25 k1 1.2, b 0.75"
    if client is None:
        command, note = given.command("findability", *options, "--format", "csv"), absent
    else:
        card = client_card(client.name)
        assert card.search_reading is not None
        title += f"; {card.title} {client.version}'s own {card.search_tool}"
        command = given.command("findability", *options, "--scorer", "all", "--format", "csv")
        note = (
            f"{card.name}: {card.title} {client.version} ({client.mode}, one session per surface, a scripted model"
            f" issuing each query as a {card.search_tool} call); its rank is the intended tool's place among the tools"
            f" it returned ({card.search_reading.default_results} at most, its default)."
        )
    return Table("findability", title + ")", pd.DataFrame(rows).astype({"rank": "Int64"}), command, note)


def _study_files(specs: Sequence[str], queries: Path | None, task: Path | None) -> tuple[Path | None, Path | None]:
    """The queries and the round-trip task the report applies: those given, else those of the one study all the
    surfaces belong to; never another study's (its queries name tools these surfaces do not have)."""
    from toolsurface.harness.surface import own_study

    study = own_study(specs)
    return queries or (study.queries if study else None), task or (study.task if study else None)


def _analyze(
    items: Sequence[Measurable], specs: _Searched, queries: Path | None, task: Path | None, search_client: str | None
) -> Analysis:
    """Round trip, findability and lint, from the same surfaces the measurement read; with a client whose search
    toolsurface reads installed (`search_client`, as build_report takes it), its own search's findability and round trip
    beside ours. `queries` and `task` are the findability queries and the round-trip task (None: there are none for
    these surfaces)."""
    from toolsurface.harness.analyze.findability import WORD_SCORERS, findability, load_queries
    from toolsurface.harness.analyze.lint import lint
    from toolsurface.harness.analyze.roundtrip import load_task, roundtrip

    searched = queries is not None or task is not None
    observe, client, absent = _client_search(specs, search_client) if searched else (None, None, "")
    trip = roundtrip(items, load_task(task), observe=observe) if task is not None else None
    # The report's ranks are by words (and a client's own search), as the seed's figures are.
    scorers = (*WORD_SCORERS, *([client] if client is not None else []))
    found = findability(items, load_queries(queries), scorers=scorers, observe=observe) if queries is not None else None
    return Analysis(trip, found, lint(items), absent)


def _list_all(items: Sequence[Measurable]) -> KeptLists:
    """Every list measuring `items` needs (each surface, grown by one kind, and by one to N kinds), as a client
    receives it: the MCP SDK's import and the listing, done apart from the rest of the report."""
    from toolsurface.harness.measure import kept_lists, lists_kept, measure

    with lists_kept():
        measure(items, tokens=False)
        return kept_lists(items)


def _analysis_tables(
    analysis: Analysis, given: _Given, queries: Path | None = None, task: Path | None = None
) -> AnalysisTables:
    """The analyzers' tables; `queries` and `task` as the user named them (None: the study's own, which a
    printed command finds by itself)."""
    import pandas as pd

    from toolsurface.harness.analyze.lint import FINDING_COLUMNS, lint_rows

    trip, found, linted, absent = analysis.roundtrip, analysis.findability, analysis.lint, analysis.absent
    from toolsurface.harness.analyze.lint import rules as registered_rules

    # A column per rule that found something in some surface: the table stays as wide as what was found, however
    # many rules there are (the rest are in `toolsurface lint --rules`).
    rules = [r for r in registered_rules() if any(s.counts()[r.name] for s in linted.surfaces)]
    counts = [
        {
            "surface": s.name,
            **{f"{rule.id} {rule.name}": s.counts()[rule.name] for rule in rules},
            **s.severities(),
            "rules with findings": len(s.categories),
        }
        for s in linted.surfaces
    ]
    tables, left_out = [], []
    if trip is not None:
        tables.append(_roundtrip_table(trip, given, ["--task", str(task)] if task else [], absent))
    else:
        left_out.append(
            "The round trip for on-demand clients: these surfaces have no round-trip task (a JSON file of steps,"
            ' each {"query": ..., "expected": {SURFACE: TOOL}}); name one with --task FILE.'
        )
    if found is not None:
        tables.append(_findability_table(found, given, ["--queries", str(queries)] if queries else [], absent))
    else:
        left_out.append(
            "Findability: these surfaces have no queries of their own. `"
            + given.command("new queries", "-o", "queries.json")
            + "` writes a starter file (one draft query per tool); rewrite the queries in your users' words,"
            " then report again with --queries queries.json."
        )
    tables += [
        Table(
            "lint",
            "Lint summary: findings per rule and severity",
            pd.DataFrame(counts),
            given.command("lint", "--format", "json"),
        ),
        Table(
            "lint_findings",
            "Lint findings",
            _frame(FINDING_COLUMNS, lint_rows(linted)),
            given.command("lint"),
            "" if linted.surfaces and any(s.findings for s in linted.surfaces) else "No findings.",
        ),
    ]
    return AnalysisTables(tables, found, trip, left_out)


def _package_path(path: Path) -> str:
    """A file inside a Python package as its package names it (`top/package/file.json`, wherever it is
    installed); another as given."""
    top = path.parent
    while (top / "__init__.py").is_file():
        top = top.parent
    return path.relative_to(top).as_posix() if top != path.parent else str(path)


def _seed_table(rows: Sequence[SeedRow], command: str, figures: Path) -> Table:
    import pandas as pd

    frame = pd.DataFrame(
        [
            {
                "figure": r.what,
                "surface": r.surface or "-",
                "tool": r.tool or "-",
                "unit": r.unit,
                "seed": shown(r.seed),
                "ours": shown(r.ours),
                "difference": f"{r.difference:+.1%}" if r.difference is not None else "-",
                "within band": shown(r.within_band),
                "seed lines": ", ".join(map(str, r.seed_lines)) or "-",
            }
            for r in rows
        ]
    )
    note = (
        "Each figure the seed gives, beside ours: the difference is (ours - seed) / seed; bands are chars within 10 %,"
        f" tokens within 15 %, counts exact, ranges as given ({_package_path(figures)})."
    )
    return Table("seed", "The seed's figures beside ours", frame, command, note)


# -- output ----------------------------------------------------------------------------------------


def _frame_markdown(frame: pd.DataFrame) -> str:
    """report.md's table: each value as it has always read there (PLAIN), numbers right-aligned."""
    right = {n for n, c in enumerate(frame.columns) if frame[c].dtype.kind in "iuf"}
    rows = [[shown(v, PLAIN) for v in row] for row in frame.itertuples(index=False)]
    return markdown_table(list(map(str, frame.columns)), rows, right, breaks="spaced")


def _markdown(report: Report, created: str) -> str:
    parts = [f"# toolsurface report\n\nMade {created}. Every table below can be regenerated by the command under it.\n"]
    charts = {c.key: c for c in report.charts}
    for table in report.tables:
        parts.append(f"\n## {table.title}\n\n{_frame_markdown(table.frame)}")
        if table.note:
            parts.append(f"\n{table.note}\n")
        parts.append(f"\n`{table.command}`\n")
        for chart in [c for key, c in charts.items() if key.startswith(table.key + ".")]:
            parts.append(f"\n![{chart.title}]({chart.path.relative_to(report.out).as_posix()})\n")
    if report.left_out:
        parts.append("\n## Not in this report\n\n" + "".join(f"- {text}\n" for text in report.left_out))
    return "".join(parts)


Seed = Sequence["SeedRow | Mapping[str, Any]"]


def _html(
    report: Report,
    created: str,
    measured: Measurement,
    study_dirs: Sequence[Path],
    seed: Seed,
    images: dict[str, bytes],
    scored: tuple[Sequence[RunRecord], Study] | None,
) -> str:
    from toolsurface.harness.report._bundle import BundleChart, build_bundle, table_from_frame
    from toolsurface.harness.report._page import render_page

    bundle = build_bundle(
        measured,
        study_dirs,
        seed=seed,
        charts=[BundleChart(c.key, c.title, c.command) for c in report.charts],
        tables=[table_from_frame(t.key, t.title, t.frame, t.command, t.note) for t in report.tables],
        created=created,
        left_out=report.left_out,
        scored=scored,
    )
    return render_page(bundle, images)


Section = Callable[[Sequence[str]], list[Table]]


def build_report(
    study_dirs: Sequence[Path],
    out: Path,
    *,
    surfaces: Sequence[str] | None = None,
    html_page: bool = False,
    extra_sections: Sequence[Section] = (),
    seed: Seed = (),
    seed_figures: Path | None = None,
    queries: Path | None = None,
    task: Path | None = None,
    counters: Sequence[ListCounter] = (),
    live: LiveServer | None = None,
    lead: Lead | None = None,
    search_client: str | None = AUTO_SEARCH,
) -> Report:
    """Measure the surfaces, read the runs, and write report.md, tables/*.csv|json, charts/*.png (+ report.html).

    `seed_figures`: a seed figures file (`toolsurface-seed-figures/1`) whose figures are compared with ours in
    a table of their own and on the page; the bundled study's own when the bundled surfaces are reported.
    `seed`: seed comparison rows given as they are (records or mappings of their fields).
    `queries`, `task`: the findability queries and the round-trip task (default: those of the surfaces' study).
    `counters`: token counters whose figures are shown beside o200k's (which every other table keeps, as the
    seed's figures are o200k's). `live`: a live server listed once, reported after the surfaces. `lead`: tables
    put first and the command that writes the report again (report --corpus). `search_client`: the client whose own
    tool search gives its columns (AUTO_SEARCH: the first installed; None: none)."""
    # The charts are drawn in a child process as their figures are ready (_chart_process), started before the
    # rest of the report is even imported, so that matplotlib's import overlaps all of it; the page waits.
    # numpy, which both matplotlib and the tables' pandas import, is imported once, here, before the child
    # is forked, rather than once in each.
    import numpy  # noqa: F401

    if search_client not in (AUTO_SEARCH, None):
        from toolsurface.harness.session.tool_search import tool_search_client

        # A client asked for by name and not installed is said before anything is written.
        tool_search_client(search_client)
    with chart_drawer(warm_charts) as charts:
        return _report_with(
            charts,
            study_dirs,
            out,
            surfaces,
            html_page,
            extra_sections,
            seed,
            seed_figures,
            queries,
            task,
            counters,
            live,
            lead,
            search_client,
        )


def _report_with(
    charts: ChartDrawer,
    study_dirs: Sequence[Path],
    out: Path,
    surfaces: Sequence[str] | None,
    html_page: bool,
    extra_sections: Sequence[Section],
    seed: Seed,
    seed_figures: Path | None,
    queries: Path | None,
    task: Path | None,
    counters: Sequence[ListCounter],
    live: LiveServer | None,
    lead: Lead | None,
    search_client: str | None,
) -> Report:
    from toolsurface.harness.surface import default_surfaces, resolve_all, study_for

    named = list(surfaces or ([] if live is not None else default_surfaces()))
    listed = list(live.listed) if live is not None else []
    # A server listed here belongs to no study, and is looked up by no spec.
    specs = [*named, *("" for _ in listed)]
    given = _Given(tuple(named), live.args if live is not None else ())
    items = [*resolve_all(named), *(taken.as_snapshot() for taken in listed)]
    from toolsurface.harness.measure import plain_lists

    # Surfaces that need the MCP SDK to be listed are listed in a child process (_apart: the SDK's import and
    # the listing), the longest part of a report and so started first, while this one reads the runs, loads
    # the tokenizer, scores the runs and makes their tables; then measured and analyzed here. Surfaces of
    # plain data are listed here, at once (their grown lists when measured).
    plain = plain_lists(items)
    with Apart(_list_all, items) if plain is None else nullcontext() as apart:
        from toolsurface.harness.measure import O200K_COUNTER, encoding, is_o200k, lists_kept, measure
        from toolsurface.harness.report._bundle import shown_runs
        from toolsurface.harness.session.score import find_runs, score_study

        # A missing or broken run folder is an error before any chart is drawn.
        records = shown_runs(find_runs(study_dirs)) if study_dirs else []
        others = [c for c in counters if not is_o200k(c)]
        ensure_directory(out / "tables")
        ensure_directory(out / "charts")
        encoding()
        study = score_study(records) if study_dirs else None
        if study is not None:
            study = _against_list(study, items, live is not None)
            charts.draw(RefusedChart.of(study).draw, out / "charts" / "refused_per_run.png")
            if study.answers:
                charts.draw(AnswersChart.of(study).draw, out / "charts" / "answers_per_tool.png")
        report = Report(out)
        sessions = (
            _session_tables(study, [str(d) for d in study_dirs], _list_args(study, named, live))
            if study is not None
            else []
        )
        lists = apart.result() if apart is not None else plain or {}
        with lists_kept(items, lists):
            measured = measure(items, counters=[O200K_COUNTER, *others] if others else (), anatomy=True)
            charts.draw(SizeByToolChart.of(measured).draw, out / "charts" / "list_size_by_tool.png")
            kinds = any(s.by_kinds for s in measured.surfaces)
            if kinds:
                charts.draw(KindsChart.of(measured).draw, out / "charts" / "size_by_kinds.png")
            applied_queries, applied_task = _study_files(specs, queries, task)
            results = _analyze(
                items, _Searched(tuple(named), tuple(listed)), applied_queries, applied_task, search_client
            )
            analyzed = _analysis_tables(results, given, queries, task)
        analysis, found = analyzed.tables, analyzed.findability
        if found is not None:
            charts.draw(FindabilityChart.of(found).draw, out / "charts" / "findability_ranks.png")
        if lead is not None:
            report.tables += lead.tables(measured, results.lint)
        report.tables += _measure_tables(measured, given, specs) + _anatomy_tables(measured, given)
        if live is not None and live.together is not None:
            # A configured server that is the live one given (listed first of live.listed) takes its figures.
            report.tables.append(_servers_table(measured, live.together, given, items[len(named)].name))
        if measured.counters:
            report.tables.append(_counters_table(measured, given))
        report.tables += analysis
        report.left_out += analyzed.left_out if lead is None else lead.left_out
        for section in extra_sections:
            report.tables += section(specs)
        again = (
            _report_command(study_dirs, out, surfaces, queries, task, counters, live) if lead is None else lead.command
        )
        report.charts.append(
            Chart(
                "list_size.by_tool",
                "List size per surface, stacked by tool",
                out / "charts" / "list_size_by_tool.png",
                again,
            )
        )
        if kinds:
            report.charts.append(
                Chart(
                    "by_kinds.lines",
                    "List size against number of kinds",
                    out / "charts" / "size_by_kinds.png",
                    given.command("measure", "--format", "json"),
                )
            )
        if found is not None:
            report.charts.append(
                Chart(
                    "findability.ranks",
                    "Findability ranks",
                    out / "charts" / "findability_ranks.png",
                    given.command(
                        "findability",
                        *(["--queries", str(queries)] if queries else []),
                        # A client's own search is drawn too where it ran.
                        *(["--scorer", "all"] if found.client is not None else []),
                    ),
                )
            )
        if study is not None:
            report.tables += sessions
            if study.answers:
                report.charts.append(
                    Chart(
                        "answers.per_tool",
                        "What tool answers cost, per surface and tool",
                        out / "charts" / "answers_per_tool.png",
                        again,
                    )
                )
            report.charts.append(
                Chart(
                    "sessions.refused",
                    "Refused calls per run",
                    out / "charts" / "refused_per_run.png",
                    again,
                )
            )
        if seed_figures is None and surfaces is None and live is None:
            seed_figures = default.seed_figures if (default := study_for(())) is not None else None
        if seed_figures is not None:
            from toolsurface.harness.report._seed import SeedContext, compare_seed, load_seed

            rows = compare_seed(
                load_seed(seed_figures), SeedContext(measured, analyzed.roundtrip, found, list(records))
            )
            seed = [*seed, *rows]
            report.tables.append(_seed_table(rows, again, seed_figures))
        tables: dict[Path, str | bytes] = {}
        for table in report.tables:
            tables[out / "tables" / f"{table.key}.csv"] = table.frame.to_csv(index=False)
            cells = json.loads(table.frame.to_json(orient="records"))
            document = {"title": table.title, "command": table.command, "rows": cells}
            tables[out / "tables" / f"{table.key}.json"] = json_document(document)
        staged = charts.wait()
    charts_written = {c.path: staged[c.path] for c in report.charts}
    created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    pages: dict[Path, str | bytes] = {out / "report.md": _markdown(report, created)}
    if html_page:
        images = {c.key: charts_written[c.path] for c in report.charts}
        scored = (records, study) if study is not None else None
        pages[out / "report.html"] = _html(report, created, measured, study_dirs, seed, images, scored)
    # Every file was staged; all are written at once: a report half-written over an older one is never left.
    report.files += write_atomic_all([*tables.items(), *charts_written.items(), *pages.items()])
    return report
