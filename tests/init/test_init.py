"""`toolsurface init` in a server project: one listing, then the configuration with a budget, the snapshot, starter
queries and calls and a workflow, written at once and over nothing; after it, `budget` and `diff` pass there.
The server is a designer's own (tests/fixtures/servers/acme_help_desk.py), copied into a fresh folder."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT, run_cli
from tests.helpers.budget_project import desk_project, files_of

# init writes the command as CI runs it (`python server.py`): here that `python` is the one running the tests.
AT_HAND = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
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
    return desk_project(tmp_path)


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
    # The interpreter at an absolute path is written as CI's `python`, and said.
    assert config["command"] == ["python", "server.py"] and config["cwd"] == "."
    assert f"the command is written as `python server.py`: {sys.executable} is " in out
    # The budget: the size now and a 10 % margin, rounded up; the margin kept for the ratchet, and said above it.
    assert (config["max-chars"], config["max-tokens"], config["ratchet-margin"]) == (779, 189, 10)
    assert "\n# max-chars 779: 708 chars + 10 % (toolsurface init, 20" in (project / "toolsurface.toml").read_text(
        "utf-8"
    )
    assert config["snapshot"] == ".toolsurface/acme-help-desk.json"
    budget = run_cli("budget", cwd=project, env=AT_HAND)
    assert budget.returncode == 0, budget.stderr
    assert budget.stdout.startswith("acme-help-desk: 3 tools, 708 chars, 171 tokens: within budget (779 chars, 189")
    # From a folder below, the server still starts in the project's folder.
    below = project / "src"
    below.mkdir()
    assert run_cli("budget", cwd=below, env=AT_HAND).returncode == 0
    diffed = run_cli("diff", cwd=project, env=AT_HAND)
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
    assert run_cli("budget", cwd=project, env=AT_HAND).returncode == 0


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


def one_line_refusal(done: Any, *needles: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    [line] = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and all(needle in line for needle in needles), line


def test_a_pyproject_that_is_not_utf8_is_refused_in_one_line_and_nothing_is_written(project: Path) -> None:
    (project / "pyproject.toml").write_bytes(b'[project]\nname = "d\xe9sk"\n')
    before = files_of(project)
    one_line_refusal(init(project), "pyproject.toml", "not UTF-8")
    assert files_of(project) == before and sorted(p.name for p in project.iterdir()) == ["pyproject.toml", "server.py"]


def test_init_keeps_a_pyprojects_bytes_line_endings_and_mode(project: Path) -> None:
    original = b'[project]\r\nname = "desk"\r\nversion = "0.1"\r\n'
    pyproject = project / "pyproject.toml"
    pyproject.write_bytes(original)
    pyproject.chmod(0o600)
    done = init(project)
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    written = pyproject.read_bytes()
    assert written.startswith(original + b"\r\n[tool.toolsurface]\r\n")
    assert written.count(b"\n") == written.count(b"\r\n")
    assert stat.S_IMODE(pyproject.stat().st_mode) == 0o600
    assert tomllib.loads(written.decode("utf-8"))["tool"]["toolsurface"]["max-chars"] == 779


@pytest.mark.parametrize("blocked", ["a-file-where-a-folder-goes", "an-unwritable-pyproject"])
def test_init_that_refuses_leaves_no_folder_behind(project: Path, blocked: str) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[project]\nname = "desk"\n', encoding="utf-8")
    if blocked == "a-file-where-a-folder-goes":
        (project / ".github").write_text("not a folder", encoding="utf-8")
        needles: tuple[str, ...] = (".github", "is a file, not a directory")
    elif os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(pyproject)], check=True)
        needles = (str(pyproject),)
    else:
        pyproject.chmod(0o444)
        needles = (str(pyproject),)
    before = files_of(project)
    try:
        done = init(project)
    finally:
        if blocked != "a-file-where-a-folder-goes" and os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(pyproject)], check=True)
    one_line_refusal(done, *needles)
    assert files_of(project) == before
    assert not (project / ".toolsurface").exists() and not (project / ".github").is_dir()
