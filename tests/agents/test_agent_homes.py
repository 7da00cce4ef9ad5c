"""A run leaves the user's home alone: every registered client, run for real against the scripted model with a fresh
HOME (no XDG folder named, the CLI found in toolsurface's cache there, as `agents --install` leaves it), leaves
nothing in it but toolsurface's own cache; its home, configuration and caches are the run's own (spec.json says which
home it ran with)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli_process
from tests.helpers.agent_runs import PLANTED, RELOCATORS
from tests.helpers.npm_packages import agent_cli_dir
from toolsurface.harness.agents import registered_clients

CLIENTS = {c.card.name: c.card for c in registered_clients()}
# Each client at each version its card says it is tested with; toolsurface's own clients once.
RUNS = [(name, version) for name, card in CLIENTS.items() for version in card.tested_versions or [None]]
# What a run may leave in the home: toolsurface's own cache (the token counter's, the clients' extracted programs).
OWN_CACHE = Path(".cache") / "toolsurface"


def fresh_env(home: Path, tmp: Path, clis: Path | None) -> dict[str, str | None]:
    """An empty HOME whose toolsurface cache holds the agent CLIs `clis` (a link to the tests' folder of them), none
    on PATH; no XDG folder, no credential and nothing that moves a client's home; the temporary folder outside the
    home, as a user's is (codex writes no helper into a home inside it)."""
    home.mkdir(parents=True)
    tmp.mkdir()
    if clis is not None:
        (home / OWN_CACHE).mkdir(parents=True)
        (home / OWN_CACHE / "agent-clis").symlink_to(clis.parent.parent)
    named = [k for k in os.environ if k.startswith("XDG_") or k in PLANTED or k in RELOCATORS]
    path = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
    return {**dict.fromkeys(named), "HOME": str(home), "PATH": path, "TMPDIR": str(tmp)}


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
    tmp_path: Path, name: str, version: str | None
) -> None:
    home = tmp_path / "home"
    clis = agent_cli_dir(name, version) if version else None
    endpoint = ("--model-endpoint", "scripted") if CLIENTS[name].calls_model else ()
    done = run_cli_process(
        "session", "run", "--agent", name, *endpoint, "--surface", "v2", "--runs", "1",
        "--out", str(tmp_path / "study"), env=fresh_env(home, tmp_path / "tmp", clis), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert left_in(home) == []
    [spec] = (tmp_path / "study" / "runs" / "v2").glob("*/spec.json")
    recorded = json.loads(spec.read_text(encoding="utf-8"))
    assert (recorded["agent_home"], recorded["agent_version"]) == (("run", version) if version else (None, None))
