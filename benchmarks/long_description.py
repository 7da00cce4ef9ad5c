"""A 1 MB text through redaction and through lint and diff (issue 48's bars: redaction of a 1 MB text within 0.1 s,
a 1 MB description through every `--format` of lint and diff within 2 s; before, `lint --format sarif` of 100,000
characters took 18.3 s and 1 MB did not finish in 240 s, the URL-credential pattern backtracking over the quoted
first sentence).

Redaction is timed in this process (CPU seconds of `redacted_text`, the best of --runs) on texts of each shape a
pattern could backtrack over, and on a description as a server writes one, with URLs, pairs and headers in it.
lint and diff are timed as a user runs them: a cold process per run, its wall time and its CPU seconds (user and
system, from the kernel), the median of --runs; CPU seconds are the figure to read on a shared machine, where wall
time waits for the other processes.

    python -m benchmarks.long_description [--runs N] [--megabytes N] [--every-format]
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["DESCRIPTION", "measure_lint", "measure_redaction", "texts"]

SMOKE = ["--runs", "1", "--megabytes", "0.05"]

TOOLSURFACE = [sys.executable, "-m", "toolsurface"]
DESCRIPTION = (
    "Find tickets by status (open, closed) and owner. Use limit=50 and cursor=abc to page; see "
    'https://docs.example.com/api?page=2 for details. Example: {"status": "open", "x-trace": 1}. '
)
LINT_FORMATS = ("table", "json", "csv", "markdown", "github", "junit", "sarif")
DIFF_FORMATS = ("table", "json", "csv", "markdown", "github", "junit")


def texts(size: int) -> dict[str, str]:
    """Texts of about `size` characters: a description as written, prose, and the shapes that were slow."""
    return {
        "description": DESCRIPTION * (size // len(DESCRIPTION)),
        "prose": "Find the things a user asked for. " * (size // 34),
        "one word": "a" * size,
        "schemes": "a://" * (size // 4),
        "headers": "cookie:" * (size // 7),
        "pairs": "w=" * (size // 2),
    }


def measure_redaction(size: int, runs: int) -> dict[str, float]:
    """CPU milliseconds of redacted_text on each text, the best of `runs`."""
    from toolsurface.harness.redact import redacted_text

    figures = {}
    for name, text in texts(size).items():
        took = []
        for _ in range(runs):
            start = time.process_time()
            redacted_text(text)
            took.append(time.process_time() - start)
        figures[f"redact_ms[{name}]"] = round(min(took) * 1000, 1)
    return figures


def _timed(args: Sequence[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user and system) of one cold process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(args), cwd=cwd, capture_output=True, check=False, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _snapshot(path: Path, description: str) -> None:
    tool = {
        "name": "ticket_find",
        "description": description,
        "inputSchema": {"type": "object", "properties": {"status": {"type": "string"}}},
    }
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")


def measure_lint(size: int, runs: int, every_format: bool) -> dict[str, float]:
    """`lint --format sarif` of one tool with a description of `size` characters (with --every-format: each
    format of lint and of diff against the same tool with one word more), median wall and CPU seconds."""
    description = DESCRIPTION * (size // len(DESCRIPTION))
    commands = {"lint sarif": ["lint", "a.json", "--format", "sarif"]}
    if every_format:
        commands = {f"lint {fmt}": ["lint", "a.json", "--format", fmt] for fmt in LINT_FORMATS}
        commands |= {f"diff {fmt}": ["diff", "a.json", "b.json", "--format", fmt] for fmt in DIFF_FORMATS}
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-long-") as scratch:
        root = Path(scratch)
        _snapshot(root / "a.json", description)
        _snapshot(root / "b.json", description + " More.")
        for name, args in commands.items():
            _timed([*TOOLSURFACE, *args], root)
            walls, cpus = zip(*(_timed([*TOOLSURFACE, *args], root) for _ in range(runs)), strict=True)
            figures[f"{name}_s"] = round(statistics.median(walls), 2)
            figures[f"{name}_cpu_s"] = round(statistics.median(cpus), 2)
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.long_description", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--every-format", action="store_true", help="Each format of lint and diff, not sarif alone.")
    options = parser.parse_args(argv)
    size = int(options.megabytes * 2**20)
    figures: dict[str, Any] = {"characters": size}
    figures |= measure_redaction(size, options.runs)
    figures |= measure_lint(size, options.runs, options.every_format)
    figures["load"] = os.getloadavg()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
