"""Listing tools, and the parts a server advertises beside them, exactly as an MCP client receives them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.bounded_json import MAX_DEPTH, depth
from harness.errors import InvalidToolList
from harness.surface import Surface, SurfaceParts, validate_wire_tools

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["PROTOCOL_VERSION", "WireList", "list_parts_raw", "list_surface", "list_tools_raw", "wire_form"]

# The handshake era is pinned because key order inside a tool differs between eras; every
# result records the version it was read in.
PROTOCOL_VERSION = "2025-11-25"
MAX_PAGES = 10_000


@dataclass(frozen=True)
class WireList:
    """The `tools` array of tools/list, every page joined, each tool exactly as sent."""

    tools: list[dict[str, Any]]
    protocol_version: str
    pages: int = 1
    # What the server advertised beside the tools, listed the same way.
    parts: SurfaceParts = field(default_factory=lambda: SurfaceParts(recorded=False))


def wire_form(surface: Surface) -> list[dict[str, Any]]:
    """The tools as a server would serialise them, for checks before serving."""
    for tool in surface.tools:
        # Measured before serialising: the SDK's models fail on deep data with a bare ValueError.
        nesting = 1 + max(depth(tool.input_schema), depth(tool.output_schema))
        if nesting > MAX_DEPTH:
            where = f"{surface.source or surface.name}: tool {tool.name!r}"
            raise InvalidToolList(f"{where}: nests {nesting} levels deep, more than {MAX_DEPTH}")
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in surface.tools]


async def _list_raw(session: ClientSession, request: Any, method: str, key: str) -> tuple[list[dict[str, Any]], int]:
    """Every page of a list method, following nextCursor, each entry exactly as sent."""
    import mcp.types as types
    from pydantic import TypeAdapter

    adapter = TypeAdapter(dict[str, Any])
    entries: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for pages in range(1, MAX_PAGES + 1):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        # A TypeAdapter instead of the result model keeps the answer exactly as sent.
        raw = await session.send_request(request(params=params), adapter)  # type: ignore[type-var]
        page = raw.get(key)
        if not isinstance(page, list):
            raise InvalidToolList(f"{method} answered without a {key} array")
        entries.extend(page)
        cursor = raw.get("nextCursor")
        if cursor is None:
            return entries, pages
        if cursor in seen:
            raise InvalidToolList(f"{method} repeats the cursor {cursor!r}")
        seen.add(cursor)
    raise InvalidToolList(f"{method} did not end after {MAX_PAGES} pages")


async def list_tools_raw(session: ClientSession) -> tuple[list[dict[str, Any]], int]:
    """Every page of tools/list, following nextCursor, without parsing the tools into models."""
    import mcp.types as types

    return await _list_raw(session, types.ListToolsRequest, "tools/list", "tools")


async def list_parts_raw(session: ClientSession, on_method: Any = None) -> SurfaceParts:
    """The server's instructions and capabilities from its handshake, and every page of prompts/list,
    resources/list and resources/templates/list it declares, each entry exactly as sent. `on_method` is told
    each method before it is sent (to say where a failure stopped)."""
    import mcp.types as types

    from harness.surface import parts_from_wire

    capabilities = session.server_capabilities
    found: dict[str, Any] = {
        "capabilities": capabilities.model_dump(by_alias=True, exclude_unset=True, mode="json") if capabilities else {}
    }
    if session.instructions is not None:
        found["instructions"] = session.instructions
    lists: list[tuple[Any, str, str]] = []
    if capabilities is not None and capabilities.prompts is not None:
        lists.append((types.ListPromptsRequest, "prompts/list", "prompts"))
    if capabilities is not None and capabilities.resources is not None:
        lists.append((types.ListResourcesRequest, "resources/list", "resources"))
        lists.append((types.ListResourceTemplatesRequest, "resources/templates/list", "resourceTemplates"))
    for request, method, key in lists:
        if on_method is not None:
            on_method(method)
        found[key], _ = await _list_raw(session, request, method, key)
    return parts_from_wire(found, "the server's answers")


async def list_surface(surface: Surface, page_size: int | None = None) -> WireList:
    """Serve a built surface in memory and list it through a real client over JSON-RPC."""
    from mcp import Client

    from stubs.server import build_server

    validate_wire_tools(wire_form(surface), surface.source or surface.name)
    server = build_server(surface, page_size=page_size)
    async with Client(server, mode="legacy") as client:
        tools, pages = await list_tools_raw(client.session)
        parts = await list_parts_raw(client.session)
        return WireList(tools=tools, protocol_version=client.protocol_version, pages=pages, parts=parts)
