"""suggest: a surface's families made one tool each, written as a candidate snapshot (with its sidecar) and a mapping
from each old tool to its call on the candidate, then every figure measured on the written files: tools, chars
and tokens before and after (in all and per family), the findability of the candidate for the surface's queries
through the mapping, and, on request, what each client shows of the candidate beside the original."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import compact_json
from toolsurface.harness.suggest._candidate import PROPOSAL, Candidate, TurnedDown, candidate_of

if TYPE_CHECKING:
    from toolsurface.harness.analyze.findability import QuerySet
    from toolsurface.harness.clients import ClientRow
    from toolsurface.harness.live import TakenSnapshot
    from toolsurface.harness.measure import Measurement, SurfaceMeasurement

__all__ = [
    "SUGGEST_FORMAT",
    "CandidateFiles",
    "FamilyRow",
    "Figures",
    "QueryRow",
    "Suggestion",
    "candidate_files",
    "check_outputs",
    "clients_beside",
    "suggest",
]

SUGGEST_FORMAT = "toolsurface-suggest/1"


@dataclass(frozen=True)
class CandidateFiles:
    """Where a candidate goes: the snapshot FILE, its sidecar FILE.meta.json and the mapping FILE.mapping.json."""

    snapshot: Path
    sidecar: Path
    mapping: Path

    @property
    def all(self) -> tuple[Path, Path, Path]:
        return (self.snapshot, self.sidecar, self.mapping)


def candidate_files(output: Path) -> CandidateFiles:
    from toolsurface.harness.surface import meta_path

    stem = output.name.removesuffix(".json")
    return CandidateFiles(output, meta_path(output), output.with_name(f"{stem}.mapping.json"))


def check_outputs(output: Path, force: bool) -> CandidateFiles:
    """The files a candidate would be written to; one that exists is one line, unless `force`."""
    files = candidate_files(output)
    if not force:
        for path in files.all:
            if path.exists():
                raise ToolsurfaceError(f"{path}: exists; name another file with -o, or give --force to overwrite it")
    return files


@dataclass(frozen=True)
class Figures:
    """Tools, chars and tokens of a list (or of some of its tools, each counted alone: what `measure --per-tool`
    says of each)."""

    tools: int
    chars: int
    tokens: int | None


@dataclass(frozen=True)
class FamilyRow:
    """One family made one tool: its members and each one's value of `parameter`, the parameters all of them take,
    how much they share, what they cost before (each alone, summed) and the one tool after, measured."""

    tool: str
    grouping: str
    parameter: str
    members: tuple[str, ...]
    values: tuple[str, ...]
    shared: tuple[str, ...]
    agreement: float
    before: Figures
    after: Figures
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class QueryRow:
    """One query by one scorer: the tool it expects of the original and its rank there, the tool the mapping makes
    of it on the candidate and its rank there."""

    query: str
    scorer: str
    expected_before: str | None
    rank_before: int | None
    expected_after: str | None
    rank_after: int | None


@dataclass(frozen=True)
class Suggestion:
    """What suggest found and measured. `files` None: no family was found, nothing was written. `findability`
    empty with `findability_note` saying why where it was not measured."""

    surface: str
    candidate: str
    encoding: str
    protocol_version: str
    before: Figures
    after: Figures | None
    families: list[FamilyRow]
    kept: list[str]
    unpatterned: list[str]
    turned_down: list[TurnedDown]
    files: CandidateFiles | None
    findability: list[QueryRow] = field(default_factory=list)
    findability_note: str | None = None
    notes: list[str] = field(default_factory=list)
    proposal: str = PROPOSAL

    @property
    def found(self) -> bool:
        return bool(self.families)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["files"] = {k: str(v) for k, v in asdict(self.files).items()} if self.files else None
        return {"format": SUGGEST_FORMAT, **data}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _figures(measured: SurfaceMeasurement) -> Figures:
    return Figures(measured.tools, measured.chars, measured.tokens)


def _sum(measured: SurfaceMeasurement, names: Sequence[str]) -> Figures:
    sizes = [t for t in measured.per_tool if t.name in set(names)]
    tokens = None if any(t.tokens is None for t in sizes) else sum(t.tokens or 0 for t in sizes)
    return Figures(len(sizes), sum(t.chars for t in sizes), tokens)


def _write(candidate: Candidate, taken: TakenSnapshot, files: CandidateFiles) -> None:
    from toolsurface import __version__
    from toolsurface.harness.files import write_atomic_all
    from toolsurface.harness.output import json_document
    from toolsurface.harness.surface import SnapshotMeta, snapshot_text

    source = {
        "kind": "candidate",
        "proposal": PROPOSAL,
        "from": taken.name,
        "from_source": dict(taken.meta.source),
        "mapping": files.mapping.name,
        "families": [
            {"tool": f.name, "by": f.parameter, "members": dict(zip(f.plan.names, f.values, strict=True))}
            for f in candidate.families
        ],
    }
    meta = SnapshotMeta(
        server=taken.meta.server,
        protocol_version=taken.protocol_version,
        client_capabilities=[],
        time=_now(),
        tool_count=len(candidate.tools),
        source=source,
        toolsurface=__version__,
        name=candidate.name,
    )
    # The sidecar first, then the list, then the mapping: a reader never finds a list without its sidecar.
    write_atomic_all(
        [
            (files.sidecar, json_document(meta.to_json())),
            (files.snapshot, snapshot_text(candidate.tools, taken.parts)),
            (files.mapping, json_document(candidate.mapping)),
        ],
        sync=True,
    )


def _expected(queries: QuerySet, keys: Sequence[str]) -> list[tuple[str, str | None]] | None:
    """Each query's text and the tool it expects of the original (keyed by one of `keys`); None where no query
    says what it expects of it."""
    found = []
    said = False
    for query in queries.queries:
        key = next((k for k in keys if k in query.expected), None)
        said = said or key is not None
        found.append((query.text, query.expected[key] if key is not None else None))
    return found if said else None


def _findability(
    original: Any, written: Any, mapping: Mapping[str, Any], queries: QuerySet, keys: Sequence[str]
) -> tuple[list[QueryRow], str | None]:
    from toolsurface.harness.analyze.findability import Query, QuerySet, findability

    expected = _expected(queries, keys)
    if expected is None:
        return [], f"{queries.source}: no query says which tool of {original.name} it expects"
    tools = mapping["tools"]
    asked = []
    for text, old in expected:
        new = tools[old]["tool"] if old in tools else old
        asked.append(Query(text, {original.name: old, written.name: new}))
    result = findability([original, written], QuerySet(queries.source, asked))
    before, after = result.surface(original.name), result.surface(written.name)
    rows = []
    for query in asked:
        for scorer in result.scorers:
            was, now = before.row(query.text, scorer), after.row(query.text, scorer)
            rows.append(QueryRow(query.text, scorer, was.expected, was.rank, now.expected, now.rank))
    return rows, None


# A tool's name as a text may give it.
_NAME = re.compile(r"[\w-]+(?:\.[\w-]+)*")


def _texts_naming(candidate: Candidate, taken: TakenSnapshot) -> list[str]:
    """Where the candidate's own texts (the tools kept as they are, the instructions) name a tool that is merged now."""
    merged = {n for f in candidate.families for n in f.plan.names if n != f.name}
    if not merged:
        return []

    def names_one(text: str) -> bool:
        return not merged.isdisjoint(_NAME.findall(text))

    kept = set(candidate.kept)
    naming = [str(t.get("name")) for t in candidate.tools if t.get("name") in kept and names_one(compact_json(t))]
    instructions = taken.parts.get("instructions") if taken.parts.recorded else None
    said = []
    if naming:
        said.append(f"the tools kept as they are name tools merged now: {', '.join(naming)}")
    if isinstance(instructions, str) and names_one(instructions):
        said.append("the server's instructions, kept as they are, name tools merged now")
    return said


def suggest(
    taken: TakenSnapshot,
    output: Path,
    *,
    force: bool = False,
    queries: QuerySet | None = None,
    keys: Sequence[str] = (),
    queries_note: str | None = None,
) -> Suggestion:
    """Find the families of a listed surface and, where there are some, write its candidate to `output` (with the
    sidecar and the mapping beside it; a file that exists is refused unless `force`) and measure it there.
    `queries` (keyed by the surface's name or one of `keys`) give the findability before and after through the
    mapping; without them, `queries_note` says why there is none."""
    from toolsurface.harness.measure import measure
    from toolsurface.harness.surface import load_snapshot, safe_server_name

    files = check_outputs(output, force)
    candidate = candidate_of(taken.name, safe_server_name(f"{taken.name}-candidate"), taken.tools)
    original = taken.as_snapshot()
    if not candidate.found:
        measured: Measurement = measure([original], growth=False)
        return Suggestion(
            surface=taken.name,
            candidate=candidate.name,
            encoding=measured.encoding,
            protocol_version=measured.protocol_version,
            before=_figures(measured.surfaces[0]),
            after=None,
            families=[],
            kept=candidate.kept,
            unpatterned=candidate.unpatterned,
            turned_down=candidate.turned_down,
            files=None,
        )
    _write(candidate, taken, files)
    written = load_snapshot(files.snapshot)
    measured = measure([original, written], growth=False)
    was, now = measured.surfaces
    families = [
        FamilyRow(
            tool=f.name,
            grouping=f.plan.grouping,
            parameter=f.parameter,
            members=f.plan.names,
            values=f.values,
            shared=f.shared,
            agreement=f.plan.agreement,
            before=_sum(was, f.plan.names),
            after=_sum(now, [f.name]),
            notes=f.notes,
        )
        for f in candidate.families
    ]
    rows: list[QueryRow] = []
    note = queries_note
    if queries is not None:
        rows, note = _findability(original, written, candidate.mapping, queries, [taken.name, *keys])
    return Suggestion(
        surface=taken.name,
        candidate=written.name,
        encoding=measured.encoding,
        protocol_version=measured.protocol_version,
        before=_figures(was),
        after=_figures(now),
        families=families,
        kept=candidate.kept,
        unpatterned=candidate.unpatterned,
        turned_down=candidate.turned_down,
        files=files,
        findability=rows,
        findability_note=note,
        notes=_texts_naming(candidate, taken),
    )


def clients_beside(
    taken: TakenSnapshot,
    suggestion: Suggestion,
    named: Sequence[str] = (),
    *,
    jobs: int = 2,
    timeout: float | None = None,
    env: Mapping[str, str] | None = None,
) -> list[ClientRow]:
    """What each client shows its model of the original and of the candidate: one short scripted session each, the
    two served alike (from their snapshots, under the original's name); a client not installed is a row saying so."""
    from toolsurface.harness.clients import observe_clients
    from toolsurface.harness.session.plan import plan_listed, plan_surface

    if suggestion.files is None:
        raise ToolsurfaceError("no candidate was written, so there is nothing to show the clients")
    extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    planned = [plan_listed(taken, taken.name), plan_surface(str(suggestion.files.snapshot), taken.name)]
    return observe_clients(planned, named, jobs=jobs, env=env, server_name=taken.name, **extra)
