"""The Node.js a JavaScript agent CLI runs on: one of 22.1 or newer, with Node's compile cache (NODE_COMPILE_CACHE) in
toolsurface's cache, so each start reads back the code an earlier start compiled instead of compiling its bundle
again. That Node is the one npm's `node` package put beside the CLI (`agents --install` adds it to toolsurface's
prefix of agent CLIs where the system's Node is older), else the one on PATH, else the one beside the CLIs in
toolsurface's cache; where none is new enough the CLI starts as it is, on the Node its first line names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "COMPILE_CACHE",
    "MIN_NODE",
    "NODE_PACKAGE",
    "NODE_PINNED",
    "NodeLaunch",
    "compile_cache",
    "file_key",
    "is_node_script",
    "node_launch",
    "node_version",
]

# npm's `node` package (a Node.js build for this platform, fetched by its install script) at an LTS release.
NODE_PACKAGE = "node"
NODE_PINNED = "24.21.0"
# The first Node with a compile cache kept across processes (NODE_COMPILE_CACHE).
MIN_NODE = (22, 1, 0)
# The folder of toolsurface's cache that holds what Node compiled; Node keeps one folder inside per version.
COMPILE_CACHE = "node-compile-cache"
_SHEBANG = re.compile(rb"\A#!\s*(\S+)(.*)")
_VERSION = re.compile(r"v(\d+)\.(\d+)\.(\d+)")
# `node --version` per file as it is on disk (path, inode, size, mtime), and a script's shebang per file: asked
# once a process.
_VERSIONS: dict[tuple[str, int, int, int], tuple[int, int, int] | None] = {}
_SCRIPTS: dict[tuple[str, int, int, int], tuple[str, ...] | None] = {}


@dataclass(frozen=True)
class NodeLaunch:
    """How a CLI starts: its argv (the Node, its flags, the script, then the CLI's own arguments, for a JavaScript
    CLI given a new enough Node), and what its environment gets added (the compile cache's folder)."""

    argv: tuple[str, ...]
    env: Mapping[str, str]
    node: str | None = None


def compile_cache(env: Mapping[str, str], own_cache: Path) -> Path:
    """Where Node keeps what it compiled for the agent CLIs: the user's NODE_COMPILE_CACHE (in `env`), else
    node-compile-cache in toolsurface's cache `own_cache`."""
    given = env.get("NODE_COMPILE_CACHE")
    return Path(given) if given else own_cache / COMPILE_CACHE


def is_node_script(executable: str) -> tuple[str, ...] | None:
    """The flags its first line gives Node, where `executable` is a script Node runs (`#!/usr/bin/env node`,
    `#!/usr/bin/env -S node --flag`, `#!/path/to/node`); None for anything else (a native binary, a shell
    script, a file that cannot be read)."""
    key = file_key(executable)
    if key is not None and key in _SCRIPTS:
        return _SCRIPTS[key]
    found = _node_flags(executable)
    if key is not None:
        _SCRIPTS[key] = found
    return found


def node_version(node: str) -> tuple[int, int, int] | None:
    """What `node --version` says, or None when it cannot say (missing, not Node, no answer within 15 s)."""
    key = file_key(node)
    if key is not None and key in _VERSIONS:
        return _VERSIONS[key]
    try:
        done = subprocess.run(
            [node, "--version"], capture_output=True, text=True, errors="replace", timeout=15, check=False
        )
        match = _VERSION.match(done.stdout.strip()) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired):
        match = None
    found = (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None
    if key is not None:
        _VERSIONS[key] = found
    return found


def node_launch(argv: Sequence[str], env: Mapping[str, str], *, cache: Path, installed: Path) -> NodeLaunch:
    """`argv` as it starts: a JavaScript CLI (argv[0] a Node script) on a Node of MIN_NODE or newer, with Node's
    compile cache in `cache`; anything else as it is. `env` is the CLI's environment (its PATH is looked in),
    `installed` the bin folder of the agent CLIs toolsurface installed (a last place to find a Node)."""
    flags = is_node_script(argv[0]) if argv else None
    node = _new_node(argv[0], env, installed) if flags is not None else None
    if node is None:
        return NodeLaunch(tuple(argv), {})
    return NodeLaunch((node, *(flags or ()), *argv), {"NODE_COMPILE_CACHE": str(cache)}, node)


def _new_node(script: str, env: Mapping[str, str], installed: Path) -> str | None:
    """The first Node of MIN_NODE or newer: beside the script (npm's bin folder), on PATH, beside toolsurface's
    agent CLIs."""
    candidates = [Path(script).parent / "node"]
    on_path = shutil.which("node", path=env.get("PATH", os.defpath))
    if on_path:
        candidates.append(Path(on_path))
    candidates.append(installed / "node")
    for candidate in candidates:
        if os.access(candidate, os.X_OK) and (node_version(str(candidate)) or (0, 0, 0)) >= MIN_NODE:
            return str(candidate)
    return None


def _node_flags(executable: str) -> tuple[str, ...] | None:
    try:
        with open(os.path.realpath(executable), "rb") as file:
            first = file.readline(512)
    except OSError:
        return None
    match = _SHEBANG.match(first)
    if match is None:
        return None
    words = [match.group(1).decode("utf-8", "replace"), *match.group(2).decode("utf-8", "replace").split()]
    if os.path.basename(words[0]) == "env":
        words = [word for word in words[1:] if word != "-S"]
    if not words or os.path.basename(words[0]) != "node":
        return None
    return tuple(words[1:])


def file_key(path: str) -> tuple[str, int, int, int] | None:
    """A file as it is on disk now (its real path, inode, size, mtime), or None when it cannot be read."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return None
    return (real, st.st_ino, st.st_size, st.st_mtime_ns)
