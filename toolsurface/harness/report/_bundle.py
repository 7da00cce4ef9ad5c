"""Everything the report page shows, as typed records: surfaces with each tool as received, the scored
study, each run call by call, the charts' titles, the seed comparison and the report's other tables.

A plain data builder: it reads measurements and run directories and never prints or renders."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.measure import Growth, Measurement, SurfaceMeasurement
from toolsurface.harness.output import Column, compact_json
from toolsurface.harness.redact import redacted_json, redacted_text
from toolsurface.harness.run_folder import CALLS
from toolsurface.harness.scenario import CheckResult
from toolsurface.harness.session.record import RefusalRecord, RunRecord, RunResult, UndeliveredRecord

if TYPE_CHECKING:
    import pandas as pd

    from toolsurface.harness.session.score import Comparison, ShownRow, Study, SurfaceScore

__all__ = [
    "BundleCall",
    "BundleChart",
    "BundleRun",
    "BundleSurface",
    "BundleTable",
    "BundleTool",
    "ReportBundle",
    "SeedRow",
    "build_bundle",
    "seed_row",
    "shown_runs",
    "table_from_frame",
]

Cell = str | int | float | bool | None


@dataclass(frozen=True)
class BundleTool:
    """One tool as the client received it: its sizes, its description and inputSchema, and its compact JSON."""

    name: str
    chars: int
    tokens: int | None
    marginal_tokens: int | None
    description: str | None
    input_schema: dict[str, Any] | None
    wire: str


@dataclass(frozen=True)
class BundleSurface:
    name: str
    title: str
    protocol_version: str | None
    tools: int
    chars: int
    tokens: int | None
    growth: Growth | None
    tool_list: list[BundleTool]
    # A server's list as listed (live, or a snapshot of one), not a surface of its own.
    server: bool = False


@dataclass(frozen=True)
class BundleCall:
    """One line of a run's calls.jsonl; `corrects` is the seq of the refused call this one corrected,
    `corrected_by` the seq of the call that corrected this refusal."""

    seq: int
    method: str
    tool: str | None
    arguments: dict[str, Any] | None
    outcome: str
    message: str | None
    allowed: list[str] | None
    response_chars: int | None
    corrects: int | None = None
    corrected_by: int | None = None


@dataclass(frozen=True)
class BundleRun:
    """One run as a transcript: the stub's log call by call, and what result.json says about it."""

    id: str
    label: str
    surface: str
    agent: str
    agent_version: str | None
    mode: str
    run_index: int
    status: str
    error: str | None
    passed: bool
    scenario: str
    final_answer: str | None
    calls: list[BundleCall]
    refusals: list[RefusalRecord]
    undelivered: list[UndeliveredRecord]
    checks: list[CheckResult]


@dataclass(frozen=True)
class SeedRow:
    """One figure of the seed against ours; `difference` is relative, (ours - seed) / seed."""

    id: str
    what: str
    surface: str | None
    tool: str | None
    unit: str
    seed: Any
    ours: Any
    difference: float | None
    within_band: bool | None
    seed_lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class BundleTable:
    """One of the report's tables, cells as plain values (None where the report writes "-")."""

    key: str
    title: str
    columns: list[Column]
    rows: list[list[Cell]]
    command: str
    note: str = ""


@dataclass(frozen=True)
class BundleChart:
    key: str
    title: str
    command: str


@dataclass(frozen=True)
class ReportBundle:
    created: str
    protocol_version: str
    encoding: str
    surfaces: list[BundleSurface]
    scores: list[SurfaceScore] = field(default_factory=list)
    shown: list[ShownRow] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    runs: list[BundleRun] = field(default_factory=list)
    seed: list[SeedRow] = field(default_factory=list)
    charts: list[BundleChart] = field(default_factory=list)
    tables: list[BundleTable] = field(default_factory=list)
    scenario: str = ""
    agent: str = ""
    # What the report leaves out for its surfaces, each with how to add it.
    left_out: list[str] = field(default_factory=list)


# -- surfaces --------------------------------------------------------------------------------------


def _tools_as_received(surface: SurfaceMeasurement) -> list[dict[str, Any]]:
    if not surface.text:
        return []
    tools = json.loads(surface.text)
    return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []


def _surface(surface: SurfaceMeasurement) -> BundleSurface:
    received = _tools_as_received(surface)
    tools = []
    for n, size in enumerate(surface.per_tool):
        raw = received[n] if n < len(received) and str(received[n].get("name")) == size.name else {}
        description = raw.get("description")
        schema = raw.get("inputSchema")
        tools.append(
            BundleTool(
                name=size.name,
                chars=size.chars,
                tokens=size.tokens,
                marginal_tokens=size.marginal_tokens,
                description=description if isinstance(description, str) else None,
                input_schema=schema if isinstance(schema, dict) else None,
                wire=compact_json(raw) if raw else "",
            )
        )
    return BundleSurface(
        name=surface.name,
        title=surface.title,
        protocol_version=surface.protocol_version,
        tools=surface.tools,
        chars=surface.chars,
        tokens=surface.tokens,
        growth=surface.growth,
        tool_list=tools,
        server=surface.server,
    )


# -- runs ------------------------------------------------------------------------------------------


def _calls(record: RunRecord) -> list[BundleCall]:
    from toolsurface.stubs.calllog import read_log

    path = record.path / CALLS
    lines = read_log(path) if path.exists() else []
    calls = [
        BundleCall(
            seq=line.seq or n,
            method=line.method or "",
            tool=line.tool,
            arguments=None if line.arguments is None else redacted_json(line.arguments, names=False),
            outcome=line.outcome,
            message=None if line.message is None else redacted_text(line.message),
            allowed=line.allowed,
            response_chars=line.response_chars,
        )
        for n, line in enumerate(lines, start=1)
    ]
    # The call that corrected a refusal is the run's next tools/call (scoring's `corrected_next`).
    corrected: dict[int, int] = {}
    for refusal in record.result.refusals:
        if refusal.corrected_next:
            following = [c.seq for c in calls if c.method == "tools/call" and c.seq > refusal.seq]
            if following:
                corrected[refusal.seq] = min(following)
    fixes = {after: before for before, after in corrected.items()}
    return [replace(c, corrected_by=corrected.get(c.seq), corrects=fixes.get(c.seq)) for c in calls]


def shown_runs(records: Sequence[RunRecord]) -> list[RunRecord]:
    """The runs as a report shows them: what the agent, the stub or the client said (refusals, errors, final
    answers, undelivered calls, checks, search queries) with its secrets redacted (harness.redact)."""
    return [replace(record, result=_shown_result(record.result)) for record in records]


def _shown_result(result: RunResult) -> RunResult:
    def text(value: str | None) -> str | None:
        return None if value is None else redacted_text(value)

    return replace(
        result,
        refusals=[replace(r, message=redacted_text(r.message)) for r in result.refusals],
        checks=[replace(c, detail=redacted_text(c.detail)) for c in result.checks],
        final_answer=text(result.final_answer),
        error=text(result.error),
        undelivered=[replace(u, message=redacted_text(u.message)) for u in result.undelivered],
        searches=[replace(q, query=text(q.query)) for q in result.searches],
    )


def _run_label(record: RunRecord, study_dirs: Sequence[Path]) -> str:
    """The run's directory relative to the study it was found in, so the page names no machine's paths."""
    run = record.path.resolve()
    for study in study_dirs:
        root = study.resolve()
        if run == root:
            return root.name
        if run.is_relative_to(root):
            return f"{root.name}/{run.relative_to(root).as_posix()}"
    return run.name


def _run_id(record: RunRecord, taken: set[str]) -> str:
    """`run-SURFACE-FOLDER`, from the run's folder (AGENT-MODE-rNNN), made safe for an HTML id."""
    base = "run-" + re.sub(r"[^A-Za-z0-9_-]+", "_", f"{record.spec.surface}-{record.path.name}")
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base}-{n}"
    taken.add(found)
    return found


def _run(record: RunRecord, study_dirs: Sequence[Path], taken: set[str]) -> BundleRun:
    spec, result = record.spec, record.result
    return BundleRun(
        id=_run_id(record, taken),
        label=_run_label(record, study_dirs),
        surface=spec.surface,
        agent=spec.agent,
        agent_version=spec.agent_version,
        mode=spec.mode,
        scenario=spec.scenario,
        run_index=spec.run_index,
        status=result.status,
        error=result.error,
        passed=result.passed,
        final_answer=result.final_answer,
        calls=_calls(record),
        refusals=list(result.refusals),
        undelivered=list(result.undelivered),
        checks=list(result.checks),
    )


# -- seed rows and tables --------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _lines(value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))
    return ()


def seed_row(row: SeedRow | Mapping[str, Any]) -> SeedRow:
    """A seed comparison row from a record or a mapping with the same keys; the seed-figures file's
    names `value`, `deviation` and `in_band` are read as `seed`, `difference` and `within_band`."""
    if isinstance(row, SeedRow):
        return row

    def get(name: str, alias: str | None = None) -> Any:
        return row[name] if name in row else row.get(alias) if alias else None

    difference = get("difference", "deviation")
    within = get("within_band", "in_band")
    return SeedRow(
        id=str(get("id") or ""),
        what=str(get("what") or ""),
        surface=str(get("surface")) if get("surface") is not None else None,
        tool=str(get("tool")) if get("tool") is not None else None,
        unit=str(get("unit") or ""),
        seed=get("seed", "value"),
        ours=get("ours"),
        difference=float(difference) if _is_number(difference) else None,
        within_band=within if isinstance(within, bool) else None,
        seed_lines=_lines(get("seed_lines")),
    )


def table_from_frame(key: str, title: str, frame: pd.DataFrame, command: str, note: str = "") -> BundleTable:
    """A report table as plain cells; numeric columns by the same rule as report.md's right-aligned ones."""
    data = json.loads(frame.to_json(orient="split", index=False))
    columns = [Column(str(name), numeric=frame[name].dtype.kind in "iuf") for name in frame.columns]
    return BundleTable(key, title, columns, [list(row) for row in data["data"]], command, note)


# -- the bundle ------------------------------------------------------------------------------------


def build_bundle(
    measurement: Measurement,
    study_dirs: Sequence[Path] = (),
    *,
    seed: Sequence[SeedRow | Mapping[str, Any]] = (),
    charts: Sequence[BundleChart] = (),
    tables: Sequence[BundleTable] = (),
    created: str = "",
    left_out: Sequence[str] = (),
    scored: tuple[Sequence[RunRecord], Study] | None = None,
) -> ReportBundle:
    """The page's data: the measured surfaces, and when study directories are given, their scored runs
    (`scored`: those runs as already read and scored, else they are read and scored here)."""
    bundle = ReportBundle(
        created=created,
        protocol_version=measurement.protocol_version,
        encoding=measurement.encoding,
        surfaces=[_surface(s) for s in measurement.surfaces],
        seed=[seed_row(r) for r in seed],
        charts=list(charts),
        tables=list(tables),
        left_out=list(left_out),
    )
    if not study_dirs:
        return bundle
    if scored is None:
        from toolsurface.harness.session.score import find_runs, score_study

        found = shown_runs(find_runs(study_dirs))
        scored = found, score_study(found)
    records, study = scored
    taken: set[str] = set()
    return replace(
        bundle,
        scores=study.surfaces,
        shown=study.shown,
        comparisons=study.comparisons,
        runs=[_run(r, study_dirs, taken) for r in records],
        scenario=study.scenario,
        agent=study.agent,
    )
