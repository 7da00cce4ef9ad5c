"""A run leaves the user's home alone: every registered client, run for real against the scripted model with a fresh
HOME (no XDG folder named, the CLI found in toolsurface's cache there, as `agents --install` leaves it), leaves
nothing in it but toolsurface's own cache; its home, configuration and caches are the run's own (spec.json says which
home it ran with). The run is the one the network test reads too (tests.helpers.fresh_runs), made once per test run
and read only after it ended."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.fresh_runs import FRESH_RUNS, OWN_CACHE, fresh_run
from toolsurface.harness.agents import registered_clients

CLIENTS = {c.card.name: c.card for c in registered_clients()}
# Each client at each version its card says it is tested with; toolsurface's own clients once.
RUNS = [(name, version) for name, card in CLIENTS.items() for version in card.tested_versions or [None]]

pytestmark = FRESH_RUNS


def left_in(home: Path) -> list[str]:
    """Everything under `home` but toolsurface's own cache, by path relative to it."""
    found = []
    for folder, dirs, files in os.walk(home):
        here = Path(folder).relative_to(home)
        dirs[:] = [d for d in dirs if here / d != OWN_CACHE]
        found += [str(here / name) for name in dirs + files if here / name != OWN_CACHE.parent]
    return sorted(found)


@pytest.mark.parametrize(("name", "version"), RUNS, ids=[f"{n}-{v}" if v else n for n, v in RUNS])
def test_a_scripted_run_of_each_client_leaves_nothing_in_a_fresh_home_but_toolsurfaces_cache(
    tmp_path_factory: pytest.TempPathFactory, name: str, version: str | None
) -> None:
    run = fresh_run(tmp_path_factory, name, version)
    assert run.done.returncode == 0, run.done.stdout + run.done.stderr
    assert left_in(run.home) == []
    [spec] = (run.study / "runs" / "v2").glob("*/spec.json")
    recorded = json.loads(spec.read_text(encoding="utf-8"))
    assert (recorded["agent_home"], recorded["agent_version"]) == (("run", version) if version else (None, None))
