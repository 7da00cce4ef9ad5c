"""Why a listing failed, said in one line: the step, what went wrong, and the hint that fits."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.protocol import DEFAULT_PROTOCOL, MODERN_PROTOCOL, SSE, STREAMABLE_HTTP

if TYPE_CHECKING:
    from toolsurface.harness.live._servers import HttpServer, LiveServer
    from toolsurface.harness.live._state import ListingState

__all__ = ["explain", "http_failure", "protocol_hint", "refuses_handshake", "serves_sse", "what_failed"]


def _rpc_errors(error: BaseException) -> list[tuple[int, Any]]:
    """The (code, data) of each JSON-RPC error answer in `error`, from our stdio client or the SDK's."""
    from toolsurface.harness.live._wire_client import RpcError

    # The SDK's error type exists only once its package is imported; the stdio path does not import it.
    sdk = sys.modules.get("mcp.shared.exceptions")
    found: list[tuple[int, Any]] = []
    for leaf in _leaves(error):
        if isinstance(leaf, RpcError):
            found.append((leaf.code, leaf.data))
        elif sdk is not None and isinstance(leaf, sdk.MCPError):
            found.append((leaf.code, leaf.error.data))
    return found


def refuses_handshake(error: BaseException, http_status: str | None = None) -> bool:
    """Whether a failed initialize says the server speaks only the stateless era: -32022 naming 2026-07-28
    among its versions, or (over HTTP, where such a server may answer the handshake with no JSON-RPC) 400."""
    from mcp_types import UNSUPPORTED_PROTOCOL_VERSION

    for code, data in _rpc_errors(error)[:1]:
        if code == UNSUPPORTED_PROTOCOL_VERSION:
            supported = data.get("supported") if isinstance(data, dict) else None
            return isinstance(supported, list) and MODERN_PROTOCOL in supported
        return http_status is not None and http_status.startswith("HTTP 400")
    return False


def protocol_hint(failure: BaseException | None, state: ListingState) -> str:
    """When the version asked for is the one the server does not speak, say which to ask for."""
    from mcp_types import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION

    if state.protocol is None or failure is None:
        return ""
    codes = {code for code, _ in _rpc_errors(failure)}
    if state.phase == "initialize" and UNSUPPORTED_PROTOCOL_VERSION in codes:
        return f"; it refuses the handshake: list it with --protocol {MODERN_PROTOCOL}, or without --protocol"
    if state.phase == "server/discover" and codes & {METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION}:
        return (
            f"; it may speak only the handshake era: list it with --protocol {DEFAULT_PROTOCOL}, or without --protocol"
        )
    return ""


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


_SDK_CLOSED = "Connection closed"


def explain(error: BaseException | None, timed_out: bool, server: LiveServer, state: ListingState) -> str:
    """One line: who, what step, what went wrong, and the best hint we have."""
    return f"{server.label}: {what_failed(error, timed_out, state)}"


def what_failed(error: BaseException | None, timed_out: bool, state: ListingState) -> str:
    """What step went wrong and how, said of the server."""
    from mcp.shared.exceptions import MCPError
    from mcp.types import CONNECTION_CLOSED
    from pydantic import ValidationError

    from toolsurface.harness.live._connection import unparsed_answer
    from toolsurface.harness.live._sse import CONNECTING, WAITING_FOR_ENDPOINT

    step = state.phase
    if timed_out:
        if step == CONNECTING:
            return f"did not answer the GET of its SSE stream within {state.timeout:g} s"
        if step == WAITING_FOR_ENDPOINT:
            return (
                f"sent no endpoint event on its SSE stream within {state.timeout:g} s (an HTTP+SSE server sends it"
                " first)"
            )
        return f"no answer to {step} within {state.timeout:g} s"
    leaves = _leaves(error) if error is not None else []
    for leaf in leaves:
        if isinstance(leaf, ToolsurfaceError):
            return str(leaf)
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            if state.http_status is not None:
                return f"answered {step} with {state.http_status}"
            # The SDK's own -32000 when the transport ends; a server may answer -32000 itself (the
            # JSON-RPC range for server errors), which is its answer, with its own message.
            if leaf.code == CONNECTION_CLOSED and leaf.message == _SDK_CLOSED:
                return f"closed the connection before answering {step}"
            unparsed = unparsed_answer(leaf.code, leaf.message)
            if unparsed is not None:
                return f"answered {step} with {unparsed}; is the URL an MCP server's endpoint?"
            return f"answered {step} with error {leaf.code}: {leaf.message}"
        if isinstance(leaf, ValidationError):
            problem = leaf.errors()[0]
            where = ".".join(str(p) for p in problem["loc"]) or "(root)"
            return f"its {step} answer is not valid MCP: {where}: {problem['msg']}"
    for leaf in leaves:
        if leaf.__class__.__module__.startswith("httpx"):
            reason = str(leaf) or type(leaf).__name__
            return f"cannot reach the server: {reason}"
    logged = f"; the client logged: {state.logged[-1]}" if state.logged else ""
    if leaves:
        leaf = leaves[0]
        return f"{step} failed: {type(leaf).__name__}: {leaf}{logged}"
    return f"{step} failed{logged}"


# How a URL answers Streamable HTTP's first POST when it serves HTTP+SSE instead (the specification's rule).
_SSE_STATUSES = ("HTTP 400", "HTTP 404", "HTTP 405")


def serves_sse(state: ListingState) -> bool:
    """Whether Streamable HTTP failed as the specification says a server of HTTP+SSE makes it fail: its first
    request (initialize, or server/discover) answered with HTTP 400, 404 or 405."""
    status = state.http_status or ""
    return (
        state.listed is None and state.phase in ("initialize", "server/discover") and status.startswith(_SSE_STATUSES)
    )


def http_failure(
    server: HttpServer, failure: BaseException | None, timed_out: bool, first: str, state: ListingState
) -> str:
    """One line: why the URL could not be listed, over each transport tried, with the hint that fits."""
    from toolsurface.harness.live._sse import CONNECTING

    failed = what_failed(failure, timed_out, state) + protocol_hint(failure, state)
    if state.http_status is not None and state.http_status not in failed:
        failed += f" ({state.http_status})"
    # How Streamable HTTP failed is news only while HTTP+SSE has not listed the server either.
    told = first and state.listed is None
    message = f"{server.label}: {first}; over HTTP+SSE, {failed}" if told else f"{server.label}: {failed}"
    status = state.http_status or ""
    # The GET of an SSE stream refused as a server refuses a method or a path it does not serve.
    get_refused = state.transport == SSE and state.phase == CONNECTING and status.startswith(_SSE_STATUSES)
    if status.startswith(("HTTP 401", "HTTP 403")):
        message += "; pass credentials with --header 'Authorization: Bearer ...'"
    elif told and get_refused and (state.refused or "").startswith(("HTTP 404", "HTTP 405")):
        message += "; is the URL's path right? Streamable HTTP is usually served at /mcp, HTTP+SSE at /sse"
    elif server.transport == STREAMABLE_HTTP and serves_sse(state):
        message += f"; if it serves HTTP+SSE (MCP 2024-11-05), list it with --transport {SSE}, or without --transport"
    elif server.transport == SSE and get_refused:
        message += f"; if it serves Streamable HTTP, list it with --transport {STREAMABLE_HTTP}, or without --transport"
    return message
