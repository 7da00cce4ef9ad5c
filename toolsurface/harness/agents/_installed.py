"""The agent CLIs installed here: every executable of each registered client that is a CLI, on PATH (two
directories may hold two versions of one CLI) and in toolsurface's cache (`agents --install`), each with its version, whether its adapter supports it, whether
it is a tested version, and its modes."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.agents._card import SessionFiles
from toolsurface.harness.agents.base import AgentUnavailable
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["InstalledAgent", "executables", "executables_on_path", "installed_agents"]


@dataclass(frozen=True)
class InstalledAgent:
    """One agent CLI as found: `path` None when none is found; `problem` says why it cannot run (missing,
    too old, no version printed)."""

    name: str
    path: str | None
    version: str | None
    supported: bool
    tested: bool
    modes: tuple[str, ...]
    search_modes: tuple[str, ...]
    min_version: str
    tested_versions: tuple[str, ...]
    install: str
    problem: str | None = None
    # Other names of its modes (`full-list=default`), its npm package, the package that registered it, the settings
    # toolsurface gives it or reads (`NAME (env): what it moves`), what a run leaves behind, where it keeps a user's
    # session files: from its card.
    aliases: tuple[str, ...] = ()
    package: str | None = None
    origin: str | None = None
    settings: tuple[str, ...] = ()
    leaves: str = ""
    sessions: str | None = None


def executables_on_path(name: str, env: Mapping[str, str]) -> list[str]:
    """Every executable file called `name` in PATH's directories, in PATH's order, one per real file."""
    found: list[str] = []
    seen: set[str] = set()
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        candidate = Path(directory or ".") / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            real = os.path.realpath(candidate)
            if real not in seen:
                seen.add(real)
                found.append(str(candidate))
    return found


def executables(name: str, env: Mapping[str, str]) -> list[str]:
    """Every executable called `name` on PATH (executables_on_path), then the one toolsurface installed in its
    cache unless it is one of them."""
    from toolsurface.harness.agents._cli import clis_bin

    found = executables_on_path(name, env)
    cached = clis_bin(env) / name
    if os.access(cached, os.X_OK) and os.path.realpath(cached) not in {os.path.realpath(p) for p in found}:
        found.append(str(cached))
    return found


def installed_agents(env: Mapping[str, str], names: Sequence[str] | None = None) -> list[InstalledAgent]:
    """A row per executable of each named CLI (every registered one unless named) found, or one row saying it
    is missing. Every executable is asked its version at once, so CLIs that hang cost one timeout together, not
    one each."""
    from concurrent.futures import ThreadPoolExecutor

    from toolsurface.harness.agents._cli import CliAgent
    from toolsurface.harness.agents._registry import cli_clients, client_origin, make_agent

    adapters = []
    for name in cli_clients() if names is None else names:
        adapter = make_agent(name)
        if not isinstance(adapter, CliAgent):
            raise ToolsurfaceError(f"{name} is not an agent CLI; the CLIs: {', '.join(cli_clients())}")
        adapters.append((adapter, executables(adapter.card.executable or name, env)))

    def version(job: tuple[CliAgent, str]) -> tuple[int, int, int] | AgentUnavailable:
        adapter, path = job
        try:
            return adapter.read_version(path, env)
        except AgentUnavailable as error:
            return error

    jobs = [(adapter, path) for adapter, paths in adapters for path in paths]
    with ThreadPoolExecutor(max_workers=max(1, min(len(jobs), 8))) as pool:
        versions = dict(zip(jobs, pool.map(version, jobs), strict=True))
    rows = []
    for adapter, paths in adapters:

        def row(
            path: str | None, version: str | None = None, problem: str | None = None, *, adapter: CliAgent = adapter
        ) -> InstalledAgent:
            card = adapter.card
            return InstalledAgent(
                name=adapter.name,
                path=path,
                version=version,
                supported=problem is None,
                tested=version in adapter.tested_versions,
                modes=tuple(adapter.modes),
                search_modes=tuple(adapter.search_modes),
                min_version=".".join(map(str, adapter.min_version)),
                tested_versions=tuple(adapter.tested_versions),
                install=adapter.install,
                problem=problem,
                aliases=tuple(f"{alias}={mode}" for alias, mode in card.aliases.items()),
                package=card.package,
                origin=client_origin(adapter.name),
                settings=tuple(f"{s.name} ({s.given_as}): {s.moves}" for s in card.settings),
                leaves=card.leaves,
                sessions=_sessions(card.sessions),
            )

        if not paths:
            where = "not found on PATH or in toolsurface's cache"
            rows.append(row(None, problem=f"{where}; install it with {adapter.install_advice}"))
        for path in paths:
            found = versions[(adapter, path)]
            if isinstance(found, AgentUnavailable):
                rows.append(row(path, problem=str(found)))
                continue
            shown = ".".join(map(str, found))
            rows.append(row(path, shown, None if found >= adapter.min_version else adapter.too_old(found)))
    return rows


def _sessions(files: SessionFiles | None) -> str | None:
    if files is None:
        return None
    moved = f"; moved by {', '.join(files.moved_by)}" if files.moved_by else ""
    return f"{files.path} ({files.holds}{moved}; seen in {files.seen})"
