"""An MCP server built from a surface: it lists the surface's tools and answers calls through the gate."""

from __future__ import annotations

import time
from typing import Any

import mcp.types as types
from mcp.server import Server, ServerRequestContext

from harness import __version__
from harness.surface import Stub, Surface
from stubs.calllog import CallLog
from stubs.gate import Gate

__all__ = ["build_server", "serve_http"]


def build_server(
    surface: Surface,
    stub: Stub | None = None,
    log: CallLog | None = None,
    page_size: int | None = None,
    unknown_tool: str = "result",
) -> Server:
    """A low-level MCP server advertising exactly `surface.tools`, `page_size` tools per tools/list page;
    `unknown_tool` says how a call of a tool it lacks is answered (stubs.gate)."""
    tools = list(surface.tools)
    gate = Gate(tools, stub, log or CallLog(), unknown_tool)

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        started = time.perf_counter()
        cursor = params.cursor if params else None
        if page_size is None:
            page, next_cursor = tools, None
        else:
            start = int(cursor) if cursor and cursor.isdigit() else 0
            end = start + page_size
            page, next_cursor = tools[start:end], (str(end) if end < len(tools) else None)
        gate.listed(page, cursor, started)
        return types.ListToolsResult(tools=page, next_cursor=next_cursor)

    async def on_call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return gate.call(params.name, dict(params.arguments or {}))

    return Server(
        f"toolsurface-{surface.name}",
        version=__version__,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_http(server: Server, host: str, port: int) -> None:
    """Streamable HTTP at http://HOST:PORT/mcp, loopback only."""
    import uvicorn

    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()
