"""`measure --anatomy` against `measure --per-tool` (issue 50's bar: within 1.2 times), paired cold runs on the
same lists: every snapshot of the shipped corpus in one command (996 tools, 1.5 M chars), and v2.

Each pair runs both commands one after the other, in turns which goes first, so a burst of load on a shared
machine falls on both alike; the figure is the median of the pairs' ratios, of CPU seconds (user and system, from
the kernel: the one to read on a shared machine) and of wall seconds. In this process too: `measure()` of the
corpus with and without the anatomy, the best of --runs (CPU seconds).

    python -m benchmarks.anatomy [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

SMOKE = ["--runs", "1"]

__all__ = ["measure_in_process", "paired_ratio"]

TOOLSURFACE = [sys.executable, "-m", "toolsurface"]


def _timed(args: Sequence[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one cold process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(args), capture_output=True, check=False, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired_ratio(anatomy: Sequence[str], per_tool: Sequence[str], runs: int, label: str) -> dict[str, Any]:
    """Median seconds of each command and the median of the pairs' ratios (anatomy / per-tool), after a warm-up."""
    _timed(anatomy)
    _timed(per_tool)
    pairs = []
    for index in range(runs):
        first, second = (anatomy, per_tool) if index % 2 == 0 else (per_tool, anatomy)
        one, two = _timed(first), _timed(second)
        pairs.append((one, two) if index % 2 == 0 else (two, one))
    walls = [a[0] / b[0] for a, b in pairs]
    cpus = [a[1] / b[1] for a, b in pairs]
    return {
        "anatomy_cpu_s": round(statistics.median(a[1] for a, _ in pairs), 3),
        "per_tool_cpu_s": round(statistics.median(b[1] for _, b in pairs), 3),
        "anatomy_wall_s": round(statistics.median(a[0] for a, _ in pairs), 3),
        "per_tool_wall_s": round(statistics.median(b[0] for _, b in pairs), 3),
        "ratio_cpu": round(statistics.median(cpus), 3),
        "ratio_wall": round(statistics.median(walls), 3),
        "runs": runs,
        "commands": f"toolsurface measure {label} --format json --anatomy | --per-tool",
    }


def _corpus_files() -> list[str]:
    from toolsurface.harness.corpus import corpus_snapshots

    return [str(path) for entry, path in corpus_snapshots() if not entry.malformed]


def measure_in_process(runs: int) -> dict[str, Any]:
    """CPU seconds of measure() on the corpus with and without the anatomy, the best of `runs`."""
    from toolsurface.harness.measure import encoding, measure
    from toolsurface.harness.surface import resolve

    items = [resolve(path) for path in _corpus_files()]
    encoding()
    figures: dict[str, Any] = {}
    for name, anatomy in (("per_tool", False), ("anatomy", True)):
        took = []
        for _ in range(runs):
            start = time.process_time()
            measure(items, growth=False, anatomy=anatomy)
            took.append(time.process_time() - start)
        figures[f"in_process_{name}_cpu_s"] = round(min(took), 3)
    figures["in_process_ratio"] = round(figures["in_process_anatomy_cpu_s"] / figures["in_process_per_tool_cpu_s"], 3)
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.anatomy", description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    options = parser.parse_args(argv)
    corpus = _corpus_files()
    figures: dict[str, Any] = {"corpus_snapshots": len(corpus)}
    for name, given, label in (("corpus", corpus, f"<{len(corpus)} corpus snapshots>"), ("v2", ["v2"], "v2")):
        common = [*TOOLSURFACE, "measure", *given, "--format", "json"]
        figures[name] = paired_ratio([*common, "--anatomy"], [*common, "--per-tool"], options.runs, label)
    figures |= measure_in_process(options.runs)
    figures["load"] = os.getloadavg()
    print(json.dumps(figures, indent=2))
    for name in ("corpus", "v2"):
        print(f"{name}: measure --anatomy / measure --per-tool = {figures[name]['ratio_cpu']:.3f} (CPU), "
              f"{figures[name]['ratio_wall']:.3f} (wall)")  # fmt: skip


if __name__ == "__main__":
    main()
