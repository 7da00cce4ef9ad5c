"""The SDK's Streamable HTTP client, reading each answer as a stdio line is read (parsed once, then validated:
harness.live._wire_client.typed_message) instead of validating the JSON text itself.

The SDK's transport hands an answer's bytes to its adapter's `validate_json`, which builds its own tree of the
whole answer beside the Python one while it reads: about twelve times the size of an answer of many small objects
(structured content), where parsing first holds about one. The SDK offers no way to give its client another
reader, so the transport class its `streamable_http_client` makes is, while it makes it, this subclass: the same
transport (headers, sessions, redirects, errors) with the two reads replaced. A message the lean read cannot take
is read by the SDK's own code, which says what is wrong with it as before.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx2

__all__ = ["lean_streamable_http_client"]


def _lean_transport_class() -> type:
    from mcp.client.streamable_http import StreamableHTTPTransport
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError, JSONRPCResponse

    from toolsurface.harness.live._wire_client import typed_message

    class LeanTransport(StreamableHTTPTransport):
        async def _handle_json_response(self, response: httpx2.Response, read_stream_writer: Any, **kw: Any) -> None:
            try:
                message = typed_message(await response.aread())
            except Exception:
                await super()._handle_json_response(response, read_stream_writer, **kw)
                return
            await read_stream_writer.send(SessionMessage(message))

        async def _handle_sse_event(
            self,
            sse: httpx2.ServerSentEvent,
            read_stream_writer: Any,
            original_request_id: Any = None,
            resumption_callback: Callable[[str], Awaitable[None]] | None = None,
        ) -> bool:
            if sse.event != "message" or not sse.data:
                return await super()._handle_sse_event(
                    sse, read_stream_writer, original_request_id, resumption_callback
                )
            try:
                message = typed_message(sse.data)
            except ValueError:
                return await super()._handle_sse_event(
                    sse, read_stream_writer, original_request_id, resumption_callback
                )
            answer = isinstance(message, JSONRPCResponse | JSONRPCError)
            # The answer to this POST's request, under the id it was asked with (the SDK's rule).
            if answer and original_request_id is not None:
                message.id = original_request_id
            await read_stream_writer.send(SessionMessage(message))
            if sse.id and resumption_callback:
                await resumption_callback(sse.id)
            return answer

    return LeanTransport


@asynccontextmanager
async def lean_streamable_http_client(
    url: str, http_client: httpx2.AsyncClient, max_sse_event_size: int
) -> AsyncIterator[tuple[Any, Any]]:
    """`mcp.client.streamable_http.streamable_http_client(url, ...)`, its transport's reads the lean ones."""
    import mcp.client.streamable_http as sdk

    made = sdk.StreamableHTTPTransport
    # The class is looked up once, as the client opens, and put back as soon as it has: whatever else opens one
    # meanwhile gets a transport that differs only in how it reads.
    sdk.StreamableHTTPTransport = _lean_transport_class()  # type: ignore[misc,assignment]
    try:
        async with sdk.streamable_http_client(
            url, http_client=http_client, max_sse_event_size=max_sse_event_size
        ) as streams:
            sdk.StreamableHTTPTransport = made  # type: ignore[misc]
            yield streams
    finally:
        sdk.StreamableHTTPTransport = made  # type: ignore[misc]
