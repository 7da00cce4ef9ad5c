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
    from toolsurface.harness.live._listing import _client_callbacks
    from toolsurface.harness.measure import list_tools_raw

    params = StdioServerParameters(
        command=RECORDING[0], args=[*RECORDING[1:], str(log), *(["modern"] * (mode != "legacy"))]
    )
    info = types.Implementation(name="toolsurface", version=__version__)
    async with Client(params, mode=mode, client_info=info, **_client_callbacks(capabilities)) as client:
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
