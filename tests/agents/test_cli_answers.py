"""Every answer read from an agent CLI (its `--version`, its transcript, its stderr) is decoded with replacement and
bounded in size and time, and a CLI that misbehaves is a row, or one line, naming it. The CLIs here are
executables written into a folder of the test's own at the head of PATH, each answering as a hostile or broken
`claude`, `codex` or `gemini` would."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from tests.conftest import processes_with, run_cli, run_cli_process
from tests.helpers.waiting import wait_until
from toolsurface.harness.agents import cli_clients, make_agent
from toolsurface.harness.agents._cli import CliAgent

NAMES = list(cli_clients())


def _version(name: str) -> str:
    agent = make_agent(name)
    assert isinstance(agent, CliAgent)
    return agent.tested_versions[-1]


def _cli(folder: Path, name: str, version_part: str, session_part: str = "exit 3") -> Path:
    """An executable `name` in `folder`: `--version` runs `version_part`, anything else `session_part` (sh)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(
        f'#!/bin/sh\nif [ "$1" = "--version" ]; then\n{version_part}\nexit 0\nfi\n{session_part}\n', encoding="utf-8"
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _env(tmp_path: Path, folder: Path) -> dict[str, str | None]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    path = os.pathsep.join([str(folder), os.path.dirname(sys.executable), "/usr/bin", "/bin"])
    return {"PATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "cache")}


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_version_answer_that_is_not_utf8_is_read_with_its_version(tmp_path: Path, stream: str) -> None:
    folder = tmp_path / "bin"
    redirect = " >&2" if stream == "stderr" else ""
    for name in NAMES:
        _cli(folder, name, f"printf '\\377\\376 {_version(name)}\\n'{redirect}")
    run = run_cli("agents", "--format", "json", env=_env(tmp_path, folder))
    assert run.returncode == 0, run.stderr
    found = {row["name"]: row for row in json.loads(run.stdout)}
    for name in NAMES:
        assert found[name]["version"] == _version(name) and found[name]["supported"], found[name]


@pytest.mark.parametrize("name", NAMES)
def test_clients_with_a_cli_whose_answers_are_not_utf8_gives_rows_that_say_so(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "bin"
    _cli(folder, name, f"printf '\\377\\376 {_version(name)}\\n'", "printf '\\377\\376 no transcript\\n' >&2; exit 3")
    run = run_cli("clients", "v2", "--client", name, "--format", "json", env=_env(tmp_path, folder), timeout=180)
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)["rows"]
    assert rows and all(row["client"] == name and row["status"].startswith("agent-error") for row in rows), rows
    assert all("exited with code 3" in row["status"] for row in rows), rows


def test_a_version_that_never_comes_is_a_row_naming_the_cli_and_leaves_nothing_running(tmp_path: Path) -> None:
    """Each CLI's `--version` starts a child that holds its output open and sleeps: every one is asked at once,
    and the whole tree of each is ended at the timeout."""
    folder = tmp_path / "bin"
    marker = str(tmp_path / "marker")
    for name in NAMES:
        _cli(folder, name, f"{sys.executable} -c 'import time; time.sleep(1000)' {marker} &\nwait")
    run = run_cli_process("agents", "--format", "json", env=_env(tmp_path, folder), timeout=60)
    assert run.returncode == 0, run.stderr
    rows = [row for row in json.loads(run.stdout) if row["name"] in NAMES]
    assert sorted(row["name"] for row in rows) == sorted(NAMES)
    for row in rows:
        assert not row["supported"]
        assert f"{folder / row['name']} --version did not answer within 15 s" in row["problem"], row
    wait_until(lambda: not processes_with(marker), 10, "the sleeping children to be ended")


FLOODS = {
    # 300 MB of JSON lines on stdout, had it all been kept: the run is ended at the bound.
    "transcript": (
        'yes \'{"type": "noise"}\' | head -c 300000000',
        "agent-error: claude wrote more than 16 MB to its transcript",
        "transcript.jsonl",
        16 * 1024 * 1024,
        "8",
    ),
    # 300 MB on stderr: read to its end, kept up to its bound, and the exit is the row's.
    "stderr": (
        "head -c 300000000 /dev/zero | tr '\\0' 'e' >&2; exit 4",
        "agent-error: claude exited with code 4",
        "agent.stderr",
        4 * 1024 * 1024,
        "60",
    ),
}


@pytest.mark.parametrize("stream", list(FLOODS))
def test_a_cli_that_floods_a_stream_keeps_it_bounded_and_is_a_row_naming_it(tmp_path: Path, stream: str) -> None:
    session, status, kept, size, timeout = FLOODS[stream]
    folder = tmp_path / "bin"
    _cli(folder, "claude", f"echo {_version('claude')}", session)
    out = tmp_path / "out"
    run = run_cli(
        "clients", "v2", "--client", "claude:full-list", "--timeout", timeout, "--format", "json", "--out", str(out),
        env=_env(tmp_path, folder), timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)["rows"]
    assert row["status"].startswith(status), row
    (path,) = out.rglob(kept)
    assert path.stat().st_size == size
