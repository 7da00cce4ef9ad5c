"""tools/call latency and throughput over stdio against a stub, and server start to the first tools/list."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from benchmarks.timing import Figure

SMOKE = ["--calls", "50", "--starts", "1"]

ROOT = Path(__file__).resolve().parent.parent
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("item_get", {"projectId": "acme-shop", "number": 14}),
    ("item_list", {"kind": "task", "projectId": "acme-shop"}),
    ("item_list", {"kind": "task", "projectId": "acme-shop", "filter": {"status": "open"}}),
]


def _params(surface: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "toolsurface", "serve", surface], cwd=str(ROOT))


async def _latencies(surface: str, calls: int) -> tuple[list[float], float]:
    async with Client(_params(surface), mode="legacy") as client:
        await client.list_tools()
        for name, arguments in CALLS:
            await client.call_tool(name, arguments)
        times = []
        started = time.perf_counter()
        for n in range(calls):
            name, arguments = CALLS[n % len(CALLS)]
            before = time.perf_counter()
            await client.call_tool(name, arguments)
            times.append(time.perf_counter() - before)
        return times, time.perf_counter() - started


async def _start_to_first_list(surface: str) -> float:
    started = time.perf_counter()
    async with Client(_params(surface), mode="legacy") as client:
        await client.list_tools()
        return time.perf_counter() - started


def measure_stub(surface: str = "v2", calls: int = 2000, starts: int = 7) -> dict[str, Figure]:
    times, total = anyio.run(_latencies, surface, calls)
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    what = f"{calls} tools/call over stdio against {surface}"
    start_times = [anyio.run(_start_to_first_list, surface) for _ in range(starts)]
    return {
        "stub_call_p50_ms": Figure(statistics.median(ms), ms[0], ms[-1], calls, what),
        "stub_call_p99_ms": Figure(p99, ms[0], ms[-1], calls, what),
        "stub_calls_per_s": Figure(calls / total, calls / total, calls / total, 1, what),
        "stub_start_s": Figure(
            statistics.median(start_times),
            min(start_times),
            max(start_times),
            starts,
            f"serve {surface} over stdio until the first tools/list answer",
        ),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stub_calls", description=__doc__)
    parser.add_argument("--calls", type=int, default=2000, help="tools/call requests on one connection")
    parser.add_argument("--starts", type=int, default=7, help="cold starts to the first tools/list")
    options = parser.parse_args()
    for key, figure in measure_stub(calls=options.calls, starts=options.starts).items():
        print(f"{key}: median {figure.median:.3f} (min {figure.min:.3f}, max {figure.max:.3f})")
