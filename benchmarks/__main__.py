"""Measure the CLI's performance figures and write benchmarks/results.json and results.md."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.agents import measure_agents
from benchmarks.claude_search import measure_claude_search
from benchmarks.client_tools import measure_client_tools
from benchmarks.clients import measure_clients
from benchmarks.large_lists import measure_large_lists
from benchmarks.probe import measure_probe
from benchmarks.runner import measure_runner
from benchmarks.snapshot import measure_snapshot
from benchmarks.stub_calls import measure_stub
from benchmarks.timing import Figure, time_command

SMOKE_SKIPPED = (
    "every figure of the modules it imports at once, each agent CLI's among them, takes minutes at its smallest"
    " (--runs 5); the scripts among those modules run on their own"
)

HERE = Path(__file__).resolve().parent


def _toolsurface() -> list[str]:
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "toolsurface"]


def _machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "mcp": _version("mcp"),
        "tiktoken": _version("tiktoken"),
    }


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def measure_figures(runs: int) -> dict[str, Figure]:
    cli = _toolsurface()
    return {
        "cli_help_s": time_command([*cli, "--help"], runs),
        "list_s": time_command([*cli, "list"], runs),
        "budget_s": time_command([*cli, "budget", "v2", "--max-chars", "7000"], runs),
        "measure_all_s": time_command([*cli, "measure", "--format", "json"], runs),
        "import_mcp_s": time_command([sys.executable, "-c", "import mcp.server"], runs),
        "report_s": time_command(
            [
                *cli,
                "report",
                str(HERE.parent / "sessions" / "runs" / "conderis-script"),
                "--out",
                str(Path(tempfile.mkdtemp()) / "report"),
                "--html",
            ],
            runs,
        ),
        **measure_stub("v2", calls=2000, starts=runs),
        **measure_runner(cli, repeats=runs),
        **measure_snapshot(runs),
        **measure_agents(cli, repeats=runs),
        **measure_claude_search(cli, runs),
        **measure_clients(cli, runs),
        **measure_client_tools(cli, runs),
        **measure_large_lists(cli, runs),
        **measure_probe(runs),
    }


def _markdown(figures: dict[str, Figure]) -> str:
    lines = ["| figure | median | min | max | runs |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {k} | {f.median:.3f} | {f.min:.3f} | {f.max:.3f} | {f.runs} |" for k, f in figures.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="cold runs per figure (at least 5)")
    parser.add_argument("--out", type=Path, default=HERE, help="directory for results.json and results.md")
    args = parser.parse_args()
    if args.runs < 5:
        parser.error("--runs must be at least 5")
    figures = measure_figures(args.runs)
    result = {
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": _machine(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE, check=False
        ).stdout.strip(),
        "figures": {k: f.to_json() for k, f in figures.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    (args.out / "results.md").write_text(_markdown(figures), encoding="utf-8")
    sys.stdout.write(_markdown(figures))


if __name__ == "__main__":
    main()
