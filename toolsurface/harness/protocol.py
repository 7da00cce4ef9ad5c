"""The MCP protocol versions a list can be read in, which one is read when none is asked for, and the
transports a server at a URL is spoken to in.

Two eras put the same tools on the wire differently: 2025-11-25 (and the handshake versions before it)
opens with `initialize`; 2026-07-28 is stateless (`server/discover`, the client's capabilities in each
request's `_meta`, `ttlMs` and `cacheScope` on list results) and puts "type" first inside a schema. The
default is the handshake era: codex 0.171.0 and gemini-cli 0.61.0 negotiate 2025-06-18 with a stub, whose
tools/list is byte for byte that of 2025-11-25, and Claude Code 2.1.197 negotiates 2025-11-25; Claude Code
2.1.332 negotiates 2026-07-28.

A URL (`--transport`, a configured target's `transport`) is Streamable HTTP, the HTTP+SSE transport of
2024-11-05 that many deployed servers (and MCP Inspector) still speak, or `auto`: the specification's rule for
clients of both, POST initialize to the URL and, when that is answered 400, 404 or 405, GET the URL for an SSE
stream whose first event names where to POST. Imports nothing, so a command's options can name these cheaply.
"""

from __future__ import annotations

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "AUTO",
    "DEFAULT_PROTOCOL",
    "HANDSHAKE_PROTOCOLS",
    "LATEST_HANDSHAKE",
    "MODERN_PROTOCOL",
    "PROTOCOL_VERSIONS",
    "SSE",
    "STREAMABLE_HTTP",
    "TRANSPORTS",
    "TRANSPORTS_HELP",
    "client_mode",
    "is_modern",
    "parse_protocol",
    "unknown_protocol",
]

DEFAULT_PROTOCOL = "2025-11-25"
MODERN_PROTOCOL = "2026-07-28"
PROTOCOL_VERSIONS = (DEFAULT_PROTOCOL, MODERN_PROTOCOL)
# The versions an initialize handshake may agree on, and the one a client asks for, as mcp_types.version names
# them (a test holds them equal): the stdio client checks a handshake answer without importing the SDK.
HANDSHAKE_PROTOCOLS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = "2025-11-25"

AUTO = "auto"
STREAMABLE_HTTP = "streamable-http"
SSE = "sse"
TRANSPORTS = (AUTO, STREAMABLE_HTTP, SSE)
TRANSPORTS_HELP = (
    f"How --url is spoken: {STREAMABLE_HTTP}, {SSE} (HTTP+SSE, MCP 2024-11-05), or {AUTO}: Streamable HTTP,"
    f" then HTTP+SSE when the URL answers initialize with HTTP 400, 404 or 405."
)


def unknown_protocol(value: object) -> str:
    return f"unknown MCP protocol version {value!r}; choose from {', '.join(PROTOCOL_VERSIONS)}"


def parse_protocol(value: str | None, where: str = "--protocol") -> str | None:
    """A version asked for, checked; None (not asked) stays None."""
    if value is None or value in PROTOCOL_VERSIONS:
        return value
    raise ToolsurfaceError(f"{where}: {unknown_protocol(value)}")


def is_modern(version: str) -> bool:
    """Whether a version (YYYY-MM-DD) is of the stateless era (no initialize)."""
    return version[:4].isdigit() and version >= MODERN_PROTOCOL


def client_mode(version: str) -> str:
    """The SDK Client's `mode` that speaks `version`: the handshake, or the modern version adopted directly."""
    return version if is_modern(version) else "legacy"
