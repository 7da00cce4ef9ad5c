"""`toolsurface clients`: wall time per client and mode (the whole command's time over the rows it printed), and
each session's own time, with every tested agent CLI on PATH (the pinned ones and Claude Code's newest, as the
tests install them).

    python -m benchmarks.clients [--runs N] [--client NAME[:MODE]]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["measure_clients", "tested_clis_path"]

SMOKE = ["--runs", "1", "--client", "claude:full-list"]


def tested_clis_path() -> str | None:
    """A PATH holding the pinned claude, codex and gemini and Claude Code's newest tested version, or None."""
    from toolsurface.harness.agents.claude import ClaudeAgent

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toolsurface"
    dirs = [cache / "agent-clis", cache / f"claude-{ClaudeAgent.card.tested_versions[-1]}"]
    path = os.pathsep.join([*(str(d / "node_modules" / ".bin") for d in dirs), os.environ.get("PATH", os.defpath)])
    found = all(shutil.which(cli, path=path) for cli in ("claude", "codex", "gemini"))
    return path if found and all((d / "node_modules" / ".bin" / "claude").exists() for d in dirs[1:]) else None


def measure_clients(
    cli: Sequence[str], repeats: int = 5, surface: str = "v2", client: str | None = None
) -> dict[str, Figure]:
    """The figures of every client and mode, or of `client` (NAME or NAME:MODE) alone."""
    path = tested_clis_path()
    if path is None:
        raise SystemExit("the agent CLIs are not installed: run tests/clients/test_clients.py once (it installs them)")
    per_row: list[float] = []
    sessions: dict[str, list[float]] = {}
    for _ in range(repeats):
        started = time.perf_counter()
        done = subprocess.run(
            [*cli, "clients", surface, *(["--client", client] if client else []), "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PATH": path},
        )
        wall = time.perf_counter() - started
        rows = json.loads(done.stdout)["rows"]
        bad = [r for r in rows if r["status"] != "ok"]
        if bad:
            raise SystemExit(f"a client session failed: {bad[0]['client']} {bad[0]['mode']}: {bad[0]['status']}")
        per_row.append(wall / len(rows))
        for row in rows:
            sessions.setdefault(f"{row['client']}-{row['version']}-{row['mode']}", []).append(float(row["duration_s"]))
    command = f"toolsurface clients {surface} --format json (every tested client on PATH)"
    figures = {
        "clients_s_per_row": Figure(
            statistics.median(per_row), min(per_row), max(per_row), len(per_row), f"{command}: wall time / rows"
        )
    }
    for label, times in sorted(sessions.items()):
        figures[f"clients_session_s[{label}]"] = Figure(
            statistics.median(times), min(times), max(times), len(times), f"{command}: the session's duration_s"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clients", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--client", help="NAME or NAME:MODE alone (default: every client and mode)")
    args = parser.parse_args()
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    cli = [found] if found else [sys.executable, "-m", "toolsurface"]
    for name, figure in measure_clients(cli, args.runs, client=args.client).items():
        print(f"| {name} | {figure.median:.3f} | {figure.min:.3f} | {figure.max:.3f} | {figure.runs} |")


if __name__ == "__main__":
    main()
