"""What each client puts before the tool names of a server, by the server's name in its MCP config: every CLI
adapter's naming rule, read from the registry."""

from __future__ import annotations

import functools

from toolsurface.harness.agents._cli import CliAgent
from toolsurface.harness.agents._installed import CLI_AGENTS
from toolsurface.harness.agents._registry import make_agent

__all__ = ["server_prefixes", "strip_server_prefix"]


@functools.cache
def server_prefixes(server: str) -> tuple[str, ...]:
    """What each client puts before a tool's name of the server its MCP config calls `server` (`mcp__stub__`,
    `mcp_stub_`, `stub__`, `stub-`, `stub_`), by each client's naming rule, the longest first."""
    prefixes = set()
    for name in CLI_AGENTS:
        agent = make_agent(name)
        assert isinstance(agent, CliAgent)
        prefixes.add(agent.naming.prefix(server))
    return tuple(sorted(prefixes, key=lambda prefix: (-len(prefix), prefix)))


def strip_server_prefix(name: str, server: str) -> str:
    """`name` as one of the clients names a tool of the server `server` (`mcp__stub__item_get`,
    `mcp_stub_item_get`, `stub__item_get`, `stub-item_get`, `stub_item_get`) without that prefix; any other
    name as it is."""
    for prefix in server_prefixes(server):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name
