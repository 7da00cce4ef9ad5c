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


def _study(cli: Sequence[str], runs: int, jobs: int, stub_start: str = "auto") -> tuple[float, list[float]]:
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
                "--stub-start",
                stub_start,
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


def _figure(values: list[float], what: str) -> Figure:
    return Figure(statistics.median(values), min(values), max(values), len(values), what)


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


def measure_runner(cli: Sequence[str], repeats: int = 5, small: int = 8, large: int = 32) -> dict[str, Figure]:
    """The runner's own cost per run and what --jobs 4 buys, with stubs forked (the default) and spawned.

    runner_overhead_s: (wall of a --jobs 1 study - the agents' own time) / runs, the CLI's start included.
    jobs4_speedup: runs/s once a study is running, --jobs 4 over --jobs 1; a run's time is the study's wall
    time per added run, (wall of `large` runs - wall of `small`) / (large - small), so the study's own
    start (CLI, planning, the fork server's imports) and scoring, paid once, are left out.
    jobs4_study_speedup: the plain wall-time ratio of a `small`-run study, start included.
    """
    overheads: list[float] = []
    marginal: list[float] = []
    whole: list[float] = []
    spawned: list[float] = []
    serial_small: list[float] = []
    serial_spawned: list[float] = []
    for _ in range(repeats):
        serial, agent = _study(cli, small, 1)
        overheads.append((serial - sum(agent)) / small)
        parallel, _ = _study(cli, small, 4)
        serial_large, _ = _study(cli, large, 1)
        parallel_large, _ = _study(cli, large, 4)
        marginal.append((serial_large - serial) / (parallel_large - parallel))
        whole.append(serial / parallel)
        serial_small.append(serial)
        spawn_serial, _ = _study(cli, small, 1, "spawn")
        spawn_parallel, _ = _study(cli, small, 4, "spawn")
        spawned.append(spawn_serial / spawn_parallel)
        serial_spawned.append(spawn_serial)
    what = "session run --agent script --surface v2"
    return {
        "runner_overhead_s": _figure(
            overheads, f"{what} --runs {small} --jobs 1: (wall - the agents' own time) / runs"
        ),
        "jobs4_speedup": _figure(
            marginal,
            f"{what}: runs/s once running, --jobs 4 over --jobs 1 (wall per added run, {small} to {large} runs)",
        ),
        "jobs4_study_speedup": _figure(whole, f"{what} --runs {small}: wall with --jobs 1 over --jobs 4"),
        "jobs4_study_speedup_spawn": _figure(spawned, "the same with --stub-start spawn (a fresh stub process a run)"),
        "study_s": _figure(serial_small, f"{what} --runs {small} --jobs 1: wall"),
        "study_spawn_s": _figure(serial_spawned, f"{what} --runs {small} --jobs 1 --stub-start spawn: wall"),
        "cpu_parallel_ceiling": cpu_parallel_ceiling(repeats),
    }
