"""Pinned npm packages the tests run for real (MCP servers, agent CLIs), installed once into
~/.cache/toolsurface/PREFIX by toolsurface's own installer (harness.agents: `agents --install`, which puts npm's node
beside the pinned agent CLIs where the system's Node is older than the compile cache needs); later sessions reuse
the cache, and two test runs at once take turns."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from toolsurface.harness.agents import (
    CliAgent,
    ClientCard,
    InstallFailed,
    install_clis,
    npm_package_at,
    registered_clients,
)
from toolsurface.harness.agents import install_npm as install_with_npm
from toolsurface.harness.files import cache_root

__all__ = [
    "ADAPTERS",
    "AGENT_CLIS",
    "CLI_CARDS",
    "OLD_CLAUDE",
    "TESTED_CLIS",
    "agent_cli_dir",
    "agent_clis_dir",
    "cache_dir",
    "install_npm",
    "newer_than_pinned",
]

# The versions each client is tested with are its card's (the registry's, toolsurface.agents): the pinned one, all
# installed together in one prefix; each newer one in a prefix of its own.
CLI_CARDS: dict[str, ClientCard] = {c.card.name: c.card for c in registered_clients() if c.card.is_cli}
ADAPTERS: dict[str, type[CliAgent]] = {c.card.name: c.adapter for c in registered_clients() if c.card.is_cli}
AGENT_CLIS = {name: f"{card.package}@{card.pinned}" for name, card in CLI_CARDS.items()}
TESTED_CLIS = [(name, version) for name, card in CLI_CARDS.items() for version in card.tested_versions]
# A real Claude Code older than the oldest version the adapter supports.
OLD_CLAUDE = {"claude": "@anthropic-ai/claude-code@2.0.0"}


def newer_than_pinned(cli: str) -> tuple[int, int, int]:
    """The release after the pinned `cli`: a toolsurface needing it finds the pinned CLI too old, which is how
    the version gate is tested on the real CLI without installing an old one."""
    major, minor, patch = map(int, AGENT_CLIS[cli].rsplit("@", 1)[1].split("."))
    return major, minor, patch + 1


def cache_dir(name: str) -> Path:
    """Where the tests keep what they install: $TOOLSURFACE_TEST_CACHE (.ci/run keeps it across runs), else
    toolsurface's own cache folder, where `toolsurface agents --install` puts the agent CLIs too."""
    own = os.environ.get("TOOLSURFACE_TEST_CACHE")
    return Path(own) / name if own else cache_root() / name


def install_npm(prefix: Path, packages: Mapping[str, str], present: Callable[[str], bool]) -> Path:
    """`npm install` of every package spec whose name `present` says is missing (toolsurface's own installer, as
    `agents --install` runs it); returns the prefix."""
    try:
        install_with_npm(prefix, packages, present)
    except InstallFailed as failed:
        pytest.fail(str(failed))
    return prefix


def agent_clis_dir(packages: Mapping[str, str] = AGENT_CLIS, name: str = "agent-clis") -> Path:
    """The bin directory holding the pinned agent CLIs (every registered client that is a CLI), installed as
    `toolsurface agents --install` installs them; or other versions (`packages`) in a prefix of their own."""
    prefix = cache_dir(name)
    bin_dir = prefix / "node_modules" / ".bin"
    if packages == AGENT_CLIS:
        try:
            install_clis((), os.environ, prefix)
        except InstallFailed as failed:
            pytest.fail(str(failed))
        return bin_dir

    def present(cli: str) -> bool:
        package, version = packages[cli].rsplit("@", 1)
        executable = CLI_CARDS[cli].executable if cli in CLI_CARDS else cli
        return (bin_dir / str(executable)).exists() and npm_package_at(prefix, package, version)

    install_npm(prefix, packages, present)
    return bin_dir


def agent_cli_dir(name: str, version: str) -> Path:
    """The bin directory holding agent CLI `name` at `version` (one of its tested versions, or any other)."""
    if AGENT_CLIS[name].rsplit("@", 1)[1] == version:
        return agent_clis_dir()
    package = AGENT_CLIS[name].rsplit("@", 1)[0]
    return agent_clis_dir({name: f"{package}@{version}"}, f"{name}-{version}")
