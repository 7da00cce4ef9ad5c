"""The stdio listing's client (harness.live._wire_client) says to a server what the SDK's ClientSession says:
the same handshake, the same capabilities, the same answers to the server's own requests, the same 2026-07-28
envelope; a hand-written server records both."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from toolsurface.harness.live import StdioServer, list_live_async

pytestmark = pytest.mark.anyio

RECORDING = [sys.executable, str(ROOT / "tests" / "helpers" / "recording_server.py")]


def received(log: Path) -> list[dict[str, Any]]:
    """What the server received, ids left out (each client numbers its own); answers in the order of the
    requests they answer."""
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for message in messages:
        message.pop("id", None) if "method" in message else None
    answers = sorted((m for m in messages if "method" not in m), key=lambda m: str(m["id"]))
    return [m for m in messages if "method" in m] + answers


async def sdk_listing(log: Path, capabilities: tuple[str, ...], mode: str) -> None:
    """What the SDK's client sends, given the callbacks and identity toolsurface gives it over HTTP."""
    import mcp.types as types
    from mcp import Client, StdioServerParameters

    from toolsurface import __version__
    from toolsurface.harness.live._http import client_callbacks
    from toolsurface.harness.measure import list_tools_raw

    params = StdioServerParameters(
        command=RECORDING[0], args=[*RECORDING[1:], str(log), *(["modern"] * (mode != "legacy"))]
    )
    info = types.Implementation(name="toolsurface", version=__version__)
    async with Client(params, mode=mode, client_info=info, **client_callbacks(capabilities)) as client:
        await list_tools_raw(client.session)


@pytest.mark.parametrize("capabilities", [(), ("roots",), ("roots", "sampling", "elicitation")])
async def test_the_handshake_and_the_answers_to_the_servers_requests_are_those_of_the_sdks_client(
    capabilities: tuple[str, ...], tmp_path: Path
) -> None:
    ours, sdks = tmp_path / "ours.jsonl", tmp_path / "sdk.jsonl"
    listing = await list_live_async(StdioServer((*RECORDING, str(ours))), capabilities=capabilities)
    assert [t["name"] for t in listing.tools] == ["noop"] and listing.protocol_version == "2025-11-25"
    await sdk_listing(sdks, capabilities, "legacy")
    assert received(ours) == received(sdks)
    answers = {m["id"]: m for m in received(ours) if "method" not in m}
    assert answers["s0"]["result"] == {}  # ping
    assert ("result" in answers["s1"]) == ("roots" in capabilities)
    assert answers["s4"]["error"]["code"] == -32601


async def test_each_2026_07_28_request_carries_the_envelope_the_sdks_client_stamps(tmp_path: Path) -> None:
    ours, sdks = tmp_path / "ours.jsonl", tmp_path / "sdk.jsonl"
    listing = await list_live_async(
        StdioServer((*RECORDING, str(ours), "modern")), capabilities=("roots",), protocol="2026-07-28"
    )
    assert listing.protocol_version == "2026-07-28" and listing.server_version is None
    assert listing.server_name == Path(sys.executable).name  # the server gave no name: the command's
    await sdk_listing(sdks, ("roots",), "2026-07-28")
    [our_list] = [m for m in received(ours) if m.get("method") == "tools/list"]
    [sdk_list] = [m for m in received(sdks) if m.get("method") == "tools/list"]
    assert our_list == sdk_list
    assert [m["method"] for m in received(ours)] == ["server/discover", "tools/list"]


def test_the_constants_the_client_keeps_without_the_sdk_are_the_sdks() -> None:
    import mcp_types as types
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    from toolsurface.harness.live import _wire_client as wire
    from toolsurface.harness.protocol import HANDSHAKE_PROTOCOLS, LATEST_HANDSHAKE

    assert (wire.INVALID_REQUEST, wire.METHOD_NOT_FOUND) == (types.INVALID_REQUEST, types.METHOD_NOT_FOUND)
    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == HANDSHAKE_PROTOCOLS and LATEST_HANDSHAKE == LATEST_HANDSHAKE_VERSION
    fields = {field.alias or name: field for name, field in types.ServerCapabilities.model_fields.items()}
    assert [key for key in fields if key in wire._CAPABILITIES] == list(wire._CAPABILITIES)
    for key, flags in wire._FLAGS.items():
        model = fields[key].annotation.__args__[0]  # type: ignore[union-attr]
        assert tuple(field.alias or name for name, field in model.model_fields.items()) == flags, key


LINES = [
    '{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "b": [1, 2.5, null, true]}]}}',
    '{"jsonrpc": "2.0", "id": "x", "result": {}}',
    '{"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no", "data": {"k": [1]}}}',
    '{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse"}}',
    '{"jsonrpc": "2.0", "id": 3, "method": "ping"}',
    '{"jsonrpc": "2.0", "id": "s1", "method": "roots/list", "params": {}}',
    '{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info"}}',
    '{"jsonrpc": "2.0", "id": true, "result": {}}',
    '{"jsonrpc": "2.0", "id": 1.0, "result": {}}',
    '{"jsonrpc": "2.0", "id": 1, "result": []}',
    '{"jsonrpc": "1.0", "id": 1, "result": {}}',
    '{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "both"}}',
    '{"jsonrpc": "2.0", "id": 1, "error": {"code": "1", "message": "odd code"}}',
    '{"jsonrpc": "2.0", "id": 1, "method": 5}',
    '{"jsonrpc": "2.0", "method": "x", "params": [1]}',
    '{"jsonrpc": "2.0", "id": 1, "result": {"s": "\\ud800"}}',
    '{"jsonrpc": "2.0", "id": 1, "result": {"n": NaN}}',
    "[1, 2]",
    "starting up...",
    '{"jsonrpc": "2.0", "id": 1, "result": {"deep": ' + "[" * 300 + "]" * 300 + "}}",
]


@pytest.mark.parametrize("line", LINES)
def test_a_line_read_as_plain_json_is_the_message_the_sdks_wire_types_read(line: str) -> None:
    from toolsurface.harness.live._wire_client import _typed, read_message

    assert repr(read_message(line.encode())) == repr(_typed(line.encode()))  # NaN is not equal to itself


HANDSHAKES: list[dict[str, Any]] = [
    {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "n", "version": "1"}},
    {
        "protocolVersion": "2025-06-18",
        "capabilities": {
            "tools": {"listChanged": True},
            "logging": {},
            "resources": {"listChanged": False, "subscribe": True},
            "experimental": {"x": {"y": 1}},
        },
        "serverInfo": {"name": "n", "version": "1", "title": "N"},
        "instructions": "Use it.",
        "_meta": {"k": 1},
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"prompts": {"listChanged": None}},
        "serverInfo": {"name": "n", "version": "1"},
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}, "tasks": {}},
        "serverInfo": {"name": "n", "version": "1", "description": "d"},
    },
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {"completions": {"x": 1}},
        "serverInfo": {"name": "n", "version": "1"},
        "extra": 1,
    },
]


@pytest.mark.parametrize("answer", HANDSHAKES)
def test_a_handshake_answer_read_as_plain_json_is_what_the_sdks_model_keeps(answer: dict[str, Any]) -> None:
    import mcp_types as types

    from toolsurface.harness.live._wire_client import handshake_answer

    model = types.InitializeResult.model_validate(answer, by_name=False)
    kept = handshake_answer(answer)
    assert kept.protocol_version == model.protocol_version and kept.instructions == model.instructions
    assert (kept.server_info.name, kept.server_info.version) == (model.server_info.name, model.server_info.version)
    dumped = model.capabilities.model_dump(by_alias=True, exclude_unset=True, mode="json")
    assert json.dumps(kept.capabilities) == json.dumps(dumped)  # in the same key order


def test_a_handshake_answer_the_sdks_model_refuses_is_refused() -> None:
    from pydantic import ValidationError

    from toolsurface.harness.live._wire_client import handshake_answer

    with pytest.raises(ValidationError):
        handshake_answer({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "n"}})


SNAPSHOT_AND_SAY_WHAT_LOADED = """
import sys
from toolsurface.harness.cli import main
try:
    main(["snapshot", "--", sys.executable, "-m", "mcp_server_time"])
except SystemExit as done:
    assert not done.code, done.code
print(sorted({m.split(".")[0] for m in sys.modules} & {"mcp", "mcp_types", "pydantic", "jsonschema"}), file=sys.stderr)
"""


def test_a_snapshot_of_a_server_answering_in_the_usual_shapes_loads_neither_the_sdk_nor_jsonschema() -> None:
    """The wire types and jsonschema take a third and a fifth of a second to import, before the server answers."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", SNAPSHOT_AND_SAY_WHAT_LOADED], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"] and done.stderr.splitlines()[-1] == "[]"
