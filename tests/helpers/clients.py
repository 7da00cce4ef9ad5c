"""What the tests of `agents`, `clients` and `compat` share: the tested Claude Code versions, a PATH holding
only the given CLIs, the rows of a JSON answer, and its one-line error."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.helpers.npm_packages import agent_cli_dir
from toolsurface.harness.agents.claude import ClaudeAgent

PINNED, NEWEST = ClaudeAgent.card.tested_versions[0], ClaudeAgent.card.tested_versions[-1]


@pytest.fixture(scope="session")
def newest() -> Path:
    return agent_cli_dir("claude", NEWEST)


def env_with(home: Path, *dirs: Path) -> dict[str, str]:
    """Only `dirs` hold agent CLIs on this PATH, and none is in toolsurface's cache (the home's own); the system's
    directories give node and sh."""
    home.mkdir(parents=True, exist_ok=True)
    system = [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
    path = os.pathsep.join([*map(str, dirs), *system])
    return {"PATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}


def rows(done: Run) -> list[dict[str, Any]]:
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert data["format"] == "toolsurface-clients/1"
    return list(data["rows"])
