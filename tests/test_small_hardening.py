"""The smaller hostile-environment cases: a full stdout, special files where files are read or written, a
parent that is a file, a report of runs that are not there, a secret on a server's command line."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli
from tests.test_bad_input import assert_one_line_error

PY = sys.executable


@pytest.mark.parametrize(
    "command",
    [
        ["measure", "v2", "--no-growth"],
        ["measure", "v2", "--no-growth", "--format", "json"],
        ["lint", "v2"],
        ["snapshot", "v2"],
        ["budget", "v2", "--max-chars", "10"],
    ],
)
def test_a_full_stdout_is_one_line_on_stderr_and_exit_2(command: list[str]) -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [PY, "-m", "toolsurface", *command], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120
        )
    assert_one_line_error(Run(done.returncode, "", done.stderr), "cannot write to stdout: No space left on device")


def _special(kind: str, path: Path) -> None:
    """A special file at `path`, in the test's own folder: never a real device, which the old code replaced."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        target = path.with_name("target.txt")
        target.write_text("kept\n", encoding="utf-8")
        path.symlink_to(target)
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as bound:
            bound.bind(str(path))
    elif os.geteuid() == 0:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null
    else:
        pytest.skip("making a device node needs root")


@pytest.mark.parametrize(
    ("kind", "what"),
    [("fifo", "a FIFO"), ("symlink", "a symbolic link"), ("socket", "a socket"), ("device", "a character device")],
)
def test_snapshot_never_replaces_a_fifo_a_symlink_a_socket_or_a_device(tmp_path: Path, kind: str, what: str) -> None:
    target = tmp_path / "tools.json"
    _special(kind, target)
    before = os.lstat(target)
    assert_one_line_error(run_cli("snapshot", "v2", "-o", str(target)), str(target), f"it is {what}")
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if kind == "symlink":
        assert target.read_text(encoding="utf-8") == "kept\n"
    assert not list(tmp_path.glob(".*partial")) and not target.with_suffix(".meta.json").exists()


def test_a_fifo_given_as_a_surface_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "tools.json"
    os.mkfifo(fifo)
    assert_one_line_error(run_cli("measure", str(fifo), timeout=30), str(fifo), "it is a FIFO, not a regular file")


@pytest.mark.parametrize(
    "command",
    [
        ["measure", "v2", "--no-growth", "--out", "{blocker}/out"],
        ["snapshot", "v2", "-o", "{blocker}/tools.json"],
        ["report", "--out", "{blocker}/report"],
        ["serve", "v2", "--log", "{blocker}/calls.jsonl"],
        ["serve", "v2", "--state", "{blocker}/state.json"],
    ],
)
def test_a_parent_that_is_a_file_is_named_in_one_line(tmp_path: Path, command: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    run = run_cli(*(part.format(blocker=blocker) for part in command), timeout=120)
    assert_one_line_error(run, f"{blocker} is a file, not a directory")


def test_a_report_of_a_run_folder_that_is_not_there_fails_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "report"
    run = run_cli("report", str(tmp_path / "nope"), "--out", str(out))
    assert_one_line_error(run, "no such run or study directory")
    assert not out.exists()


def test_a_secret_passed_as_a_server_argument_is_written_nowhere(tmp_path: Path) -> None:
    planted = ["sk-PLANTED-option", "PLANTED-separate", "PLANTED-variable", "PLANTED-url-password"]
    server = (
        "import runpy, sys; sys.argv = ['mcp-server-time']; runpy.run_module('mcp_server_time', run_name='__main__')"
    )
    arguments = [f"--api-key={planted[0]}", "--token", planted[1], f"API_KEY={planted[2]}"]
    arguments.append(f"https://user:{planted[3]}@example.org/mcp")
    output = tmp_path / "tools.json"
    taken = run_cli("snapshot", "-o", str(output), "--", PY, "-c", server, *arguments, timeout=120)
    assert taken.returncode == 0, taken.stderr
    failed = run_cli("snapshot", "--", PY, "-c", "raise SystemExit(3)", *arguments, timeout=120)
    assert failed.returncode == 2
    sidecar = json.loads(output.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert sidecar["source"]["argv"][3:] == [
        "--api-key=[redacted]",
        "--token",
        "[redacted]",
        "API_KEY=[redacted]",
        "https://[redacted]@example.org/mcp",
    ]
    written = "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())
    for secret in planted:
        assert secret not in written + taken.stdout + taken.stderr + failed.stderr
