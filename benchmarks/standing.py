"""What telling where a server stands costs: the time `measure`'s standing adds, and `report --corpus` of the
shipped corpus (its servers' snapshots, no server started to list one).

- standing: in `--runs` fresh interpreters, `measure v2` and then its standing (measure.with_standing: the
  corpus's figures read, nothing of the corpus counted), the standing timed alone, imports included; and the
  paired cold CLIs `measure v2 --format json` with and without `--no-standing`, for the whole command's scale.
- report --corpus: `--report-runs` cold runs of `report --corpus --out TMP --html` after a warm-up, wall and CPU
  seconds (the command and its children).

    python -m benchmarks.standing [--runs N] [--report-runs N] [--out FILE]

Bars (issue 50): the standing adds a few ms to measure; the corpus's report within 30 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.speed import measure_cold
from benchmarks.timing import paired

__all__ = ["report_cost", "standing_cost"]

SMOKE = ["--runs", "1", "--report-runs", "1"]

# A fresh interpreter measures v2, then times its standing alone: wall and CPU milliseconds.
_STANDING = """
import time
from toolsurface.harness.measure import measure, with_standing
from toolsurface.harness.surface import resolve
measured = measure([resolve("v2")])
wall, cpu = time.perf_counter(), time.process_time()
with_standing(measured)
print((time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3)
"""


def standing_cost(runs: int) -> dict[str, object]:
    """The standing's own milliseconds over `runs` fresh interpreters, and the paired CLIs' seconds."""
    walls, cpus = [], []
    subprocess.run([sys.executable, "-c", _STANDING], check=True, capture_output=True)
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _STANDING], check=True, capture_output=True, text=True)
        wall, cpu = map(float, done.stdout.split())
        walls.append(wall)
        cpus.append(cpu)
    cli = [sys.executable, "-m", "toolsurface", "measure", "v2", "--format", "json"]
    with_it, without, ratio = paired(cli, [*cli, "--no-standing"], runs)
    return {
        "standing_ms": {
            "runs": runs,
            "wall_median": round(statistics.median(walls), 2),
            "cpu_median": round(statistics.median(cpus), 2),
            "cpu_min": round(min(cpus), 2),
            "cpu_max": round(max(cpus), 2),
        },
        "measure_v2_s": with_it.to_json(),
        "measure_v2_no_standing_s": without.to_json(),
        "paired_ratio": ratio.to_json(),
    }


def report_cost(runs: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="toolsurface-corpus-report-") as folder:
        args = [sys.executable, "-m", "toolsurface", "report", "--corpus", "--out", str(Path(folder) / "r"), "--html"]
        return measure_cold(args, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="Fresh interpreters for the standing (default 15).")
    parser.add_argument("--report-runs", type=int, default=3, help="Cold runs of report --corpus (default 3).")
    parser.add_argument("--out", type=Path, help="Also write the figures here as JSON.")
    args = parser.parse_args()
    figures = {"standing": standing_cost(args.runs), "report_corpus": report_cost(args.report_runs)}
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
