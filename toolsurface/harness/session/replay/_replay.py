"""Replay: the tool calls of recorded runs, played against a candidate (a surface's stub, a live server) or, where
the values were not kept or there is no server (a snapshot), checked by shape against its tools' schemas.

A call is mapped by tool name where the candidate has the tool (or as a --mapping says); the rest are listed as
unmappable. A played call is compared with what the recorded run got: the same answer, now refused, now answered,
or answered differently (another text), and how large its answer was and is (chars, and o200k tokens where the
recorded log kept the answer's text), summed up per tool. A live server's calls are real: only its read-only
tools' are played unless writes are allowed. A call checked by shape (harness.session.replay._by_shape) is
refused or fits the schema, with what needs the values said as not checked; no call is made. A regression check
that spends no tokens.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import markdown_row, markdown_rule
from toolsurface.harness.run_folder import CALLS, SPEC
from toolsurface.harness.session.replay._by_shape import check_by_shape
from toolsurface.harness.session.replay._mapping import CallMapping, MappingClash
from toolsurface.harness.surface import AnswerSizes, Snapshot, SurfaceDefinition, size_summary
from toolsurface.stubs.calllog import CallRecord

if TYPE_CHECKING:
    from toolsurface.harness.live import Connection, HttpServer, StdioServer

__all__ = [
    "BY_SHAPE",
    "PLAYED",
    "Candidate",
    "Replay",
    "ReplayedCall",
    "ReplayedRun",
    "replay_live",
    "replay_runs",
    "replay_table",
]

# How a run was replayed.
PLAYED = "played"
BY_SHAPE = "by shape"
# What a candidate is.
STUB = "stub"
LIVE = "live server"
SNAPSHOT = "snapshot"
NOT_CHECKED = "not checked without --keep-content"
# Seconds a live server has to answer one replayed call.
CALL_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ReplayedCall:
    seq: int
    tool: str
    before: str
    after: str
    change: str
    message: str | None
    # The answer's size as recorded and as replayed (tokens before: when the recorded log kept the text).
    chars_before: int = 0
    chars_after: int | None = None
    tokens_before: int | None = None
    tokens_after: int | None = None
    # The candidate's tool the call was played as, where a mapping made it another (or none: null).
    replayed_as: str | None = None
    # Checked by shape: what of the schema needs the values (`parameter: keyword`).
    unchecked: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AnswerChange:
    """One tool's answers, recorded against replayed: their median and largest size, and the total."""

    tool: str
    calls: int
    before: AnswerSizes
    after: AnswerSizes


@dataclass(frozen=True)
class ReplayedRun:
    run_dir: str
    surface: str
    calls: list[ReplayedCall]
    # PLAYED, or BY_SHAPE: the run kept no values (imported without --keep-content), or the candidate has no server.
    method: str = PLAYED

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for call in self.calls:
            found[call.change] = found.get(call.change, 0) + 1
        return found


@dataclass(frozen=True)
class Candidate:
    """What recorded calls are replayed against: its name, its tools as listed, what it is (STUB, LIVE or SNAPSHOT)
    and where it came from."""

    name: str
    tools: list[dict[str, Any]]
    kind: str
    source: str
    allow_writes: bool = False

    def tool(self, name: str | None) -> dict[str, Any] | None:
        return next((t for t in self.tools if t.get("name") == name), None)


@dataclass(frozen=True)
class Replay:
    surface: str
    runs: list[ReplayedRun]
    against: str = STUB

    @property
    def method(self) -> str:
        """PLAYED, BY_SHAPE, or both where some runs kept their values and some did not."""
        return " and ".join(dict.fromkeys(sorted((r.method for r in self.runs), reverse=True))) or PLAYED

    def skipped(self) -> dict[str, int]:
        """Per tool, the calls a live server was not sent because the tool may write."""
        found: dict[str, int] = {}
        for run in self.runs:
            for call in run.calls:
                if call.after == SKIPPED:
                    found[call.replayed_as or call.tool] = found.get(call.replayed_as or call.tool, 0) + 1
        return found

    def answers(self) -> list[AnswerChange]:
        """Per tool, in order of first call, the sizes of its answers as recorded and as replayed."""
        calls: dict[str, list[ReplayedCall]] = {}
        for run in self.runs:
            for call in run.calls:
                if call.chars_after is not None:
                    calls.setdefault(call.tool, []).append(call)
        return [
            AnswerChange(
                tool,
                len(found),
                size_summary([c.chars_before for c in found], [c.tokens_before for c in found]),
                size_summary([c.chars_after or 0 for c in found], [c.tokens_after for c in found]),
            )
            for tool, found in calls.items()
        ]

    def per_tool(self) -> dict[str, dict[str, int]]:
        """Per recorded tool, in order of first call, how many of its calls each change befell."""
        found: dict[str, dict[str, int]] = {}
        for run in self.runs:
            for call in run.calls:
                counts = found.setdefault(call.tool, {})
                counts[call.change] = counts.get(call.change, 0) + 1
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "against": self.against,
            "method": self.method,
            "runs": [{**asdict(r), "counts": r.counts()} for r in self.runs],
            "tools": self.per_tool(),
            "answers": [asdict(a) for a in self.answers()],
            "skipped": self.skipped(),
        }


def _spec(run_dir: Path) -> dict[str, Any]:
    from toolsurface.harness.files import read_json

    spec = run_dir / SPEC
    data = read_json(spec, what="run spec", follow_links=False) if spec.is_file() else None
    return data if isinstance(data, dict) else {}


def _recorded(run_dir: Path) -> tuple[str, list[CallRecord]]:
    from toolsurface.stubs.calllog import read_log

    calls_path = run_dir / CALLS
    if not calls_path.is_file():
        raise ToolsurfaceError(f"{run_dir}: not a run directory (no {CALLS})")
    surface = str(_spec(run_dir).get("surface", "?"))
    return surface, [r for r in read_log(calls_path) if r.is_call]


def _kept_values(run_dir: Path) -> bool:
    """Whether the run kept its calls' arguments: an imported session without --keep-content kept only their
    kinds, sizes and digests."""
    return _spec(run_dir).get("content_kept") is not False


def _change(before: CallRecord, outcome: str, digest: str | None) -> str:
    if before.outcome == outcome:
        if outcome == "ok" and before.response_sha256 not in (None, digest):
            return "answered differently"
        return "same"
    if outcome == "refused":
        return "now refused"
    if outcome == "ok":
        return "now answered"
    return f"now {outcome}"


# After, for a call checked by shape or not played.
FITS = "fits"
SKIPPED = "not played"
UNMAPPABLE = "unmappable"

# One call played: its outcome (ok, refused, error) and the answer's text.
Player = Callable[[str, dict[str, Any]], Awaitable[tuple[str, str]]]


def _writes(tool: Mapping[str, Any]) -> str | None:
    """Why a live server's tool is not sent a replayed call without --allow-writes: it is not marked read-only, or
    it is marked destructive; None when it may be played."""
    annotations = tool.get("annotations")
    hints = annotations if isinstance(annotations, dict) else {}
    if hints.get("destructiveHint") is True:
        return f"{tool.get('name')} is marked destructive (destructiveHint true)"
    if hints.get("readOnlyHint") is not True:
        said = "no readOnlyHint" if hints.get("readOnlyHint") is None else "readOnlyHint false"
        return f"{tool.get('name')} is not marked read-only ({said})"
    return None


async def _replay_one(
    candidate: Candidate, run_dir: Path, mapping: CallMapping | None, play: Player | None
) -> ReplayedRun:
    """The run's calls, each played through `play` or, where it is None or the run kept no values, checked by shape."""
    from toolsurface.harness.measure import count_tokens

    recorded_surface, calls = _recorded(run_dir)
    by_shape = play is None or not _kept_values(run_dir)
    names = [str(t.get("name")) for t in candidate.tools]
    replayed = []
    for record in calls:
        tool = str(record.tool)
        before = count_tokens(record.response) if record.response is not None else None
        clash = None
        try:
            target, arguments = (
                mapping.call(tool, record.arguments or {}) if mapping else (tool, dict(record.arguments or {}))
            )
        except MappingClash as error:
            target, arguments, clash = mapping.tools[tool].tool if mapping else tool, {}, str(error)
        mapped = target if target != tool else None
        found = candidate.tool(target)

        unplayed = ReplayedCall(
            record.seq, tool, record.outcome, "-", UNMAPPABLE, None, record.response_chars, None, before,
            replayed_as=mapped,
        )  # fmt: skip
        if clash is not None:
            replayed.append(replace(unplayed, message=clash))
            continue
        if found is None:
            lacks = "the mapping maps it to no tool" if target is None else f"unknown tool {target!r}"
            replayed.append(replace(unplayed, message=f"{lacks}; tools: {', '.join(names) or '(none)'}"))
            continue
        if by_shape:
            checked = check_by_shape(found, arguments, strict=candidate.kind == STUB)
            if checked.refusal is not None:
                change = "still refused" if record.outcome == "refused" else "now refused"
                replayed.append(replace(unplayed, after="refused", change=change, message=checked.refusal))
            else:
                replayed.append(replace(unplayed, after=FITS, change="fits the schema"))
            replayed[-1] = replace(replayed[-1], unchecked=list(checked.unchecked))
            continue
        writes = _writes(found) if candidate.kind == LIVE and not candidate.allow_writes else None
        if writes is not None:
            message = f"{writes}; --allow-writes plays it"
            replayed.append(replace(unplayed, after=SKIPPED, change="not played (writes)", message=message))
            continue
        assert play is not None
        outcome, text = await play(str(target), arguments)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        replayed.append(
            ReplayedCall(
                record.seq,
                tool,
                record.outcome,
                outcome,
                _change(record, outcome, digest),
                text if outcome != "ok" else None,
                record.response_chars,
                len(text),
                before,
                count_tokens(text),
                mapped,
            )
        )
    return ReplayedRun(str(run_dir), recorded_surface, replayed, BY_SHAPE if by_shape else PLAYED)


async def _replay_on_stub(definition: SurfaceDefinition, run_dir: Path, mapping: CallMapping | None) -> ReplayedRun:
    """The run played against a fresh stub of the surface, in memory."""
    from mcp import Client

    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import start_stub, surface_for_serving

    surface = surface_for_serving(definition)
    candidate = Candidate(definition.name, _listed(surface), STUB, definition.source or definition.name)
    if not _kept_values(run_dir):
        return await _replay_one(candidate, run_dir, mapping, None)
    log = CallLog()
    server = build_server(surface, start_stub(surface, None), log)
    async with Client(server, mode="legacy") as client:

        async def play(tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
            result = await client.call_tool(tool, arguments)
            text = "".join(getattr(b, "text", "") for b in result.content)
            return [r for r in log.records if r.method == "tools/call"][-1].outcome, text

        return await _replay_one(candidate, run_dir, mapping, play)


def _listed(surface: Any) -> list[dict[str, Any]]:
    return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in surface.tools]


def _run_dirs(run_dirs: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for path in run_dirs:
        if (path / CALLS).is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(p.parent for p in path.rglob(CALLS)))
        else:
            raise ToolsurfaceError(f"{path}: no such run directory")
    if not found:
        raise ToolsurfaceError(f"no recorded runs in {', '.join(map(str, run_dirs))}")
    return found


def replay_runs(run_dirs: Sequence[Path], surface: str, mapping: CallMapping | None = None) -> Replay:
    """The runs replayed against a surface's stub (each run on a fresh one), or checked by shape against a
    snapshot's tools."""
    from toolsurface.harness.surface import resolve

    found = _run_dirs(run_dirs)
    definition = resolve(surface)
    if isinstance(definition, Snapshot):
        candidate = Candidate(definition.name, list(definition.tools), SNAPSHOT, definition.source)

        async def checked() -> list[ReplayedRun]:
            return [await _replay_one(candidate, run_dir, mapping, None) for run_dir in found]

        return Replay(definition.name, anyio.run(checked), SNAPSHOT)
    if definition.stub is None:
        raise ToolsurfaceError(
            f"surface {surface!r} has no stub to replay against; a snapshot of its list (toolsurface snapshot) checks"
            " the calls by shape"
        )

    async def main() -> list[ReplayedRun]:
        return [await _replay_on_stub(definition, run_dir, mapping) for run_dir in found]

    return Replay(definition.name, anyio.run(main), STUB)


def replay_live(
    run_dirs: Sequence[Path],
    server: StdioServer | HttpServer,
    mapping: CallMapping | None = None,
    *,
    allow_writes: bool = False,
    capabilities: Sequence[str] = (),
    timeout: float | None = None,
    protocol: str | None = None,
) -> Replay:
    """The runs replayed against a live server, listed once and called on the same connection: the calls of its
    read-only tools only, unless `allow_writes`; runs that kept no values checked by shape against its list."""
    from toolsurface.harness.live import DEFAULT_TIMEOUT_S, answered_error, use_live
    from toolsurface.harness.probe import answer_texts

    found = _run_dirs(run_dirs)

    async def use(tools: list[dict[str, Any]], connection: Connection) -> list[ReplayedRun]:
        candidate = Candidate("the server", tools, LIVE, server.label, allow_writes)

        async def play(tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
            try:
                result = await connection.call_tool(tool, arguments, CALL_TIMEOUT_S)
            except Exception as error:
                said = answered_error(error)
                if said is None:
                    raise
                return "refused", said
            texts = answer_texts(result)[0]
            return ("refused" if result.get("isError") is True else "ok"), "\n".join(texts)

        return [await _replay_one(candidate, run_dir, mapping, play) for run_dir in found]

    listing, runs = use_live(
        server,
        use,
        capabilities=capabilities,
        timeout=DEFAULT_TIMEOUT_S if timeout is None else timeout,
        protocol=protocol,
    )
    return Replay(listing.name, runs, LIVE)


def _sizes(before: float | int | None, after: float | int | None) -> str:
    if before is None or after is None:
        return "-"
    delta = after - before
    return f"{before:,.0f} → {after:,.0f} ({delta:+,.0f})"


ANSWERS_HEADER = ("Tool", "Calls", "Median chars", "Largest chars", "Total chars", "Median tokens", "Largest tokens")


def answers_table(replay: Replay) -> list[str]:
    """Per tool: the answers' median and largest size as recorded and as replayed."""
    changes = replay.answers()
    if not changes:
        return []
    lines = [
        f"Answer sizes, recorded → replayed on {replay.surface} (chars; o200k tokens where the log kept the text):",
        "",
        markdown_row(ANSWERS_HEADER),
        markdown_rule(len(ANSWERS_HEADER), range(1, len(ANSWERS_HEADER))),
    ]
    for c in changes:
        b, a = c.before, c.after
        sizes = [
            _sizes(b.median_chars, a.median_chars),
            _sizes(b.max_chars, a.max_chars),
            _sizes(b.chars, a.chars),
            _sizes(b.median_tokens, a.median_tokens),
            _sizes(b.max_tokens, a.max_tokens),
        ]
        lines.append(markdown_row([c.tool, str(c.calls), *sizes]))
    return ["", *lines]


def _heading(replay: Replay) -> list[str]:
    """What the replay was against and what it did: the calls played, or checked by shape with no call made."""
    what = {STUB: "its stub", LIVE: "the live server", SNAPSHOT: "a snapshot: no server"}[replay.against]
    lines = [f"Replayed against {replay.surface} ({what}): {replay.method}"]
    if BY_SHAPE in replay.method:
        why = (
            "a snapshot has no server to call"
            if replay.against == SNAPSHOT
            else "runs imported without --keep-content kept no values"
        )
        lines.append(
            f"Checked by shape ({why}): no call was made; each call's tool, parameter names and kinds against the"
            f" candidate's schema; what needs the values is {NOT_CHECKED}."
        )
    skipped = replay.skipped()
    if skipped:
        calls = sum(skipped.values())
        lines.append(
            f"Not played, {calls} call{'' if calls == 1 else 's'} of tools that may write ("
            + ", ".join(f"{tool} {n}" for tool, n in skipped.items())
            + "): --allow-writes plays them."
        )
    return lines


def _call_line(call: ReplayedCall) -> str | None:
    if call.change == "same" or (call.change == "fits the schema" and not call.unchecked):
        return None
    tool = f"{call.tool} as {call.replayed_as}" if call.replayed_as else call.tool
    note = f": {call.message[:160]}" if call.message else ""
    unchecked = f"; {NOT_CHECKED}: {', '.join(call.unchecked)}" if call.unchecked else ""
    return f"  #{call.seq} {tool}: {call.change} ({call.before} → {call.after}){note}{unchecked}"


def replay_table(replay: Replay) -> str:
    lines = [*_heading(replay), ""]
    for run in replay.runs:
        counts = ", ".join(f"{n} {change}" for change, n in sorted(run.counts().items()))
        lines.append(f"{run.run_dir} (recorded on {run.surface}, {run.method}): {counts}")
        lines += [line for call in run.calls if (line := _call_line(call)) is not None]
    several = len(replay.runs) > 1
    if several:
        lines += ["", "Per tool, over every run:"]
        for name, changes in replay.per_tool().items():
            lines.append(f"  {name}: " + ", ".join(f"{n} {change}" for change, n in sorted(changes.items())))
    lines += answers_table(replay)
    if replay.method == BY_SHAPE:
        lines += ["", "Answer sizes need the calls played: import the sessions with --keep-content."]
    return "\n".join(lines) + "\n"
