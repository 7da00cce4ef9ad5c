"""A server's name in a client's config comes from one rule in every command: the name given (--server-name),
else a snapshot's own (recorded, or its file's stem made safe), else a surface module's own name made safe, else
`stub` for a bundled surface (its surface's name where it is a neighbour)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from toolsurface.harness.session.plan import plan_surface

MODULE = (
    "import dataclasses\nfrom toolsurface.surfaces.conderis.v2 import SURFACE as V2\n"
    "SURFACE = dataclasses.replace(V2, name='Acme Notes.v2')\n"
)
SIX_TASKS_V2 = ROOT / "toolsurface" / "sessions" / "scripts" / "six-tasks" / "v2.json"


def _module(tmp_path: Path) -> Path:
    path = tmp_path / "acme_notes.py"
    path.write_text(MODULE, encoding="utf-8")
    return path


def _snapshot(tmp_path: Path) -> Path:
    path = tmp_path / "my.server.json"
    tool = {"name": "notes_list", "description": "List the notes.", "inputSchema": {"type": "object"}}
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    return path


def test_a_planned_surfaces_server_is_named_by_one_rule_and_a_given_name_overrides_it(tmp_path: Path) -> None:
    module, snapshot = str(_module(tmp_path)), str(_snapshot(tmp_path))
    assert [plan_surface(spec).server_name for spec in ("v2", module, snapshot)] == [
        "stub",
        "Acme-Notes-v2",
        "my-server",
    ]
    assert {plan_surface(spec, "acme").server_name for spec in ("v2", module, snapshot)} == {"acme"}
    # Beside another server, a bundled surface's server goes by its surface's name: two `stub`s would clash.
    assert plan_surface("v2", beside=True).server_name == "v2"


@pytest.mark.parametrize(("given", "named"), [((), "Acme-Notes-v2"), (("--server-name", "acme"), "acme")])
def test_session_run_names_a_module_surfaces_server_by_the_rule(
    tmp_path: Path, given: tuple[str, ...], named: str
) -> None:
    out = tmp_path / "out"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", str(_module(tmp_path)), "--script", str(SIX_TASKS_V2),
        "--out", str(out), *given,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    [spec] = list(out.rglob("spec.json"))
    assert json.loads(spec.read_text(encoding="utf-8"))["server_name"] == named


def test_a_bundled_surfaces_server_is_still_stub_in_a_session(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    [spec] = list(out.rglob("spec.json"))
    assert json.loads(spec.read_text(encoding="utf-8"))["server_name"] == "stub"


@pytest.mark.parametrize("command", [("session", "run"), ("clients",), ("findability",), ("roundtrip",)])
def test_every_command_that_puts_the_server_in_a_clients_config_takes_server_name(command: tuple[str, ...]) -> None:
    helped = run_cli(*command, "--help")
    assert "--server-name NAME" in helped.stdout and "stub for a bundled surface" in " ".join(helped.stdout.split())


def test_server_name_without_a_clients_search_is_one_line(tmp_path: Path) -> None:
    for args in (("findability", "v2"), ("roundtrip", "v2")):
        refused = run_cli(*args, "--server-name", "acme", cwd=tmp_path)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert "--server-name is for" in refused.stderr
