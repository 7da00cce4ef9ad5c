"""Listing tools exactly as an MCP client receives them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.bounded_json import MAX_DEPTH, depth
from harness.errors import InvalidToolList
from harness.protocol import DEFAULT_PROTOCOL, client_mode
from harness.surface import Surface, validate_wire_tools

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["PROTOCOL_VERSION", "WireList", "list_pages", "list_surface", "list_tools_raw", "wire_form"]

# A list is read in one version, the default unless another is asked for, because key order inside a
# tool differs between eras; every result records the version it was read in (harness.protocol).
PROTOCOL_VERSION = DEFAULT_PROTOCOL
MAX_PAGES = 10_000


@dataclass(frozen=True)
class WireList:
    """The `tools` array of tools/list, every page joined, each tool exactly as sent."""

    tools: list[dict[str, Any]]
    protocol_version: str
    pages: int = 1


def wire_form(surface: Surface) -> list[dict[str, Any]]:
    """The tools as a server would serialise them, for checks before serving."""
    for tool in surface.tools:
        # Measured before serialising: the SDK's models fail on deep data with a bare ValueError.
        nesting = 1 + max(depth(tool.input_schema), depth(tool.output_schema))
        if nesting > MAX_DEPTH:
            where = f"{surface.source or surface.name}: tool {tool.name!r}"
            raise InvalidToolList(f"{where}: nests {nesting} levels deep, more than {MAX_DEPTH}")
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in surface.tools]


async def list_pages(fetch: Callable[[str | None], Awaitable[dict[str, Any]]]) -> tuple[list[dict[str, Any]], int]:
    """Every page of tools/list, `fetch(cursor)` giving each raw result, following nextCursor."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for pages in range(1, MAX_PAGES + 1):
        raw = await fetch(cursor)
        page = raw.get("tools")
        if not isinstance(page, list):
            raise InvalidToolList("tools/list answered without a tools array")
        tools.extend(page)
        cursor = raw.get("nextCursor")
        if cursor is None:
            return tools, pages
        if cursor in seen:
            raise InvalidToolList(f"tools/list repeats the cursor {cursor!r}")
        seen.add(cursor)
    raise InvalidToolList(f"tools/list did not end after {MAX_PAGES} pages")


async def list_tools_raw(session: ClientSession) -> tuple[list[dict[str, Any]], int]:
    """Every page of tools/list through the SDK's session, without parsing the tools into models."""
    import mcp.types as types
    from pydantic import TypeAdapter

    adapter = TypeAdapter(dict[str, Any])

    async def fetch(cursor: str | None) -> dict[str, Any]:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        # A TypeAdapter instead of the result model keeps the answer exactly as sent.
        raw: dict[str, Any] = await session.send_request(types.ListToolsRequest(params=params), adapter)  # type: ignore[type-var]
        return raw

    return await list_pages(fetch)


async def list_surface(surface: Surface, page_size: int | None = None, protocol: str = PROTOCOL_VERSION) -> WireList:
    """Serve a built surface in memory and list it through a real client speaking `protocol`: over JSON-RPC
    in the handshake era, through the SDK's direct dispatch (each request in its own envelope) at 2026-07-28."""
    from mcp import Client

    from stubs.server import build_server

    validate_wire_tools(wire_form(surface), surface.source or surface.name)
    server = build_server(surface, page_size=page_size)
    async with Client(server, mode=client_mode(protocol)) as client:
        tools, pages = await list_tools_raw(client.session)
        return WireList(tools=tools, protocol_version=client.protocol_version, pages=pages)
