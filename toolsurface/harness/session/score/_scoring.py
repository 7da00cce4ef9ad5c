"""Scoring a study: the seed's table per surface, pass^k, and how many runs a difference needs.

pass^k (tau-bench's unbiased estimator): with n runs of which c passed every check,
pass^k = C(c, k) / C(n, k), the chance that k runs drawn from the n all pass.

Runs needed: for a metric with per-run values on surfaces A and B, the difference d = mean(A) - mean(B)
exceeds the noise at about 95 % once 1.96 * sqrt((var(A) + var(B)) / n) < |d|, so
n >= 1.96^2 * (var(A) + var(B)) / d^2 runs per surface (sample variances; at least 2).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import statistics
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from toolsurface.harness.endpoint import SentTool, ToolPart
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import Block, Column, Table, Text, View, markdown_cell
from toolsurface.harness.run_folder import CALLS, RESULT, SPEC, STUDY
from toolsurface.harness.session.record import RunRecord, RunStateError, read_run
from toolsurface.harness.session.score._answers import ALL_TOOLS, AnswerRow, answer_rows, answers_markdown, run_answers
from toolsurface.harness.session.score._cuts import AnswerCut, answer_cuts, cuts_markdown
from toolsurface.harness.session.score._listed import NEEDS_A_LIST, ServerTools, server_tools_table

Z95 = 1.96


def pass_hat_k(n: int, c: int, k: int) -> float:
    if not 0 < k <= n:
        raise ValueError(f"k must be between 1 and n={n}")
    return math.comb(c, k) / math.comb(n, k)


def runs_needed(a: Sequence[float], b: Sequence[float]) -> int | None:
    """Runs per surface before the difference of the means exceeds the noise; None if there is none."""
    if not a or not b:
        return None
    difference = statistics.fmean(a) - statistics.fmean(b)
    if difference == 0:
        return None
    variance = (statistics.variance(a) if len(a) > 1 else 0.0) + (statistics.variance(b) if len(b) > 1 else 0.0)
    return max(2, math.ceil(Z95**2 * variance / difference**2))


@dataclass(frozen=True)
class RefusalGroup:
    tool: str
    message: str
    runs: int
    count: int
    corrected_next: int


@dataclass(frozen=True)
class UndeliveredGroup:
    tool: str
    reason: str
    message: str
    runs: int
    count: int


@dataclass(frozen=True)
class ErrorGroup:
    status: str
    error: str
    runs: int


@dataclass(frozen=True)
class OutcomeFailure:
    check: str
    runs: int
    detail: str


@dataclass(frozen=True)
class SurfaceScore:
    surface: str
    agent: str
    mode: str
    model: str | None
    runs: int
    statuses: dict[str, int]
    calls_per_run: list[int]
    refused_per_run: list[int]
    refused: list[RefusalGroup]
    outcome_failures: list[OutcomeFailure]
    pass_at_1: float
    pass_hat_k: dict[str, float]
    tokens_per_run: list[int | None] = field(default_factory=list)
    cost_usd_per_run: list[float | None] = field(default_factory=list)
    run_dirs: list[str] = field(default_factory=list)
    undelivered_per_run: list[int] = field(default_factory=list)
    undelivered: list[UndeliveredGroup] = field(default_factory=list)
    errors: list[ErrorGroup] = field(default_factory=list)
    scenario: str = ""
    agent_version: str | None = None
    builtins: bool = False
    # Runs imported from clients' own session files (`session import`): no checks, so no pass rate.
    imported: bool = False
    # The model's turns per run, where the run recorded them.
    turns_per_run: list[int | None] = field(default_factory=list)
    # The client's own tool searches per run, and how often they found each of the server's tools (imported
    # runs: as the session files recorded them).
    searches_per_run: list[int] = field(default_factory=list)
    found_by_search: dict[str, int] = field(default_factory=dict)

    def label(self, several_scenarios: bool) -> str:
        """The surface, with its mode unless full-list (and its builtins when on) and its scenario when the
        study has several."""
        notes = [self.mode] if self.mode != "full-list" else []
        if self.builtins:
            notes.append("builtins on")
        if several_scenarios:
            notes.append(self.scenario)
        return f"{self.surface} ({', '.join(notes)})" if notes else self.surface

    @property
    def client(self) -> str:
        """The agent with its version, where the run recorded one."""
        return f"{self.agent} {self.agent_version}" if self.agent_version else self.agent


@dataclass(frozen=True)
class ShownPart:
    """One part of a request's tools: how many, their chars and o200k tokens as the model reads them."""

    tools: int
    chars: int
    tokens: int


@dataclass(frozen=True)
class ShownRow:
    """What one surface's tools cost the model under one agent and mode: the first request, and the last
    one (after every tool search), as the model endpoint recorded them. API tokens only from a real API."""

    surface: str
    agent: str
    mode: str
    agent_version: str | None
    runs: int
    first_tools: int
    first_stub_tools: int
    first_chars: int
    first_tokens: int
    last_tools: int
    last_stub_tools: int
    last_chars: int
    last_tokens: int
    system_chars: int
    searches: int
    not_offered_calls: int
    api_input_tokens_first: int | None
    first_tool_names: list[str]
    # The first and last request's tools apart: the stub's shown in full, the stub's deferred (by their
    # names), the client's own shown; None for runs recorded before the split.
    first_shown: ShownPart | None = None
    first_deferred: ShownPart | None = None
    first_builtin: ShownPart | None = None
    last_shown: ShownPart | None = None
    last_deferred: ShownPart | None = None
    last_builtin: ShownPart | None = None
    instructions_chars: int | None = None
    builtins: bool = False
    # The MCP protocol version the client negotiated with the stub; None in runs recorded before it was kept.
    protocol: str | None = None
    # Each of the stub's tools as the first request carried it; None in runs recorded before it was kept.
    first_sent: list[SentTool] | None = None


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    metric: str
    a_mean: float
    b_mean: float
    difference: float
    runs_needed: int | None
    agent: str = ""
    mode: str = ""
    scenario: str = ""


@dataclass(frozen=True)
class Study:
    scenario: str
    agent: str
    surfaces: list[SurfaceScore]
    comparisons: list[Comparison]
    method: dict[str, str]
    shown: list[ShownRow] = field(default_factory=list)
    # What tool answers cost, per surface (agent, mode, scenario) and tool (harness.session.score._answers).
    answers: list[AnswerRow] = field(default_factory=list)
    # Answers the run's client would cut, as compat --answers saw it (harness.session.score._cuts).
    cuts: list[AnswerCut] = field(default_factory=list)
    # Imported sessions against the server's current list, where one was given (harness.session.score._listed).
    server_tools: list[ServerTools] | None = None

    def labels(self) -> dict[tuple[str, str, str, str], str]:
        """How the tables name each group of runs: the surface, its mode and scenario where they differ, and
        its agent when the study has several."""
        several_scenarios = len({s.scenario for s in self.surfaces}) > 1
        several_agents = len({s.agent for s in self.surfaces}) > 1
        return {
            (s.surface, s.agent, s.mode, s.scenario): s.label(several_scenarios)
            + (f", {s.agent}" if several_agents else "")
            for s in self.surfaces
        }

    def to_json(self, folder: Path | None = None) -> dict[str, Any]:
        """As study.json holds it: run folders under `folder` (the study's) relative to it, so a study
        names no machine's paths and stays readable where it is copied."""
        data = asdict(self)
        if not self.cuts:
            del data["cuts"]
        if self.server_tools is None:
            del data["server_tools"]
        else:
            data["server_tools"] = [
                {**asdict(row), "never_called": row.never_called, "not_listed": row.not_listed}
                for row in self.server_tools
            ]
        if folder is not None:
            root = folder.resolve()
            for score in data["surfaces"]:
                score["run_dirs"] = [_relative(Path(d), root) for d in score["run_dirs"]]
        for row in data.get("shown") or []:
            if row.get("first_sent") is None:
                del row["first_sent"]  # a study of runs that did not keep it reads as it was written
        return data


def _relative(run_dir: Path, root: Path) -> str:
    resolved = run_dir.resolve()
    return resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else str(run_dir)


def find_runs(paths: Iterable[Path], order: Sequence[str] = ()) -> list[RunRecord]:
    """Every finished run under the given study or run directories (shards merge by being read together), in
    the study's order of surfaces (`_study_order`)."""
    records: dict[Path, RunRecord] = {}
    given = list(paths)
    for path in given:
        if not path.exists():
            raise ToolsurfaceError(f"{path}: no such run or study directory")
        candidates = [path] if (path / SPEC).exists() else sorted(p.parent for p in path.rglob(SPEC))
        if not candidates:
            raise ToolsurfaceError(f"{path}: holds no runs (no spec.json below it)")
        for run_dir in candidates:
            try:
                records[run_dir.resolve()] = read_run(run_dir)
            except RunStateError:
                if (run_dir / RESULT).exists():
                    raise
                # a run still going, or cut off before it wrote its result: not a finished run
    rank = {name: n for n, name in enumerate(_study_order(given, order))}

    def key(record: RunRecord) -> tuple[int, str, str, str, str, int]:
        spec = record.spec
        return rank.get(spec.surface, len(rank)), spec.surface, spec.agent, spec.mode, spec.scenario, spec.run_index

    return sorted(records.values(), key=key)


def _study_order(folders: Sequence[Path], order: Sequence[str] = ()) -> list[str]:
    """The surfaces in the order the study gives them, read from its own files, never from what is installed:
    `order`, then as each folder's study.json lists them (a study scored before keeps the order of its rows),
    then as its plan.json names them (as `session run --surface` gave them). Surfaces none names follow by name."""
    from toolsurface.harness.files import read_json
    from toolsurface.harness.session.plan import read_plan

    names = dict.fromkeys(order)
    for folder in folders:
        # Only an order: a study.json or plan.json that cannot be read names none (scoring rewrites the first).
        with contextlib.suppress(ToolsurfaceError):
            if os.path.lexists(folder / STUDY):
                scored = read_json(folder / STUDY, what="study", follow_links=False)
                rows = scored.get("surfaces") if isinstance(scored, dict) else None
                if isinstance(rows, list):
                    names.update(
                        dict.fromkeys(str(r["surface"]) for r in rows if isinstance(r, dict) and "surface" in r)
                    )
        with contextlib.suppress(ToolsurfaceError):
            plan = read_plan(folder)
            if plan is not None:
                names.update(dict.fromkeys(plan.surfaces))
    return list(names)


def _normalise(message: str) -> str:
    return re.sub(r"\d+", "N", message)


def _score_surface(records: Sequence[RunRecord]) -> SurfaceScore:
    first = records[0].spec
    n = len(records)
    passed = sum(1 for r in records if r.result.passed)
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        seen: set[tuple[str, str]] = set()
        for refusal in record.result.refusals:
            key = (refusal.tool, _normalise(refusal.message))
            group = groups.setdefault(key, {"message": refusal.message, "runs": 0, "count": 0, "corrected": 0})
            group["count"] += 1
            group["corrected"] += int(refusal.corrected_next)
            if key not in seen:
                group["runs"] += 1
                seen.add(key)
    failures: dict[str, dict[str, Any]] = {}
    for record in records:
        for check in record.result.checks:
            if not check.passed:
                failure = failures.setdefault(check.name, {"runs": 0, "detail": check.detail})
                failure["runs"] += 1
    statuses: dict[str, int] = {}
    for record in records:
        statuses[record.result.status] = statuses.get(record.result.status, 0) + 1
    undelivered: dict[tuple[str, str, str], dict[str, Any]] = {}
    for record in records:
        seen_here: set[tuple[str, str, str]] = set()
        for call in record.result.undelivered:
            ukey = (call.tool, call.reason, _normalise(call.message))
            entry = undelivered.setdefault(ukey, {"message": call.message, "runs": 0, "count": 0})
            entry["count"] += 1
            if ukey not in seen_here:
                entry["runs"] += 1
                seen_here.add(ukey)
    errors: dict[tuple[str, str], int] = {}
    for record in records:
        if record.result.status != "ok" or record.result.error:
            key = (record.result.status, record.result.error or "")
            errors[key] = errors.get(key, 0) + 1
    return SurfaceScore(
        scenario=first.scenario,
        surface=first.surface,
        agent=first.agent,
        mode=first.mode,
        model=first.model,
        runs=n,
        statuses=statuses,
        calls_per_run=[r.result.calls for r in records],
        refused_per_run=[r.result.refused for r in records],
        refused=[
            RefusalGroup(tool, g["message"], g["runs"], g["count"], g["corrected"]) for (tool, _), g in groups.items()
        ],
        outcome_failures=[OutcomeFailure(name, f["runs"], f["detail"]) for name, f in failures.items()],
        pass_at_1=passed / n,
        pass_hat_k={str(k): round(pass_hat_k(n, passed, k), 6) for k in range(1, n + 1)},
        tokens_per_run=[
            r.result.tokens.input_tokens + r.result.tokens.output_tokens if r.result.tokens is not None else None
            for r in records
        ],
        cost_usd_per_run=[r.result.cost_usd for r in records],
        run_dirs=[str(r.path) for r in records],
        undelivered_per_run=[len(r.result.undelivered) for r in records],
        undelivered=[
            UndeliveredGroup(tool, reason, e["message"], e["runs"], e["count"])
            for (tool, reason, _), e in undelivered.items()
        ],
        errors=[ErrorGroup(status, error, runs) for (status, error), runs in errors.items()],
        agent_version=first.agent_version,
        builtins=first.builtins,
        imported=all(r.spec.source is not None for r in records),
        turns_per_run=[r.result.turns for r in records],
        searches_per_run=[len(r.result.searches) for r in records],
        found_by_search=dict(Counter(tool for r in records for search in r.result.searches for tool in search.found)),
    )


def _part(part: ToolPart | None) -> ShownPart | None:
    return None if part is None else ShownPart(len(part.tools), part.chars, part.tokens)


def _shown_row(records: Sequence[RunRecord]) -> ShownRow | None:
    shown = [(r, r.result.shown) for r in records if r.result.shown is not None and r.result.shown.first is not None]
    if not shown:
        return None
    record, data = shown[0]
    assert data is not None and data.first is not None
    first, last = data.first, data.last or data.first
    spec = record.spec
    return ShownRow(
        surface=spec.surface,
        agent=spec.agent,
        mode=spec.mode,
        agent_version=spec.agent_version,
        runs=len(shown),
        first_tools=len(first.tools),
        first_stub_tools=first.stub_tools,
        first_chars=first.chars,
        first_tokens=first.tokens,
        last_tools=len(last.tools),
        last_stub_tools=last.stub_tools,
        last_chars=last.chars,
        last_tokens=last.tokens,
        system_chars=first.system_chars,
        searches=len(data.searches),
        not_offered_calls=data.not_offered_calls,
        api_input_tokens_first=first.input_tokens,
        first_tool_names=list(first.tools),
        first_shown=_part(first.stub_shown),
        first_deferred=_part(first.stub_deferred),
        first_builtin=_part(first.builtin_shown),
        last_shown=_part(last.stub_shown),
        last_deferred=_part(last.stub_deferred),
        last_builtin=_part(last.builtin_shown),
        instructions_chars=first.instructions_chars,
        builtins=spec.builtins,
        protocol=spec.protocol,
        first_sent=list(first.stub_sent) if first.stub_sent is not None else None,
    )


def score_study(records: Sequence[RunRecord]) -> Study:
    if not records:
        raise ToolsurfaceError("no finished runs to score")
    # Runs of different scenarios are different experiments (the seed's replays beside six-tasks): scored apart.
    # So are runs of different versions of one client, which may show the model something else.
    by_surface: dict[tuple[str, str, str, str, str | None, bool], list[RunRecord]] = {}
    for record in records:
        spec = record.spec
        key = (spec.surface, spec.agent, spec.mode, spec.scenario, spec.agent_version, spec.builtins)
        by_surface.setdefault(key, []).append(record)
    surfaces = [_score_surface(group) for group in by_surface.values()]
    shown_rows = [row for group in by_surface.values() if (row := _shown_row(group)) is not None]

    def key_of(score: SurfaceScore) -> tuple[str, str, str, str, str | None, bool]:
        return score.surface, score.agent, score.mode, score.scenario, score.agent_version, score.builtins

    answers = [
        row
        for (surface, agent, mode, scenario, _version, _builtins), group in by_surface.items()
        for row in answer_rows(surface, agent, mode, scenario, (run_answers(r.path / CALLS) for r in group))
    ]
    comparisons = []
    for n, a in enumerate(surfaces):
        # Surfaces are compared under one client (agent and version), mode and scenario: the difference a
        # surface makes.
        for b in [b for b in surfaces[n + 1 :] if key_of(b)[1:] == key_of(a)[1:]]:
            a_pass = [float(r.result.passed) for r in by_surface[key_of(a)]]
            b_pass = [float(r.result.passed) for r in by_surface[key_of(b)]]
            for metric, va, vb in (
                ("refused_per_run", [float(x) for x in a.refused_per_run], [float(x) for x in b.refused_per_run]),
                ("pass_rate", a_pass, b_pass),
            ):
                comparisons.append(
                    Comparison(
                        a=a.surface,
                        b=b.surface,
                        metric=metric,
                        a_mean=round(statistics.fmean(va), 4),
                        b_mean=round(statistics.fmean(vb), 4),
                        difference=round(statistics.fmean(va) - statistics.fmean(vb), 4),
                        runs_needed=runs_needed(va, vb),
                        agent=a.agent,
                        mode=a.mode,
                        scenario=a.scenario,
                    )
                )
    agents = sorted({r.spec.agent for r in records})
    scenarios = sorted({r.spec.scenario for r in records})
    return Study(
        scenario=", ".join(scenarios),
        agent=agents[0] if len(agents) == 1 else "mixed",
        surfaces=surfaces,
        comparisons=comparisons,
        method={
            "pass_hat_k": "C(c, k) / C(n, k) over n runs of which c passed every check (unbiased estimator)",
            "runs_needed": "1.96^2 * (var(A) + var(B)) / (mean(A) - mean(B))^2 runs per surface, at least 2",
            "corrected_next": "the next tools/call of the run went to the same tool and was answered",
            "undelivered": "a tool call in the agent's transcript that no stub log line answers (unknown tool, the"
            " agent's own argument check, a permission it lacks, its sandbox)",
            "shown": "the tools array of the agent's first model request and of its last (after every tool search):"
            " compact JSON chars and o200k_base tokens, as the model endpoint received them; apart, the stub's"
            " tools shown in full, the stub's deferred (sent with defer_loading and not yet referenced by a search,"
            " or only named; counted by their names), and the client's own shown",
            "answers": "each tools/call answer's text as the stub sent it (response_chars in calls.jsonl; o200k_base"
            " tokens of the text the log keeps): calls, median and largest per surface and tool; share: the tool's"
            " answers over the session's context from the surface, its tools list as first listed plus every"
            " answer, summed over the runs",
        },
        shown=shown_rows,
        answers=answers,
        cuts=answer_cuts(records),
    )


def marked_answers(study: Study) -> list[AnswerRow]:
    """The study's answer rows, each of an imported server's tool its list no longer has marked so."""
    if not study.server_tools:
        return study.answers
    gone = {(row.server, tool) for row in study.server_tools for tool in row.not_listed}
    imported = {s.surface for s in study.surfaces if s.imported}
    return [
        replace(row, tool=f"{row.tool} (no longer listed)")
        if row.surface in imported and (row.surface, row.tool) in gone
        else row
        for row in study.answers
    ]


def _counts(values: Sequence[int]) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


def _size(part: ShownPart | None) -> str:
    return "-" if part is None else f"{part.tools} · {part.chars:,} · {part.tokens:,}"


def shown_table(rows: Sequence[ShownRow]) -> Table:
    """Per surface, client (agent and version), mode and the protocol it spoke to the stub: the first request's
    and the last's tools apart (tools · chars · o200k tokens), the whole tools array as sent, the system prompt
    and the server instructions found in it, the searches."""
    header = [
        "Surface",
        "Agent",
        "Mode",
        "Protocol",
        "Stub's shown, first",
        "Stub's deferred, first",
        "Built-in, first",
        "Stub's shown, last",
        "Tools array first (stub's)",
        "Chars",
        "System prompt chars",
        "Instructions chars",
        "Searches",
        "API input tokens, first request",
    ]
    cells = []
    for r in rows:
        agent = f"{r.agent} {r.agent_version}" if r.agent_version else r.agent
        mode = f"{r.mode}, builtins on" if r.builtins else r.mode
        api = f"{r.api_input_tokens_first:,}" if r.api_input_tokens_first is not None else "-"
        instructions = f"{r.instructions_chars:,}" if r.instructions_chars is not None else "-"
        cells.append(
            [
                r.surface,
                agent,
                mode,
                r.protocol or "-",
                _size(r.first_shown),
                _size(r.first_deferred),
                _size(r.first_builtin),
                _size(r.last_shown),
                f"{r.first_tools} ({r.first_stub_tools})",
                f"{r.first_chars:,}",
                f"{r.system_chars:,}",
                instructions,
                str(r.searches),
                api,
            ]
        )
    return _kept(header, cells, range(4, len(header)))


IMPORTED_HEADER = (
    "Server",
    "Client",
    "Sessions",
    "Calls",
    "Error answers",
    "Called again and answered",
    "Model turns",
    "Tokens per turn",
    "Tool searches (the server's tools they found)",
)


def _searches(score: SurfaceScore) -> str:
    searches = sum(score.searches_per_run)
    if not searches:
        return "-"
    found = ", ".join(f"{tool} {n}" for tool, n in sorted(score.found_by_search.items(), key=lambda f: (-f[1], f[0])))
    return f"{searches} ({found or 'none'})"


def imported_table(scores: Sequence[SurfaceScore]) -> Table:
    """Per server and client (its version where the files name one): the sessions, their calls and error answers,
    how many errors the same tool's next call got past, the model's turns and the tokens per turn (input and
    output, as the files count them), and the client's own tool searches with what they found."""
    cells = []
    for s in scores:
        turns = sum(t for t in s.turns_per_run if t is not None)
        tokens = sum(t for t in s.tokens_per_run if t is not None)
        per_turn = f"{tokens / turns:,.0f}" if turns and any(t is not None for t in s.tokens_per_run) else "-"
        cells.append(
            [
                s.surface,
                s.client,
                str(s.runs),
                str(sum(s.calls_per_run)),
                str(sum(s.refused_per_run)),
                str(sum(g.corrected_next for g in s.refused)),
                str(turns) if turns else "-",
                per_turn,
                _searches(s),
            ]
        )
    return _kept(IMPORTED_HEADER, cells, range(2, len(IMPORTED_HEADER) - 1))


STUDY_HEADER = (
    "Surface",
    "Runs",
    "Status",
    "Calls per run",
    "Refused calls",
    "Undelivered calls",
    "What was refused",
    "Outcome failures",
    "Errors",
    "pass^1",
)


def study_view(study: Study) -> View:
    """The seed's table: runs, calls per run, refused calls per run, what was refused, outcome failures; then the
    imported sessions, what the model was shown, what answers cost, what a client would cut and the runs a difference
    needs. Markdown and JSON (the scored study)."""
    agents = sorted({s.agent for s in study.surfaces})
    # Two versions of one agent are two clients, named by version.
    clients = {s.client for s in study.surfaces} if len({s.client for s in study.surfaces}) > len(agents) else set()
    several_scenarios = len({s.scenario for s in study.surfaces}) > 1
    rows = []
    for s in study.surfaces:
        refused = "; ".join(
            f"{g.tool}: {g.message[:120]} ({g.runs} of {s.runs} runs, corrected next {g.corrected_next} of {g.count})"
            for g in s.refused
        )
        undelivered = "; ".join(f"{g.tool}: {g.reason} ({g.count} in {g.runs} of {s.runs} runs)" for g in s.undelivered)
        failures = "; ".join(f"{f.check} in {f.runs} of {s.runs} runs: {f.detail[:160]}" for f in s.outcome_failures)
        errors = "; ".join(
            f"{e.status}: {markdown_cell(e.error, 'collapsed')[:200]} ({e.runs} of {s.runs} runs)" for e in s.errors
        )
        status = ", ".join(f"{name} {count}" for name, count in s.statuses.items())
        surface = s.label(several_scenarios)
        if len(clients) > 1:
            surface = f"{surface}, {s.client}"
        elif len(agents) > 1:
            surface = f"{surface}, {s.agent}"
        per_run = ", ".join(map(str, s.undelivered_per_run))
        rows.append(
            [
                surface,
                str(s.runs),
                status,
                _counts(s.calls_per_run),
                ", ".join(map(str, s.refused_per_run)),
                f"{per_run}{f' ({undelivered})' if undelivered else ''}",
                markdown_cell(refused, "collapsed") or "-",
                markdown_cell(failures, "collapsed") or "-",
                errors or "-",
                "-" if s.imported else f"{s.pass_at_1:.2f}",
            ]
        )
    blocks: list[Block] = [
        Text(markdown=f"Scenario {study.scenario}, agent {study.agent}\n\n"),
        _kept(STUDY_HEADER, rows, [1, len(STUDY_HEADER) - 1]),
    ]
    imported = [s for s in study.surfaces if s.imported]
    if imported:
        blocks.append(_under("Imported sessions, per client (from its own session files):", imported_table(imported)))
        if study.server_tools is None:
            blocks.append(Text(markdown=f"\n{NEEDS_A_LIST}\n"))
        else:
            blocks.append(
                _under("Imported sessions against the server's list:", server_tools_table(study.server_tools))
            )
    if study.shown:
        said = (
            "What the model was shown (the first request, and the last, after every search; tools · chars · o200k"
            " tokens):"
        )
        blocks.append(_under(said, shown_table(study.shown)))
    if study.answers:
        said = (
            "What tool answers cost (per tool: calls, median and largest answer; share of the session's context from"
            " the surface, its tools list once and every answer):"
        )
        blocks.append(_under(said, answers_markdown(marked_answers(study), study.labels())))
    if study.cuts:
        said = "Answers the run's client would cut (as compat --answers saw that client pass answers on):"
        blocks.append(_under(said, cuts_markdown(study.cuts)))
    noisy = [c for c in study.comparisons if c.runs_needed is not None]
    if noisy:
        several = len({(s.agent, s.mode) for s in study.surfaces}) > 1
        lines = [
            f"- {c.metric}{f' ({c.agent}, {c.mode})' if several else ''}{f' [{c.scenario}]' if several_scenarios else ''}:"
            f" {c.a} {c.a_mean:g} vs {c.b} {c.b_mean:g}"
            f" → {c.runs_needed} runs"
            for c in noisy
        ]
        blocks.append(
            _under("Runs per surface a difference needs before it exceeds the noise (95 %):", "\n".join(lines) + "\n")
        )
    return View(blocks, data=study.to_json(), ascii=True, between="")


def _kept(header: Sequence[str], rows: Sequence[Sequence[str]], right: Collection[int]) -> Table:
    """A table of the study's, its cells markdown already, the columns in `right` right-aligned."""
    columns = [Column(label, numeric=n in right) for n, label in enumerate(header)]
    return Table(columns, rows, breaks="kept", heading="")


def _under(said: str, shown: Table | str) -> Block:
    """A table (or markdown text) under its line of what it is."""
    if isinstance(shown, Table):
        return replace(shown, title=said, heading="\n{title}\n\n")
    text = shown.rstrip("\n")
    return Text(markdown=f"\n{said}\n\n{text}\n")


def server_tools(study: Study, listed_as: str, listed: Sequence[str]) -> list[ServerTools]:
    """Per imported server of the study, its sessions' calls per tool against `listed`."""
    imported = {(s.surface, s.agent, s.mode, s.scenario) for s in study.surfaces if s.imported}
    found: dict[str, dict[str, int]] = {}
    for row in study.answers:
        if (row.surface, row.agent, row.mode, row.scenario) in imported and row.tool != ALL_TOOLS:
            calls = found.setdefault(row.surface, {})
            calls[row.tool] = calls.get(row.tool, 0) + row.calls
    for score in study.surfaces:
        if score.imported:
            found.setdefault(score.surface, {})
    return [ServerTools(server, listed_as, list(listed), calls) for server, calls in found.items()]
