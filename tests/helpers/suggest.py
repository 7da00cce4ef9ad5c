"""What the tests of suggest share: before-v2's candidate, suggested once, and the bundled scripted runs on
before-v2 that replay against it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.paths import ROOT

RUNS = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script" / "runs" / "before-v2"


@pytest.fixture(scope="session")
def before_v2(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The folder `suggest before-v2 -o cand.json` wrote into, and what it printed as JSON."""
    folder = tmp_path_factory.mktemp("suggest")
    done = run_cli("suggest", "before-v2", "-o", "cand.json", "--format", "json", cwd=folder, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder, done.json()


def families(result: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each family's tool, with its members and their values."""
    return {f["tool"]: dict(zip(f["members"], f["values"], strict=True)) for f in result["families"]}
