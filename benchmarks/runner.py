"""The session runner's own cost: time per run beyond the agent's, and what --jobs 4 buys on this machine."""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["measure_runner"]


def _study(cli: Sequence[str], runs: int, jobs: int) -> tuple[float, list[float]]:
    """Wall time of one cold `session run` with the script agent, and each run's agent time."""
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-") as out:
        started = time.perf_counter()
        subprocess.run(
            [
                *cli,
                "session",
                "run",
                "--agent",
                "script",
                "--surface",
                "v2",
                "--runs",
                str(runs),
                "--jobs",
                str(jobs),
                "--out",
                out,
            ],
            capture_output=True,
            check=True,
        )
        wall = time.perf_counter() - started
        agent = [
            json.loads(result.read_text(encoding="utf-8"))["agent_duration_s"]
            for result in Path(out).glob("runs/*/*/result.json")
        ]
        return wall, agent


def _burn(n: int) -> None:
    total = 0
    for i in range(n):
        total += i * i


def cpu_parallel_ceiling(repeats: int = 5, work: int = 15_000_000) -> Figure:
    """What two CPU-bound processes gain over one on this machine: the most any --jobs can give a CPU-bound study."""
    import multiprocessing

    ratios = []
    for _ in range(repeats):
        started = time.perf_counter()
        _burn(work)
        _burn(work)
        serial = time.perf_counter() - started
        with multiprocessing.get_context("spawn").Pool(2) as pool:
            started = time.perf_counter()
            pool.map(_burn, [work, work])
            parallel = time.perf_counter() - started
        ratios.append(serial / parallel)
    return Figure(
        statistics.median(ratios),
        min(ratios),
        max(ratios),
        repeats,
        "two CPU-bound processes against one after the other",
    )


def measure_runner(cli: Sequence[str], repeats: int = 5, runs: int = 8) -> dict[str, Figure]:
    """runner_overhead_s: (wall of a --jobs 1 study - the agents' own time) / runs, the CLI's start included."""
    overheads: list[float] = []
    speedups: list[float] = []
    for _ in range(repeats):
        serial, agent = _study(cli, runs, 1)
        overheads.append((serial - sum(agent)) / runs)
        parallel, _ = _study(cli, runs, 4)
        speedups.append(serial / parallel)
    what = f"session run --agent script --surface v2 --runs {runs}"
    return {
        "runner_overhead_s": Figure(
            statistics.median(overheads),
            min(overheads),
            max(overheads),
            repeats,
            f"{what} --jobs 1: (wall - the agents' own time) / runs",
        ),
        "jobs4_speedup": Figure(
            statistics.median(speedups),
            min(speedups),
            max(speedups),
            repeats,
            f"{what}: runs/s with --jobs 4 over --jobs 1",
        ),
        "cpu_parallel_ceiling": cpu_parallel_ceiling(repeats),
    }
