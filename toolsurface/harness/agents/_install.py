"""Installing npm packages into a folder of toolsurface's cache with the user's own npm: the pinned agent CLIs
(`toolsurface agents --install`, into `agent-clis`, where `clients` and `session run` find them), and whatever the
tests pin (their agent CLIs in the same layout, npm's MCP servers). Two installs into one folder take turns."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "CliInstall",
    "InstallFailed",
    "InstalledCli",
    "install_clis",
    "install_node",
    "install_npm",
    "npm_package_at",
    "pinned_specs",
]

# A first install of every pinned CLI downloads about 1.9 GB.
NPM_TIMEOUT_S = 1800.0
# What npm adds to an error that says nothing of it: its code, a stack frame, where its log is.
_NPM_DETAIL = re.compile(r"(code|syscall|errno) \S+$|at |A complete log|Log files|\d+ (verbose|silly|timing) ")


class InstallFailed(ToolsurfaceError):
    """npm is missing, or an install failed or left no executable behind."""


@dataclass(frozen=True)
class InstalledCli:
    """One agent CLI in toolsurface's cache: its name, its npm package and version, its executable, and whether
    this install put it there (else it was there already)."""

    name: str
    package: str
    version: str
    path: Path
    installed: bool


@dataclass(frozen=True)
class CliInstall:
    """What `agents --install` did: the npm prefix in toolsurface's cache, each CLI asked for, and npm's `node`
    beside them where a JavaScript CLI needs a newer Node than the system's (harness.agents._node)."""

    folder: Path
    clis: list[InstalledCli]
    node: InstalledCli | None = None

    def summary(self) -> str:
        every = [*self.clis, *([self.node] if self.node else [])]
        made = [f"{c.name} {c.version}" for c in every if c.installed]
        there = [f"{c.name} {c.version}" for c in every if not c.installed]
        said = f"installed {', '.join(made)} in {self.folder}" if made else f"nothing to install in {self.folder}"
        return said + (f"; there already: {', '.join(there)}" if there else "")


def npm_package_at(prefix: Path, package: str, version: str) -> bool:
    """Whether the npm prefix `prefix` holds `package` at `version`."""
    manifest = prefix / "node_modules" / package / "package.json"
    try:
        found = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError):
        return False
    return bool(found == version)


def install_npm(
    prefix: Path, specs: Mapping[str, str], present: Callable[[str], bool], env: Mapping[str, str] | None = None
) -> list[str]:
    """`npm install --prefix PREFIX` of each spec (`package@version`, by a name of the caller's) whose name
    `present` says is missing, with the npm on `env`'s PATH; the names it installed. Raises InstallFailed, one
    line, where npm or Node.js is missing, npm fails, or a package is still missing after it."""
    env = dict(os.environ if env is None else env)

    def missing() -> list[str]:
        return [name for name in specs if not present(name)]

    if not missing():
        return []
    path = env.get("PATH", os.defpath)
    npm = shutil.which("npm", path=path)
    if npm is None or shutil.which("node", path=path) is None:
        raise InstallFailed("npm and node are needed: install Node.js 20 or newer (e.g. `apt-get install nodejs npm`)")
    with _held(prefix / ".install.lock"):
        wanted = missing()  # another install may have made them while this one waited
        if not wanted:
            return []
        listed = " ".join(specs[name] for name in wanted)
        argv = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error"]
        try:
            done = subprocess.run(
                [*argv, *(specs[name] for name in wanted)],
                capture_output=True,
                text=True,
                errors="replace",
                env=env,
                timeout=NPM_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise InstallFailed(f"npm install {listed} did not finish within {NPM_TIMEOUT_S:g} s") from None
        except OSError as error:
            raise InstallFailed(f"npm install {listed} could not start: {error.strerror or error}") from None
        if done.returncode != 0:
            raise InstallFailed(f"npm install {listed} failed: {_npm_said(done.stderr) or f'exit {done.returncode}'}")
        still = [specs[name] for name in missing()]
        if still:
            raise InstallFailed(f"npm install {' '.join(still)} left no executable behind in {prefix}")
    return wanted


def pinned_specs(names: Sequence[str] = ()) -> dict[str, str]:
    """`package@pinned` of each named agent CLI (every registered one unless named), by its name; an unknown name or
    a client that is no CLI is a one-line error naming the CLIs there are."""
    from toolsurface.harness.agents._registry import cli_clients, client_card

    clis = cli_clients()
    specs = {}
    for name in names or clis:
        card = client_card(name)
        if not card.is_cli:
            raise ToolsurfaceError(f"{name} is not an agent CLI (nothing to install); the CLIs: {', '.join(clis)}")
        specs[name] = f"{card.package}@{card.pinned}"
    return specs


def install_clis(names: Sequence[str], env: Mapping[str, str], folder: Path | None = None) -> CliInstall:
    """The pinned version of each named agent CLI (every registered one unless named) in toolsurface's cache (or
    the npm prefix `folder`), installed with the user's npm where missing or at another version."""
    from toolsurface.harness.agents._cli import clis_folder
    from toolsurface.harness.agents._registry import client_card

    specs = pinned_specs(names)
    prefix = folder or clis_folder(env)
    bin_dir = prefix / "node_modules" / ".bin"

    def executable(name: str) -> Path:
        return bin_dir / str(client_card(name).executable)

    def present(name: str) -> bool:
        package, version = specs[name].rsplit("@", 1)
        return os.access(executable(name), os.X_OK) and npm_package_at(prefix, package, version)

    done = set(install_npm(prefix, specs, present, env))
    clis = []
    for name, spec in specs.items():
        package, version = spec.rsplit("@", 1)
        clis.append(InstalledCli(name, package, version, executable(name), name in done))
    on_node = [str(c.path) for c in clis if client_card(c.name).node_compile_cache]
    return CliInstall(prefix, clis, install_node(prefix, on_node, env))


def install_node(prefix: Path, executables: Sequence[str], env: Mapping[str, str]) -> InstalledCli | None:
    """npm's `node` package at NODE_PINNED in the npm prefix `prefix`, beside the agent CLIs there, where one of
    `executables` is a Node script and the Node on `env`'s PATH is older than MIN_NODE (or missing); None where
    none is needed. Its compile cache makes each start of a JavaScript CLI cheaper (harness.agents._node)."""
    from toolsurface.harness.agents._node import MIN_NODE, NODE_PACKAGE, NODE_PINNED, is_node_script, node_version

    if not any(is_node_script(path) is not None for path in executables):
        return None
    system = shutil.which("node", path=env.get("PATH", os.defpath))
    if system is not None and (node_version(system) or (0, 0, 0)) >= MIN_NODE:
        return None
    node = prefix / "node_modules" / ".bin" / "node"

    def present(_: str) -> bool:
        return os.access(node, os.X_OK) and npm_package_at(prefix, NODE_PACKAGE, NODE_PINNED)

    done = install_npm(prefix, {NODE_PACKAGE: f"{NODE_PACKAGE}@{NODE_PINNED}"}, present, env)
    return InstalledCli(NODE_PACKAGE, NODE_PACKAGE, NODE_PINNED, node, bool(done))


def _npm_said(stderr: str) -> str:
    """npm's error in one line: its first line that says what went wrong (not its code, a stack frame or where its
    log is)."""
    lines = [line.removeprefix("npm error").removeprefix("npm ERR!").strip() for line in stderr.splitlines()]
    said = [line for line in lines if line and not _NPM_DETAIL.match(line)]
    return said[0][:400] if said else ""


@contextlib.contextmanager
def _held(lock_file: Path) -> Iterator[None]:
    """An exclusive lock on `lock_file` (made with its folder when missing), across processes."""
    try:
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        lock = lock_file.open("a", encoding="utf-8")
    except OSError as error:
        raise InstallFailed(f"cannot write in {lock_file.parent}: {error.strerror or error}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
