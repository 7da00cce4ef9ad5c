"""An answer in an event stream over Streamable HTTP, read lean (toolsurface.harness.live._streamable): each long
data line is kept once, as the bytes that came, and the events the SDK's reader (httpx2's EventSource) makes of
the stream are the events it makes of the stream as sent, whatever the chunks, line ends and event sizes."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Sequence

import anyio
import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolsurface.harness.live._streamable import STASH_BYTES, _Stashed, _unstash

LONG = json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"rows": ["ticket " * 20] * (STASH_BYTES // 100)}})


class _Chunks(httpx2.AsyncByteStream):
    def __init__(self, chunks: Sequence[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def _response(chunks: Sequence[bytes]) -> httpx2.Response:
    request = httpx2.Request("POST", "http://127.0.0.1/mcp")
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=_Chunks(chunks), request=request)


def _cut(body: bytes, cuts: Sequence[int]) -> list[bytes]:
    points = sorted({0, len(body), *(c % (len(body) + 1) for c in cuts)})
    return [body[a:b] for a, b in itertools.pairwise(points)]


async def _events(chunks: Sequence[bytes], lean: bool, max_size: int | None = None) -> list[tuple[str, str, str]]:
    """(event, data, id) of each event httpx2's reader makes of the stream, the lean way or as sent."""
    lines: dict[str, bytearray] = {}
    response = _response(chunks)
    source = _Stashed(response, lines, max_size) if lean else response
    found = []
    async for sse in httpx2.EventSource(source, max_event_size=max_size):  # type: ignore[arg-type]
        kept = _unstash(sse.data, lines)
        data = kept.decode("utf-8") if kept is not None else sse.data
        found.append((sse.event, data, sse.id))
    assert lines == {}  # every line kept aside was taken back with its event
    return found


STREAMS = [
    f"event: message\r\ndata: {LONG}\r\n\r\n".encode(),
    f"id: 7\ndata: {LONG}\ndata: second line\n\n: a comment\ndata: short\n\n".encode(),
    f"data:{LONG}\r\rdata: {LONG}\r\nid: 9\r\n\r\n".encode(),
    b"data: short only\n\nevent: ping\ndata: \n\n",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STREAMS), st.lists(st.integers(min_value=0), max_size=6))
def test_the_events_read_lean_are_the_events_of_the_stream_as_sent_whatever_its_chunks(
    body: bytes, cuts: list[int]
) -> None:
    chunks = _cut(body, cuts)
    assert anyio.run(_events, chunks, True) == anyio.run(_events, [body], False)


def test_a_long_data_line_is_kept_aside_once_as_its_bytes_and_the_event_holds_a_mark() -> None:
    async def first() -> tuple[str, dict[str, bytearray]]:
        lines: dict[str, bytearray] = {}
        stream = _Stashed(_response([f"data: {LONG}\n\n".encode()]), lines, None)
        async for text in stream.aiter_text():
            return text, dict(lines)
        raise AssertionError("no line")

    text, lines = anyio.run(first)
    [(mark, kept)] = lines.items()
    assert text == f"data: {mark}\n" and len(text) < 64
    assert isinstance(kept, bytearray) and kept == LONG.encode()
    assert _unstash(f"{mark}", lines) is kept and lines == {}  # the same bytes handed on, not a copy


@pytest.mark.parametrize("lean", [True, False])
def test_an_event_over_the_size_limit_stops_the_stream_as_the_sdks_reader_stops_it(lean: bool) -> None:
    limit = len(LONG) // 2
    with pytest.raises(httpx2.SSEError) as raised:
        anyio.run(_events, _cut(f"data: {LONG}\n\n".encode(), [1000, 70_000]), lean, limit)
    assert str(raised.value) == f"Server-sent event exceeded the {limit} byte limit."


def test_an_event_within_the_limit_is_read_whole() -> None:
    body = f"data: {LONG}\n\n".encode()
    limit = len(LONG) + len("data: ")
    assert (
        anyio.run(_events, [body], True, limit) == anyio.run(_events, [body], False, limit) == [("message", LONG, "")]
    )


def _sent_by(lean: bool, body: bytes, content_type: str) -> list[object]:
    """What a transport hands on of one POST's event stream: the lean one or the SDK's own."""
    from types import SimpleNamespace

    from mcp.client.streamable_http import StreamableHTTPTransport
    from mcp_types import JSONRPCRequest

    from toolsurface.harness.live._streamable import _lean_transport_class

    async def sent() -> list[object]:
        made = (_lean_transport_class() if lean else StreamableHTTPTransport)("http://127.0.0.1/mcp")
        writer, reader = anyio.create_memory_object_stream[object](10)
        request = httpx2.Request("POST", "http://127.0.0.1/mcp")
        response = httpx2.Response(200, headers={"content-type": content_type}, stream=_Chunks([body]), request=request)
        asked = JSONRPCRequest(jsonrpc="2.0", id=3, method="tools/call", params={"name": "item_list"})
        ctx = SimpleNamespace(session_message=SimpleNamespace(message=asked), read_stream_writer=writer, metadata=None)
        async with writer, reader:
            await made._handle_sse_response(response, ctx)
            writer.close()
            return [getattr(m, "message", m) for m in [item async for item in reader]]

    return anyio.run(sent)


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        # A long answer whose bytes are not all UTF-8: parsed the lean way it is refused, so the SDK's reader takes
        # the line as httpx2 decodes it (each bad byte replaced) and says what it says of it.
        (f"data: {LONG}\n\n".encode().replace(b"ticket", b"tick\xffet", 1), "text/event-stream"),
        # The same answer with a character cut across two bytes that are whole: kept as the bytes that came.
        (f"data: {LONG}\n\n".encode().replace(b"ticket", "tické".encode(), 1), "text/event-stream"),
        # A stream declared in a charset that does not keep ASCII as itself cannot be split as bytes: the SDK's
        # reader reads it as it is.
        (f"event: message\ndata: {LONG}\n\n".encode("utf-16"), "text/event-stream; charset=utf-16"),
    ],
)
def test_a_stream_of_hostile_bytes_is_handed_on_as_the_sdks_transport_hands_it_on(
    body: bytes, content_type: str
) -> None:
    lean, sdk = _sent_by(True, body, content_type), _sent_by(False, body, content_type)
    assert [repr(m) for m in lean] == [repr(m) for m in sdk] and len(lean) == 1
