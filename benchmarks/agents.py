"""Real agent CLIs with the scripted model: each agent's wall time for one scripted v2 run, and the harness's
own cost per run beyond the CLI's (the run's whole time minus the CLI process's time from start to exit).

The CLIs are the pinned ones the tests install (~/.cache/toolsurface/agent-clis), or the ones on PATH.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["AGENTS", "clis_on_path", "measure_agents"]

AGENTS = ("claude:on-demand", "claude:full-list", "codex:direct", "gemini")


def clis_on_path() -> str | None:
    """A PATH on which claude, codex and gemini are all found, or None."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toolsurface" / "agent-clis"
    path = f"{cache / 'node_modules' / '.bin'}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
    return path if all(shutil.which(cli, path=path) for cli in ("claude", "codex", "gemini")) else None


def _runs(cli: Sequence[str], path: str, repeats: int) -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory(prefix="toolsurface-bench-agents-") as out:
        agents = [arg for agent in AGENTS for arg in ("--agent", agent)]
        subprocess.run(
            [*cli, "session", "run", *agents, "--model-endpoint", "scripted", "--surface", "v2", "--runs", str(repeats),
             "--out", out],
            capture_output=True,
            check=True,
            env={**os.environ, "PATH": path},
        )  # fmt: skip
        found = []
        for result in Path(out).glob("runs/v2/*/result.json"):
            data = json.loads(result.read_text(encoding="utf-8"))
            data["label"] = result.parent.name.rsplit("-r", 1)[0]
            found.append(data)
        return found


def measure_agents(cli: Sequence[str], repeats: int = 5) -> dict[str, Figure]:
    path = clis_on_path()
    if path is None:
        raise SystemExit("the agent CLIs are not installed: run the tests once (they install them) or put them on PATH")
    runs = _runs(cli, path, repeats)
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        raise SystemExit(f"a scripted agent run failed: {bad[0]['label']}: {bad[0]['error']}")
    overhead = [float(r["duration_s"]) - float(r["agent_duration_s"]) for r in runs]  # type: ignore[arg-type]
    figures = {
        "agent_run_overhead_s": Figure(
            statistics.median(overhead),
            min(overhead),
            max(overhead),
            len(overhead),
            "session run --model-endpoint scripted: result.json duration_s - agent_duration_s, every agent",
        )
    }
    for label in sorted({str(r["label"]) for r in runs}):
        walls = [float(r["duration_s"]) for r in runs if r["label"] == label]  # type: ignore[arg-type]
        figures[f"agent_run_s[{label}]"] = Figure(
            statistics.median(walls), min(walls), max(walls), len(walls), f"one scripted v2 run of {label}"
        )
    return figures
