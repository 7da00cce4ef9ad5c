"""Where people wait: the report of the bundled study, a cold `list`, the whole test suite and `.ci/run`.

Each figure is wall time with the CPU seconds (user + sys, of the command and all its children) beside it,
which machine load changes less. The report and `list` are cold processes, run `--runs` times after one
warm-up; the suite and CI run once each. `.ci/run` runs on a fresh clone of this checkout's HEAD, once with
its cache folder as it is (warm) and once with an empty one (TOOLSURFACE_CI_CACHE pointing at a new folder).

    python -m benchmarks.speed [--runs N] [--suite] [--ci] [--out FILE]

Bars (issue 21): report at most 1.5 s, list at most 0.15 s, the suite within 4 minutes on 2 cores, CI
within 10 minutes warm.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Timed", "measure_ci", "measure_cold", "measure_suite", "timed"]

SMOKE = ["--runs", "1"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Timed:
    wall_s: float
    cpu_s: float
    peak_mib: float
    returncode: int


def timed(
    args: Sequence[str], cwd: Path = ROOT, env: Mapping[str, str] | None = None, log: Path | None = None
) -> Timed:
    """One run of `args`: wall seconds, the CPU seconds it and its children used, the largest child's peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(log or os.devnull, "w", encoding="utf-8") as out:
        done = subprocess.run(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu, after.ru_maxrss / 1024, done.returncode)


def _cli() -> list[str]:
    return [sys.executable, "-m", "toolsurface"]


def measure_cold(args: Sequence[str], runs: int) -> dict[str, object]:
    """Median, min and max of `runs` cold runs after a warm-up (the file cache, not the interpreter)."""
    timed(args)
    results = [timed(args) for _ in range(runs)]
    if any(r.returncode != 0 for r in results):
        raise RuntimeError(f"{' '.join(args)} failed")
    walls = [r.wall_s for r in results]
    return {
        "command": " ".join(args),
        "runs": runs,
        "median_s": round(statistics.median(walls), 3),
        "min_s": round(min(walls), 3),
        "max_s": round(max(walls), 3),
        "cpu_median_s": round(statistics.median(r.cpu_s for r in results), 3),
        "peak_mib": round(max(r.peak_mib for r in results), 1),
    }


def measure_suite(log: Path) -> dict[str, object]:
    """The README's test command, once."""
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=30"]
    result = timed(args, log=log)
    return {
        "command": " ".join(args),
        "wall_s": round(result.wall_s, 1),
        "cpu_s": round(result.cpu_s, 1),
        "passed": result.returncode == 0,
        "log": str(log),
    }


def measure_ci(cache: Path | None, log: Path) -> dict[str, object]:
    """`CI=true bash .ci/run` on a fresh clone of HEAD; `cache`: its cache folder (None: the usual one)."""
    with tempfile.TemporaryDirectory(prefix="toolsurface-ci-bench-") as work:
        clone = Path(work) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "CI": "true"}
        if cache is not None:
            env["TOOLSURFACE_CI_CACHE"] = str(cache)
        result = timed(["bash", ".ci/run"], cwd=clone, env=env, log=log)
    return {
        "cache": "empty" if cache is not None else "warm",
        "wall_s": round(result.wall_s, 1),
        "cpu_s": round(result.cpu_s, 1),
        "passed": result.returncode == 0,
        "log": str(log),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--suite", action="store_true", help="also time the whole test suite")
    parser.add_argument("--ci", action="store_true", help="also time .ci/run, warm and from an empty cache")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    options = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="toolsurface-speed-"))
    figures: dict[str, object] = {
        "cpus": os.cpu_count(),
        "load_1m_before": round(os.getloadavg()[0], 2),
        "list": measure_cold([*_cli(), "list"], options.runs),
        "report": measure_cold(
            [*_cli(), "report", "toolsurface/sessions/runs/conderis-script", "--out", str(logs / "report"), "--html"],
            options.runs,
        ),
    }
    if options.suite:
        figures["suite"] = measure_suite(logs / "suite.log")
    if options.ci:
        figures["ci_warm"] = measure_ci(None, logs / "ci-warm.log")
        with tempfile.TemporaryDirectory(prefix="toolsurface-ci-empty-") as empty:
            figures["ci_empty"] = measure_ci(Path(empty), logs / "ci-empty.log")
    figures["load_1m_after"] = round(os.getloadavg()[0], 2)
    text = json.dumps(figures, indent=2) + "\n"
    if options.out:
        options.out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
