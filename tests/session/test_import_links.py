"""`session import` over symbolic links that loop: a looping file found is a row that says so (beside readable
ones: tests/session/test_session_import.py), a looping path given is one line, exit 2, and nothing is written."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_cli


def test_a_home_whose_only_session_files_loop_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    projects = tmp_path / "home" / ".claude" / "projects" / "p"
    projects.mkdir(parents=True)
    (projects / "a.jsonl").symlink_to("b.jsonl")
    (projects / "b.jsonl").symlink_to("a.jsonl")
    done = run_cli("session", "import", "--server", "x", "--out", "out", env={"HOME": str(tmp_path / "home")},
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == (
        "toolsurface: none of the 2 session files could be read (first: ~/.claude/projects/p/a.jsonl: a symbolic"
        " link that loops back to itself: not read)"
    )
    assert not (tmp_path / "out").exists()


def test_a_path_given_that_loops_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "self").symlink_to("self")
    for given in ("self", "self/x.jsonl"):
        done = run_cli("session", "import", given, "--server", "x", "--out", "out", env={"HOME": str(tmp_path)},
                       cwd=tmp_path)  # fmt: skip
        assert done.returncode == 2, done.stdout + done.stderr
        [line] = done.stderr.strip().splitlines()
        assert line.startswith(f"toolsurface: {given}"), line
        assert "Traceback" not in done.stderr
    assert os.listdir(tmp_path) == ["self"]
