"""What probing costs beside the server (issue 33's bars): the harness's time per call, and `snapshot
--check-stable` against a plain snapshot.

- probe_harness_per_call_s: the v2 stub over stdio (`toolsurface serve v2 --log`), one answer called CALLS times
  on one connection, in this process; the probe's wall time of the calls, per call, less the stub's own time
  per call (its call log's latency_ms, the handler's time). What remains is ours: the request written, the
  answer read, parsed, measured and counted (and the stub's SDK dispatch, which makes it an upper bound). One
  figure per run (a fresh stub each). Bar: at most 0.1 s.
- probe_cold_per_call_s: the same from the command line, `probe` of the stub with CALLS calls less `snapshot`
  of it, per call (cold processes, paired runs).
- stable_over_snapshot: `snapshot --check-stable` of mcp-server-time over a plain `snapshot` of it, each pair's
  ratio (paired runs). Bar: at most 1.5.

Pairs alternate who goes first, so a burst of load on a shared machine falls on both alike.

    python -m benchmarks.probe [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["CALLS", "measure_probe"]

SMOKE = ["--runs", "1"]

CALLS = 200
STUB = [sys.executable, "-m", "toolsurface", "serve", "v2"]
TIME = [sys.executable, "-m", "mcp_server_time"]
CALL = {"tool": "item_get", "arguments": {"projectId": "acme-shop", "number": 3}, "times": CALLS}


def _figure(values: Sequence[float], command: Sequence[str]) -> Figure:
    return Figure(statistics.median(values), min(values), max(values), len(values), " ".join(command))


def _harness_per_call(folder: Path) -> tuple[float, float]:
    """One probe of CALLS calls in this process: (harness seconds per call, stub seconds per call)."""
    from toolsurface.harness.live import StdioServer
    from toolsurface.harness.probe import parse_calls, probe_live

    log = folder / "calls.jsonl"
    log.unlink(missing_ok=True)
    calls = parse_calls({"calls": [CALL]}, "benchmark")
    done = probe_live(StdioServer((*STUB, "--log", str(log))), calls, calls_only=True)
    if len(done.probe.calls) != CALLS or any(c.error for c in done.probe.calls):
        raise RuntimeError(f"the probe made {len(done.probe.calls)} calls, not {CALLS} answered ones")
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    server = statistics.mean(r["latency_ms"] / 1000 for r in records if r["method"] == "tools/call")
    return done.probe.seconds / CALLS - server, server


def _cli(args: Sequence[str]) -> float:
    command = [sys.executable, "-m", "toolsurface", *args]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False, timeout=300)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def _paired(first: Sequence[str], second: Sequence[str], runs: int) -> tuple[list[float], list[float]]:
    _cli(first), _cli(second)  # one warm-up each: the file cache, not the interpreter
    a: list[float] = []
    b: list[float] = []
    for index in range(runs):
        if index % 2:
            b.append(_cli(second))
        a.append(_cli(first))
        if not index % 2:
            b.append(_cli(second))
    return a, b


def measure_probe(runs: int = 5) -> dict[str, Figure]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        inside = [_harness_per_call(folder) for _ in range(runs)]
        calls = folder / "calls.json"
        calls.write_text(json.dumps({"calls": [CALL]}), encoding="utf-8")
        probe_args = ["probe", "--calls", str(calls), "--calls-only", "--format", "json", "--", *STUB]
        snapshot_args = ["snapshot", "--", *STUB]
        probe, snapshot = _paired(probe_args, snapshot_args, runs)
        stable_args, plain_args = ["snapshot", "--check-stable", "--", *TIME], ["snapshot", "--", *TIME]
        stable, plain = _paired(stable_args, plain_args, runs)
    in_process = [f"probe_live of {' '.join(STUB)}", f"{CALL['tool']} x {CALLS}"]
    return {
        "probe_harness_per_call_s": _figure([h for h, _ in inside], [*in_process, "less the stub's own time"]),
        "probe_stub_per_call_s": _figure([s for _, s in inside], [*in_process, "the stub's latency_ms"]),
        "probe_cold_per_call_s": _figure(
            [(p - s) / CALLS for p, s in zip(probe, snapshot, strict=True)],
            ["(", "toolsurface", *probe_args, "less", "toolsurface", *snapshot_args, f") / {CALLS}"],
        ),
        "probe_cli_s": _figure(probe, ["toolsurface", *probe_args]),
        "snapshot_v2_cli_s": _figure(snapshot, ["toolsurface", *snapshot_args]),
        "check_stable_s": _figure(stable, ["toolsurface", *stable_args]),
        "snapshot_time_s": _figure(plain, ["toolsurface", *plain_args]),
        "stable_over_snapshot": _figure(
            [s / p for s, p in zip(stable, plain, strict=True)], ["paired ratio", *stable_args[:2], "/ snapshot"]
        ),
    }


def main() -> None:
    from importlib.metadata import version

    parser = argparse.ArgumentParser(prog="python -m benchmarks.probe", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (5 or more for a figure to compare)")
    args = parser.parse_args()
    versions = {package: version(package) for package in ("mcp", "mcp-server-time", "tiktoken")}
    figures = {name: figure.to_json() for name, figure in measure_probe(args.runs).items()}
    print(json.dumps({"versions": versions, "figures": figures}, indent=2))


if __name__ == "__main__":
    main()
