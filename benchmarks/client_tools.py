"""`toolsurface clients --per-tool` against `clients` (the bar: at most 10 % slower), and `toolsurface compat`
through every installed client and mode (the bar: at most 90 s on 2 cores), with every tested agent CLI on PATH
(the pinned ones and Claude Code's newest, as the tests install them).

    python -m benchmarks.client_tools [--runs N] [--compat-runs N] [--client NAME[:MODE]]

The two `clients` commands run in turns, so a machine whose load changes slows both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.clients import tested_clis_path
from benchmarks.timing import Figure

__all__ = ["measure_client_tools"]

SMOKE = ["--runs", "1", "--client", "claude:full-list"]


def _timed(args: Sequence[str], path: str, home: Path) -> tuple[float, dict[str, object]]:
    started = time.perf_counter()
    done = subprocess.run(
        args, capture_output=True, text=True, check=False, env={**os.environ, "PATH": path, "HOME": str(home)}
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    data: dict[str, object] = json.loads(done.stdout)
    return wall, data


def _figure(times: Sequence[float], command: str) -> Figure:
    return Figure(statistics.median(times), min(times), max(times), len(times), command)


def measure_client_tools(
    cli: Sequence[str], repeats: int = 5, compat_repeats: int = 1, surface: str = "v2", client: str | None = None
) -> dict[str, Figure]:
    """The figures through every client and mode, or through `client` (NAME or NAME:MODE) alone."""
    path = tested_clis_path()
    if path is None:
        raise SystemExit("the agent CLIs are not installed: run tests/clients/test_clients.py once (it installs them)")
    home = Path(tempfile.mkdtemp(prefix="toolsurface-bench-home-"))
    only = ["--client", client] if client else []
    plain_args = [*cli, "clients", surface, *only, "--format", "json"]
    per_tool_args = [*plain_args, "--per-tool"]
    plain: list[float] = []
    per_tool: list[float] = []
    seen: set[str] = set()
    for _ in range(repeats):
        for args, times in ((plain_args, plain), (per_tool_args, per_tool)):
            wall, data = _timed(args, path, home)
            rows = data["rows"]
            assert isinstance(rows, list)
            bad = [r for r in rows if r["status"] != "ok"]
            if bad:
                raise SystemExit(f"a client session failed: {bad[0]['client']} {bad[0]['mode']}: {bad[0]['status']}")
            times.append(wall)
            seen |= {f"{r['client']} {r['version']} {r['mode']}" for r in rows}
    compat: list[float] = []
    for _ in range(compat_repeats):
        wall, _data = _timed([*cli, "compat", *only, "--format", "json"], path, home)
        compat.append(wall)
    ratios = [b / a for a, b in zip(plain, per_tool, strict=True)]
    every = f"({', '.join(sorted(seen))})"
    return {
        "clients_s": _figure(plain, f"toolsurface clients {surface} --format json {every}"),
        "clients_per_tool_s": _figure(per_tool, f"toolsurface clients {surface} --per-tool --format json {every}"),
        "clients_per_tool_ratio": _figure(ratios, "clients --per-tool / clients, run in turns (bar: 1.10)"),
        "compat_s": _figure(compat, f"toolsurface compat --format json {every} (bar: 90 s on 2 cores)"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.client_tools", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of each clients command")
    parser.add_argument("--compat-runs", type=int, default=1, help="runs of compat")
    parser.add_argument("--client", help="NAME or NAME:MODE alone (default: every client and mode)")
    args = parser.parse_args()
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    cli = [found] if found else [sys.executable, "-m", "toolsurface"]
    print(f"{os.cpu_count()} cores")
    print("| figure | median | min | max | runs |")
    print("|---|---:|---:|---:|---:|")
    for name, figure in measure_client_tools(cli, args.runs, args.compat_runs, client=args.client).items():
        print(f"| {name} | {figure.median:.3f} | {figure.min:.3f} | {figure.max:.3f} | {figure.runs} |")


if __name__ == "__main__":
    main()
