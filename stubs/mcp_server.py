"""An MCP server built from a surface: it lists the surface's tools and answers calls through the gate, and
advertises what the surface declares beside them (instructions, prompts, resources, resource templates)."""

from __future__ import annotations

import asyncio
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

__all__ = ["MAX_CONNECTIONS", "REQUEST_READ_S", "build_server", "serve_http"]

# A request must arrive whole and its answer begin within this (a client sending a byte at a time gets 408
# and is let go); beyond MAX_CONNECTIONS at once, a request gets 503.
REQUEST_READ_S = 30.0
MAX_CONNECTIONS = 256


def build_server(
    surface: Surface,
    stub: Stub | None = None,
    log: CallLog | None = None,
    page_size: int | None = None,
    unknown_tool: str = "result",
) -> Server:
    """A low-level MCP server advertising exactly `surface.tools`, `page_size` tools per tools/list page;
    `unknown_tool` says how a call of a tool it lacks is answered (stubs.gate). Its instructions, prompts,
    resources and resource templates are the surface's; a prompt or resource is listed, not served."""
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
        instructions=surface.instructions,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        **_listed_parts(surface),
    )


def _validated(model: Any, items: list[dict[str, Any]] | None, what: str, surface: Surface) -> list[Any]:
    from pydantic import ValidationError

    from harness.errors import InvalidToolList

    try:
        return [model.model_validate(item) for item in items or []]
    except ValidationError as error:
        problem = error.errors()[0]
        raise InvalidToolList(
            f"{surface.source or surface.name}: {what} is not valid MCP: {'.'.join(map(str, problem['loc']))}:"
            f" {problem['msg']}"
        ) from None


def _listed_parts(surface: Surface) -> dict[str, Any]:
    """Handlers for the lists the surface declares: declaring a list is declaring its capability."""
    from mcp.shared.exceptions import MCPError

    handlers: dict[str, Any] = {}
    if surface.prompts is not None:
        prompts = _validated(types.Prompt, surface.prompts, "a prompt", surface)
        names = [p.name for p in prompts] or ["(none)"]

        async def on_list_prompts(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListPromptsResult:
            return types.ListPromptsResult(prompts=prompts)

        async def on_get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> Any:
            raise MCPError(
                types.INVALID_PARAMS, f"this stub lists prompts, it does not serve them; prompts: {', '.join(names)}"
            )

        handlers |= {"on_list_prompts": on_list_prompts, "on_get_prompt": on_get_prompt}
    if surface.resources is not None or surface.resource_templates is not None:
        resources = _validated(types.Resource, surface.resources, "a resource", surface)
        templates = _validated(types.ResourceTemplate, surface.resource_templates, "a resource template", surface)
        uris = [str(r.uri) for r in resources] or ["(none)"]

        async def on_list_resources(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListResourcesResult:
            return types.ListResourcesResult(resources=resources)

        async def on_list_resource_templates(
            ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
        ) -> types.ListResourceTemplatesResult:
            return types.ListResourceTemplatesResult(resource_templates=templates)

        async def on_read_resource(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> Any:
            raise MCPError(
                types.INVALID_PARAMS, f"this stub lists resources, it does not serve them; resources: {', '.join(uris)}"
            )

        handlers |= {
            "on_list_resources": on_list_resources,
            "on_list_resource_templates": on_list_resource_templates,
            "on_read_resource": on_read_resource,
        }
    return handlers


def _bounded_protocol(read_s: float) -> type[Any]:
    """uvicorn's HTTP/1.1 protocol with a bound on the time a request takes to arrive: one whose answer has not
    begun `read_s` after the connection opened (or after the previous answer) gets 408 and is closed."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(H11Protocol):
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(read_s, self._too_slow, self.cycle)

        def _too_slow(self, answered: Any) -> None:
            cycle = self.cycle
            if self.transport.is_closing() or (cycle is not answered and cycle.response_started):
                return
            body = b"the request did not arrive whole in time\n"
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
            )
            self.transport.close()

    return Bounded


async def serve_http(
    server: Server, listener: socket.socket, stopping: anyio.Event | None = None, read_s: float = REQUEST_READ_S
) -> None:
    """Streamable HTTP at http://HOST:PORT/mcp on a socket already listening on loopback. When the event
    `stopping` is set, open requests get a second to finish. What a request may take to arrive is bounded
    (`read_s`, then 408), and so are the connections served at once (then 503); the SDK's app bounds the
    body's size (413) and answers bad JSON with a JSON-RPC parse error."""
    import anyio
    import uvicorn

    class Uvicorn(uvicorn.Server):
        # The caller's event loop handles signals; uvicorn's own would re-raise them after shutdown.
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    host, port = listener.getsockname()[:2]
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=1,
        http=_bounded_protocol(read_s),
        limit_concurrency=MAX_CONNECTIONS,
    )
    runner = Uvicorn(config)

    async def stop_when_asked(stopping: anyio.Event) -> None:
        await stopping.wait()
        runner.should_exit = True

    async with anyio.create_task_group() as tasks:
        if stopping is not None:
            tasks.start_soon(stop_when_asked, stopping)
        await runner.serve(sockets=[listener])
        tasks.cancel_scope.cancel()
