"""`toolsurface init` against `toolsurface snapshot` of the same server (issue 38's bar: init within 1.5 x one
snapshot). Each pair runs init in a fresh empty folder holding the server and snapshot of it, alternating who
goes first, so a burst of load on a shared machine falls on both alike; the figure is the median of the pairs'
ratios.

    python -m benchmarks.init [--runs N] [-- SERVER ARGS...]   (default: mcp-server-time)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["measure_init"]

SMOKE = ["--runs", "1"]

SERVER = [sys.executable, "-m", "mcp_server_time"]
TOOLSURFACE = [sys.executable, "-m", "toolsurface"]


def _timed(args: Sequence[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def measure_init(runs: int = 7, server: Sequence[str] = SERVER) -> dict[str, float]:
    ratios, inits, snapshots = [], [], []
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-init-") as scratch:
        root = Path(scratch)
        _timed([*TOOLSURFACE, "snapshot", "-o", str(root / "warm.json"), "--", *server], root)
        for n in range(runs):
            folder = root / f"p{n}"
            folder.mkdir()
            init = ([*TOOLSURFACE, "init", "--", *server], folder)
            snapshot = ([*TOOLSURFACE, "snapshot", "-o", str(root / f"s{n}.json"), "--", *server], root)
            if n % 2 == 0:
                took_init, took_snapshot = _timed(*init), _timed(*snapshot)
            else:
                took_snapshot, took_init = _timed(*snapshot), _timed(*init)
            inits.append(took_init)
            snapshots.append(took_snapshot)
            ratios.append(took_init / took_snapshot)
            shutil.rmtree(folder)
    return {
        "init_s": round(statistics.median(inits), 3),
        "snapshot_s": round(statistics.median(snapshots), 3),
        "init_over_snapshot": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
        "runs": runs,
    }


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    server = SERVER
    if "--" in args:
        at = args.index("--")
        args, server = args[:at], args[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args(args)
    print(measure_init(options.runs, server))


if __name__ == "__main__":
    main()
