"""Agent adapters: each runs one headless session against a stub and returns the common event list."""

from __future__ import annotations

from toolsurface.harness.agents._cli import CliAgent, parse_version
from toolsurface.harness.agents._installed import CLI_AGENTS, InstalledAgent, installed_agents
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._prefixes import server_prefixes, strip_server_prefix
from toolsurface.harness.agents._registry import AGENTS, make_agent
from toolsurface.harness.agents.base import (
    Agent,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    Event,
    RunContext,
    ServerCommand,
    Usage,
)

__all__ = [
    "AGENTS",
    "CLI_AGENTS",
    "Agent",
    "AgentReport",
    "AgentUnavailable",
    "CliAgent",
    "EndpointKind",
    "Event",
    "InstalledAgent",
    "RunContext",
    "ServerCommand",
    "ToolNaming",
    "Usage",
    "installed_agents",
    "make_agent",
    "parse_version",
    "server_prefixes",
    "strip_server_prefix",
]
