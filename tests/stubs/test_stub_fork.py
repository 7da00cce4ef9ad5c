"""Stubs forked from a warm server: the same bytes, state and log as a fresh process, and nothing left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, processes_with, run_cli
from tests.helpers.rawstdio import RawStdioClient, serve_argv
from tests.helpers.waiting import wait_until
from toolsurface.harness.measure import PROTOCOL_VERSION
from toolsurface.stubs.calllog import CallRecord, read_log
from toolsurface.stubs.start import SHARED_FORKS, ForkServer, StubForkUnavailable, StubStarter, fork_server


def launch_argv(forks: ForkServer, *args: str) -> list[str]:
    return [sys.executable, *forks.command(args)]


def session(client: RawStdioClient) -> list[bytes]:
    """A short session: the list, a read, a refused call and a change; every answer's line as received."""
    client.initialize()
    calls = [
        ("tools/list", {}),
        ("tools/call", {"name": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}}),
        ("tools/call", {"name": "item_list", "arguments": {"projectId": "acme-shop", "filter": {"status": "open"}}}),
        (
            "tools/call",
            {"name": "item_action", "arguments": {"projectId": "acme-shop", "number": 15, "action": "complete"}},
        ),
    ]
    return [client.request_line(method, params) for method, params in calls]


def comparable(log: list[CallRecord]) -> list[dict[str, Any]]:
    return [{k: v for k, v in asdict(record).items() if k not in ("time", "latency_ms")} for record in log]


def test_a_forked_stub_answers_logs_and_ends_exactly_like_a_spawned_one(tmp_path: Path) -> None:
    with fork_server(tmp_path, ["v2"]) as forks:
        forked = RawStdioClient(
            launch_argv(forks, "serve", "v2", "--log", str(tmp_path / "f.jsonl"), "--state", str(tmp_path / "f.json"))
        )
        spawned = RawStdioClient(
            serve_argv("v2", "--log", str(tmp_path / "s.jsonl"), "--state", str(tmp_path / "s.json"))
        )
        try:
            assert session(forked) == session(spawned)
        finally:
            forked.close()
            spawned.close()
        assert forked.proc.returncode == 0 and spawned.proc.returncode == 0
    assert json.loads((tmp_path / "f.json").read_text()) == json.loads((tmp_path / "s.json").read_text())
    assert comparable(read_log(tmp_path / "f.jsonl")) == comparable(read_log(tmp_path / "s.jsonl"))
    assert [r.method for r in read_log(tmp_path / "f.jsonl")] == ["tools/list"] + ["tools/call"] * 3


def test_the_launcher_carries_its_directory_environment_output_and_exit_status(tmp_path: Path) -> None:
    with fork_server(tmp_path, ["v2"]) as forks:
        done = subprocess.run(
            launch_argv(forks, "budget", "v2", "--max-chars", "1000", "--format", "github"),
            cwd=tmp_path,
            env={**os.environ, "GITHUB_STEP_SUMMARY": "summary.md"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1, done.stderr
        assert done.stdout.startswith("::error title=v2%3A tool list over budget::v2: 8 tools")
        assert "### Tool list budget: v2" in (tmp_path / "summary.md").read_text(encoding="utf-8")

        usage = subprocess.run(
            launch_argv(forks, "budget", "v2", "--max-chars", "many"), capture_output=True, text=True, timeout=60
        )
        assert usage.returncode == 2 and usage.stderr.startswith("toolsurface: ")


def test_a_killed_launcher_ends_its_stub_with_its_state_written_and_every_answered_call_logged(tmp_path: Path) -> None:
    """codex ends its servers by killing the process it started: the stub it was talking to still writes its
    state, while the client keeps its pipes open."""
    marker = str(tmp_path / "study")
    state = tmp_path / "state.json"
    with fork_server(tmp_path / "study", ["v2"]) as forks:
        (server,) = processes_with(marker)
        client = RawStdioClient(
            launch_argv(forks, "serve", "v2", "--log", str(tmp_path / "calls.jsonl"), "--state", str(state))
        )
        try:
            session(client)
            (stub,) = set(processes_with(marker)) - {server}
            os.kill(client.proc.pid, signal.SIGKILL)
            wait_until(lambda: stub not in processes_with(marker), 15, "the forked stub to end with its launcher")
        finally:
            client.close()
    assert len(read_log(tmp_path / "calls.jsonl")) == 4
    assert json.loads(state.read_text(encoding="utf-8"))["items"]


def test_sigterm_to_the_launcher_reaches_the_stub_which_writes_its_state(tmp_path: Path) -> None:
    with fork_server(tmp_path, ["v2"]) as forks:
        client = RawStdioClient(launch_argv(forks, "serve", "v2", "--state", str(tmp_path / "state.json")))
        try:
            client.initialize()
            os.kill(client.proc.pid, signal.SIGTERM)
            assert client.proc.wait(timeout=15) == 0
        finally:
            client.close()
    assert json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))["items"]


def test_ending_the_study_ends_every_stub_it_forked_after_it_writes_its_state(tmp_path: Path) -> None:
    marker = str(tmp_path / "study")
    with fork_server(tmp_path / "study", ["v2"]) as forks:
        client = RawStdioClient(launch_argv(forks, "serve", "v2", "--state", str(tmp_path / "state.json")))
        client.initialize()
        client.request("tools/list")  # the stub has read everything sent and waits on stdin
    try:
        assert processes_with(marker) == []
        assert (tmp_path / "state.json").exists()
        assert client.proc.wait(timeout=15) == 0
    finally:
        client.close()


def test_without_its_fork_server_the_launcher_starts_the_stub_itself(tmp_path: Path) -> None:
    gone = ForkServer(str(tmp_path / "no-such.sock"))
    client = RawStdioClient(launch_argv(gone, "serve", "v2"))
    try:
        assert client.initialize()["protocolVersion"] == PROTOCOL_VERSION
        assert len(client.request("tools/list")["tools"]) == 8
    finally:
        client.close()


def test_a_fork_server_that_cannot_build_its_surfaces_says_why(tmp_path: Path) -> None:
    with pytest.raises(StubForkUnavailable, match="no-such-surface"), fork_server(tmp_path, ["no-such-surface"]):
        pass
    assert processes_with(str(tmp_path)) == []


def result_without_times(run_dir: Path) -> dict[str, Any]:
    result = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))
    return {k: v for k, v in result.items() if k not in ("duration_s", "agent_duration_s")}


def test_forked_and_spawned_studies_record_the_same_runs(tmp_path: Path) -> None:
    for how in ("fork", "spawn"):
        surfaces = ("--surface", "v2-first", "--surface", "before-v2")
        study = ("--jobs", "2", "--stub-start", how, "--out", str(tmp_path / how))
        run = run_cli("session", "run", "--agent", "script", *surfaces, *study, cwd=ROOT, timeout=300)
        assert run.returncode == 0, run.stderr
    for surface in ("v2-first", "before-v2"):
        forked, spawned = (tmp_path / how / "runs" / surface / "script-full-list-r001" for how in ("fork", "spawn"))
        assert json.loads((forked / "spec.json").read_text())["stub_start"] == "fork"
        assert json.loads((spawned / "spec.json").read_text())["stub_start"] == "spawn"
        assert result_without_times(forked) == result_without_times(spawned)
        assert json.loads((forked / "state.json").read_text()) == json.loads((spawned / "state.json").read_text())
        assert comparable(read_log(forked / "calls.jsonl")) == comparable(read_log(spawned / "calls.jsonl"))
    assert processes_with(str(tmp_path)) == []


def test_a_study_that_cannot_start_ends_its_fork_server_with_one_line_of_error(tmp_path: Path) -> None:
    out = tmp_path / "study"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", "v2", "--script", str(tmp_path / "nope.json"),
        "--out", str(out),
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        f"toolsurface: script: no script {tmp_path / 'nope.json'} for scenario six-tasks and surface v2; pass --script FILE"
    ]
    assert processes_with(str(out)) == []


def test_a_signal_the_launcher_gets_before_it_knows_the_stubs_pid_is_passed_on_once_it_does(tmp_path: Path) -> None:
    """The forked stub can answer its client before its pid reaches the launcher; a SIGTERM sent in that gap
    waits, and reaches the stub, whose exit status the launcher then gives."""
    import socket
    import struct

    from toolsurface.stubs.start.launch import LENGTH

    path = str(tmp_path / "fork.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    # The stand-in for the forked stub: a real process that ends with 0 on SIGTERM, once it says its handler is
    # set (a SIGTERM before that would end it as the signal's default does, on a machine slow to start Python).
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal, sys, time; signal.signal(15, lambda *a: sys.exit(0)); print('ready', flush=True);"
            " time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    launcher = subprocess.Popen(
        [sys.executable, "-m", "toolsurface.stubs.start.launch", path, "serve", "v2"], stdin=subprocess.DEVNULL
    )
    try:
        conn, _ = listener.accept()
        _, fds, _, _ = socket.recv_fds(conn, LENGTH.size, 3)
        for fd in fds:
            os.close(fd)
        launcher.send_signal(signal.SIGTERM)
        # The launcher cannot have acted on it yet: it is still waiting for the pid.
        wait_until(lambda: _signal_pending(launcher.pid, signal.SIGTERM), timeout=10, what="SIGTERM pending")
        conn.sendall(struct.pack("!i", child.pid))
        assert child.wait(timeout=10) == 0
        conn.sendall(struct.pack("!i", 0))
        assert launcher.wait(timeout=10) == 0
        conn.close()
    finally:
        for proc in (child, launcher):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if child.stdout is not None:
            child.stdout.close()
        listener.close()


def _signal_pending(pid: int, signum: int) -> bool:
    """Whether `signum` waits, blocked, on process `pid` (Linux: SigBlk and SigPnd/ShdPnd in /proc)."""
    fields = dict(
        line.split(":", 1)
        for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines()
        if ":" in line
    )
    bit = 1 << (signum - 1)
    pending = int(fields["SigPnd"], 16) | int(fields["ShdPnd"], 16)
    return bool(int(fields["SigBlk"], 16) & bit) and bool(pending & bit)


def test_auto_forks_from_the_fork_server_the_environment_names_and_starts_none_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    study = tmp_path / "study"
    with fork_server(tmp_path / "shared", []) as shared:
        monkeypatch.setenv(SHARED_FORKS, shared.socket_path)
        with StubStarter("auto", out=study) as stubs:
            stubs.warm("v2", None)
            stubs.planned()
            assert stubs.server() == shared
            assert processes_with(str(study)) == []
        with StubStarter("fork", out=study) as own:
            own.planned()
            assert own.server() not in (None, shared)
        run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--runs", "1", "--out", str(study))
        assert run.returncode == 0, run.stderr
        [result] = [json.loads(p.read_text(encoding="utf-8")) for p in study.rglob("result.json")]
        [spec] = [json.loads(p.read_text(encoding="utf-8")) for p in study.rglob("spec.json")]
        assert result["status"] == "ok" and result["calls"] > 0 and spec["stub_start"] == "fork"
    monkeypatch.setenv(SHARED_FORKS, str(tmp_path / "gone.sock"))
    with StubStarter("auto", out=study) as stubs:
        stubs.planned()
        assert stubs.server() not in (None, ForkServer(str(tmp_path / "gone.sock")))
