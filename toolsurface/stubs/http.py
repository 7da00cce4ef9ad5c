"""Streamable HTTP for a stub's MCP server, on loopback, with bounds on slow and many clients."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import anyio
    from mcp.server import Server

__all__ = ["MAX_CONNECTIONS", "REQUEST_READ_S", "serve_http"]

# A request must arrive whole and its answer begin within this (a client sending a byte at a time gets 408
# and is let go); beyond MAX_CONNECTIONS at once, a request gets 503.
REQUEST_READ_S = 30.0
MAX_CONNECTIONS = 256


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
