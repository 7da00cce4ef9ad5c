"""One scripted six-tasks run of each client in each mode at each version it is tested with, in a fresh home and under
strace, made once per test run (tests.helpers.shared.made_once) and read by every test that asks about such a run:
what it left in its home (tests/agents/test_agent_homes.py), what it reached beyond this machine
(test_agents_network.py), what the client did and negotiated and what it wrote (test_agents_real.py).

The home is empty but for toolsurface's cache, which holds the agent CLIs as `agents --install` leaves them (none
is on PATH); no XDG folder, no credential of the user's and nothing that moves a client's home is set, but a key
(SECRET) that no file may keep; the temporary folder lies outside the home, as a user's does (codex writes no helper
into a home inside it). strace follows every process of the run, from the `toolsurface session run` it starts."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.helpers.agent_runs import PLANTED, RELOCATORS, SECRET
from tests.helpers.network import Reach, traced
from tests.helpers.npm_packages import agent_cli_dir
from tests.helpers.shared import made_once
from toolsurface.harness.agents import client_card

__all__ = ["FRESH_RUNS", "OWN_CACHE", "FreshRun", "fresh_run"]

# The tests that read these runs go to one worker (tests/helpers/xdist_groups.py): spread over several, each waits in
# turn for the run another is making, and the workers stand idle.
FRESH_RUNS = pytest.mark.xdist_group("fresh runs")

# What a run may leave in the home: toolsurface's own cache (the token counter's, the clients' extracted programs).
OWN_CACHE = Path(".cache") / "toolsurface"


@dataclass(frozen=True)
class FreshRun:
    """A scripted run of one client: its home, its study, the command's result and what its processes reached."""

    home: Path
    study: Path
    done: Run
    reach: Reach


def _fresh_env(home: Path, tmp: Path, clis: Path | None) -> dict[str, str]:
    home.mkdir(parents=True)
    tmp.mkdir()
    if clis is not None:
        (home / OWN_CACHE).mkdir(parents=True)
        (home / OWN_CACHE / "agent-clis").symlink_to(clis.parent.parent)
    named = {k for k in os.environ if k.startswith("XDG_") or k in PLANTED or k in RELOCATORS}
    path = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
    kept = {k: v for k, v in os.environ.items() if k not in named}
    keys = dict.fromkeys(("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"), SECRET)
    return {**kept, "HOME": str(home), "PATH": path, "TMPDIR": str(tmp), **keys}


def fresh_run(tmp_path_factory: pytest.TempPathFactory, agent: str, version: str | None) -> FreshRun:
    """The scripted six-tasks run of `agent` (NAME or NAME:MODE, its first mode when none is named) at `version`
    (None for toolsurface's own clients) on v2, in a fresh home, under strace: made by whichever test asks first,
    read by the others."""
    name, _, mode = agent.partition(":")
    card = client_card(name)
    mode = card.mode_named(mode) if mode else card.modes[0]

    def make(base: Path) -> None:
        clis = agent_cli_dir(name, version) if version else None
        endpoint = ["--model-endpoint", "scripted"] if card.calls_model else []
        chosen = f"{name}:{mode}" if len(card.modes) > 1 else name
        argv = [sys.executable, "-m", "toolsurface", "session", "run", "--agent", chosen, *endpoint]
        argv += ["--surface", "v2", "--runs", "1", "--out", str(base / "study")]
        env = _fresh_env(base / "home", base / "tmp", clis)
        done, reach = traced(argv, env=env, log=base / "trace", cwd=base, timeout=600)
        kept = {"run": asdict(Run(done.returncode, done.stdout, done.stderr))}
        kept["reach"] = {"addresses": sorted(reach.addresses), "names": sorted(reach.names)}
        (base / "run.json").write_text(json.dumps(kept), encoding="utf-8")

    base = made_once(tmp_path_factory, f"fresh-{name}-{mode}-{version or 'own'}", make)
    kept = json.loads((base / "run.json").read_text(encoding="utf-8"))
    reach = Reach(frozenset(kept["reach"]["addresses"]), frozenset(kept["reach"]["names"]))
    return FreshRun(base / "home", base / "study", Run(**kept["run"]), reach)
