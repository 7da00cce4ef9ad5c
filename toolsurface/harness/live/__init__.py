"""Live servers: listing any MCP server over stdio or HTTP, and snapshots of what it lists. Names load when first
used, so a command that lists no live server (a budget of a bundled surface, `list`) does not pay for the client."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.harness.live._arguments import CAPABILITIES, parse_capabilities, parse_env, parse_header
    from toolsurface.harness.live._connection import Connection, SessionConnection, answered_error
    from toolsurface.harness.live._failures import refuses_handshake
    from toolsurface.harness.live._listing import (
        DEFAULT_TIMEOUT_S,
        list_live,
        list_live_async,
        use_live,
        use_live_async,
    )
    from toolsurface.harness.live._options import LiveServerOptions
    from toolsurface.harness.live._servers import HttpServer, LiveListing, LiveServerError, StdioServer
    from toolsurface.harness.live._snapshot import (
        TakenSnapshot,
        live_target,
        skip_final_collection,
        snapshot_live,
        snapshot_surface,
        take_snapshot,
    )
    from toolsurface.harness.live._stable import Stability, StabilityFinding, check_stable, compare_lists
    from toolsurface.harness.live._state import CACHE_KEYS

# The modules a name is looked for in, in order, each imported on the way (each one's own __all__ says which names
# it holds): the light ones first, so a name of theirs does not import the client.
_MODULES = (
    "_options",
    "_snapshot",
    "_arguments",
    "_failures",
    "_stable",
    "_connection",
    "_state",
    "_servers",
    "_listing",
)

__all__ = [
    "CACHE_KEYS",
    "CAPABILITIES",
    "DEFAULT_TIMEOUT_S",
    "Connection",
    "HttpServer",
    "LiveListing",
    "LiveServerError",
    "LiveServerOptions",
    "SessionConnection",
    "Stability",
    "StabilityFinding",
    "StdioServer",
    "TakenSnapshot",
    "answered_error",
    "check_stable",
    "compare_lists",
    "list_live",
    "list_live_async",
    "live_target",
    "parse_capabilities",
    "parse_env",
    "parse_header",
    "refuses_handshake",
    "skip_final_collection",
    "snapshot_live",
    "snapshot_surface",
    "take_snapshot",
    "use_live",
    "use_live_async",
]

__getattr__, __dir__ = lazy_names(__name__, _MODULES)
