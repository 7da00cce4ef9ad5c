"""What probing costs beside the server: the harness's time per call, and `snapshot --check-stable` against a
plain snapshot.

- harness_per_call_s: the v2 stub over stdio (`toolsurface serve v2 --log`), one answer called CALLS times on
  one connection; the probe's wall time of the calls, per call, less the stub's own time per call (its call
  log's latency_ms, the handler's time). What remains is ours: the request written, the answer read, parsed,
  measured and counted (and the stub's SDK dispatch, which makes it an upper bound). Bar: at most 0.1 s.
- cold_per_call_s: the same from the command line, `probe` of the stub with CALLS calls less `snapshot` of it,
  per call (cold processes, median of paired runs).
- stable_over_snapshot: `snapshot --check-stable` of mcp-server-time over a plain `snapshot` of it, the median
  of paired runs' ratio. Bar: at most 1.5.

Run: python -m benchmarks.probe [--runs N]; prints the figures as JSON.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["CALLS", "measure_probe"]

CALLS = 200
STUB = [sys.executable, "-m", "toolsurface", "serve", "v2"]
TIME = [sys.executable, "-m", "mcp_server_time"]
CALL = {"tool": "item_get", "arguments": {"projectId": "acme-shop", "number": 3}, "times": CALLS}


def _harness_per_call(folder: Path) -> dict[str, Any]:
    from toolsurface.harness.live import StdioServer
    from toolsurface.harness.probe import parse_calls, probe_live

    log = folder / "calls.jsonl"
    calls = parse_calls({"calls": [CALL]}, "benchmark")
    done = probe_live(StdioServer((*STUB, "--log", str(log))), calls, calls_only=True)
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    server = [r["latency_ms"] / 1000 for r in records if r["method"] == "tools/call"]
    wall = done.probe.seconds / len(done.probe.calls)
    return {
        "calls": len(done.probe.calls),
        "wall_per_call_s": round(wall, 5),
        "server_per_call_s": round(statistics.mean(server), 5),
        "harness_per_call_s": round(wall - statistics.mean(server), 5),
    }


def _cli(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "toolsurface", *args], capture_output=True, check=False)
    return time.perf_counter() - started


def _paired(first: list[str], second: list[str], runs: int) -> tuple[list[float], list[float]]:
    _cli(*first), _cli(*second)  # warm the file cache
    a, b = [], []
    for _ in range(runs):
        a.append(_cli(*first))
        b.append(_cli(*second))
    return a, b


def measure_probe(runs: int = 5) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        harness = _harness_per_call(Path(folder))
        calls = Path(folder) / "calls.json"
        calls.write_text(json.dumps({"calls": [CALL]}), encoding="utf-8")
        probe, snapshot = _paired(
            ["probe", "--calls", str(calls), "--calls-only", "--format", "json", "--", *STUB],
            ["snapshot", "--", *STUB],
            runs,
        )
    stable, plain = _paired(["snapshot", "--check-stable", "--", *TIME], ["snapshot", "--", *TIME], runs)
    cold = [(p - s) / CALLS for p, s in zip(probe, snapshot, strict=True)]
    return {
        **harness,
        "cold_per_call_s": round(statistics.median(cold), 5),
        "probe_cli_s": round(statistics.median(probe), 3),
        "snapshot_cli_s": round(statistics.median(snapshot), 3),
        "stable_s": round(statistics.median(stable), 3),
        "plain_snapshot_s": round(statistics.median(plain), 3),
        "stable_over_snapshot": round(statistics.median(s / p for s, p in zip(stable, plain, strict=True)), 3),
        "runs": runs,
    }


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    print(json.dumps(measure_probe(runs), indent=2))


if __name__ == "__main__":
    main()
