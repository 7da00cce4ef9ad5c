"""When the harness cannot write or read its own files, the run is an error naming the file, never an ok run
with every check failed, and a resume runs it again; every error names the file that failed, never stdout
by default; a FIFO or a broken record where a file is read is one line, not a hang or a traceback; the stub
answers every request it read, down to the last one before stdin ends. Files written together are put back
when a rename fails half way; a full stdout, a special file where a snapshot goes, a parent that is a file
and a FIFO given as a surface are each one line."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.waiting import Deadline
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import write_atomic_all
from toolsurface.harness.measure import PROTOCOL_VERSION, encoding
from toolsurface.harness.session.record import read_run
from toolsurface.stubs.start import SHARED_FORKS

PY = sys.executable
RUN = Path("runs") / "v2" / "script-full-list-r001"


def _limited(limit: int) -> object:
    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return small_files


def study_with_small_files(out: Path, limit: int, runs: int = 1) -> Run:
    """`session run` whose every file (and every file of its stubs) stops at `limit` bytes, as on a full disk."""
    encoding()  # tiktoken's cache is seeded before, as on any machine that measured once
    # Its stubs are forked from a fork server of its own, under its limits, not from the tests' shared one.
    env = {k: v for k, v in os.environ.items() if k != SHARED_FORKS}
    done = subprocess.run(
        [PY, "-m", "toolsurface", "session", "run", "--agent", "script", "--surface", "v2", "--runs", str(runs),
         "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        preexec_fn=_limited(limit),  # type: ignore[arg-type]
    )  # fmt: skip
    return Run(done.returncode, done.stdout, done.stderr)


def test_a_stub_that_cannot_write_its_state_makes_the_run_an_error_and_a_resume_runs_it_again(tmp_path: Path) -> None:
    """The final state is the run's largest file (35 KB): at 20 KB only it fails to be written."""
    out = tmp_path / "study"
    first = study_with_small_files(out, 20_000, runs=2)
    assert first.returncode == 1, first.stderr
    assert "2 of 2 runs did not end ok (error 2)" in first.stderr and "stdout" not in first.stderr
    record = read_run(out / RUN)
    assert record.result.status == "error" and not record.result.passed
    assert record.result.error is not None and "state.json" in record.result.error
    assert "File too large" in record.result.error
    assert record.result.checks == []  # nothing judged: the surface did nothing wrong
    again = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--runs", "2", "--out", str(out))
    assert again.returncode == 0, again.stderr
    (row,) = [line for line in again.stdout.splitlines() if line.startswith("| v2 | 2 | ok 2 |")]
    assert row.endswith("| 1.00 |")
    assert read_run(out / RUN).result.passed


def test_a_transcript_that_cannot_be_written_is_named_not_blamed_on_stdout(tmp_path: Path) -> None:
    """At 8 KB the transcript (12 KB) and the call log (15 KB, answers kept) both outgrow the limit; whichever
    fails first is named."""
    out = tmp_path / "study"
    run = study_with_small_files(out, 8 * 1024)
    assert run.returncode == 1, run.stderr
    named = [
        f"cannot write the transcript {out / RUN / 'transcript.jsonl'}: File too large",
        f"cannot write the call log {out / RUN / 'calls.jsonl'}: File too large",
    ]
    assert any(words in run.stderr for words in named), run.stderr
    assert "stdout" not in run.stderr and "Traceback" not in run.stderr
    assert read_run(out / RUN).result.status == "error"


def test_an_agent_clis_stub_that_cannot_write_its_state_says_why_though_the_cli_keeps_no_stderr(
    tmp_path: Path,
) -> None:
    """Claude Code drops its MCP servers' stderr; at 30,000 bytes every file of a two-step run fits but the
    final state (35 KB): the run's error is the stub's own words, not an end without a word."""
    from tests.helpers.npm_packages import agent_clis_dir

    script, out, home = tmp_path / "script.json", tmp_path / "study", tmp_path / "home"
    steps = [{"call": "project_get", "arguments": {"projectId": "acme-shop"}}, {"say": "done"}]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    home.mkdir()
    env = {"PATH": f"{agent_clis_dir()}{os.pathsep}{os.environ['PATH']}", "HOME": str(home)}
    done = subprocess.run(
        [PY, "-m", "toolsurface", "session", "run", "--agent", "claude:full-list", "--model-endpoint", "scripted",
         "--surface", "v2", "--script", str(script), "--out", str(out), "--timeout", "240"],
        cwd=ROOT, env=env | {"ANTHROPIC_API_KEY": "sk-test-dummy"}, capture_output=True, text=True, timeout=400,
        preexec_fn=_limited(30_000),  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    run_dir = out / "runs" / "v2" / "claude-full-list-r001"
    record = read_run(run_dir)
    assert record.result.status == "error" and record.result.checks == []
    assert record.result.error == (
        f"the stub wrote no final state ({run_dir / 'state.json'}): cannot write {run_dir / 'state.json'}: "
        "File too large"
    )


def test_the_stub_appends_why_it_wrote_no_state_to_its_errors_file(tmp_path: Path) -> None:
    state, errors = tmp_path / "state.json", tmp_path / "stub.errors"
    errors.write_text("earlier line\n", encoding="utf-8")
    done = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--state", str(state), "--errors", str(errors)],
        input=pipelined(1), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, cwd=ROOT,
        preexec_fn=_limited(20_000),  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 2 and not state.exists()
    assert errors.read_text(encoding="utf-8") == f"earlier line\ntoolsurface: cannot write {state}: File too large\n"


def test_a_run_under_a_file_size_limit_leaves_no_bytecode_cut_short(tmp_path: Path) -> None:
    """Python writes its bytecode cache cut short under a file-size limit, and each later import of that
    module then fails ("marshal data too short"): past its own first module toolsurface writes none there. A
    cache folder of the test's own makes every module's bytecode due, as after an install or an edit (the
    interpreter's start-up modules before toolsurface's are Python's own to write)."""
    cache = tmp_path / "pycache"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": str(cache)}
    limited = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--state", str(tmp_path / "state.json")],
        input=pipelined(1), capture_output=True, timeout=120, cwd=ROOT, env=env,
        preexec_fn=_limited(20_000),  # type: ignore[arg-type]
    )  # fmt: skip
    assert limited.returncode == 2 and b"File too large" in limited.stderr, limited.stderr
    ours = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*.pyc") if "toolsurface" in p.parts)
    assert ours == [f"{ROOT.relative_to('/').as_posix()}/toolsurface/__init__.{sys.implementation.cache_tag}.pyc"]
    import marshal

    marshal.loads((cache / ours[0]).read_bytes()[16:])  # whole: it raises on bytecode cut short


def pipelined(calls: int) -> bytes:
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]  # fmt: skip
    lines += [
        {"jsonrpc": "2.0", "id": n, "method": "tools/call",
         "params": {"name": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}}}
        for n in range(1, calls + 1)
    ]  # fmt: skip
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def answers(stdout: bytes) -> dict[int, dict[str, object]]:
    found = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    return {answer["id"]: answer for answer in found if "id" in answer}


def test_the_last_call_before_stdin_ends_is_answered(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    done = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--log", str(log)],
        input=pipelined(5), capture_output=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = answers(done.stdout)
    assert sorted(got) == [0, 1, 2, 3, 4, 5] and all("result" in got[n] for n in range(1, 6))
    assert log.read_text(encoding="utf-8").count('"tools/call"') == 5


def test_a_call_log_that_cannot_be_written_answers_every_call_with_an_error_naming_it(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    done = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--log", "/dev/full", "--state", str(state)],
        input=pipelined(3), capture_output=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    got = answers(done.stdout)
    assert sorted(got) == [0, 1, 2, 3]
    for n in (1, 2, 3):
        error = got[n]["error"]
        assert isinstance(error, dict) and error["code"] == -32603
        assert "cannot write the call log /dev/full: No space left on device" in error["message"]
    assert_one_line_error(
        Run(done.returncode, "", done.stderr.decode()), "cannot write the call log /dev/full: No space left on device"
    )
    assert not state.exists()  # a log with a gap leaves no state: the run it served is an error


def test_a_call_log_that_is_a_fifo_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "calls.fifo"
    os.mkfifo(fifo)
    done = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--log", str(fifo)],
        input=b"", capture_output=True, text=False, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert_one_line_error(Run(done.returncode, "", done.stderr.decode()), str(fifo), "a FIFO no process reads")


def test_a_model_endpoint_that_cannot_write_its_log_answers_500_and_ends_naming_it() -> None:
    endpoint = subprocess.Popen(
        [PY, "-m", "toolsurface", "model-endpoint", "scripted", "--surface", "v2", "--log", "/dev/full"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    try:
        assert endpoint.stdout is not None
        url = endpoint.stdout.readline().decode().strip()
        assert url.startswith("http://127.0.0.1:"), url
        import urllib.error
        import urllib.request

        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
        with pytest.raises(urllib.error.HTTPError) as answered:
            urllib.request.urlopen(urllib.request.Request(url + "/v1/messages", data=body), timeout=30)
        assert answered.value.code == 500
        assert b"cannot write the model request log /dev/full" in answered.value.read()
        answered.value.close()
        returncode = endpoint.wait(timeout=30)
    finally:
        if endpoint.poll() is None:
            endpoint.kill()
            endpoint.wait(timeout=10)
    assert endpoint.stderr is not None
    stderr = endpoint.stderr.read().decode()
    endpoint.stdout.close()
    endpoint.stderr.close()
    assert returncode == 2 and "Traceback" not in stderr and "stdout" not in stderr
    assert stderr.strip().splitlines()[-1] == (
        "toolsurface: cannot write the model request log /dev/full: No space left on device"
    )


@pytest.fixture(scope="module")
def finished_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("finished") / "study"
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out


def _broken(kind: str, path: Path) -> str:
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
        return "a FIFO"
    if kind == "nested":
        path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
        return "nests 100000 levels deep"
    path.write_bytes(b'{"status": "\xff"}')
    return "not UTF-8"


COMMANDS = {
    "score": ["session", "score", "{study}"],
    "report": ["report", "{study}", "--out", "{out}"],
    "gate": ["gate", "{study}", "--baseline", "v2", "--candidate", "v2"],
}


@pytest.mark.parametrize("kind", ["fifo", "nested", "not-utf8"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_result_json_that_cannot_be_read_is_one_line_naming_it(
    finished_study: Path, tmp_path: Path, kind: str, command: str
) -> None:
    study = tmp_path / "study"
    subprocess.run(["cp", "-r", str(finished_study), str(study)], check=True)
    problem = _broken(kind, study / RUN / "result.json")
    args = [a.format(study=study, out=tmp_path / "report") for a in COMMANDS[command]]
    assert_one_line_error(run_cli(*args, timeout=60), str(study / RUN / "result.json"), problem)


@pytest.mark.parametrize("kind", ["fifo", "nested", "not-utf8"])
def test_a_resume_runs_again_a_run_whose_result_cannot_be_read(finished_study: Path, tmp_path: Path, kind: str) -> None:
    study = tmp_path / "study"
    subprocess.run(["cp", "-r", str(finished_study), str(study)], check=True)
    _broken(kind, study / RUN / "result.json")
    again = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(study), timeout=120)
    assert again.returncode == 0, again.stderr
    assert read_run(study / RUN).result.status == "ok"


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_or_version_to_a_full_stdout_is_one_line(option: str) -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [PY, "-m", "toolsurface", option], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT
        )
    assert_one_line_error(Run(done.returncode, "", done.stderr), "cannot write to stdout: No space left on device")


def test_a_fifo_at_the_study_record_is_refused_before_any_run(tmp_path: Path) -> None:
    out = tmp_path / "study"
    out.mkdir()
    os.mkfifo(out / "study.json")
    deadline = Deadline(60, "the refusal")
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", "v2", "--out", str(out), timeout=deadline.remaining()
    )
    assert_one_line_error(run, str(out / "study.json"), "a FIFO")
    assert not (out / "runs").exists() or not any((out / "runs").rglob("result.json"))


@pytest.mark.parametrize("kind", ["fifo", "nested"])
def test_a_fixture_or_a_scenario_that_cannot_be_read_is_one_line(tmp_path: Path, kind: str) -> None:
    fixture, scenario = tmp_path / "fixture.json", tmp_path / "scenario.json"
    for path in (fixture, scenario):
        if kind == "fifo":
            os.mkfifo(path)
        else:
            path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    problem = "a FIFO" if kind == "fifo" else "nests 100000 levels deep"
    served = subprocess.run(
        [PY, "-m", "toolsurface", "serve", "v2", "--fixture", str(fixture)],
        input=b"", capture_output=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert_one_line_error(Run(served.returncode, "", served.stderr.decode()), str(fixture), problem)
    if kind == "nested":  # a FIFO is no file to load a scenario from: it is refused as unknown
        run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--scenario", str(scenario),
                      "--out", str(tmp_path / "study"), timeout=60)  # fmt: skip
        assert_one_line_error(run, str(scenario), "nests 100000 levels deep")


def test_an_agent_clis_transcript_that_cannot_be_written_is_a_failure_naming_it(tmp_path: Path) -> None:
    import anyio

    from toolsurface.harness.agents._process import run_process
    from toolsurface.harness.files import WriteFailed

    async def run() -> None:
        await run_process(
            [PY, "-c", "print('a line of the transcript')"],
            env=dict(os.environ), cwd=tmp_path, timeout=60, stdout=Path("/dev/full"), stderr=tmp_path / "stderr.log",
        )  # fmt: skip

    with pytest.raises(WriteFailed, match="cannot write the transcript /dev/full: No space left on device"):
        anyio.run(run)


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
