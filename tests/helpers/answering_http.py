"""An HTTP server on 127.0.0.1 that answers as a test tells it, written on a bare socket so that it can answer
as no well-behaved server would (a redirect elsewhere, a byte at a time, nested 200,000 deep, without end),
and that keeps every request it received (method, path, headers, body)."""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Received", "Server", "answering", "reply"]


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


Answer = Callable[[Received, socket.socket], None]


def reply(status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> bytes:
    """One whole HTTP/1.1 answer that closes its connection."""
    head = [f"HTTP/1.1 {status} X", f"Content-Length: {len(body)}", "Connection: close"]
    head += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


@dataclass
class Server:
    url: str
    received: list[Received]


def _read_request(connection: socket.socket) -> Received | None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return Received(method, path, headers, body)


@contextlib.contextmanager
def answering(answer: Answer) -> Iterator[Server]:
    """A server answering each request with `answer(received, connection)`; the connection is closed after."""
    received: list[Received] = []
    lock = threading.Lock()

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            connection: socket.socket = self.request
            with contextlib.suppress(OSError):
                request = _read_request(connection)
                if request is None:
                    return
                with lock:
                    received.append(request)
                answer(request, connection)

    class Threads(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    with Threads(("127.0.0.1", 0), Handler) as server:
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        thread.start()
        try:
            yield Server(f"http://127.0.0.1:{server.server_address[1]}", received)
        finally:
            server.shutdown()
            thread.join()
