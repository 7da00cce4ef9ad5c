"""The measured text is exactly what an MCP client receives over a real connection."""

from __future__ import annotations

import json

import pytest

from tests.helpers.rawstdio import RawStdioClient, serve_argv
from toolsurface.harness.measure import PROTOCOL_VERSION, list_surface, list_text, measure, wire_list
from toolsurface.harness.surface import SurfaceDefinition, resolve

pytestmark = pytest.mark.anyio


def raw_tools(*serve_args: str) -> tuple[list[bytes], str]:
    client = RawStdioClient(serve_argv(*serve_args))
    try:
        init = client.initialize()
        pages: list[bytes] = []
        cursor = None
        while True:
            page = client.request_line("tools/list", {"cursor": cursor} if cursor else None)
            pages.append(page)
            cursor = json.loads(page)["result"].get("nextCursor")
            if cursor is None:
                return pages, init["protocolVersion"]
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
