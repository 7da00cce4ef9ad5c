"""Agent adapters: each runs one headless session against a stub and returns the common event list; each client
is a card (`ClientCard`) registered in the entry-point group `toolsurface.agents`."""

from __future__ import annotations

from toolsurface.harness.agents._card import (
    AnswerCap,
    CardAdapter,
    CarriedText,
    ClientCard,
    ClientSetting,
    SessionFiles,
    ToolBridge,
    WireQuirks,
)
from toolsurface.harness.agents._cli import CliAgent, parse_version
from toolsurface.harness.agents._config_format import ConfigFormat, string_list, string_table
from toolsurface.harness.agents._install import (
    CliInstall,
    InstalledCli,
    InstallFailed,
    install_clis,
    install_npm,
    npm_package_at,
)
from toolsurface.harness.agents._installed import InstalledAgent, installed_agents
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._prefixes import (
    api_namespaces,
    api_prefixes,
    check_server_name,
    server_prefixes,
    strip_server_prefix,
)
from toolsurface.harness.agents._registry import (
    ENTRY_POINT_GROUP,
    ClientLoadError,
    RegisteredClient,
    builtin_tools,
    cli_clients,
    client_card,
    client_cards,
    client_names,
    client_origin,
    make_agent,
    registered_clients,
    takes_option,
)
from toolsurface.harness.agents._session_file import MAX_SESSION_BYTES, SessionCall, SessionFormatError, SessionRead
from toolsurface.harness.agents.base import (
    Agent,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    Event,
    NamedServer,
    RunContext,
    ServerCommand,
    Usage,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "MAX_SESSION_BYTES",
    "Agent",
    "AgentReport",
    "AgentUnavailable",
    "AnswerCap",
    "CardAdapter",
    "CarriedText",
    "CliAgent",
    "CliInstall",
    "ClientCard",
    "ClientLoadError",
    "ClientSetting",
    "ConfigFormat",
    "EndpointKind",
    "Event",
    "InstallFailed",
    "InstalledAgent",
    "InstalledCli",
    "NamedServer",
    "RegisteredClient",
    "RunContext",
    "ServerCommand",
    "SessionCall",
    "SessionFiles",
    "SessionFormatError",
    "SessionRead",
    "ToolBridge",
    "ToolNaming",
    "Usage",
    "WireQuirks",
    "api_namespaces",
    "api_prefixes",
    "builtin_tools",
    "check_server_name",
    "cli_clients",
    "client_card",
    "client_cards",
    "client_names",
    "client_origin",
    "install_clis",
    "install_npm",
    "installed_agents",
    "make_agent",
    "npm_package_at",
    "parse_version",
    "registered_clients",
    "server_prefixes",
    "string_list",
    "string_table",
    "strip_server_prefix",
    "takes_option",
]
