"""Wall time of cold processes: each run is a fresh interpreter, as a user or a CI job starts one."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Figure", "time_command"]


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
