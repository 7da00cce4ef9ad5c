"""The conversation, the same over either transport: the handshake or server/discover, every page of
tools/list, the parts beside the tools, then the caller's use of the connection."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from toolsurface.harness.live._failures import refuses_handshake
from toolsurface.harness.live._servers import LiveServerError
from toolsurface.harness.live._state import ListingState, Opened, lift_deadline
from toolsurface.harness.protocol import MODERN_PROTOCOL, is_modern
from toolsurface.harness.surface import SurfaceParts

if TYPE_CHECKING:
    from toolsurface.harness.live._connection import Connection
    from toolsurface.harness.live._servers import LiveServer

__all__ = ["extensions", "list_opened", "validate_listed"]


async def _discover(session: Any, version: str) -> None:
    """`server/discover` at `version`, adopted pinned to it (the SDK would adopt the newest both know)."""
    import mcp_types as types

    raw = await session.send_discover(version)
    result = types.DiscoverResult.model_validate(raw, by_name=False)
    if version not in result.supported_versions:
        offered = ", ".join(result.supported_versions) or "none"
        raise LiveServerError(f"does not serve MCP {version} (server/discover names {offered})")
    session.adopt(result.model_copy(update={"supported_versions": [version]}))


async def _open(session: Any, state: ListingState) -> Opened:
    """The handshake, or server/discover, as the version asked for says (see the module's docstring)."""
    asked = state.protocol
    if asked is not None and is_modern(asked):
        state.phase = "server/discover"
        await _discover(session, asked)
    else:
        state.phase = "initialize"
        try:
            await session.initialize()
        except Exception as error:
            if asked is not None or not refuses_handshake(error, state.http_status):
                raise
            refused_status, state.http_status = state.http_status, None
            state.phase = "server/discover"
            try:
                await _discover(session, MODERN_PROTOCOL)
            except Exception:
                if refused_status is None:
                    raise  # a -32022 server is one of 2026-07-28: why its discover failed is the news
                state.phase, state.http_status = "initialize", refused_status
                raise error from None
        else:
            if asked is not None and session.protocol_version != asked:
                # Only the version asked for is spoken: a list taken in another is not the one asked for (and
                # measuring it in the version asked would be refused).
                raise LiveServerError(
                    f"answered initialize with protocol version {session.protocol_version}, not {asked} as asked;"
                    " list it without --protocol to take the version it speaks"
                )
    info, capabilities = session.server_info, session.server_capabilities
    # The stdio client keeps the capabilities as dumped (a dict), the SDK's session as its model.
    tools = capabilities.get("tools") if isinstance(capabilities, dict) else capabilities.tools
    return Opened(
        protocol_version=session.protocol_version,
        server_name=info.name if info is not None else None,
        server_version=info.version if info is not None else None,
        has_tools=tools is not None,
    )


async def list_opened(
    session: Any,
    state: ListingState,
    pages: Callable[[], Awaitable[tuple[list[dict[str, Any]], int]]],
    parts: Callable[[list[dict[str, Any]]], Awaitable[SurfaceParts]],
    connection: Callable[[ListingState], Connection],
) -> tuple[Opened, list[dict[str, Any]], int]:
    """Open the conversation, then every page of tools/list (none when the server has no tools), then the
    parts beside the tools it declares; then the state's use of the connection, if any."""
    init = await _open(session, state)
    tools: list[dict[str, Any]] = []
    count = 0
    if init.has_tools:
        state.phase = "tools/list"
        tools, count = await pages()
    state.parts = await parts(tools)
    state.listed = time.monotonic()
    if state.use is not None:
        if state.check is not None:
            state.check(tools)
        lift_deadline(state)
        state.used = await state.use(tools, connection(state))
    state.phase = "done"
    return init, tools, count


def extensions(state: ListingState) -> dict[str, dict[str, Any]] | None:
    """The extensions the client declares: the groups draft's, when the drafts are read (a server of it scopes
    tools into groups only for a client that declares it)."""
    from toolsurface.harness.surface import GROUPS_EXTENSION

    return {GROUPS_EXTENSION: {}} if state.drafts else None


def validate_listed(tools: list[dict[str, Any]], server: LiveServer | None) -> None:
    """Refuse a list that cannot be read at all; a tool a client would refuse or repair is kept as the server
    published it, and marked where it is measured and linted. The message names the server, unless `server` is
    None (said inside the listing, whose failure names it)."""
    from toolsurface.harness.surface import validate_wire_tools

    where = f"{server.label}: tools/list" if server is not None else "tools/list"
    validate_wire_tools(tools, where, published=True)
