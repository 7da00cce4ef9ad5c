"""The SDK's Streamable HTTP client, reading each answer as a stdio line is read (parsed once, then validated:
harness.live._wire_client.typed_message) instead of validating the JSON text itself.

The SDK's transport hands an answer's bytes to its adapter's `validate_json`, which builds its own tree of the
whole answer beside the Python one while it reads: about twelve times the size of an answer of many small objects
(structured content), where parsing first holds about one. The SDK offers no way to give its client another
reader, so the transport class its `streamable_http_client` makes is, while it makes it, this subclass: the same
transport (headers, sessions, redirects, errors) with the two reads replaced. A message the lean read cannot take
is read by the SDK's own code, which says what is wrong with it as before.

An answer in an event stream is read as it arrives, too. The SDK's event reader keeps the data line it read and
the event's data as two strings, and the stream's reader keeps both until the request is done, after the
answer has been handed on and measured: three copies of a 50 MB answer. Here a long data line is kept once, as
the bytes that came (`_Stashed`); the event carries only a mark in its place, and the bytes are parsed and let go
before the message is handed on.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx2

__all__ = ["lean_streamable_http_client"]

# A data line this long is kept aside as its bytes; a shorter one goes through the SDK's reader as it is.
STASH_BYTES = 1 << 16
# What stands for a line kept aside in the event's data: no text an event's UTF-8 data can hold (a NUL, then a
# number), so a server's own data is never taken for it.
_MARK = "\x00toolsurface-stashed-"
_MARKED = re.compile(re.escape(_MARK) + r"(\d+)")
_LINE_END = re.compile(rb"\r\n|\r|\n")
_numbers = itertools.count()


class _Stashed:
    """A response's event stream for the SDK's event reader (`aiter_text`), each data line of STASH_BYTES or more
    kept aside in `lines` under a mark that the event's data holds instead; everything else is the response's.
    Events over `max_event_size` bytes stop the stream as the SDK's reader stops it."""

    def __init__(self, response: httpx2.Response, lines: dict[str, bytearray], max_event_size: int | None) -> None:
        self._response = response
        self._lines = lines
        self._max = max_event_size
        self._mine: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._response, name)

    async def aclose(self) -> None:
        await self._response.aclose()

    async def aiter_text(self) -> AsyncIterator[str]:
        line, event_bytes, after_cr = bytearray(), 0, False
        try:
            async for chunk in self._response.aiter_bytes():
                start = 0
                if after_cr and chunk[:1] == b"\n":
                    start = 1  # the \n of a \r\n split between two chunks
                after_cr = False
                for end in _LINE_END.finditer(chunk, start):
                    line += chunk[start : end.start()]
                    start = end.end()
                    after_cr = end.group() == b"\r" and start == len(chunk)
                    event_bytes = 0 if not line else event_bytes + (0 if line[:1] == b":" else len(line))
                    self._check(event_bytes)
                    # Let go of the line before it is read on: a line kept aside is held once, by the stash.
                    text, line = self._text(line), bytearray()
                    yield text
                line += chunk[start:]
                self._check(event_bytes + (0 if line[:1] == b":" else len(line)))
            if line:
                text, line = self._text(line), bytearray()
                yield text
        finally:
            for mark in self._mine:
                self._lines.pop(mark, None)

    def _check(self, size: int) -> None:
        import httpx2

        if self._max is not None and size > self._max:
            raise httpx2.SSEError(f"Server-sent event exceeded the {self._max} byte limit.")

    def _text(self, line: bytearray) -> str:
        if len(line) < STASH_BYTES or not line.startswith(b"data:"):
            return line.decode("utf-8", "replace") + "\n"
        del line[: 6 if line[5:6] == b" " else 5]  # the field's name and the one space after its colon
        mark = f"{_MARK}{next(_numbers)}"
        self._lines[mark] = line
        self._mine.append(mark)
        return f"data: {mark}\n"


def _unstash(data: str, lines: dict[str, bytearray]) -> bytearray | None:
    """The event's data with each line kept aside back in its place, taken out of `lines`; None when it holds
    none. A data of one stashed line is that line's bytes themselves, not a copy."""
    if _MARK not in data:
        return None
    parts = _MARKED.split(data)
    if parts == ["", parts[1], ""]:
        return lines.pop(_MARK + parts[1], bytearray())
    joined = bytearray()
    for n, part in enumerate(parts):
        joined += lines.pop(_MARK + part, bytearray()) if n % 2 else part.encode("utf-8", "surrogatepass")
    return joined


def _lean_transport_class() -> type:
    import dataclasses

    from mcp.client.streamable_http import StreamableHTTPTransport
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError, JSONRPCResponse

    from toolsurface.harness.live._wire_client import typed_message

    class LeanTransport(StreamableHTTPTransport):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._stashed: dict[str, bytearray] = {}

        async def _handle_sse_response(self, response: httpx2.Response, ctx: Any) -> None:
            if codecs.lookup(response.encoding or "utf-8").name != "utf-8":
                # Lines are split as bytes, which only an encoding that keeps ASCII as itself allows: a stream
                # declared in another charset is read by the SDK's reader as it is.
                await super()._handle_sse_response(response, ctx)
                return
            events = _Stashed(response, self._stashed, self.max_sse_event_size)
            await super()._handle_sse_response(events, ctx)  # type: ignore[arg-type]

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
            kept = _unstash(sse.data, self._stashed)
            if sse.event != "message" or not sse.data:
                if kept is not None:
                    sse = dataclasses.replace(sse, data=kept.decode("utf-8", "replace"))
                return await super()._handle_sse_event(
                    sse, read_stream_writer, original_request_id, resumption_callback
                )
            try:
                message = typed_message(kept if kept is not None else sse.data)
            except ValueError:
                if kept is not None:
                    sse = dataclasses.replace(sse, data=kept.decode("utf-8", "replace"))
                return await super()._handle_sse_event(
                    sse, read_stream_writer, original_request_id, resumption_callback
                )
            del kept  # parsed: the message is all that is kept of it
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
