"""The stub over streamable HTTP answers bad input with a protocol error and bounds what it reads: a body that
is not UTF-8 or nested 100,000 deep gets a JSON-RPC parse error, a length too large 413, a request that does
not arrive whole in time 408, never a connection held for ever."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import anyio.from_thread
import pytest

from tests.helpers.waiting import Deadline
from toolsurface.stubs.http import serve_http
from toolsurface.stubs.mcp_server import build_server
from toolsurface.stubs.serve import listen, start_stub, surface_for_serving

HEAD = (
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json, text/event-stream\r\n"
    "Content-Type: application/json\r\nConnection: close\r\n"
)


@contextmanager
def http_stub(read_s: float = 30.0) -> Iterator[int]:
    from toolsurface.harness.surface import resolve

    surface = surface_for_serving(resolve("v2"))
    server = build_server(surface, start_stub(surface, None))
    listener = listen("127.0.0.1", 0)
    port = int(listener.getsockname()[1])
    with anyio.from_thread.start_blocking_portal() as portal:
        stopping = portal.call(anyio.Event)
        served = portal.start_task_soon(serve_http, server, listener, stopping, read_s)
        try:
            yield port
        finally:
            portal.call(stopping.set)
            served.result(timeout=30)
            listener.close()


def exchange(port: int, data: bytes, timeout: float = 30) -> bytes:
    deadline = Deadline(timeout, "the stub to answer and close the connection")
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(data.replace(b"{port}", str(port).encode(), 1))
        while True:
            conn.settimeout(deadline.remaining())
            chunk = conn.recv(65536)
            if not chunk:
                return received
            received += chunk


def post(body: bytes, extra: str = "") -> bytes:
    """A request for any port: exchange() fills in the port of the Host header."""
    length = "" if "Content-Length" in extra else f"Content-Length: {len(body)}\r\n"
    return (HEAD + extra + length + "\r\n").encode() + body


@pytest.mark.parametrize(
    ("request_bytes", "status", "says"),
    [
        (post(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff"}'), b"400", b"-32700"),
        (post(b"[" * 100_000 + b"]" * 100_000), b"400", b"-32700"),
        (post(b"{}", "Content-Length: 99999999999\r\n"), b"413", b"too large"),
    ],
    ids=["not-utf8", "nested-100000", "length-huge"],
)
def test_bad_input_over_http_gets_a_protocol_error(request_bytes: bytes, status: bytes, says: bytes) -> None:
    with http_stub() as port:
        answer = exchange(port, request_bytes)
    assert answer.split(b" ", 2)[1] == status and says in answer, answer[:400]


def test_a_request_that_does_not_arrive_in_time_gets_408_and_the_connection_closes() -> None:
    with http_stub(read_s=0.5) as port, socket.create_connection(("127.0.0.1", port), timeout=20) as slow:
        slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
        answer = b""
        while chunk := slow.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer
