"""A change that writes two files writes both or neither: the budget ratchet's configuration and its log,
each replaced atomically after both were checked writable; and the files it reads that a person can break
(a configuration nested too deeply, a log line that is no number) end in one line, not a traceback."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.budget_project import make_project
from tests.conftest import Run, run_cli
from tests.test_bad_input import assert_one_line_error
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import write_atomic_all

LOG = "toolsurface-budget.log"


def _small_files(limit: int) -> object:
    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_file_size


def test_a_budget_log_that_cannot_take_the_new_line_leaves_the_configuration_as_it_was(tmp_path: Path) -> None:
    """A file-size limit lets the small configuration be written but not the log, which already holds more
    than the limit: the update fails naming the log, and neither file changed."""
    project = make_project(tmp_path / "server", max_chars=7000)
    (project / LOG).write_text("# notes\n" + "# padding\n" * 1000, encoding="utf-8")
    config_before, log_before = (project / "pyproject.toml").read_bytes(), (project / LOG).read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", "budget", "--update", "--reason", "set to the list"],
        cwd=project, capture_output=True, text=True, timeout=120, preexec_fn=_small_files(4096),  # type: ignore[arg-type]
    )  # fmt: skip
    assert_one_line_error(Run(done.returncode, done.stdout, done.stderr), f"cannot write {project / LOG}")
    assert (project / "pyproject.toml").read_bytes() == config_before
    assert (project / LOG).read_bytes() == log_before
    assert sorted(p.name for p in project.iterdir()) == ["pyproject.toml", "surfaces", LOG]


def test_a_read_only_budget_log_is_refused_before_the_configuration_is_touched(tmp_path: Path) -> None:
    """A log this process may not write (mode 0444; for root, which writes any mode, the immutable
    attribute) is refused at once, though a rename over it would succeed."""
    project = make_project(tmp_path / "server", max_chars=7000)
    log = project / LOG
    log.write_text("", encoding="utf-8")
    before = (project / "pyproject.toml").read_bytes()
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(log)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.fail(f"chattr +i is not available here: {done.stderr!r}")
    else:
        log.chmod(0o444)
    try:
        run = run_cli("budget", "--update", "--reason", "set to the list", cwd=project)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(log)], check=True)
    assert_one_line_error(run, f"cannot write {log}")
    assert (project / "pyproject.toml").read_bytes() == before and log.read_bytes() == b""


def test_a_rename_that_fails_half_way_puts_back_the_files_renamed_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("a before", encoding="utf-8")
    second.write_text("b before", encoding="utf-8")
    real_replace = os.replace

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        if Path(target) == second:
            raise OSError(16, "Device or resource busy")  # a target that is a mount point
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(ToolsurfaceError, match=f"cannot write {second}: Device or resource busy"):
        write_atomic_all([(first, "a after"), (second, "b after")])
    monkeypatch.undo()
    assert first.read_text(encoding="utf-8") == "a before" and second.read_text(encoding="utf-8") == "b before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_a_configuration_nested_500_levels_deep_is_one_line_naming_it(tmp_path: Path) -> None:
    project = make_project(tmp_path, extra="deep = " + "[" * 500 + "]" * 500 + "\n")
    assert_one_line_error(run_cli("budget", cwd=project), "pyproject.toml", "nest too deeply")


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"format": "toolsurface-budget-log/1", "chars": 1e400}', "not a budget log entry"),
        ("[" * 100_000 + "]" * 100_000, "nests 100000 levels deep"),
    ],
    ids=["1e400", "nested-100000"],
)
def test_a_budget_log_line_that_is_no_entry_is_one_line_naming_the_file_and_line(
    tmp_path: Path, line: str, problem: str
) -> None:
    project = make_project(tmp_path)
    entry = (
        '{"time": "2026-01-01T00:00:00Z", "revision": null, "target": "v2", "step": "lower", '
        '"max_chars": {"old": 1e400, "new": 6000}, "max_tokens": {"old": null, "new": null}, "chars": 6000, '
        '"tokens": null, "reason": "r", "tools": {}, "format": "toolsurface-budget-log/1"}'
    )
    (project / LOG).write_text("# notes\n" + (entry if "1e400" in line else line) + "\n", encoding="utf-8")
    assert_one_line_error(run_cli("budget", cwd=project), f"{LOG}:2: not a budget log entry", problem.split()[0])


def test_a_fifo_where_the_budget_log_is_is_refused_without_waiting(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    os.mkfifo(project / LOG)
    assert_one_line_error(run_cli("budget", cwd=project, timeout=30), LOG, "a FIFO")


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_timeout_that_is_not_a_finite_number_of_seconds_is_refused(tmp_path: Path, value: str) -> None:
    project = make_project(tmp_path, extra=f"timeout = {value}\n")
    assert_one_line_error(run_cli("config", cwd=project), "timeout", "expected a number of seconds above 0")
