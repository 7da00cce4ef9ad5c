"""The CLI run in the test process gives what `python -m toolsurface` gives as a process, and leaves the test
process as it found it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_cli_process
from tests.helpers.inprocess import StartupOnlyVariable

SAME_AS_A_PROCESS = [
    pytest.param(["--help"], {}, id="help"),
    pytest.param(["measure", "--help"], {}, id="command-help"),
    pytest.param(["--version"], {}, id="version"),
    pytest.param(["list"], {}, id="rich-table"),
    pytest.param(["list"], {"COLUMNS": "200"}, id="rich-table-columns"),
    pytest.param(["measure", "v2", "--no-growth", "--format", "json"], {}, id="json"),
    pytest.param(["measure", "no-such-surface"], {}, id="user-error"),
    pytest.param(["budget", "v2"], {}, id="usage-error"),
    pytest.param(["no-such-command"], {}, id="unknown-command"),
    pytest.param(["budget", "v2", "--max-chars", "10"], {}, id="exit-1"),
    pytest.param(
        ["budget", "v2", "--max-chars", "100000", "--format", "github"], {"GITHUB_STEP_SUMMARY": None}, id="env-unset"
    ),
]


@pytest.mark.parametrize(("args", "env"), SAME_AS_A_PROCESS)
def test_the_in_process_cli_gives_the_exit_code_stdout_and_stderr_of_a_process(
    args: list[str], env: dict[str, str | None]
) -> None:
    assert run_cli(*args, env=env) == run_cli_process(*args, env=env)


def test_the_in_process_cli_runs_in_the_directory_and_environment_given_and_puts_both_back(tmp_path: Path) -> None:
    args = ["budget", "v2", "--max-chars", "100000", "--format", "github"]
    env = {"GITHUB_STEP_SUMMARY": "summary.md", "TOOLSURFACE_TEST_MARK": "1"}
    (tmp_path / "process").mkdir()
    (tmp_path / "inside").mkdir()
    here, environ = os.getcwd(), dict(os.environ)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)}
    inside = run_cli(*args, env=env, cwd=tmp_path / "inside")
    assert inside == run_cli_process(*args, env=env, cwd=tmp_path / "process")
    assert (tmp_path / "inside" / "summary.md").read_text(encoding="utf-8") == (
        tmp_path / "process" / "summary.md"
    ).read_text(encoding="utf-8")
    assert os.getcwd() == here and dict(os.environ) == environ
    assert {s: signal.getsignal(s) for s in handlers} == handlers


def test_a_variable_only_a_starting_interpreter_reads_asks_for_a_process() -> None:
    with pytest.raises(StartupOnlyVariable, match="PYTHONPATH"):
        run_cli("list", env={"PYTHONPATH": "/nowhere"})
