"""`toolsurface init` in a server project: one listing, then the configuration with a budget, the snapshot, starter
queries and calls and a workflow, written at once and over nothing; after it, `budget` and `diff` pass there.
The server is a designer's own (tests/fixtures/servers/acme_help_desk.py), copied into a fresh folder."""

from __future__ import annotations

import json
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, run_cli
from tests.helpers.paths import FIXTURES

HELP_DESK = FIXTURES / "servers" / "acme_help_desk.py"
WRITTEN = (
    "toolsurface.toml",
    ".toolsurface/acme-help-desk.json",
    ".toolsurface/acme-help-desk.meta.json",
    ".toolsurface/queries.json",
    ".toolsurface/calls.json",
    ".github/workflows/toolsurface.yml",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty folder holding the server, as a designer starts."""
    folder = tmp_path / "desk"
    folder.mkdir()
    shutil.copy(HELP_DESK, folder / "server.py")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def init(folder: Path, *args: str) -> object:
    return run_cli("init", *args, "--", sys.executable, "server.py", cwd=folder)


def test_init_in_an_empty_folder_writes_what_ci_needs_and_budget_then_passes(project: Path) -> None:
    done = init(project)
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    assert sorted(files_of(project)) == sorted([*WRITTEN, "server.py"])
    out = done.stdout  # type: ignore[attr-defined]
    assert out.startswith("acme-help-desk (acme/help desk 0.1.0): 3 tools, 708 chars, 171 o200k_base tokens")
    for path in WRITTEN:
        assert f"wrote {path}" in out
    assert "next:" in out and "toolsurface budget" in out
    config = tomllib.loads((project / "toolsurface.toml").read_text(encoding="utf-8"))
    assert config["name"] == "acme-help-desk"
    assert config["command"] == [sys.executable, "server.py"] and config["cwd"] == "."
    # The budget: the size now and a 10 % margin, rounded up; the margin kept for the ratchet, and said above it.
    assert (config["max-chars"], config["max-tokens"], config["ratchet-margin"]) == (779, 189, 10)
    assert "\n# max-chars 779: 708 chars + 10 % (toolsurface init, 20" in (project / "toolsurface.toml").read_text(
        "utf-8"
    )
    assert config["snapshot"] == ".toolsurface/acme-help-desk.json"
    budget = run_cli("budget", cwd=project)
    assert budget.returncode == 0, budget.stderr
    assert budget.stdout.startswith("acme-help-desk: 3 tools, 708 chars, 171 tokens: within budget (779 chars, 189")
    # From a folder below, the server still starts in the project's folder.
    below = project / "src"
    below.mkdir()
    assert run_cli("budget", cwd=below).returncode == 0
    diffed = run_cli("diff", cwd=project)
    assert diffed.returncode == 0, diffed.stderr
    assert "no differences" in diffed.stdout


def test_the_starters_are_drafts_of_the_servers_own_tools(project: Path) -> None:
    assert init(project).returncode == 0  # type: ignore[attr-defined]
    queries = json.loads((project / ".toolsurface" / "queries.json").read_text(encoding="utf-8"))
    assert [q["expected"] for q in queries["queries"]] == [
        {"acme-help-desk": "ticket_get"},
        {"acme-help-desk": "ticket_search"},
        {"acme-help-desk": "ticket_close"},
    ]
    assert all(q["draft"] is True for q in queries["queries"])
    calls = json.loads((project / ".toolsurface" / "calls.json").read_text(encoding="utf-8"))
    # Read-only tools only: ticket_close is destructive.
    assert [c["tool"] for c in calls["calls"]] == ["ticket_get", "ticket_search"]
    assert all(c["draft"] is True for c in calls["calls"])
    found = run_cli(
        "findability", "--queries", ".toolsurface/queries.json", "--", sys.executable, "server.py", cwd=project
    )
    assert found.returncode == 0 and "3 of 3 queries are still drafts" in found.stderr


def test_the_workflow_runs_the_action_with_the_projects_own_setup(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "desk"\nversion = "0.1"\n', encoding="utf-8")
    assert init(project, "--action", "acme/toolsurface@v1").returncode == 0  # type: ignore[attr-defined]
    flow = yaml.safe_load((project / ".github" / "workflows" / "toolsurface.yml").read_text(encoding="utf-8"))
    steps = flow["jobs"]["tool-list"]["steps"]
    assert {"run": "python -m pip install -e ."} in steps
    [action] = [s for s in steps if s.get("uses") == "acme/toolsurface@v1"]
    inputs = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"]
    assert set(action["with"]) <= set(inputs) and action["with"]["snapshot"] == "configured"


def test_init_adds_its_table_to_pyproject_keeping_the_rest(project: Path) -> None:
    original = '[project]\nname = "desk"  # the package\nversion = "0.1"\n\n[tool.ruff]\nline-length = 100\n'
    (project / "pyproject.toml").write_text(original, encoding="utf-8")
    done = init(project)
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(original)
    assert tomllib.loads(text)["tool"]["toolsurface"]["max-chars"] == 779
    assert not (project / "toolsurface.toml").exists()
    assert run_cli("budget", cwd=project).returncode == 0


@pytest.mark.parametrize("existing", [*WRITTEN[1:], "pyproject.toml"])
def test_init_writes_over_nothing_and_names_what_is_there(project: Path, existing: str) -> None:
    path = project / existing
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[tool.toolsurface]\nsurface = "v2"\nmax-chars = 1\n' if existing == "pyproject.toml" else "x")
    before = files_of(project)
    done = init(project)
    assert done.returncode == 2  # type: ignore[attr-defined]
    [line] = done.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert str(path) in line and ("writes over nothing" in line or "set up" in line), line
    assert files_of(project) == before


def test_init_twice_stops_at_the_first_files_and_changes_nothing(project: Path) -> None:
    assert init(project).returncode == 0  # type: ignore[attr-defined]
    before = files_of(project)
    again = init(project)
    assert again.returncode == 2 and "toolsurface.toml: exists" in again.stderr  # type: ignore[attr-defined]
    assert files_of(project) == before


def test_dry_run_prints_the_plan_and_writes_nothing(project: Path) -> None:
    done = init(project, "--dry-run")
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    out = done.stdout  # type: ignore[attr-defined]
    assert all(f"would write {path}" in out for path in WRITTEN)
    assert "max-chars = 779" in out and 'name = "acme-help-desk"' in out
    assert sorted(files_of(project)) == ["server.py"]


def test_a_secret_in_the_servers_environment_is_written_as_a_variable(project: Path) -> None:
    done = run_cli(
        "init", "--env", "API_TOKEN=s3cret-value", "--env", "MODE=test", "--", sys.executable, "server.py", cwd=project
    )
    assert done.returncode == 0, done.stderr
    text = (project / "toolsurface.toml").read_text(encoding="utf-8")
    assert "s3cret-value" not in text
    assert tomllib.loads(text)["env"] == {"API_TOKEN": "${API_TOKEN}", "MODE": "test"}


def test_init_needs_a_server_and_a_name_a_file_can_hold(project: Path) -> None:
    bare = run_cli("init", cwd=project)
    assert bare.returncode == 2 and "toolsurface init -- CMD" in bare.stderr
    bad = run_cli("init", "--name", "///", "--", sys.executable, "server.py", cwd=project)
    assert bad.returncode == 2 and "--name" in bad.stderr
    assert sorted(files_of(project)) == ["server.py"]
