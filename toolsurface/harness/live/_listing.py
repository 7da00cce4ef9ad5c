"""Listing the tools of a running MCP server: a stdio command or a URL (Streamable HTTP, or HTTP+SSE by the
specification's fallback or when asked: harness.protocol), through a real client.

The conversation is in the version asked for (harness.protocol): the handshake (`initialize`) by default, so
the list is comparable with what `measure` reads from bundled surfaces, falling back to 2026-07-28
(`server/discover`) for a server that refuses the handshake as one that speaks only that; with a version
asked, only that one. The version used and the server's are recorded.
A stdio server runs in its own session (process group) with a marker in its environment; whatever happens,
its whole tree is ended before this returns (harness.process_tree), so a server that forks, or a daemon it
started with setsid, leaves nothing running. `list_live` on the main thread also ends the tree when the
command is stopped by SIGTERM, SIGHUP or SIGINT. Every failure is one ToolsurfaceError line.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.live._arguments import parse_capabilities
from toolsurface.harness.live._conversation import validate_listed
from toolsurface.harness.live._servers import HttpServer, LiveListing, LiveServer, StdioServer, Use, anonymous_name
from toolsurface.harness.live._state import ListingState, quiet_sdk_logs
from toolsurface.harness.protocol import parse_protocol
from toolsurface.harness.surface import safe_server_name

__all__ = ["DEFAULT_TIMEOUT_S", "list_live", "list_live_async", "use_live", "use_live_async"]

DEFAULT_TIMEOUT_S = 30.0
_NOISE_KEPT = 3


def list_live(
    server: LiveServer,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    drafts: bool = False,
) -> LiveListing:
    """List every tool of a live server, in `protocol` (None: the handshake, or 2026-07-28 for a server that
    speaks only that); one LiveServerError line for anything that goes wrong. A stop signal ends the
    server's tree and raises Interrupted. `drafts`: also read the drafts it advertises (harness.surface._drafts),
    the client declaring the groups extension."""
    import anyio

    return anyio.run(_list_live_kw, server, tuple(capabilities), timeout, protocol, drafts)


async def _list_live_kw(
    server: LiveServer, capabilities: tuple[str, ...], timeout: float, protocol: str | None, drafts: bool
) -> LiveListing:
    listing, _ = await _used_kw(server, None, capabilities, timeout, protocol, None, drafts)
    return listing


def use_live(
    server: LiveServer,
    use: Use,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    answer_limit: int | None = None,
) -> tuple[LiveListing, Any]:
    """`use_live_async` in its own event loop, a stop signal ending the server's tree as `list_live` does."""
    import anyio

    return anyio.run(_used_kw, server, use, tuple(capabilities), timeout, protocol, answer_limit)


async def _used_kw(
    server: LiveServer,
    use: Use | None,
    capabilities: tuple[str, ...],
    timeout: float,
    protocol: str | None,
    answer_limit: int | None,
    drafts: bool = False,
) -> tuple[LiveListing, Any]:
    from toolsurface.harness.signals import Interrupted, cancel_on_signals

    done: tuple[LiveListing, Any] | None = None
    async with cancel_on_signals() as stop:
        done = await use_live_async(
            server,
            use,
            capabilities=capabilities,
            timeout=timeout,
            protocol=protocol,
            answer_limit=answer_limit,
            drafts=drafts,
        )
    if done is None:
        assert stop.signum is not None
        ended = "the server's processes were ended" if isinstance(server, StdioServer) else ""
        raise Interrupted(stop.signum, ended)
    return done


async def list_live_async(
    server: LiveServer,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
) -> LiveListing:
    listing, _ = await use_live_async(server, None, capabilities=capabilities, timeout=timeout, protocol=protocol)
    return listing


async def use_live_async(
    server: LiveServer,
    use: Use | None,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    answer_limit: int | None = None,
    drafts: bool = False,
) -> tuple[LiveListing, Any]:
    """List a live server as `list_live_async` does, then, on the same connection, `use(tools, connection)`
    (the listing's timeout bounds the listing only; the use bounds its own requests); its result beside the
    listing. `answer_limit`: the most bytes an answer to the use's requests may have."""
    caps = parse_capabilities(list(capabilities))
    if not timeout > 0:
        raise ToolsurfaceError(f"--timeout {timeout!r}: must be more than 0 seconds")
    state = ListingState(
        timeout=timeout, protocol=parse_protocol(protocol), use=use, answer_limit=answer_limit, drafts=drafts
    )
    # Run inside the listing, whose failure names the server once: the check's own line does not.
    state.check = lambda tools: validate_listed(tools, None)
    with quiet_sdk_logs(state):
        if isinstance(server, StdioServer):
            from toolsurface.harness.live._stdio import list_stdio

            init, tools, pages = await list_stdio(server, caps, state)
        else:
            from toolsurface.harness.live._http import list_http

            init, tools, pages = await list_http(server, caps, state)
    duration = (state.listed or time.monotonic()) - state.started
    source = server.describe()
    if isinstance(server, HttpServer):
        validate_listed(tools, server)
        source["transport"] = state.transport
    return (
        LiveListing(
            tools=tools,
            name=server.name or safe_server_name(init.server_name, anonymous_name(server)),
            server_name=init.server_name or anonymous_name(server),
            server_version=init.server_version,
            protocol_version=init.protocol_version,
            client_capabilities=caps,
            listed_at=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            duration_s=round(duration, 3),
            pages=pages,
            source=source,
            stdout_noise=tuple(state.noise[:_NOISE_KEPT]),
            parts=state.parts,
            cache=dict(state.cache),
        ),
        state.used,
    )
