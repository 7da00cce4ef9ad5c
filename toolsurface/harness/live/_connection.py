"""A live connection once its tools are listed: what a probe calls tools through, and a second listing takes.

Two kinds, one for each client the listing speaks through: the stdio client on the wire types
(harness.live._wire_client) and the SDK's ClientSession (Streamable HTTP, HTTP+SSE, and a stub served in
memory). Each request is bounded by its own timeout, and its answer comes back exactly as received, a JSON
object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    import httpx2
    from mcp.client.session import ClientSession

    from toolsurface.harness.live._wire_client import WireClient

__all__ = [
    "Connection",
    "SessionConnection",
    "WireConnection",
    "answered_error",
    "bounded_transport",
    "unparsed_answer",
]


class Connection(Protocol):
    """An open MCP connection whose tools were listed."""

    async def call_tool(self, name: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The tools/call result exactly as received; one ToolsurfaceError line when it does not come in time."""

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every page of tools/list again, each tool exactly as received."""


class _Bounded:
    """The bound every connection's requests share: one line naming the request when its answer is late."""

    def __init__(self, on_method: Callable[[str], object]) -> None:
        self._on_method = on_method

    async def _within(self, what: str, timeout: float, request: Any) -> dict[str, Any]:
        import anyio

        self._on_method(what)
        answer: dict[str, Any] | None = None
        with anyio.move_on_after(timeout):
            answer = await request()
        if answer is None:
            raise ToolsurfaceError(f"no answer to {what} within {timeout:g} s (--call-timeout)")
        return answer


class WireConnection(_Bounded):
    """Over stdio, through the client on the wire types."""

    def __init__(self, client: WireClient, on_method: Callable[[str], object]) -> None:
        super().__init__(on_method)
        self._client = client

    async def call_tool(self, name: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        async def request() -> dict[str, Any]:
            return await self._client.request("tools/call", {"name": name, "arguments": arguments})

        return await self._within(f"tools/call {name}", timeout, request)

    async def list_tools(self) -> list[dict[str, Any]]:
        from toolsurface.harness.measure import list_pages

        self._on_method("tools/list")

        async def page(cursor: str | None) -> dict[str, Any]:
            return await self._client.request("tools/list", {"cursor": cursor} if cursor is not None else None)

        tools, _ = await list_pages(page)
        return tools


class SessionConnection(_Bounded):
    """Through the SDK's ClientSession: Streamable HTTP, HTTP+SSE, or a server in memory. `cut` says why the transport
    ended an answer (too large), which the session reports only as a stream that ended."""

    def __init__(
        self,
        session: ClientSession,
        on_method: Callable[[str], object] = lambda method: None,
        cut: Callable[[], str | None] = lambda: None,
    ) -> None:
        super().__init__(on_method)
        self._session = session
        self._cut = cut

    async def call_tool(self, name: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        import mcp.types as types
        from pydantic import TypeAdapter

        async def request() -> dict[str, Any]:
            call = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
            # A TypeAdapter instead of the result model keeps the answer exactly as sent.
            try:
                raw: dict[str, Any] = await self._session.send_request(call, TypeAdapter(dict[str, Any]))  # type: ignore[type-var]
            except Exception:
                cut = self._cut()
                if cut is not None:
                    raise ToolsurfaceError(cut) from None
                raise
            return raw

        return await self._within(f"tools/call {name}", timeout, request)

    async def list_tools(self) -> list[dict[str, Any]]:
        from toolsurface.harness.measure import list_tools_raw

        self._on_method("tools/list")
        tools, _ = await list_tools_raw(self._session)
        return tools


def bounded_transport(state: Any) -> httpx2.AsyncBaseTransport:
    """HTTP that ends an answer larger than the state's answer limit (once listed) with one line."""
    import httpx2

    class _Counted(httpx2.AsyncByteStream):
        def __init__(self, inner: Any) -> None:
            self._inner = inner
            self._seen = 0

        async def __aiter__(self) -> Any:
            async for chunk in self._inner:
                self._seen += len(chunk)
                limit = state.answer_limit
                if limit is not None and state.listed is not None and self._seen > limit:
                    state.cut = (
                        f"its answer to {state.phase} is larger than the answer limit, {limit:,} bytes"
                        " (--max-answer-bytes)"
                    )
                    raise ToolsurfaceError(state.cut)
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class _Transport(httpx2.AsyncBaseTransport):
        def __init__(self) -> None:
            self._inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            response = await self._inner.handle_async_request(request)
            if request.method == "POST":
                response.stream = _Counted(response.stream)
            return response

        async def aclose(self) -> None:
            await self._inner.aclose()

    return _Transport()


def answered_error(error: BaseException) -> str | None:
    """The JSON-RPC error a server answered a request with, in words (`error CODE: MESSAGE`), from either
    client; None for any other failure (a timeout, a closed connection)."""
    import sys

    from toolsurface.harness.live._wire_client import RpcError

    if isinstance(error, RpcError):
        return f"error {error.code}: {error.message}"
    # The SDK's error type exists only once its package is imported; the stdio path does not import it.
    sdk = sys.modules.get("mcp.shared.exceptions")
    if sdk is not None and isinstance(error, sdk.MCPError):
        unparsed = unparsed_answer(error.code, error.error.message)
        if unparsed is not None:
            return f"no JSON-RPC answer: {unparsed}"
        return f"error {error.code}: {error.error.message}"
    return None


# How the SDK's Streamable HTTP client answers for a server whose body (or SSE event) is no JSON-RPC message: a
# PARSE_ERROR holding pydantic's whole error, thousands of characters.
_SDK_UNPARSED = ("Failed to parse JSON response: ", "Failed to parse SSE message: ")
_PARSE_ERROR = -32700


def unparsed_answer(code: int, message: str) -> str | None:
    """What a server sent instead of a JSON-RPC message, in a few words, from the SDK's PARSE_ERROR about it; None
    for any other error."""
    if code != _PARSE_ERROR or not message.startswith(_SDK_UNPARSED):
        return None
    import re

    found = re.search(r"Invalid JSON: (.+?) \[type=json_invalid", message)
    if found is not None:
        return f"a body that is not JSON ({found.group(1)})"
    return 'JSON that is not a JSON-RPC message (an object with "jsonrpc": "2.0", an id, and a result or an error)'
