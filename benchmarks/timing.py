"""Wall time of cold processes: each run is a fresh interpreter, as a user or a CI job starts one."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Figure", "paired", "time_command"]


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


def _run(args: Sequence[str], env: Mapping[str, str] | None) -> float:
    start = time.perf_counter()
    done = subprocess.run(list(args), capture_output=True, check=False, env=dict(env) if env else None, timeout=300)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def paired(
    a: Sequence[str],
    b: Sequence[str],
    runs: int,
    a_env: Mapping[str, str] | None = None,
    b_env: Mapping[str, str] | None = None,
) -> tuple[Figure, Figure, Figure]:
    """A and B in turn, `runs` pairs after one warm-up each: A's times, B's, and the median of each pair's A/B.
    Pairs alternate which goes first, so a burst of load on a shared machine falls on both alike."""
    _run(a, a_env)
    _run(b, b_env)
    a_times, b_times = [], []
    for index in range(runs):
        if index % 2:
            b_times.append(_run(b, b_env))
        a_times.append(_run(a, a_env))
        if not index % 2:
            b_times.append(_run(b, b_env))
    ratios = [x / y for x, y in zip(a_times, b_times, strict=True)]

    def figure(times: list[float], command: str) -> Figure:
        return Figure(statistics.median(times), min(times), max(times), len(times), command)

    return (
        figure(a_times, " ".join(a)),
        figure(b_times, " ".join(b)),
        figure(ratios, f"paired ratio: {' '.join(a)} / {' '.join(b)}"),
    )
