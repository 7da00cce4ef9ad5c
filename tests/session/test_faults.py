"""Failure modes a long unattended study or a CI job meets: each ends clearly and loses nothing finished."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import ROOT, processes_with, run_cli
from tests.helpers.waiting import wait_until
from toolsurface.harness.measure import count_tokens, encoding, marginal_tokens
from toolsurface.harness.session.record import read_run

GIB = 1024**3


def script(path: Path, steps: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    return path


def test_a_stub_killed_mid_session_marks_the_run_and_keeps_its_log(tmp_path: Path) -> None:
    slow = script(
        tmp_path / "slow.json",
        [
            {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}},
            {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 15}},
            {"wait": 6},
            {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 13}},
        ],
    )
    out = tmp_path / "out"
    calls = out / "runs" / "v2" / "script-full-list-r001" / "calls.jsonl"

    def kill_the_stub_after_two_calls() -> None:
        wait_until(
            lambda: calls.exists() and calls.read_text(encoding="utf-8").count("tools/call") >= 2,
            60,
            "the run's first two calls in its log",
        )
        stubs = processes_with(str(calls))
        assert stubs, "the stub of the run was not found"
        for pid in stubs:
            os.kill(pid, signal.SIGKILL)

    # The stub is the process under test; the study runs in this process while a thread kills the stub.
    with ThreadPoolExecutor(max_workers=1) as pool:
        killed = pool.submit(kill_the_stub_after_two_calls)
        run = run_cli(
            "session", "run", "--agent", "script", "--surface", "v2", "--script", str(slow), "--out", str(out)
        )
        killed.result()
    # The run did not end ok, so the study says so in its last line and exits 1.
    assert run.returncode == 1 and "1 of 1 runs did not end ok (agent-error 1)" in run.stderr, run.stderr
    record = read_run(out / "runs" / "v2" / "script-full-list-r001")
    assert record.result.status == "agent-error" and record.result.error
    assert record.result.tools_called == ["item_get", "item_get"] and not record.result.passed
    assert all(not c.passed for c in record.result.checks if c.name != "section-read")


def test_a_hanging_agent_is_ended_with_everything_it_started(tmp_path: Path) -> None:
    hang = script(
        tmp_path / "hang.json",
        [{"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}}, {"wait": 300}],
    )
    out = tmp_path / "out"
    run = run_cli(
        "session",
        "run",
        "--agent",
        "script",
        "--surface",
        "v2",
        "--script",
        str(hang),
        "--timeout",
        "2",
        "--out",
        str(out),
        timeout=120,
    )
    assert run.returncode == 1 and "1 of 1 runs did not end ok (timeout 1)" in run.stderr, run.stderr
    record = read_run(out / "runs" / "v2" / "script-full-list-r001")
    assert record.result.status == "timeout" and record.result.calls == 1
    assert processes_with(str(out)) == []


@pytest.mark.parametrize("command", [["measure", "v2", "--no-growth"], ["report"]])
def test_a_full_disk_is_a_clear_error_and_leaves_nothing_that_looks_complete(
    tmp_path: Path, command: list[str]
) -> None:
    """A file-size limit makes every larger write fail the way a full disk does. The caches of a fresh
    machine are empty: matplotlib then builds its font cache, and cannot write it either."""

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    encoding()  # tiktoken's cache is seeded before, as on any machine that measured once
    out = tmp_path / "out"
    fresh = {"MPLCONFIGDIR": str(tmp_path / "mpl"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for folder in fresh.values():
        Path(folder).mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", *command, "--out", str(out)],
        cwd=tmp_path, env={**os.environ, **fresh}, capture_output=True, text=True, timeout=300, preexec_fn=small_files,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    assert "cannot write" in done.stderr and "File too large" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    complete = "measure.json" if command[0] == "measure" else "report.md"
    assert not (out / complete).exists() and not list(out.rglob("*.partial"))


def test_a_study_that_cannot_write_its_directory_stops_before_any_run(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(blocker / "study"))
    assert run.returncode == 2 and "cannot write to" in run.stderr and "Traceback" not in run.stderr


def test_a_run_directory_of_an_older_format_is_a_clear_error(tmp_path: Path) -> None:
    first = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    result = tmp_path / "runs" / "v2" / "script-full-list-r001" / "result.json"
    old = json.loads(result.read_text(encoding="utf-8"))
    old["format"] = "toolsurface-run/0"
    result.write_text(json.dumps(old), encoding="utf-8")
    run = run_cli("session", "score", str(tmp_path))
    assert run.returncode == 2 and "toolsurface-run/0" in run.stderr and "rerun" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_two_studies_into_one_directory_lose_and_interleave_nothing(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "toolsurface", "session", "run", "--agent", "script", "--surface", "v2", "--surface", "consistent",
            "--runs", "3", "--jobs", "2", "--out", str(tmp_path)]  # fmt: skip
    studies = [subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for study in studies:
        _, stderr = study.communicate(timeout=300)
        assert study.returncode == 0, stderr
    final = run_cli("session", "score", str(tmp_path), "--format", "json")
    assert final.returncode == 0, final.stderr
    assert {(s["surface"], s["runs"]) for s in final.json()["surfaces"]} == {("v2", 3), ("consistent", 3)}
    for run_dir in sorted((tmp_path / "runs").glob("*/*")):
        record = read_run(run_dir)
        assert record.result.status == "ok" and record.result.passed
        lines = (run_dir / "calls.jsonl").read_text(encoding="utf-8").splitlines()
        seqs = [json.loads(line)["seq"] for line in lines]
        assert seqs == list(range(1, len(seqs) + 1))
        assert record.result.calls == sum(1 for line in lines if '"tools/call"' in line)
    assert not list(tmp_path.rglob("*.claim")) and not list(tmp_path.rglob("*.partial"))


def _limited(argv: list[str], memory: int = 2 * GIB) -> subprocess.CompletedProcess[str]:
    """Run with an address-space limit, so a measurement that would not fit fails instead of swapping."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "toolsurface", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
    )


def test_a_hostile_snapshot_is_measured_within_bounded_memory(tmp_path: Path) -> None:
    huge = "Do this. " * 120_000
    tools = [{"name": "huge", "description": huge, "inputSchema": {"type": "object"}}]
    tools += [
        {
            "name": f"tool_{n}",
            "description": f"Tool number {n}.",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}},
        }
        for n in range(10_000)
    ]
    tools.append(
        {
            "name": "cyclic",
            "inputSchema": {
                "type": "object",
                "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
                "properties": {"root": {"$ref": "#/$defs/node"}},
            },
        }
    )
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    done = _limited(["measure", str(path), "--format", "json"])
    assert done.returncode == 0, done.stderr[-1000:]
    measured = json.loads(done.stdout)["surfaces"][0]
    assert measured["tools"] == 10_002 and measured["chars"] > 1_000_000
    assert [t["name"] for t in measured["per_tool"][:1]] == ["huge"] and measured["per_tool"][0]["chars"] > len(huge)


def test_a_schema_that_refers_to_itself_forever_is_refused_by_the_stub_not_fatal(tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from toolsurface.harness.surface import resolve
    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import surface_for_serving

    loop = {"type": "object", "$ref": "#/$defs/self", "$defs": {"self": {"$ref": "#/$defs/self"}}}
    path = tmp_path / "loop.json"
    path.write_text(json.dumps({"tools": [{"name": "loop", "inputSchema": loop}]}), encoding="utf-8")
    item = resolve(str(path))
    log = CallLog()

    async def call() -> bool:
        async with Client(build_server(surface_for_serving(item), None, log), mode="legacy") as client:
            result = await client.call_tool("loop", {"a": 1})
            again = await client.list_tools()
            return bool(result.is_error) and len(again.tools) == 1

    assert anyio.run(call)
    assert (
        log.records[-2].outcome == "refused"
        if log.records[-1].method == "tools/list"
        else log.records[-1].outcome == "refused"
    )


def test_a_schema_whose_references_loop_is_refused_naming_the_loop_and_the_tools_that_can_be_called(
    tmp_path: Path,
) -> None:
    import anyio
    from mcp import Client

    from toolsurface.harness.surface import resolve
    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import surface_for_serving

    loop = {"type": "object", "properties": {"a": {"anyOf": [{"$ref": "#/$defs/again"}]}}}
    loop["$defs"] = {"again": {"$ref": "#/properties/a"}}
    fine = {"type": "object", "properties": {"x": {"type": "integer"}}}
    path = tmp_path / "loop.json"
    tools = [{"name": "loop", "inputSchema": loop}, {"name": "fine", "inputSchema": fine}]
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    log = CallLog()

    async def calls() -> list[str]:
        async with Client(build_server(surface_for_serving(resolve(str(path))), None, log), mode="legacy") as client:
            return [
                "".join(getattr(block, "text", "") for block in (await client.call_tool("loop", arguments)).content)
                for arguments in ({}, {"a": 1})
            ]

    texts = anyio.run(calls)
    refused = [r for r in log.records if r.method == "tools/call"]
    assert [r.outcome for r in refused] == ["refused", "refused"]
    for text, record in zip(texts, refused, strict=True):
        assert "refers to itself without end (#/properties/a -> #/properties/a/anyOf/0 -> #/$defs/again" in text
        assert record.allowed == ["fine"] and "nest" not in text


def test_marginal_tokens_from_neighbours_equal_the_whole_list_difference() -> None:
    import random

    rng = random.Random(7)
    words = ["task", "memory", "page", '"', "{", "}", ",", ":", "[", "]", " ", "é", "→", "\n", "#14", "version"]
    texts = [
        json.dumps(
            {"name": f"t{n}", "d": "".join(rng.choice(words) for _ in range(rng.randint(1, 40)))},
            ensure_ascii=False,
            separators=(",", ":"),
        )
        for n in range(40)
    ]
    whole = "[" + ",".join(texts) + "]"
    expected = [
        count_tokens(whole) - count_tokens("[" + ",".join(texts[:i] + texts[i + 1 :]) + "]") for i in range(len(texts))
    ]
    assert marginal_tokens(texts) == expected
    assert marginal_tokens(texts[:1]) == [count_tokens("[" + texts[0] + "]") - count_tokens("[]")]
