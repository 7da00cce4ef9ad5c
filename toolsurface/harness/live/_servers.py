"""What is listed: a stdio command or a URL, the listing a server gave, and the one-line error of a listing."""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.protocol import AUTO
from toolsurface.harness.redact import public_url
from toolsurface.harness.surface import SurfaceParts

if TYPE_CHECKING:
    from toolsurface.harness.live._connection import Connection

__all__ = ["HttpServer", "LiveListing", "LiveServer", "LiveServerError", "StdioServer", "Use", "anonymous_name"]


class LiveServerError(ToolsurfaceError):
    """A live server that cannot be listed: it did not start, answered wrongly, or not in time."""

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))


def _one_line(text: str) -> str:
    """Errors are one line: line breaks from a command line or a server's message are shown escaped."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _redacted(argv: Sequence[str]) -> list[str]:
    from toolsurface.harness.redact import redacted_argv

    return redacted_argv(argv)


@dataclass(frozen=True)
class StdioServer:
    """A command that serves MCP on its stdin/stdout; `env` is added to this process's environment."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    # What the user named it (`--name`, already made safe); None: its own serverInfo.name decides.
    name: str | None = None
    # The environment `env` is added to; None: this process's. A client's configuration gives its servers a
    # minimal one unless the user says otherwise (harness.mcp_config).
    base_env: Mapping[str, str] | None = None

    @property
    def label(self) -> str:
        text = _one_line(shlex.join(_redacted(self.argv)))
        return text if len(text) <= 80 else text[:77] + "..."

    def describe(self) -> dict[str, Any]:
        """For the sidecar: the command with secret-looking values redacted, and the names (never the values)
        of added variables."""
        return {
            "kind": "command",
            "argv": _redacted(self.argv),
            "cwd": str(self.cwd) if self.cwd is not None else None,
            "env": sorted(self.env),
        }


@dataclass(frozen=True)
class HttpServer:
    """An MCP server at a URL; `headers` go with every request (e.g. Authorization), `transport` is how it is
    spoken to (harness.protocol: Streamable HTTP, HTTP+SSE, or either by the specification's rule)."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    transport: str = AUTO
    # What the user named it (`--name`, already made safe); None: its own serverInfo.name decides.
    name: str | None = None

    @property
    def label(self) -> str:
        return public_url(self.url)

    def describe(self) -> dict[str, Any]:
        """For the sidecar: the URL without credentials or query, and the header names only."""
        return {"kind": "url", "url": public_url(self.url), "headers": sorted(self.headers)}


LiveServer = StdioServer | HttpServer
# What a caller does with a connection once its tools are listed: given the tools and the open connection.
Use = Callable[[list[dict[str, Any]], "Connection"], Awaitable[Any]]


@dataclass(frozen=True)
class LiveListing:
    """Every tool a live server listed, each exactly as received, and how it was listed."""

    tools: list[dict[str, Any]]
    # What every command, file and table calls it (harness.surface.safe_server_name, or the user's --name);
    # `server_name` is the name it gave itself, as received.
    name: str
    server_name: str
    # None: a 2026-07-28 server that did not identify itself (its name is then the command's or the host's).
    server_version: str | None
    protocol_version: str
    client_capabilities: tuple[str, ...]
    listed_at: str
    duration_s: float
    pages: int
    source: dict[str, Any]
    stdout_noise: tuple[str, ...] = ()
    # Its instructions, prompts, resources, templates and skills, and the capabilities it declared, as received.
    parts: SurfaceParts = field(default_factory=SurfaceParts)
    # ttlMs and cacheScope of its tools/list result, where it sent them (2026-07-28 list results carry both).
    cache: dict[str, Any] = field(default_factory=dict)


def anonymous_name(server: LiveServer) -> str:
    """A name for a server that did not give one (allowed at 2026-07-28): its command's, or its host."""
    if isinstance(server, StdioServer):
        return Path(server.argv[0]).name
    from urllib.parse import urlsplit

    return urlsplit(server.url).hostname or server.label
