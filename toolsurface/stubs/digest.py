"""A surface's digest: the sha256 of its tools array as a client receives it (compact JSON, key order as sent).

A study keeps it in its planned surface; a stub started for one of its runs (`serve --surface-sha256`, or the fork
server as it builds the surface) lists what it built the same way and refuses to serve a surface that builds
differently, so every run serves the very surface that was planned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.surface import Surface

__all__ = ["SurfaceChanged", "check_digest", "served_digest", "tools_digest"]


class SurfaceChanged(ToolsurfaceError):
    """The surface a stub built is not the one its study planned."""


def tools_digest(tools: Sequence[Mapping[str, Any]]) -> str:
    """The sha256 of a tools array as a client received it."""
    from toolsurface.harness.output import compact_json

    return hashlib.sha256(compact_json(list(tools)).encode("utf-8")).hexdigest()


def served_digest(surface: Surface) -> str:
    """The digest of the built surface's tools as its stub serves them, listed through a real MCP client in memory
    (one page: a stub of a run serves all its tools at once)."""
    import anyio
    import mcp.types as types
    from mcp import Client
    from pydantic import TypeAdapter

    from toolsurface.stubs.mcp_server import build_server

    async def listed() -> list[Any]:
        async with Client(build_server(surface), mode="legacy") as client:
            # A TypeAdapter instead of the result model keeps the answer exactly as sent.
            adapter = TypeAdapter(dict[str, Any])
            raw: dict[str, Any] = await client.session.send_request(types.ListToolsRequest(), adapter)  # type: ignore[type-var]
            return list(raw.get("tools") or [])

    return tools_digest(anyio.run(listed))


def check_digest(surface: Surface, planned: str) -> None:
    """Refuse a surface whose tools do not list as the planned digest says, in one line."""
    built = served_digest(surface)
    if built != planned:
        raise SurfaceChanged(
            f"surface {surface.name!r} builds differently from the one planned (its tools' sha256"
            f" {built[:12]}, planned {planned[:12]}): it changed after planning; plan the run again"
        )
