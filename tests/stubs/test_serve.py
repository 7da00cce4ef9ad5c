"""`toolsurface serve`: another process's client is served over stdio or HTTP, and every call is logged."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.conftest import ROOT, run_cli
from tests.helpers.rawstdio import RawStdioClient, serve_argv
from tests.helpers.stubclient import Finished, stdio_session
from tests.helpers.waiting import wait_until_async
from toolsurface.harness.surface import SurfaceDefinition
from toolsurface.stubs.calllog import CallLog, read_log
from toolsurface.stubs.mcp_server import build_server

pytestmark = pytest.mark.anyio

FIELDS = {"seq", "time", "method", "tool", "arguments", "outcome", "message", "response_chars", "latency_ms"}
P = "acme-shop"


async def test_the_log_holds_every_call_another_process_made(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("v2", tmp_path, done) as s:
        listed = await s.client.list_tools()
        await s.ok("project_get", projectId=P)
        await s.ok("item_get", projectId=P, number=14)
        await s.refused("item_list", kind="task", projectId=P, filter={"status": "open"})
        await s.refused("no_such_tool")
    log = done[0].log
    assert all(set(asdict(r)) >= FIELDS for r in log)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    calls = [r for r in log if r.method == "tools/call"]
    assert [(r.tool, r.outcome) for r in calls] == [
        ("project_get", "ok"),
        ("item_get", "ok"),
        ("item_list", "refused"),
        ("no_such_tool", "refused"),
    ]
    assert calls[1].arguments == {"projectId": P, "number": 14} and calls[1].message is None
    assert "includeClosed" in calls[2].message and calls[2].response_chars == len(calls[2].message)
    lists = [r for r in log if r.method == "tools/list"]
    assert lists and lists[0].response_chars == len(
        json.dumps(
            listed.model_dump(by_alias=True, exclude_none=True, mode="json")["tools"],
            separators=(",", ":"),
            ensure_ascii=False,
        )
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_streamable_http_serves_a_client_and_writes_the_state_on_shutdown(tmp_path: Path) -> None:
    port = _free_port()
    log, state = tmp_path / "calls.jsonl", tmp_path / "state.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolsurface",
            "serve",
            "v2",
            "--http",
            f"127.0.0.1:{port}",
            "--log",
            str(log),
            "--state",
            str(state),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
    )
    try:

        def listening() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return True
            except OSError:
                return False

        await wait_until_async(listening, 20, f"the stub listening on port {port}")
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            tools = await client.list_tools()
            assert [t.name for t in tools.tools][:2] == ["recall", "project_get"]
            task = await client.call_tool("item_get", {"projectId": P, "number": 15})
            version = json.loads(task.content[0].text)["version"]  # type: ignore[union-attr]
            blocked = await client.call_tool(
                "item_action",
                {"projectId": P, "number": 15, "action": "block", "version": version, "reason": "waiting"},
            )
            assert not blocked.is_error
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        assert proc.stderr is not None
        proc.stderr.close()
    final = json.loads(state.read_text(encoding="utf-8"))
    assert next(i for i in final["items"] if i["number"] == 15)["blockReason"] == "waiting"
    assert [r.tool for r in read_log(log) if r.method == "tools/call"] == ["item_get", "item_action"]


def test_a_killed_server_loses_no_answered_call(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        for number in (10, 11, 12):
            client.request("tools/call", {"name": "item_get", "arguments": {"projectId": P, "number": number}})
        os.kill(client.proc.pid, signal.SIGKILL)
        client.proc.wait(timeout=10)
    finally:
        client.close()
    calls = [r for r in read_log(log) if r.method == "tools/call"]
    assert [r.arguments["number"] for r in calls] == [10, 11, 12]


def test_sigterm_ends_an_idle_server_whose_client_keeps_stdin_open_and_it_writes_its_state(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    client = RawStdioClient(serve_argv("v2", "--state", str(state)))
    try:
        client.initialize()
        client.request("tools/list")  # the server has read everything sent and waits on stdin
        os.kill(client.proc.pid, signal.SIGTERM)
        assert client.proc.wait(timeout=10) == 0
    finally:
        client.close()
    assert json.loads(state.read_text(encoding="utf-8"))["items"]


def test_stdin_lines_are_read_whole_across_reads_and_utf8_sequences() -> None:
    from toolsurface.stubs.stdio import _lines

    read, write = os.pipe()
    for part in (b'{"a": "\xc3', b'\xa9"}\n{"b"', b": 1}\r\n", b"tail"):
        os.write(write, part)
    os.close(write)
    try:
        assert list(_lines(read)) == [b'{"a": "\xc3\xa9"}\n', b'{"b": 1}\r\n', b"tail"]
    finally:
        os.close(read)


def test_hostile_arguments_over_stdio_get_refusals_and_the_server_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        answers: list[dict[str, Any]] = []
        nested = '{"a":' * 10_000 + "1" + "}" * 10_000
        client.next_id += 1
        assert client.proc.stdin is not None
        client.proc.stdin.write(
            f'{{"jsonrpc":"2.0","id":{client.next_id},"method":"tools/call","params":{{"name":"item_list","arguments":{{"kind":"task","filter":{nested}}}}}}}\n'.encode()
        )
        client.proc.stdin.flush()
        answers.append(json.loads(client.read_line()))
        for arguments in (
            {"kind": "task", "projectId": P, "query": "x" * 1_000_000},
            {"kind": "ta\x00sk\x1b", "projectId": P},
            {"kind": 5},
            {"kind": "task", "projectId": P, "bogus": 1},
            {},
        ):
            answers.append(json.loads(client.request_line("tools/call", {"name": "item_list", "arguments": arguments})))
        still = json.loads(
            client.request_line("tools/call", {"name": "item_get", "arguments": {"projectId": P, "number": 14}})
        )
    finally:
        client.close()
    results = [a["result"] for a in answers]
    assert [r["isError"] for r in results] == [True, False, True, True, True, True]
    texts = [r["content"][0]["text"] for r in results]
    assert "nest 10001 levels" in texts[0] and "filter" in texts[0]
    assert "task, memory, page, proposal" in texts[2]
    assert "must be of type string" in texts[3] and "unknown parameter 'bogus'" in texts[4]
    assert "missing required parameter 'kind'" in texts[5]
    assert not still["result"].get("isError")
    calls = [r for r in read_log(log) if r.method == "tools/call"]
    assert len(calls) == 7 and [r.outcome for r in calls].count("refused") == 5


def _answers(client: RawStdioClient, lines: list[bytes]) -> list[dict[str, Any]]:
    """The one answer to each line: after each, a ping whose answer must come next."""
    answers = []
    for n, line in enumerate(lines):
        client.send_line(line)
        client.send({"jsonrpc": "2.0", "id": f"ping-{n}", "method": "ping"})
        answers.append(json.loads(client.read_line(timeout=10)))
        assert json.loads(client.read_line(timeout=10))["id"] == f"ping-{n}", f"a second answer to {line[:80]!r}"
    return answers


def _call(request_id: Any, params: Any, **envelope: Any) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params, **envelope}
    ).encode()


def test_a_lone_surrogate_in_arguments_a_tool_name_or_a_cursor_is_answered_and_logged(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        answers = _answers(
            client,
            [
                _call(1, {"name": "item_get", "arguments": {"projectId": "\ud800", "number": 14}}),
                _call(2, {"name": "item_\udfff", "arguments": {}}),
                json.dumps(
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "\ud800"}}
                ).encode(),
            ],
        )
    finally:
        client.close()
    assert [(a["id"], a["error"]["code"]) for a in answers] == [(1, -32602), (2, -32602), (3, -32602)]
    assert "params.arguments.projectId holds a lone surrogate (\\ud800)" in answers[0]["error"]["message"]
    assert "params.name holds a lone surrogate" in answers[1]["error"]["message"]
    assert "params.cursor holds a lone surrogate" in answers[2]["error"]["message"]
    logged = [r for r in read_log(log) if r.outcome == "invalid"]
    assert [(r.method, r.tool) for r in logged] == [
        ("tools/call", "item_get"),
        ("tools/call", "item_\udfff"),
        ("tools/list", None),
    ]
    assert logged[0].arguments == {"projectId": "\ud800", "number": 14}


def test_a_deeply_nested_call_is_answered_under_its_own_id_and_logged_under_its_own_tool(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    nested: Any = {"id": 999, "name": "spoofed", "method": "tools/call"}
    for _ in range(200):
        nested = {"id": 998, "name": "spoofed", "inner": nested}
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        answers = _answers(
            client,
            [
                _call(7, {"name": "item_list", "arguments": {"kind": "task", "filter": nested}}),
                _call(8, {"name": "item_get", "arguments": {"name": "spoofed", "projectId": P, "number": 14}}),
            ],
        )
    finally:
        client.close()
    assert [a["id"] for a in answers] == [7, 8]
    assert "nest 202 levels deep" in answers[0]["result"]["content"][0]["text"]
    calls = [r for r in read_log(log) if r.method == "tools/call"]
    assert [(r.tool, r.outcome) for r in calls] == [("item_list", "refused"), ("item_get", "refused")]
    assert "unknown parameter 'name'" in calls[1].message


@pytest.fixture(scope="module")
def malformed_stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawStdioClient, Path]]:
    """One stub for every malformed line: each is answered and logged before the ping after it is (and the
    stub living through them all is part of what is checked)."""
    log = tmp_path_factory.mktemp("malformed") / "calls.jsonl"
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        yield client, log
    finally:
        client.close()


@pytest.mark.parametrize(
    ("line", "code", "needle", "answer_id"),
    [
        (_call(1, {"arguments": {}}), -32602, "needs params.name, the tool's name as a string, got no name", 1),
        (_call(2, {"name": 5, "arguments": {}}), -32602, "got name 5; tools: recall, project_get", 2),
        (_call(3, {"name": "item_get", "arguments": [1]}), -32602, "params.arguments must be an object", 3),
        (_call(4, {"name": "item_get", "arguments": "x"}), -32602, "not a string", 4),
        (b"[" + _call(5, {"name": "item_get"}) + b"]", -32600, "a JSON array (a batch) is not taken", None),
        (_call(6, {"name": "item_get"}, jsonrpc="1.0"), -32600, '"jsonrpc" must be "2.0", got \'1.0\'', 6),
        (_call(7.5, {"name": "item_get"}), -32600, "id must be a string or an integer, got 7.5", None),
        (_call(True, {"name": "item_get"}), -32600, "id must be a string or an integer, got True", None),
        (b"this is not JSON", -32700, "Parse error: not JSON: Expecting value at column 1", None),
        (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {', -32700, "Parse error", None),
        (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/list", "x": NaN}', -32700, "NaN is not JSON", None),
        (b'{"jsonrpc": "2.0", "id": 11, "method": "tools/\xff"}', -32700, "not UTF-8 (byte 0xff", None),
        (b'{"jsonrpc": "2.0", "id": 12, "method": 5}', -32600, "method must be a string, got 5", 12),
        (b'{"jsonrpc": "2.0", "id": 13}', -32600, "a message needs a method", 13),
        (b'{"jsonrpc": "2.0", "id": 14, "method": "tools/list", "params": {"cursor": 5}}', -32602, "params.cursor", 14),
    ],
)
def test_a_malformed_request_is_answered_with_an_error_naming_what_was_wrong_and_logged(
    malformed_stub: tuple[RawStdioClient, Path], line: bytes, code: int, needle: str, answer_id: Any
) -> None:
    client, log = malformed_stub
    before = len(read_log(log))
    [answer] = _answers(client, [line])
    assert answer["id"] == answer_id and answer["error"]["code"] == code, answer
    assert needle in answer["error"]["message"], answer["error"]["message"]
    [logged] = read_log(log)[before:]
    assert logged.outcome == "invalid" and logged.message == answer["error"]["message"]
    if b'"tools/call"' in line and code != -32700 and not line.startswith(b"["):
        assert logged.method == "tools/call"
    if b'"item_get"' in line and answer_id is not None:
        assert logged.tool == "item_get"


@pytest.mark.parametrize("answer", ["result", "error"])
def test_one_switch_answers_an_unknown_tool_with_a_result_naming_the_tools_or_the_specs_protocol_error(
    tmp_path: Path, answer: str
) -> None:
    log = tmp_path / "calls.jsonl"
    client = RawStdioClient(
        serve_argv("v2", "--log", str(log), *(["--unknown-tool", answer] if answer != "result" else []))
    )
    try:
        client.initialize()
        [reply] = _answers(client, [_call(1, {"name": "no_such_tool", "arguments": {}})])
    finally:
        client.close()
    text = "unknown tool 'no_such_tool'; tools: recall, project_get, project_store"
    if answer == "result":
        assert reply["result"]["isError"] and text in reply["result"]["content"][0]["text"]
    else:
        assert reply["error"]["code"] == -32602 and text in reply["error"]["message"]
        assert reply["error"]["data"]["allowed"][:2] == ["recall", "project_get"]
    [logged] = read_log(log)
    assert logged.outcome == "refused" and logged.tool == "no_such_tool" and text in logged.message


async def test_a_handler_that_raises_answers_with_an_error_and_the_server_goes_on(tmp_path: Path) -> None:
    import mcp.types as types

    from toolsurface.harness.surface import Surface

    class Flaky:
        def call(self, tool: str, arguments: dict[str, Any]) -> Any:
            if tool == "boom":
                raise ZeroDivisionError("division by zero")
            return {"ok": True}

        def state(self) -> dict[str, Any]:
            return {}

    tools = tuple(types.Tool(name=n, input_schema={"type": "object"}) for n in ("boom", "fine"))
    log = CallLog()
    server = build_server(Surface("flaky", "Flaky", "", (), tools), Flaky(), log)
    async with Client(server, mode="legacy") as client:
        boom = await client.call_tool("boom", {})
        fine = await client.call_tool("fine", {})
    assert boom.is_error and "ZeroDivisionError" in boom.content[0].text  # type: ignore[union-attr]
    assert not fine.is_error
    assert [r.outcome for r in log.records if r.method == "tools/call"] == ["error", "ok"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--http", "0.0.0.0:8080"], "loopback only"),
        (["--http", "nonsense"], "expected HOST:PORT"),
        (["--fixture", "/nonexistent/fixture.json"], "no such fixture file"),
        (["--log", "/proc/toolsurface/calls.jsonl"], "cannot open the call log"),
    ],
)
def test_bad_serve_options_are_one_line_errors(args: list[str], needle: str) -> None:
    run = run_cli("serve", "v2", *args, timeout=60)
    assert run.returncode == 2, run.stderr
    assert needle in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_serving_http_on_a_port_already_taken_is_one_line_naming_it() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = run_cli("serve", "v2", "--http", f"127.0.0.1:{port}", timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == f"toolsurface: cannot serve on 127.0.0.1:{port}: Address already in use"


def test_a_file_that_is_not_a_fixture_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fixture.json"
    path.write_text('{"tools": []}', encoding="utf-8")
    run = run_cli("serve", "v2", "--fixture", str(path))
    assert run.returncode == 2 and "not a toolsurface fixture" in run.stderr


def test_a_snapshot_has_no_state_to_write(tmp_path: Path) -> None:
    snap = tmp_path / "snap.json"
    snap.write_text(json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}), encoding="utf-8")
    run = run_cli("serve", str(snap), "--state", str(tmp_path / "state.json"))
    assert run.returncode == 2 and "no state" in run.stderr


CRASHING = """
from toolsurface.harness.surface import SurfaceDefinition


class _Stub:
    handlers: dict = {}

    def declare_parameters(self, tools):
        raise RuntimeError("a stub that cannot take its parameters")

    def state(self):
        return {}


def _stub(fixture):
    if fixture is None:
        raise ZeroDivisionError("the stub divides by zero")
    return _Stub()


SURFACE = SurfaceDefinition(name="crashing", title="crashing", purpose="", build=lambda kinds: [], stub=_stub)
"""


def test_a_stub_that_fails_to_start_is_one_line_naming_the_surface_and_an_error_of_ours_is_never_exit_0(
    tmp_path: Path,
) -> None:
    """The stub's own process (which ends at once when its command is done): a stub whose factory raises is the
    surface's error; an error nothing of ours says (a stub's `declare_parameters` raising) ends with its traceback
    and exit 1, never as a stub that served and stopped."""
    surface = tmp_path / "crashing.py"
    surface.write_text(CRASHING, encoding="utf-8")
    fixture = tmp_path / "fixture.json"
    fixture.write_text("{}", encoding="utf-8")

    def served(*args: str) -> subprocess.CompletedProcess[str]:
        argv = serve_argv(str(surface), "--state", str(tmp_path / "state.json"), *args)
        return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, cwd=tmp_path)

    factory = served()
    assert (factory.returncode, factory.stderr.strip()) == (
        2,
        f"toolsurface: {surface}: its stub failed to start: ZeroDivisionError: the stub divides by zero",
    )
    declared = served("--fixture", str(fixture))
    assert declared.returncode == 1, declared.stderr
    assert declared.stderr.startswith("Traceback (most recent call last):")
    assert declared.stderr.strip().endswith("RuntimeError: a stub that cannot take its parameters")
    assert not (tmp_path / "state.json").exists()


def test_the_fixture_loads_fresh_and_deterministic() -> None:
    from toolsurface.harness.surface import resolve

    definition = resolve("v2")
    assert isinstance(definition, SurfaceDefinition) and definition.stub is not None
    first, second = definition.stub(None), definition.stub(None)
    first.call("item_action", {"projectId": P, "number": 13, "action": "claim", "version": 1})
    assert first.state() != second.state()
    assert definition.stub(None).state() == second.state()
    memory = next(i for i in second.state()["items"] if i["number"] == 3)
    assert memory["fields"]["tags"] == ["build", "ci"]


@pytest.mark.parametrize("name", ["before-v2", "consistent", "v2-first", "v2"])
def test_every_bundled_tool_has_a_handler_and_no_handler_lacks_a_tool(name: str) -> None:
    from toolsurface.harness.surface import resolve

    definition = resolve(name)
    assert isinstance(definition, SurfaceDefinition) and definition.stub is not None
    stub = definition.stub(None)
    handlers = getattr(stub, "handlers", {})
    assert set(handlers) == {t.name for t in definition.build_surface().tools}
