"""A client's MCP configuration, in any of the formats read (harness.mcp_config._formats and the client cards):
the servers it names, listed at once, measured one by one and together."""

from toolsurface.harness.mcp_config._formats import ConfigFormat, config_formats
from toolsurface.harness.mcp_config._list import (
    ConfigListing,
    ListedServer,
    list_config,
    list_configured,
    live_server,
    unlisted_problem,
)
from toolsurface.harness.mcp_config._model import ConfigServer, GivenServer, McpConfig, McpConfigError
from toolsurface.harness.mcp_config._read import MINIMAL_ENV, minimal_env, read_mcp_config
from toolsurface.harness.mcp_config._totals import (
    SERVER_COLUMNS,
    ConfigTotals,
    ServerRow,
    config_totals,
    parse_windows,
    totals_markdown,
    totals_view,
)

__all__ = [
    "MINIMAL_ENV",
    "SERVER_COLUMNS",
    "ConfigFormat",
    "ConfigListing",
    "ConfigServer",
    "ConfigTotals",
    "GivenServer",
    "ListedServer",
    "McpConfig",
    "McpConfigError",
    "ServerRow",
    "config_formats",
    "config_totals",
    "list_config",
    "list_configured",
    "live_server",
    "minimal_env",
    "parse_windows",
    "read_mcp_config",
    "totals_markdown",
    "totals_view",
    "unlisted_problem",
]
