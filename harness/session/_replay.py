"""Replay: the tool calls of recorded runs, played against another surface's stub, without an agent.

A call is mapped by tool name where the surface has the tool; the rest are listed as unmappable. Each
mapped call is compared with what the recorded run got: the same answer, now refused, now answered, or
answered differently (another text). A regression check that spends no tokens.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio

from harness.errors import ToolsurfaceError
from harness.surface import SurfaceDefinition
from stubs.calllog import CallRecord

__all__ = ["Replay", "ReplayedCall", "ReplayedRun", "replay_runs", "replay_table"]


@dataclass(frozen=True)
class ReplayedCall:
    seq: int
    tool: str
    before: str
    after: str
    change: str
    message: str | None


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

    def to_json(self) -> dict[str, Any]:
        return {"surface": self.surface, "runs": [{**asdict(r), "counts": r.counts()} for r in self.runs]}


def _recorded(run_dir: Path) -> tuple[str, list[CallRecord]]:
    from harness.files import read_json
    from stubs.calllog import read_log

    calls_path = run_dir / "calls.jsonl"
    if not calls_path.is_file():
        raise ToolsurfaceError(f"{run_dir}: not a run directory (no calls.jsonl)")
    surface = "?"
    spec = run_dir / "spec.json"
    if spec.is_file():
        data = read_json(spec, what="run spec", follow_links=False)
        surface = str(data.get("surface", "?")) if isinstance(data, dict) else "?"
    return surface, [r for r in read_log(calls_path) if r.is_call]


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


async def _replay_one(definition: SurfaceDefinition, run_dir: Path) -> ReplayedRun:
    from mcp import Client

    from stubs.calllog import CallLog
    from stubs.serve import start_stub, surface_for_serving
    from stubs.server import build_server

    recorded_surface, calls = _recorded(run_dir)
    surface = surface_for_serving(definition)
    names = {t.name for t in surface.tools}
    log = CallLog()
    server = build_server(surface, start_stub(surface, None), log)
    replayed = []
    async with Client(server, mode="legacy") as client:
        for record in calls:
            tool = str(record.tool)
            if tool not in names:
                replayed.append(ReplayedCall(record.seq, tool, record.outcome, "-", "unmappable", None))
                continue
            result = await client.call_tool(tool, dict(record.arguments or {}))
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
                )
            )
    return ReplayedRun(str(run_dir), recorded_surface, replayed)


def replay_runs(run_dirs: list[Path], surface: str) -> Replay:
    from harness.surface import resolve

    definition = resolve(surface)
    if not isinstance(definition, SurfaceDefinition) or definition.stub is None:
        raise ToolsurfaceError(f"surface {surface!r} has no stub to replay against")
    found: list[Path] = []
    for path in run_dirs:
        if (path / "calls.jsonl").is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(p.parent for p in path.rglob("calls.jsonl")))
        else:
            raise ToolsurfaceError(f"{path}: no such run directory")
    if not found:
        raise ToolsurfaceError(f"no recorded runs in {', '.join(map(str, run_dirs))}")

    async def main() -> list[ReplayedRun]:
        return [await _replay_one(definition, run_dir) for run_dir in found]

    return Replay(definition.name, anyio.run(main))


def replay_table(replay: Replay) -> str:
    lines = [f"Replayed against {replay.surface}", ""]
    for run in replay.runs:
        counts = ", ".join(f"{n} {change}" for change, n in sorted(run.counts().items()))
        lines.append(f"{run.run_dir} (recorded on {run.surface}): {counts}")
        for call in run.calls:
            if call.change != "same":
                note = f": {call.message[:160]}" if call.message else ""
                lines.append(f"  #{call.seq} {call.tool}: {call.change} ({call.before} → {call.after}){note}")
    return "\n".join(lines) + "\n"
