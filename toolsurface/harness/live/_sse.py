"""The client side of MCP's HTTP+SSE transport (protocol 2024-11-05): a GET of the URL opens an SSE stream whose
first event, `endpoint`, names where every message is POSTed; the server's answers and its own requests come
back on the stream as `message` events. Each message is read with the SDK's wire types and handed to the SDK's
ClientSession, as over Streamable HTTP, so a list is taken exactly as sent.

An endpoint on another origin than the URL (scheme, host, port) is refused before anything is POSTed, so the
headers given for the URL (a key among them) go to its origin only; no redirect is followed. Written here
rather than taken from the SDK's `mcp.client.sse`, which logs a refused endpoint or a refused POST and then
waits for an answer that cannot come until the timeout, and holds an event to 1 MiB.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TYPE_CHECKING, Any, cast

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.redact import public_url

if TYPE_CHECKING:
    import httpx2
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage

__all__ = ["CONNECTING", "MAX_EVENT_BYTES", "WAITING_FOR_ENDPOINT", "SseError", "sse_streams"]

# The phases before the conversation, as the listing's state names them.
CONNECTING = "the GET of its SSE stream"
WAITING_FOR_ENDPOINT = "its SSE stream's endpoint event"
# One event holds one JSON-RPC message: far beyond any list a server sends, and bounded, as a stdio line is.
MAX_EVENT_BYTES = 64 * 1024 * 1024
_STREAM_TYPE = "text/event-stream"


class SseError(ToolsurfaceError):
    """The HTTP+SSE transport failed: the stream did not open, its endpoint is refused, a POST was refused."""


def _status(response: httpx2.Response) -> str:
    return f"HTTP {response.status_code} {response.reason_phrase}".rstrip()


def _origin(url: str) -> tuple[str, str, int | None]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port


def endpoint_of(url: str, data: str) -> str:
    """Where the endpoint event `data` says to POST, resolved against the stream's URL; SseError when it is on
    another origin, or names no place at all."""
    from urllib.parse import urljoin

    text = data.strip()
    if not text:
        raise SseError("sent an endpoint event that names no endpoint")
    endpoint = urljoin(url, text)
    if _origin(endpoint) != _origin(url) or _origin(endpoint)[0] not in ("http", "https"):
        raise SseError(
            f"its endpoint event names {public_url(endpoint)}, on another origin than the URL: refused, so the"
            " URL's headers go nowhere else"
        )
    return endpoint


def _opened(response: httpx2.Response) -> None:
    """SseError unless the GET opened an SSE stream."""
    if response.is_redirect:
        to = response.headers.get("location", "")
        raise SseError(
            f"answered the GET of its SSE stream with {_status(response)}, a redirect to {public_url(to)}, which is"
            " not followed: give that URL"
        )
    if response.status_code >= 300:
        raise SseError(f"answered the GET of its SSE stream with {_status(response)}")
    kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != _STREAM_TYPE:
        raise SseError(
            f"answered the GET of its SSE stream with {kind or 'no content type'}, not an SSE stream ({_STREAM_TYPE})"
        )


Streams = tuple["MemoryObjectReceiveStream[SessionMessage | Exception]", "MemoryObjectSendStream[SessionMessage]"]


@contextlib.asynccontextmanager
async def sse_streams(http: httpx2.AsyncClient, url: str, state: Any) -> AsyncIterator[Streams]:
    """The session's streams over HTTP+SSE at `url`, once its endpoint event has come. `state` is the listing's:
    its `phase` is set while the stream opens, and once `listed`, an answer larger than its `answer_limit` ends
    the conversation (with `cut` saying why)."""
    import httpx2

    state.phase = CONNECTING
    headers = {"Accept": _STREAM_TYPE, "Cache-Control": "no-store"}
    async with http.stream("GET", url, headers=headers, follow_redirects=False) as response:
        _opened(response)
        state.phase = WAITING_FOR_ENDPOINT
        source = httpx2.EventSource(response, max_event_size=max(MAX_EVENT_BYTES, state.answer_limit or 0))
        events = cast("AsyncGenerator[httpx2.ServerSentEvent, None]", aiter(source))
        async with contextlib.aclosing(events):
            endpoint: str | None = None
            async for event in events:
                if event.event == "endpoint":
                    endpoint = endpoint_of(url, event.data)
                    break
            if endpoint is None:
                raise SseError("ended its SSE stream before its endpoint event")
            state.phase = "initialize"
            async with _conversation(http, endpoint, events, state) as streams:
                yield streams


@contextlib.asynccontextmanager
async def _conversation(
    http: httpx2.AsyncClient, endpoint: str, events: AsyncIterator[httpx2.ServerSentEvent], state: Any
) -> AsyncIterator[Streams]:
    """Messages from the session POSTed to `endpoint`, one at a time; `message` events read into it."""
    import anyio
    from mcp.shared.message import SessionMessage

    from toolsurface.harness.live._wire_client import typed_message
    from toolsurface.harness.output import utf8_length

    to_session, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def receive() -> None:
        async with to_session:
            async for event in events:
                if event.event != "message" or not event.data:
                    continue
                limit = state.answer_limit
                if limit is not None and state.listed is not None and utf8_length(event.data) > limit:
                    state.cut = (
                        f"its answer to {state.phase} is larger than the answer limit, {limit:,} bytes"
                        " (--max-answer-bytes)"
                    )
                    raise SseError(state.cut)
                try:
                    message = typed_message(event.data)
                except ValueError as error:
                    await to_session.send(error)
                    continue
                await to_session.send(SessionMessage(message))

    async def send() -> None:
        async with from_session:
            async for item in from_session:
                body = item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
                answer = await http.post(endpoint, json=body, follow_redirects=False)
                if answer.status_code >= 300:
                    what = getattr(item.message, "method", None) or "its request"
                    raise SseError(
                        f"answered {what} (POSTed to its endpoint {public_url(endpoint)}) with {_status(answer)}"
                    )

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(receive)
        tasks.start_soon(send)
        try:
            yield read, write
        finally:
            tasks.cancel_scope.cancel()
