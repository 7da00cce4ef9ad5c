"""The agent CLIs installed here: every `claude`, `codex`, `gemini`, `opencode`, `copilot` and `cline` on PATH
(two directories may hold two versions of one CLI), each with its version, whether its adapter supports it,
whether it is a tested version, and its modes."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.agents.base import AgentUnavailable

__all__ = ["CLI_AGENTS", "InstalledAgent", "executables_on_path", "installed_agents"]

CLI_AGENTS = ("claude", "codex", "gemini", "opencode", "copilot", "cline")


@dataclass(frozen=True)
class InstalledAgent:
    """One agent CLI as found: `path` None when none is on PATH; `problem` says why it cannot run (missing,
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


def installed_agents(env: Mapping[str, str], names: Sequence[str] = CLI_AGENTS) -> list[InstalledAgent]:
    """A row per executable of each named CLI on PATH, or one row saying it is missing. Every executable is
    asked its version at once, so CLIs that hang cost one timeout together, not one each."""
    from concurrent.futures import ThreadPoolExecutor

    from toolsurface.harness.agents._cli import CliAgent
    from toolsurface.harness.agents._registry import make_agent

    adapters = []
    for name in names:
        adapter = make_agent(name)
        assert isinstance(adapter, CliAgent)
        adapters.append((adapter, executables_on_path(name, env)))

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
            )

        if not paths:
            rows.append(row(None, problem=f"not found on PATH; install it with `{adapter.install}`"))
        for path in paths:
            found = versions[(adapter, path)]
            if isinstance(found, AgentUnavailable):
                rows.append(row(path, problem=str(found)))
                continue
            shown = ".".join(map(str, found))
            rows.append(row(path, shown, None if found >= adapter.min_version else adapter.too_old(found)))
    return rows
