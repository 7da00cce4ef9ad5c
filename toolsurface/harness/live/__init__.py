"""Live servers: listing any MCP server over stdio or HTTP, and snapshots of what it lists."""

from toolsurface.harness.live._arguments import CAPABILITIES, parse_capabilities, parse_env, parse_header
from toolsurface.harness.live._connection import Connection, SessionConnection, answered_error
from toolsurface.harness.live._failures import refuses_handshake
from toolsurface.harness.live._listing import DEFAULT_TIMEOUT_S, list_live, list_live_async, use_live, use_live_async
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
