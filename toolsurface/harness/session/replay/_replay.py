"""Replay: the tool calls of recorded runs, played against another surface's stub, without an agent.

A call is mapped by tool name where the surface has the tool; the rest are listed as unmappable. Each
mapped call is compared with what the recorded run got: the same answer, now refused, now answered, or
answered differently (another text), and how large its answer was and is (chars, and o200k tokens where the
recorded log kept the answer's text), summed up per tool. A regression check that spends no tokens.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import markdown_row, markdown_rule
from toolsurface.harness.run_folder import CALLS, SPEC
from toolsurface.harness.session.replay._mapping import CallMapping
from toolsurface.harness.surface import AnswerSizes, SurfaceDefinition, size_summary
from toolsurface.stubs.calllog import CallRecord


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

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for call in self.calls:
            found[call.change] = found.get(call.change, 0) + 1
        return found


@dataclass(frozen=True)
class Replay:
    surface: str
    runs: list[ReplayedRun]
    # Runs whose calls' arguments were not kept (sessions imported without --keep-content): not replayed.
    not_replayable: list[str] = field(default_factory=list)

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
            "runs": [{**asdict(r), "counts": r.counts()} for r in self.runs],
            "tools": self.per_tool(),
            "answers": [asdict(a) for a in self.answers()],
            "not_replayable": self.not_replayable,
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


def _replayable(run_dir: Path) -> bool:
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


async def _replay_one(definition: SurfaceDefinition, run_dir: Path, mapping: CallMapping | None) -> ReplayedRun:
    from mcp import Client

    from toolsurface.harness.measure import count_tokens
    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import start_stub, surface_for_serving

    recorded_surface, calls = _recorded(run_dir)
    surface = surface_for_serving(definition)
    names = {t.name for t in surface.tools}
    log = CallLog()
    server = build_server(surface, start_stub(surface, None), log)
    replayed = []
    async with Client(server, mode="legacy") as client:
        for record in calls:
            tool = str(record.tool)
            before = count_tokens(record.response) if record.response is not None else None
            target, arguments = (
                mapping.call(tool, record.arguments or {}) if mapping else (tool, dict(record.arguments or {}))
            )
            mapped = target if target != tool else None
            if target is None or target not in names:
                replayed.append(
                    ReplayedCall(
                        record.seq,
                        tool,
                        record.outcome,
                        "-",
                        "unmappable",
                        None,
                        record.response_chars,
                        None,
                        before,
                        replayed_as=mapped,
                    )
                )
                continue
            result = await client.call_tool(target, arguments)
            text = "".join(getattr(b, "text", "") for b in result.content)
            outcome = [r for r in log.records if r.method == "tools/call"][-1].outcome
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            message = text if outcome != "ok" else None
            replayed.append(
                ReplayedCall(
                    record.seq,
                    tool,
                    record.outcome,
                    outcome,
                    _change(record, outcome, digest),
                    message,
                    record.response_chars,
                    len(text),
                    before,
                    count_tokens(text),
                    mapped,
                )
            )
    return ReplayedRun(str(run_dir), recorded_surface, replayed)


def replay_runs(run_dirs: list[Path], surface: str, mapping: CallMapping | None = None) -> Replay:
    from toolsurface.harness.surface import resolve

    definition = resolve(surface)
    if not isinstance(definition, SurfaceDefinition) or definition.stub is None:
        raise ToolsurfaceError(f"surface {surface!r} has no stub to replay against")
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
    skipped = [str(run_dir) for run_dir in found if not _replayable(run_dir)]
    found = [run_dir for run_dir in found if _replayable(run_dir)] or _none_replayable(found)

    async def main() -> list[ReplayedRun]:
        return [await _replay_one(definition, run_dir, mapping) for run_dir in found]

    return Replay(definition.name, anyio.run(main), skipped)


def _none_replayable(found: list[Path]) -> list[Path]:
    which = "the run kept" if len(found) == 1 else f"none of the {len(found)} runs kept"
    raise ToolsurfaceError(
        f"{which} its calls' arguments (sessions imported without --keep-content): import them again with"
        " --keep-content to replay them"
    )


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


def replay_table(replay: Replay) -> str:
    lines = [f"Replayed against {replay.surface}", ""]
    for run in replay.runs:
        counts = ", ".join(f"{n} {change}" for change, n in sorted(run.counts().items()))
        lines.append(f"{run.run_dir} (recorded on {run.surface}): {counts}")
        for call in run.calls:
            if call.change != "same":
                note = f": {call.message[:160]}" if call.message else ""
                tool = f"{call.tool} as {call.replayed_as}" if call.replayed_as else call.tool
                lines.append(f"  #{call.seq} {tool}: {call.change} ({call.before} → {call.after}){note}")
    several = len(replay.runs) > 1
    if several:
        lines += ["", "Per tool, over every run:"]
        for name, changes in replay.per_tool().items():
            lines.append(f"  {name}: " + ", ".join(f"{n} {change}" for change, n in sorted(changes.items())))
    if replay.not_replayable:
        lines.append(
            f"Not replayed, their arguments not kept (import with --keep-content): {', '.join(replay.not_replayable)}"
        )
    lines += answers_table(replay)
    return "\n".join(lines) + "\n"
