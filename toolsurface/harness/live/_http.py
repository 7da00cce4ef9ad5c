"""Listing a URL: Streamable HTTP, HTTP+SSE, or the first and then the second by the specification's fallback,
through the SDK's ClientSession."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolsurface.harness.live._conversation import extensions, list_opened
from toolsurface.harness.live._failures import http_failure, serves_sse, what_failed
from toolsurface.harness.live._servers import HttpServer, LiveServerError
from toolsurface.harness.live._state import MAX_LINE_BYTES, ListingState, Opened, cache_keeper, phase_setter
from toolsurface.harness.protocol import AUTO, SSE, STREAMABLE_HTTP, TRANSPORTS

if TYPE_CHECKING:
    from mcp.client._transport import ReadStream, WriteStream
    from mcp.client.session import ClientRequestContext
    from mcp.shared.message import SessionMessage
    from mcp.types import ElicitRequestParams, ElicitResult, ErrorData, ListRootsResult

__all__ = ["client_callbacks", "list_http"]


def client_callbacks(capabilities: tuple[str, ...]) -> dict[str, Any]:
    """Declaring a capability means answering its requests: no roots, no sampling, declined elicitation."""
    import mcp.types as types

    async def list_roots(context: ClientRequestContext) -> ListRootsResult | ErrorData:
        return types.ListRootsResult(roots=[])

    async def sample(context: ClientRequestContext, params: Any) -> ErrorData:
        return types.ErrorData(code=types.INVALID_REQUEST, message="toolsurface only lists tools; it does not sample")

    async def elicit(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        return types.ElicitResult(action="decline")

    callbacks: dict[str, Any] = {}
    if "roots" in capabilities:
        callbacks["list_roots_callback"] = list_roots
    if "sampling" in capabilities:
        callbacks["sampling_callback"] = sample
    if "elicitation" in capabilities:
        callbacks["elicitation_callback"] = elicit
    return callbacks


async def _converse(
    read: ReadStream[SessionMessage | Exception],
    write: WriteStream[SessionMessage],
    capabilities: tuple[str, ...],
    state: ListingState,
) -> tuple[Opened, list[dict[str, Any]], int]:
    """Over HTTP, through the SDK's ClientSession."""
    import mcp.types as types
    from mcp.client.session import ClientSession

    from toolsurface import __version__
    from toolsurface.harness.live._connection import SessionConnection
    from toolsurface.harness.measure import list_parts_raw, list_tools_raw

    session = ClientSession(
        read,
        write,
        client_info=types.Implementation(name="toolsurface", version=__version__),
        extensions=extensions(state),
        **client_callbacks(capabilities),
    )
    async with session:
        return await list_opened(
            session,
            state,
            lambda: list_tools_raw(session, on_page=cache_keeper(state)),
            lambda tools: list_parts_raw(
                session, on_method=phase_setter(state), drafts_for=tools if state.drafts else None
            ),
            lambda state: SessionConnection(session, phase_setter(state), lambda: state.cut),
        )


async def list_http(
    server: HttpServer, capabilities: tuple[str, ...], state: ListingState
) -> tuple[Opened, list[dict[str, Any]], int]:
    """Streamable HTTP, HTTP+SSE, or (`auto`) the first, then the second when the URL answers the first request
    with HTTP 400, 404 or 405; one deadline for all of it."""
    import anyio
    import httpx2

    if server.transport not in TRANSPORTS:
        raise LiveServerError(f"--transport {server.transport!r}: choose from {', '.join(TRANSPORTS)}")
    try:
        url = httpx2.URL(server.url)
    except Exception as error:
        raise LiveServerError(f"--url {server.url!r}: not a URL ({error})") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise LiveServerError(f"--url {server.label!r}: expected an http:// or https:// URL")

    result: tuple[Opened, list[dict[str, Any]], int] | None = None
    failure: BaseException | None = None
    first = ""  # why Streamable HTTP failed, when HTTP+SSE was tried after it
    with anyio.move_on_after(state.timeout) as deadline:
        state.deadline = deadline
        if server.transport != SSE:
            state.transport = STREAMABLE_HTTP
            try:
                result = await _over_http(server, capabilities, state, sse=False)
            except Exception as error:
                failure = error
        if result is None and (server.transport == SSE or (server.transport == AUTO and serves_sse(state))):
            if state.transport is not None:
                first = what_failed(failure, False, state)
                state.refused, state.http_status, state.logged = state.http_status, None, []
            state.transport, failure = SSE, None
            try:
                result = await _over_http(server, capabilities, state, sse=True)
            except Exception as error:
                failure = error
    if result is not None:
        return result
    raise LiveServerError(http_failure(server, failure, deadline.cancelled_caught, first, state))


async def _over_http(
    server: HttpServer, capabilities: tuple[str, ...], state: ListingState, sse: bool
) -> tuple[Opened, list[dict[str, Any]], int]:
    import httpx2

    from toolsurface.harness.live._connection import bounded_transport

    async def on_response(response: httpx2.Response) -> None:
        if response.status_code >= 400 and state.phase != "done" and state.http_status is None:
            state.http_status = f"HTTP {response.status_code} {response.reason_phrase}".rstrip()

    async with httpx2.AsyncClient(
        headers=dict(server.headers),
        # Reads wait as long as a use's request may take; the use bounds each request itself.
        timeout=httpx2.Timeout(None if state.use is not None else state.timeout),
        event_hooks={"response": [on_response]},
        transport=bounded_transport(state) if state.use is not None else None,
    ) as http:
        if sse:
            from toolsurface.harness.live._sse import sse_streams

            async with sse_streams(http, server.url, state) as (received, sent):
                return await _converse(received, sent, capabilities, state)
        from toolsurface.harness.live._streamable import lean_streamable_http_client

        # An answer sent as one SSE event may be as large as a stdio line, or the answer limit (the SDK holds an
        # event to 1 MiB, and would call a larger one the server's error).
        events = max(MAX_LINE_BYTES, state.answer_limit or 0)
        async with lean_streamable_http_client(server.url, http, events) as (read, write):
            return await _converse(read, write, capabilities, state)
