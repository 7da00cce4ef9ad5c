"""What a Python server imports that CI will not have, for a project that declares no packages: the modules its
script imports (read with ast, never run), and those of the project's own modules it imports in turn, less the
standard library and the project's own; each named by the distribution that provides it, as the interpreter
that runs the server says (importlib.metadata.packages_distributions() and the version installed there)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Requirement", "ServerImports", "imported_names", "own_files", "server_imports"]

# The most of the project's own files read for imports: a server script and the modules beside it.
MAX_FILES = 500
# The distribution of a module when no interpreter says (the MCP SDK's, whose import name is its own).
KNOWN = {"mcp": "mcp"}
# Run by the server's interpreter: for each import name, the distributions providing it and their versions.
_ASK = """
import json, sys
from importlib import metadata
found = metadata.packages_distributions()
names = json.loads(sys.argv[1])
def version(dist):
    try:
        return metadata.version(dist)
    except Exception:
        return None
print(json.dumps({n: [[d, version(d)] for d in sorted(set(found.get(n, [])))] for n in names}))
"""
_PLAIN_VERSION = r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?"


@dataclass(frozen=True)
class Requirement:
    """A distribution CI must install for the modules the server imports from it (pinned to the version the
    server ran with here, when that is a plain public version)."""

    distribution: str
    version: str | None
    modules: tuple[str, ...]

    @property
    def spec(self) -> str:
        import re

        pinned = self.version is not None and re.fullmatch(_PLAIN_VERSION, self.version)
        return f"{self.distribution}=={self.version}" if pinned else self.distribution


@dataclass(frozen=True)
class ServerImports:
    """The server's imports of other packages: `requirements` CI must install, `unknown` modules no distribution
    of `source` provides; `source` says which interpreter was asked."""

    script: str
    requirements: tuple[Requirement, ...]
    unknown: tuple[str, ...]
    source: str

    @property
    def specs(self) -> list[str]:
        return [r.spec for r in self.requirements]


def own_files(folders: Sequence[Path], dotted: str) -> list[Path] | None:
    """The project's own files of module `dotted` (a package's every file; a namespace folder's none), found in
    the first of `folders` that has it; None when it is not the project's."""
    for folder in folders:
        base = folder.joinpath(*dotted.split("."))
        if base.with_suffix(".py").is_file():
            return [base.with_suffix(".py")]
        if base.is_dir():
            return sorted(p for p in base.rglob("*.py") if p.is_file())
    return None


def _imports_of(path: Path) -> set[str]:
    """The absolute imports of one file, as written (dotted); a file that is not Python is skipped."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def imported_names(folders: Sequence[Path], first: Iterable[Path]) -> list[str]:
    """The top-level names of what the files import, following the project's own modules (found in `folders`:
    the script's, the project's, its `src/`), less the standard library and the project's own."""
    seen: set[Path] = set()
    todo = list(first)
    outside: set[str] = set()
    while todo and len(seen) < MAX_FILES:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for dotted in _imports_of(path):
            top = dotted.partition(".")[0]
            if top in sys.stdlib_module_names or top == "__future__":
                continue
            own = own_files(folders, dotted)
            if own is None:
                own = own_files(folders, top)
            if own is None:
                outside.add(top)
            else:
                todo += [p for p in own if p not in seen]
    return sorted(outside)


def _distributions(
    python: Path | None, shown: str, names: Sequence[str]
) -> tuple[dict[str, list[tuple[str, str | None]]], str]:
    """Each name's distributions and versions, from the server's interpreter (`shown` as the user named it) when
    it answers, else from this one's (versions then unknown: this Python is not the server's)."""
    if python is not None:
        try:
            done = subprocess.run(
                [str(python), "-I", "-c", _ASK, json.dumps(list(names))],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            if done.returncode == 0:
                answer = json.loads(done.stdout)
                return {n: [(d, v) for d, v in answer.get(n, [])] for n in names}, shown
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
    from importlib import metadata

    found = metadata.packages_distributions()
    return {n: [(d, None) for d in sorted(set(found.get(n, [])))] for n in names}, "toolsurface's own Python"


def server_imports(
    folders: Sequence[Path],
    files: Sequence[Path],
    python: Path | None,
    *,
    script: str,
    interpreter: str,
    modules: Sequence[str] = (),
) -> ServerImports:
    """What the server's `files` (and the project's modules they import, found in `folders`) import from other
    packages, and `modules` the command runs from one (`python -m mcp_server_time`), as distributions to install;
    `python` runs the server here (`interpreter`: as the user named it); `script` names the script or module."""
    names = sorted({*imported_names(folders, files), *(m.partition(".")[0] for m in modules)})
    found, source = _distributions(python, interpreter, names)
    by_distribution: dict[str, tuple[str | None, list[str]]] = {}
    unknown = []
    for name in names:
        provided = found.get(name) or ([(KNOWN[name], None)] if name in KNOWN else [])
        if not provided:
            unknown.append(name)
        for distribution, version in provided:
            by_distribution.setdefault(distribution, (version, []))[1].append(name)
    requirements = tuple(
        Requirement(distribution, version, tuple(modules))
        for distribution, (version, modules) in sorted(by_distribution.items(), key=lambda item: item[0].lower())
    )
    return ServerImports(script, requirements, tuple(unknown), source)
