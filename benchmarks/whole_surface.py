"""What reading skills and the listing drafts adds to `measure` of a live server (issue 51's bar: at most 10 % for a
server that serves them, nothing for one that does not).

Each figure is `toolsurface measure --no-growth --format json -- SERVER` as a user runs it, a cold process per run,
paired with the same command that does not read them, alternating (benchmarks.timing.paired), so machine load falls
on both alike: the median of the pairs' ratios, wall time and CPU seconds (user and system of the process and its
server, from the kernel; the figure to read on a shared machine).

- skills: the skills server of the tests (tests/fixtures/servers/skilled.py: two skills, their SKILL.md read)
  against the same server not declaring the extension (its skills then not asked for);
- drafts: the drafts server (tests/fixtures/servers/drafted.py) with `--drafts` against without;
- neither: a server that declares neither (the skills server not declaring it) with `--drafts` against without,
  and the requests it was sent each way (none more: the bar is exact).

    python -m benchmarks.whole_surface [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.timing import paired_costs, run_cost

SMOKE = ["--runs", "1", "--out", "{tmp}/whole_surface.json"]

__all__ = ["measure_whole_surface"]

HERE = Path(__file__).resolve().parent
SERVERS = HERE.parent / "tests" / "fixtures" / "servers"
MEASURE = [sys.executable, "-m", "toolsurface", "measure", "--no-growth", "--format", "json"]
SKILLED = [sys.executable, str(SERVERS / "skilled.py")]
DRAFTED = [sys.executable, str(SERVERS / "drafted.py")]
BAR = 1.10


def _paired(reading: Sequence[str], plain: Sequence[str], runs: int) -> dict[str, Any]:
    """Each command in turn (benchmarks.timing.paired_costs): the medians, and of the pairs' ratios."""
    pairs = paired_costs(reading, plain, runs)
    return {
        "reading_wall_s": round(pairs.median("a", "wall"), 4),
        "plain_wall_s": round(pairs.median("b", "wall"), 4),
        "reading_cpu_s": round(pairs.median("a", "cpu"), 4),
        "plain_cpu_s": round(pairs.median("b", "cpu"), 4),
        "wall_ratio": round(pairs.ratio("wall"), 4),
        "cpu_ratio": round(pairs.ratio("cpu"), 4),
        "runs": runs,
        "reading": _shown(reading),
        "plain": _shown(plain),
    }


def _shown(args: Sequence[str]) -> str:
    """A command as the results say it: `python` for this interpreter, paths from the repository's root."""
    root = str(HERE.parent) + os.sep
    return " ".join("python" if a == sys.executable else a.removeprefix(root) for a in args)


def _requests(args: Sequence[str], record: Path) -> list[str]:
    record.unlink(missing_ok=True)
    run_cost([*args, "--record", str(record)])
    return record.read_text(encoding="utf-8").split()


def measure_whole_surface(runs: int) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "skills": _paired([*MEASURE, "--", *SKILLED], [*MEASURE, "--", *SKILLED, "--undeclared"], runs),
        "drafts": _paired([*MEASURE, "--drafts", "--", *DRAFTED], [*MEASURE, "--", *DRAFTED], runs),
        "neither": _paired(
            [*MEASURE, "--drafts", "--", *SKILLED, "--undeclared"], [*MEASURE, "--", *SKILLED, "--undeclared"], runs
        ),
    }
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "requests.log"
        asked = _requests([*MEASURE, "--drafts", "--", *SKILLED, "--undeclared"], record)
        plain = _requests([*MEASURE, "--", *SKILLED, "--undeclared"], record)
    figures["neither"]["requests_reading"], figures["neither"]["requests_plain"] = asked, plain
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", type=Path, default=HERE / "results_whole_surface.json")
    args = parser.parse_args()
    figures = measure_whole_surface(args.runs)
    figures["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    for name in ("skills", "drafts", "neither"):
        f = figures[name]
        within = "within" if f["cpu_ratio"] <= BAR else "OVER"
        print(
            f"{name}: {f['reading_wall_s']:.3f} s / {f['plain_wall_s']:.3f} s wall (ratio {f['wall_ratio']:.3f}),"
            f" {f['reading_cpu_s']:.3f} s / {f['plain_cpu_s']:.3f} s CPU (ratio {f['cpu_ratio']:.3f}): {within} {BAR:.2f}"
        )
    same = figures["neither"]["requests_reading"] == figures["neither"]["requests_plain"]
    print(f"neither: requests with --drafts {'the same as' if same else 'NOT the same as'} without")


if __name__ == "__main__":
    main()
