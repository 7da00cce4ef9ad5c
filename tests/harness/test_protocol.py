"""Both MCP protocol versions: the stubs serve each (in memory, stdio, HTTP) to the SDK's client at that version
and log the version of every request; `--protocol` lists in the version asked for, the default staying the
handshake era and its figures; a server that speaks only 2026-07-28 is listed in it, over stdio and HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import free_port, npm_servers, wait_for_port
from tests.helpers.rawstdio import RawStdioClient, serve_argv
from tests.helpers.stubclient import stub_argv, stub_command
from toolsurface.harness.measure import PROTOCOL_VERSION, list_text, measure
from toolsurface.harness.protocol import MODERN_PROTOCOL, PROTOCOL_VERSIONS, client_mode
from toolsurface.harness.surface import resolve
from toolsurface.stubs.calllog import CallLog, read_log
from toolsurface.stubs.mcp_server import build_server

pytestmark = pytest.mark.anyio
__all__ = ["npm_servers"]  # the fixture, used here

MODERN_ONLY = [sys.executable, str(ROOT / "tests" / "helpers" / "modern_only_server.py")]
MODERN_ONLY_TOOLS = ["add", "echo"]
P = "acme-shop"  # the v2 fixture's project


def v2_surface() -> Any:
    return resolve("v2").build_surface()  # type: ignore[union-attr]


# -- the stubs serve both versions -------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOL_VERSIONS)
async def test_a_client_at_each_version_lists_the_stubs_tools_in_memory_and_calls_one(protocol: str) -> None:
    from mcp import Client

    surface = v2_surface()
    log = CallLog()
    stub = surface.stub(None)
    async with Client(build_server(surface, stub, log), mode=client_mode(protocol)) as client:
        assert client.protocol_version == protocol
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == [t.name for t in surface.tools]
        answer = await client.call_tool("item_get", {"projectId": P, "number": 15})
        assert not answer.is_error and json.loads(answer.content[0].text)["number"] == 15  # type: ignore[union-attr]
    assert [(r.method, r.protocol) for r in log.records] == [("tools/list", protocol), ("tools/call", protocol)]


def stdio_session(protocol: str, log: Path) -> Any:
    """The SDK's client at `protocol`, starting `toolsurface serve v2 --log LOG` over stdio."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=stub_command(["serve", "v2", "--log", str(log)]))
    params.cwd = str(ROOT)
    return Client(params, mode=client_mode(protocol))


@pytest.mark.parametrize("protocol", PROTOCOL_VERSIONS)
async def test_a_client_at_each_version_lists_and_calls_the_stub_over_stdio_and_the_log_says_which(
    protocol: str, tmp_path: Path
) -> None:
    log = tmp_path / "calls.jsonl"
    async with stdio_session(protocol, log) as client:
        assert client.protocol_version == protocol
        listed = await client.list_tools()
        assert len(listed.tools) == 8
        answer = await client.call_tool("recall", {"projectId": P})
        assert not answer.is_error
    records = read_log(log)
    assert [(r.method, r.protocol) for r in records] == [("tools/list", protocol), ("tools/call", protocol)]
    assert all(json.loads(line)["protocol"] == protocol for line in log.read_text().splitlines())


@pytest.fixture
def v2_http(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "http-calls.jsonl"
    proc = subprocess.Popen(
        stub_argv(["serve", "v2", "--http", f"127.0.0.1:{port}", "--log", str(log)]),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        proc.terminate()
        proc.wait(timeout=20)


async def test_a_client_at_each_version_lists_and_calls_the_stub_over_http(v2_http: tuple[str, Path]) -> None:
    from mcp import Client

    url, log = v2_http
    for protocol in PROTOCOL_VERSIONS:
        async with Client(url, mode=client_mode(protocol)) as client:
            assert client.protocol_version == protocol
            assert len((await client.list_tools()).tools) == 8
            assert not (await client.call_tool("recall", {"projectId": P})).is_error
    records = read_log(log)
    # The 2026-07-28 client lists the tools again before a call (for their output schemas).
    assert [r.protocol for r in records] == sorted(r.protocol or "" for r in records)
    assert {(r.method, r.protocol) for r in records} == {
        (m, p) for p in PROTOCOL_VERSIONS for m in ("tools/list", "tools/call")
    }


def test_a_line_the_stub_refuses_before_the_sdk_reads_it_is_logged_without_a_protocol(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    client = RawStdioClient(serve_argv("v2", "--log", str(log)))
    try:
        client.initialize()
        client.request_line("tools/call", {"name": "recall", "arguments": [1]})
        client.request("tools/list")
    finally:
        client.close()
    assert [(r.outcome, r.protocol) for r in read_log(log)] == [("invalid", None), ("ok", PROTOCOL_VERSION)]


# -- measuring in either version ---------------------------------------------------------------------------


def modern_envelope() -> dict[str, Any]:
    import mcp_types

    return {
        mcp_types.PROTOCOL_VERSION_META_KEY: MODERN_PROTOCOL,
        mcp_types.CLIENT_INFO_META_KEY: {"name": "raw", "version": "0"},
        mcp_types.CLIENT_CAPABILITIES_META_KEY: {},
    }


@pytest.mark.parametrize("name", ["v2", "before-v2"])
def test_measured_text_at_2026_07_28_equals_the_bytes_a_stdio_client_of_that_version_received(name: str) -> None:
    client = RawStdioClient(serve_argv(name))
    try:
        line = client.request_line("tools/list", {"_meta": modern_envelope()})
    finally:
        client.close()
    answer = json.loads(line)["result"]
    assert answer["resultType"] == "complete" and "ttlMs" in answer and "cacheScope" in answer
    measured = measure([resolve(name)], growth=False, protocol=MODERN_PROTOCOL).surfaces[0]
    assert measured.protocol_version == MODERN_PROTOCOL
    assert measured.text == json.dumps(answer["tools"], separators=(",", ":"), ensure_ascii=False)


def test_the_two_versions_send_the_same_tools_in_another_key_order() -> None:
    old, new = (measure([resolve("v2")], growth=False, protocol=p).surfaces[0] for p in PROTOCOL_VERSIONS)
    assert json.loads(old.text) == json.loads(new.text) and old.chars == new.chars
    assert old.text != new.text
    assert next(iter(json.loads(new.text)[0]["inputSchema"])) == "type"
    assert next(iter(json.loads(old.text)[0]["inputSchema"])) != "type"


def test_measure_without_protocol_is_exactly_measure_at_2025_11_25() -> None:
    default = run_cli("measure", "--format", "json")
    pinned = run_cli("measure", "--format", "json", "--protocol", "2025-11-25")
    assert default.returncode == pinned.returncode == 0, default.stderr + pinned.stderr
    assert default.stdout == pinned.stdout
    assert default.json()["protocol_version"] == PROTOCOL_VERSION == "2025-11-25"


def test_measure_at_2026_07_28_records_the_version_on_every_figure() -> None:
    run = run_cli("measure", "v2", "before-v2", "--format", "json", "--protocol", MODERN_PROTOCOL)
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert data["protocol_version"] == MODERN_PROTOCOL
    assert {s["protocol_version"] for s in data["surfaces"]} == {MODERN_PROTOCOL}


def test_snapshot_and_diff_and_budget_take_the_protocol(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    assert run_cli("snapshot", "v2", "--protocol", MODERN_PROTOCOL, "-o", str(path)).returncode == 0
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["protocol_version"] == MODERN_PROTOCOL
    modern_text = measure([resolve("v2")], growth=False, protocol=MODERN_PROTOCOL).surfaces[0].text
    assert list_text(json.loads(path.read_text(encoding="utf-8"))["tools"]) == modern_text
    same = run_cli("diff", str(path), "v2", "--protocol", MODERN_PROTOCOL, "--format", "json", "--fail-on", "any")
    assert same.returncode == 0, same.stdout + same.stderr
    assert same.json()["protocol_versions"] == {"before": MODERN_PROTOCOL, "after": MODERN_PROTOCOL}
    budget = run_cli("budget", "v2", "--max-chars", "7000", "--max-tokens", "1517", "--protocol", MODERN_PROTOCOL)
    assert budget.returncode == 0, budget.stdout + budget.stderr
    over = run_cli("budget", "v2", "--max-chars", "7000", "--max-tokens", "1517")
    assert over.returncode == 1, "at 2025-11-25 v2 is 1,525 tokens"


def test_a_snapshot_is_not_measured_in_a_version_it_was_not_taken_in(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    assert run_cli("snapshot", "v2", "-o", str(path)).returncode == 0
    run = run_cli("measure", str(path), "--protocol", MODERN_PROTOCOL)
    assert_one_line_error(run, "recorded in MCP protocol 2025-11-25, not 2026-07-28", "snapshot --protocol")


@pytest.mark.parametrize(
    "args",
    [
        ["measure", "v2"],
        ["snapshot", "v2"],
        ["budget", "v2", "--max-chars", "1"],
        ["diff", "v2", "v2-first"],
        ["snapshot", "--url", "http://127.0.0.1:9/mcp"],
        ["budget", "--max-chars", "1", "--", sys.executable, "-c", "pass"],
    ],
)
def test_an_unknown_protocol_is_one_line(args: list[str]) -> None:
    at = args.index("--") if "--" in args else len(args)
    run = run_cli(*args[:at], "--protocol", "2024-01-01", *args[at:])
    assert_one_line_error(run, "--protocol", "2025-11-25", "2026-07-28")


# -- configured targets -------------------------------------------------------------------------------------


def write_config(tmp_path: Path, target: str) -> Path:
    config = tmp_path / "toolsurface.toml"
    config.write_text(target, encoding="utf-8")
    return config


def test_a_configured_target_lists_in_its_protocol_and_the_command_line_overrides_it(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        f'[targets.v2]\nsurface = "v2"\nmax-chars = 7000\nmax-tokens = 1517\nprotocol = "{MODERN_PROTOCOL}"\n'
        'snapshot = "v2.json"\n',
    )
    assert run_cli("budget", "--config", str(config)).returncode == 0
    assert run_cli("budget", "--config", str(config), "--protocol", "2025-11-25").returncode == 1
    assert run_cli("snapshot", "--config", str(config)).returncode == 0
    meta = json.loads((tmp_path / "v2.meta.json").read_text(encoding="utf-8"))
    assert meta["protocol_version"] == MODERN_PROTOCOL
    compared = run_cli("diff", "--config", str(config), "--format", "json", "--fail-on", "any")
    assert compared.returncode == 0, compared.stdout + compared.stderr
    shown = run_cli("config", "--config", str(config))
    assert f"protocol: {MODERN_PROTOCOL}" in shown.stdout


def test_an_unknown_protocol_in_a_target_is_one_line_naming_the_key(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[targets.v2]\nsurface = "v2"\nmax-chars = 7000\nprotocol = "2025"\n')
    assert_one_line_error(run_cli("budget", "--config", str(config)), "targets.v2.protocol", "'2025'", "2026-07-28")


# -- a server that speaks only 2026-07-28 --------------------------------------------------------------------


@pytest.mark.parametrize("protocol", [None, MODERN_PROTOCOL])
def test_snapshot_lists_a_server_that_speaks_only_2026_07_28_over_stdio(protocol: str | None, tmp_path: Path) -> None:
    path = tmp_path / "modern.json"
    asked = ["--protocol", protocol] if protocol else []
    run = run_cli("snapshot", *asked, "-o", str(path), "--", *MODERN_ONLY, timeout=60)
    assert run.returncode == 0, run.stderr
    assert [t["name"] for t in json.loads(path.read_text(encoding="utf-8"))["tools"]] == MODERN_ONLY_TOOLS
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["protocol_version"] == MODERN_PROTOCOL
    assert meta["server"] == {"name": "modern-only", "version": "1.0.0"}


def test_budget_lists_a_server_that_speaks_only_2026_07_28_over_stdio() -> None:
    run = run_cli("budget", "--max-chars", "1000", "--", *MODERN_ONLY, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("modern-only: 2 tools,") and "within budget" in run.stdout


def test_asking_a_2026_07_28_only_server_for_the_handshake_is_one_line_saying_which_to_ask_for() -> None:
    run = run_cli("snapshot", "--protocol", "2025-11-25", "--", *MODERN_ONLY, timeout=60)
    assert_one_line_error(run, "initialize", "-32022", "--protocol 2026-07-28")


@pytest.fixture
def modern_only_http() -> Iterator[str]:
    proc = subprocess.Popen([*MODERN_ONLY, "--http"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        wait_for_port(port, proc)  # type: ignore[arg-type]
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        if proc.stdout is not None:
            proc.stdout.close()


def test_snapshot_and_budget_list_a_server_that_speaks_only_2026_07_28_over_http(
    modern_only_http: str, tmp_path: Path
) -> None:
    path = tmp_path / "modern.json"
    run = run_cli("snapshot", "--url", modern_only_http, "-o", str(path), timeout=60)
    assert run.returncode == 0, run.stderr
    assert [t["name"] for t in json.loads(path.read_text(encoding="utf-8"))["tools"]] == MODERN_ONLY_TOOLS
    assert json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))["protocol_version"] == MODERN_PROTOCOL
    budget = run_cli("budget", "--max-chars", "100", "--url", modern_only_http, timeout=60)
    assert budget.returncode == 1 and "over budget" in budget.stdout, budget.stderr
    refused = run_cli("snapshot", "--protocol", "2025-11-25", "--url", modern_only_http, timeout=60)
    assert_one_line_error(refused, "initialize", "HTTP 400")


def test_a_configured_command_target_that_speaks_only_2026_07_28_is_listed(tmp_path: Path) -> None:
    command = json.dumps(MODERN_ONLY)
    config = write_config(tmp_path, f'[targets.modern]\ncommand = {command}\nmax-chars = 1000\nsnapshot = "m.json"\n')
    run = run_cli("budget", "--config", str(config), timeout=60)
    assert run.returncode == 0, run.stderr
    assert run_cli("snapshot", "--config", str(config), timeout=60).returncode == 0
    assert json.loads((tmp_path / "m.meta.json").read_text(encoding="utf-8"))["protocol_version"] == MODERN_PROTOCOL


def test_a_handshake_only_server_asked_for_2026_07_28_is_one_line_saying_which_to_ask_for(npm_servers: Path) -> None:
    memory = ["node", str(npm_servers / "server-memory" / "dist" / "index.js")]
    run = run_cli("snapshot", "--protocol", MODERN_PROTOCOL, "--", *memory, timeout=60)
    assert_one_line_error(run, "server/discover", "-32601", "--protocol 2025-11-25")
