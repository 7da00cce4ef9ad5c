"""The paired ratios of issue 40, each the median of A/B over pairs run in turn (A B A B ...), so that a shared
machine's load falls on both alike:

- report_over_import_mcp: `report sessions/runs/conderis-script --html` / `python -c "import mcp.server"`
  (bar 2.75 on a quiet machine, 3.5 at a load of 4 on 2 cores: `--busy 2` makes that load on an idle one);
- list_over_help: `toolsurface list` / `toolsurface --help` (bar 2.5);
- help_over_click: `toolsurface --help` / `python -c "import click"` (bar 1.3);
- with `--snapshot`, snapshot_over_inspector(_memory) from benchmarks/snapshot.py (bar 0.8).

    python -m benchmarks.ratios [--runs N] [--busy N] [--snapshot] [--out DIR]

Each process runs with its bytecode kept (PYTHONDONTWRITEBYTECODE unset), as an installed interpreter's is.
The load (1-minute average) is recorded before and after; the figures go to DIR/results_ratios.json and .md
(results_ratios_busyN.* with --busy N).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.snapshot import measure_snapshot
from benchmarks.timing import Figure, paired

__all__ = ["busy", "measure_ratios"]

SMOKE = ["--runs", "1", "--out", "{tmp}"]

HERE = Path(__file__).resolve().parent


def _cli() -> list[str]:
    found = Path(sys.executable).parent / "toolsurface"
    return [str(found)] if found.exists() else [sys.executable, "-m", "toolsurface"]


@contextmanager
def busy(loops: int) -> Iterator[None]:
    """`loops` processes spinning on a core each while the block runs; all stopped after it."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(loops)]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def measure_ratios(runs: int, snapshot: bool) -> dict[str, Figure]:
    cli, out = _cli(), Path(tempfile.mkdtemp(prefix="toolsurface-ratios-")) / "report"
    report = [*cli, "report", str(HERE.parent / "toolsurface" / "sessions" / "runs" / "conderis-script")]
    figures: dict[str, Figure] = {}
    pairs = {
        "report": ([*report, "--html", "--out", str(out)], [sys.executable, "-c", "import mcp.server"], "import_mcp"),
        "list": ([*cli, "list"], [*cli, "--help"], "help"),
        "help": ([*cli, "--help"], [sys.executable, "-c", "import click"], "click"),
    }
    for name, (a, b, over) in pairs.items():
        mine, theirs, ratio = paired(a, b, runs)
        figures[f"{name}_s"], figures[f"{over}_s"] = mine, theirs
        figures[f"{name}_over_{over}"] = ratio
    if snapshot:
        figures.update(measure_snapshot(runs))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11, help="pairs per ratio (at least 5 for the committed results)")
    parser.add_argument("--busy", type=int, default=0, help="spinning processes that load the machine meanwhile")
    parser.add_argument("--snapshot", action="store_true", help="also snapshot against the MCP Inspector CLI")
    parser.add_argument("--out", type=Path, default=HERE, help="directory for the results files")
    options = parser.parse_args()
    if options.runs < 5 and options.out.resolve() == HERE:
        parser.error("--runs must be at least 5 for the results kept in benchmarks/ (another --out takes fewer)")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    before = os.getloadavg()[0]
    with busy(options.busy):
        figures = measure_ratios(options.runs, options.snapshot)
        after = os.getloadavg()[0]
    result = {
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "busy_loops": options.busy,
        "load_1m_before": round(before, 2),
        "load_1m_after": round(after, 2),
        "figures": {k: f.to_json() for k, f in figures.items()},
    }
    lines = [
        f"Measured {result['measured_at']} on {result['cpus']} cores, {options.busy} busy loops,"
        f" load {before:.2f} before and {after:.2f} after.",
        "",
        "| figure | median | min | max | runs |",
        "|---|---:|---:|---:|---:|",
        *(f"| {k} | {f.median:.3f} | {f.min:.3f} | {f.max:.3f} | {f.runs} |" for k, f in figures.items()),
    ]
    stem = "results_ratios" + (f"_busy{options.busy}" if options.busy else "")
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    (options.out / f"{stem}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
