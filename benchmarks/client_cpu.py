"""CPU of one six-tasks run per client: each registered agent CLI (in its default mode) runs v2's six tasks on the
scripted model once, `session run` in a process of its own, and the CPU seconds (user and system) of that process
and every process under it (the harness, the model endpoint, the stub, the client) are read from the kernel's
accounting of the children it waited for. The clients' median is the figure a new client is held to.

The CLIs are the pinned ones `toolsurface agents --install` puts in ~/.cache/toolsurface/agent-clis. Run:
python -m benchmarks.client_cpu [--out FILE] [--repeats N] [NAME ...]."""

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

__all__ = ["measure_client_cpu"]

# One client, the first registered, whose pinned CLI the tests install too.
SMOKE = ["claude", "--out", "{tmp}/client_cpu.json"]


def _one(name: str, path: str) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-cpu-") as out:
        argv = [sys.executable, "-m", "toolsurface", "session", "run", "--agent", name, "--model-endpoint", "scripted"]
        done = subprocess.run(
            [*argv, "--surface", "v2", "--runs", "1", "--out", out],
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": path},
            check=False,
        )
        found = sorted(Path(out).glob("runs/v2/*/result.json"))
        status = json.loads(found[0].read_text(encoding="utf-8"))["status"] if found else f"exit {done.returncode}"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"client": name, "status": status, "cpu_s": round(cpu, 2), "wall_s": round(time.monotonic() - started, 2)}


def measure_client_cpu(names: Sequence[str] = (), repeats: int = 1) -> dict[str, Any]:
    """Each client's CPU seconds for one six-tasks run (the median of `repeats`), and the clients' median."""
    from toolsurface.harness.agents import cli_clients
    from toolsurface.harness.agents._cli import clis_bin

    path = f"{clis_bin(os.environ)}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
    rows = []
    for name in names or cli_clients():
        runs = [_one(name, path) for _ in range(repeats)]
        cpu = round(statistics.median(r["cpu_s"] for r in runs), 2)
        wall = round(statistics.median(r["wall_s"] for r in runs), 2)
        rows.append({"client": name, "status": runs[-1]["status"], "cpu_s": cpu, "wall_s": wall, "runs": repeats})
    ok = [r["cpu_s"] for r in rows if r["status"] == "ok"]
    return {"clients": rows, "median_cpu_s": round(statistics.median(ok), 2) if ok else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    found = measure_client_cpu(args.names, args.repeats)
    text = json.dumps(found, indent=2) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
