"""An MCP server built from a surface: it lists the surface's tools and answers calls through the gate."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import mcp.types as types
from mcp.server import Server, ServerRequestContext

from harness import __version__
from harness.surface import Stub, Surface
from stubs.calllog import CallLog
from stubs.gate import Gate

if TYPE_CHECKING:
    import anyio

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
        gate.listed(page, cursor, started, ctx.protocol_version)
        return types.ListToolsResult(tools=page, next_cursor=next_cursor)

    async def on_call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return gate.call(params.name, dict(params.arguments or {}), ctx.protocol_version)

    return Server(
        f"toolsurface-{surface.name}",
        version=__version__,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_http(server: Server, listener: socket.socket, stopping: anyio.Event | None = None) -> None:
    """Streamable HTTP at http://HOST:PORT/mcp on a socket already listening on loopback. When the event
    `stopping` is set, open requests get a second to finish."""
    import anyio
    import uvicorn

    class Uvicorn(uvicorn.Server):
        # The caller's event loop handles signals; uvicorn's own would re-raise them after shutdown.
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    host, port = listener.getsockname()[:2]
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    runner = Uvicorn(config)

    async def stop_when_asked(stopping: anyio.Event) -> None:
        await stopping.wait()
        runner.should_exit = True

    async with anyio.create_task_group() as tasks:
        if stopping is not None:
            tasks.start_soon(stop_when_asked, stopping)
        await runner.serve(sockets=[listener])
        tasks.cancel_scope.cancel()
