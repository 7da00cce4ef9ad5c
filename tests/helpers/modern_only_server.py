"""An MCP server that speaks only 2026-07-28, made with the SDK: `python tests/helpers/modern_only_server.py` serves
stdio; with `--http` it serves streamable HTTP on a free loopback port, printed as the first line of stdout.

The SDK's server speaks both eras, the first request of a connection deciding; this one refuses the handshake
era, as a server written for the stateless protocol alone does. Over stdio a request not in a 2026-07-28
envelope (`initialize`) is answered with -32022 naming the versions it serves before the SDK sees it, so the
connection stays open for a 2026-07-28 request; in process (`build()`) its middleware does the same; over HTTP
a request without a 2026-07-28 MCP-Protocol-Version header gets a bare 400, the status the specification
gives for an unsupported version. Needs only the SDK, so it runs from any directory.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

NAME = "modern-only"
VERSION = "1.0.0"
TOOLS = [
    types.Tool(
        name="add",
        title="Add",
        description="Return a + b.",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
    types.Tool(
        name="echo",
        description="Return the text given.",
        input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    ),
]


async def on_list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def on_call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    text = str(args.get("a", 0) + args.get("b", 0)) if params.name == "add" else str(args.get("text", ""))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def refusal(params: Any) -> types.ErrorData:
    requested = (params or {}).get("protocolVersion")
    return types.ErrorData(
        code=types.UNSUPPORTED_PROTOCOL_VERSION,
        message="this server speaks MCP 2026-07-28 only; the initialize handshake is not accepted",
        data={"supported": list(MODERN_PROTOCOL_VERSIONS), "requested": requested},
    )


async def refuse_handshake_era(ctx: ServerRequestContext[Any], call_next: Any) -> Any:
    if ctx.request_id is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        raise MCPError.from_error_data(refusal(ctx.params))
    return await call_next(ctx)


def build() -> Server:
    server = Server(NAME, version=VERSION, on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    server.middleware.append(refuse_handshake_era)
    return server


async def serve_stdio() -> None:
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    server = build()
    async with stdio_server() as (read, write):
        to_server, server_read = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def refuse_handshakes() -> None:
            async with to_server:
                async for item in read:
                    message = item.message if isinstance(item, SessionMessage) else None
                    if isinstance(message, types.JSONRPCRequest):
                        meta = (message.params or {}).get("_meta")
                        if not isinstance(meta, dict) or types.PROTOCOL_VERSION_META_KEY not in meta:
                            answer = types.JSONRPCError(jsonrpc="2.0", id=message.id, error=refusal(message.params))
                            await write.send(SessionMessage(answer))
                            continue
                    await to_server.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(refuse_handshakes)
            await server.run(server_read, write, server.create_initialization_options())
            tasks.cancel_scope.cancel()


def http_app() -> Any:
    """The SDK's streamable-HTTP app behind a check of the MCP-Protocol-Version header."""
    app = build().streamable_http_app(host="127.0.0.1")

    async def modern_only(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
            if headers.get("mcp-protocol-version") not in MODERN_PROTOCOL_VERSIONS:
                body = b"Bad Request: MCP-Protocol-Version must be 2026-07-28"
                start = {"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"text/plain")]}
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return modern_only


def serve_http() -> None:
    import uvicorn

    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    config = uvicorn.Config(http_app(), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    if "--http" in sys.argv[1:]:
        serve_http()
    else:
        anyio.run(serve_stdio)
