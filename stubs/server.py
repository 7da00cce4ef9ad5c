"""An MCP server built from a surface: it lists the surface's tools and passes calls to a handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp.types as types
from mcp.server import Server, ServerRequestContext

from harness import __version__
from harness.surface import Surface

__all__ = ["CallHandler", "build_server", "serve_stdio"]

CallHandler = Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]]


def _no_handlers(surface: Surface) -> CallHandler:
    async def refuse(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        text = f"surface {surface.name!r} is served for listing only; it has no handler for {name!r}"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    return refuse


def build_server(surface: Surface, handler: CallHandler | None = None, page_size: int | None = None) -> Server:
    """A low-level MCP server advertising exactly `surface.tools`, `page_size` tools per tools/list page."""
    tools = list(surface.tools)
    call = handler or _no_handlers(surface)

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if page_size is None:
            return types.ListToolsResult(tools=tools)
        start = int(params.cursor) if params and params.cursor and params.cursor.isdigit() else 0
        end = start + page_size
        return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)

    async def on_call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            return await call(params.name, dict(params.arguments or {}))
        except Exception as error:  # a handler bug must reach the agent as a tool error, not a protocol error
            text = f"internal error in the stub: {type(error).__name__}: {error}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    return Server(
        f"toolsurface-{surface.name}",
        version=__version__,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(server: Server) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
