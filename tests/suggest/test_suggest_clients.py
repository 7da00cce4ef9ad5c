"""`suggest --clients`: what each client shows its model of the candidate beside the original, from one short
scripted session each (real CLIs on the scripted model endpoint); a client not installed is a row saying so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.clients import env_with
from tests.helpers.npm_packages import agent_clis_dir
from toolsurface.harness.agents import cli_clients


def test_clients_not_installed_are_rows_that_say_so_for_both_lists(tmp_path: Path) -> None:
    done = run_cli(
        "suggest", "before-v2", "-o", "c.json", "--clients", "--format", "json", env=env_with(tmp_path / "home"),
        cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = done.json()["clients"]["rows"]
    assert {(r["surface"], r["client"]) for r in rows} == {
        (surface, client) for surface in ("before-v2", "before-v2-candidate") for client in cli_clients()
    }
    assert {r["status"].split(" (")[0] for r in rows} == {"not installed"}


def test_a_client_shows_the_candidates_fewer_tools_beside_the_originals(tmp_path: Path) -> None:
    # codex in direct mode shows every tool in full and is the quickest client to start.
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "suggest", "before-v2", "-o", "c.json", "--clients", "--client", "codex:direct", "--format", "json",
        env=env, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = done.json()
    rows = {r["surface"]: r for r in result["clients"]["rows"]}
    assert set(rows) == {"before-v2", "before-v2-candidate"}
    before, after = rows["before-v2"], rows["before-v2-candidate"]
    assert before["status"] == after["status"] == "ok"
    assert (before["shown"]["tools"], after["shown"]["tools"]) == (27, result["after"]["tools"])
    assert after["shown"]["tokens"] < before["shown"]["tokens"]
    # Both served alike, under the original's name.
    assert before["server_name"] == after["server_name"] == "before-v2"
    table = run_cli(
        "suggest", "before-v2", "-o", "d.json", "--clients", "--client", "codex:direct", env=env, cwd=tmp_path,
        timeout=600,
    )  # fmt: skip
    assert "What each client shows its model" in table.stdout
