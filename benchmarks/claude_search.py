"""Claude Code's own tool search as a findability scorer: the wall time of one cold `toolsurface findability
SURFACE --scorer claude` (one Claude Code session for the surface, the six seed queries as ToolSearch calls).
The bar: 20 s for one surface and six queries on this machine.

Claude Code is the pinned one the tests install (~/.cache/toolsurface/agent-clis), or the one on PATH.

    python -m benchmarks.claude_search [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Figure, time_command

__all__ = ["BAR_S", "claude_on_path", "measure_claude_search"]

SMOKE = ["--runs", "1"]

BAR_S = 20.0


def claude_on_path() -> str | None:
    """A PATH on which claude is found, the tests' pinned one first, or None."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toolsurface" / "agent-clis"
    path = f"{cache / 'node_modules' / '.bin'}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
    return path if shutil.which("claude", path=path) else None


def measure_claude_search(cli: Sequence[str], runs: int) -> dict[str, Figure]:
    path = claude_on_path()
    if path is None:
        raise SystemExit("Claude Code is not installed: run the tests once (they install it) or put it on PATH")
    os.environ["PATH"] = path
    return {
        f"claude_scorer_s[{surface}]": time_command(
            [*cli, "findability", surface, "--scorer", "claude", "--format", "json"], runs
        )
        for surface in ("v2", "before-v2")
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.claude_search", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="cold runs per surface")
    args = parser.parse_args()
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    figures = measure_claude_search([found] if found else [sys.executable, "-m", "toolsurface"], args.runs)
    for name, figure in figures.items():
        verdict = "within" if figure.max <= BAR_S else "OVER"
        print(
            f"{name}: median {figure.median:.2f} s, min {figure.min:.2f}, max {figure.max:.2f} ({figure.runs} runs;"
            f" {verdict} the {BAR_S:g} s bar)"
        )


if __name__ == "__main__":
    main()
