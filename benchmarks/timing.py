"""Wall time of cold processes: each run is a fresh interpreter, as a user or a CI job starts one."""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Cost", "Figure", "Pairs", "paired", "paired_costs", "run_cost", "time_command"]


@dataclass(frozen=True)
class Figure:
    median: float
    min: float
    max: float
    runs: int
    command: str

    def to_json(self) -> dict[str, object]:
        return {
            "median": round(self.median, 4),
            "min": round(self.min, 4),
            "max": round(self.max, 4),
            "runs": self.runs,
            "command": self.command,
        }


def time_command(args: Sequence[str], runs: int = 7, ok_codes: Sequence[int] = (0,)) -> Figure:
    """Median, min and max wall time of `runs` cold runs after one warm-up run (file cache, not interpreter)."""
    subprocess.run(args, capture_output=True, check=False)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode not in ok_codes:
            raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return Figure(statistics.median(times), min(times), max(times), runs, " ".join(args))


@dataclass(frozen=True)
class Cost:
    """One cold run: wall seconds, and CPU seconds (user and system of the process and every child it waited for,
    from the kernel: the figure to read on a shared machine)."""

    wall: float
    cpu: float


def run_cost(args: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Cost:
    """One cold run of `args` (in `cwd`), which must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        list(args), capture_output=True, check=False, env=dict(env) if env else None, cwd=cwd, timeout=600
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip()[-400:]
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {said}")
    return Cost(wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


@dataclass(frozen=True)
class Pairs:
    """A's and B's costs, pair by pair."""

    a: tuple[Cost, ...]
    b: tuple[Cost, ...]

    def median(self, side: Literal["a", "b"], figure: Literal["wall", "cpu"]) -> float:
        costs: tuple[Cost, ...] = getattr(self, side)
        return statistics.median(float(getattr(c, figure)) for c in costs)

    def ratio(self, figure: Literal["wall", "cpu"]) -> float:
        """The median of the pairs' A/B of `figure`."""
        pairs = zip(self.a, self.b, strict=True)
        return statistics.median(float(getattr(x, figure)) / float(getattr(y, figure)) for x, y in pairs)


def paired_costs(
    a: Sequence[str],
    b: Sequence[str],
    runs: int,
    a_env: Mapping[str, str] | None = None,
    b_env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Pairs:
    """A and B in turn (both in `cwd`), `runs` pairs after one warm-up each (the file cache, bytecode; not the
    interpreter). Pairs alternate which goes first, so a burst of load on a shared machine falls on both alike."""
    run_cost(a, a_env, cwd)
    run_cost(b, b_env, cwd)
    a_costs, b_costs = [], []
    for index in range(runs):
        if index % 2:
            b_costs.append(run_cost(b, b_env, cwd))
        a_costs.append(run_cost(a, a_env, cwd))
        if not index % 2:
            b_costs.append(run_cost(b, b_env, cwd))
    return Pairs(tuple(a_costs), tuple(b_costs))


def paired(
    a: Sequence[str],
    b: Sequence[str],
    runs: int,
    a_env: Mapping[str, str] | None = None,
    b_env: Mapping[str, str] | None = None,
) -> tuple[Figure, Figure, Figure]:
    """A and B in turn (paired_costs): A's wall times, B's, and the median of each pair's A/B."""
    pairs = paired_costs(a, b, runs, a_env, b_env)
    a_times = [c.wall for c in pairs.a]
    b_times = [c.wall for c in pairs.b]
    ratios = [x / y for x, y in zip(a_times, b_times, strict=True)]

    def figure(times: list[float], command: str) -> Figure:
        return Figure(statistics.median(times), min(times), max(times), len(times), command)

    return (
        figure(a_times, " ".join(a)),
        figure(b_times, " ".join(b)),
        figure(ratios, f"paired ratio: {' '.join(a)} / {' '.join(b)}"),
    )
