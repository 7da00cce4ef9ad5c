"""The measured text is exactly what an MCP client receives over a real connection."""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
from typing import Any

import pytest

from harness.measure import list_text, measure, wire_list
from harness.registry import resolve
from harness.surface import SurfaceDefinition
from harness.wire import PROTOCOL_VERSION, list_surface

pytestmark = pytest.mark.anyio


class RawStdioClient:
    """A JSON-RPC client that keeps the bytes of every answer, so nothing of the SDK stands between."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "harness", "serve", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def read_line(self, timeout: float = 30) -> bytes:
        assert self.proc.stdout is not None
        if not self.selector.select(timeout):
            raise TimeoutError("the server did not answer in time")
        return self.proc.stdout.readline()

    def request(self, method: str, params: dict[str, Any] | None = None) -> bytes:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            line = self.read_line()
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return line

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.selector.close()
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            stream.close()


def raw_tools(*serve_args: str) -> tuple[list[bytes], str]:
    client = RawStdioClient(*serve_args)
    try:
        init = json.loads(
            client.request(
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            )
        )
        client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        pages: list[bytes] = []
        cursor = None
        while True:
            page = client.request("tools/list", {"cursor": cursor} if cursor else None)
            pages.append(page)
            cursor = json.loads(page)["result"].get("nextCursor")
            if cursor is None:
                return pages, init["result"]["protocolVersion"]
    finally:
        client.close()


@pytest.mark.parametrize("name", ["v2", "before-v2"])
def test_measured_text_equals_the_bytes_a_stdio_client_received(name: str) -> None:
    pages, version = raw_tools(name)
    received = [tool for page in pages for tool in json.loads(page.decode("utf-8"))["result"]["tools"]]
    measured = measure([resolve(name)], growth=False).surfaces[0]
    assert version == measured.protocol_version == PROTOCOL_VERSION
    assert measured.text == json.dumps(received, separators=(",", ":"), ensure_ascii=False)


def test_a_paged_stdio_listing_joins_to_the_same_text() -> None:
    pages, _ = raw_tools("consistent", "--page-size", "5")
    assert len(pages) == 6
    received = [tool for page in pages for tool in json.loads(page)["result"]["tools"]]
    assert list_text(received) == measure([resolve("consistent")], growth=False).surfaces[0].text


async def test_listing_follows_next_cursor_in_memory() -> None:
    definition = resolve("before-v2")
    assert isinstance(definition, SurfaceDefinition)
    surface = definition.build_surface()
    whole = await list_surface(surface)
    paged = await list_surface(surface, page_size=4)
    assert whole.pages == 1 and paged.pages == 7
    assert paged.tools == whole.tools and whole.protocol_version == PROTOCOL_VERSION


async def test_non_ascii_text_is_counted_unescaped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    module = tmp_path / "accents.py"
    module.write_text(
        "import mcp.types as types\n"
        "def build(kinds):\n"
        "    return [types.Tool(name='café', description='Crème brûlée → ok',"
        " input_schema={'type': 'object'})]\n",
        encoding="utf-8",
    )
    wire = await wire_list(resolve(str(module)))
    assert (
        list_text(wire.tools) == '[{"description":"Crème brûlée → ok","inputSchema":{"type":"object"},"name":"café"}]'
    )
