"""`clients SURFACE --with NEIGHBOUR` against `clients SURFACE` alone, the larger server being SURFACE (issue 41's
bar: within 1.2 times). The surface is before-v2 (27 tools), the neighbour a two-tool snapshot; one client and
mode (the first CLI found among claude, codex, gemini in full-list or its default mode). Pairs alternate who goes
first; the figure is the median of the pairs' ratios (with / alone).

    python -m benchmarks.clients_beside [--runs N] [--client NAME:MODE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["measure_clients_beside"]

SMOKE = ["--runs", "1"]

TOOLSURFACE = [sys.executable, "-m", "toolsurface"]
NEIGHBOUR = {
    "tools": [
        {"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object"}},
        {"name": "list_directory", "description": "List a folder.", "inputSchema": {"type": "object"}},
    ]
}


def _timed(args: Sequence[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def measure_clients_beside(runs: int = 5, client: str = "claude:full-list") -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-beside-") as scratch:
        neighbour = Path(scratch) / "files.json"
        neighbour.write_text(json.dumps(NEIGHBOUR), encoding="utf-8")
        alone = [*TOOLSURFACE, "clients", "before-v2", "--client", client, "--format", "json"]
        beside = [*alone, "--with", str(neighbour)]
        _timed(beside)
        ratios, withs, alones = [], [], []
        for n in range(runs):
            if n % 2 == 0:
                took, single = _timed(beside), _timed(alone)
            else:
                single, took = _timed(alone), _timed(beside)
            ratios.append(took / single)
            withs.append(took)
            alones.append(single)
    return {
        "ratio_median": round(statistics.median(ratios), 3),
        "with_median_s": round(statistics.median(withs), 2),
        "alone_median_s": round(statistics.median(alones), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--client", default="claude:full-list")
    args = parser.parse_args()
    figures = measure_clients_beside(args.runs, args.client)
    with open("/proc/loadavg", encoding="utf-8") as load:
        figures["load"] = float(load.read().split()[0])
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
