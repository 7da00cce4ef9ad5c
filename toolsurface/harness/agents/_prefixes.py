"""What each client puts before the tool names of a server, by the server's name in its MCP config: every
registered client's naming rule."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from toolsurface.harness.agents._registry import client_card, client_cards, client_origin
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["api_namespaces", "api_prefixes", "check_server_name", "server_prefixes", "strip_server_prefix"]


@functools.cache
def server_prefixes(server: str) -> tuple[str, ...]:
    """What each client puts before a tool's name of the server its MCP config calls `server` (`mcp__stub__`,
    `mcp_stub_`, `stub__`, `stub-`, `stub_`), by each client's naming rule, the longest first."""
    prefixes = {card.naming.prefix(server) for card in client_cards() if card.naming is not None}
    return tuple(sorted(prefixes, key=lambda prefix: (-len(prefix), prefix)))


def strip_server_prefix(name: str, server: str) -> str:
    """`name` as one of the clients names a tool of the server `server` (`mcp__stub__item_get`,
    `mcp_stub_item_get`, `stub__item_get`, `stub-item_get`, `stub_item_get`) without that prefix; any other
    name as it is."""
    for prefix in server_prefixes(server):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


@functools.cache
def api_prefixes(api: str, server: str) -> tuple[str, ...]:
    """What the clients whose requests speak `api` put before a tool's name of the server called `server`, the
    longest first: where a request does not say which client sent it."""
    prefixes = {c.naming.prefix(server) for c in client_cards() if c.naming is not None and c.api == api}
    return tuple(sorted(prefixes, key=lambda prefix: (-len(prefix), prefix)))


@functools.cache
def api_namespaces(api: str, server: str) -> tuple[str, ...]:
    """The namespaces the clients whose requests speak `api` put the server's tools in (`mcp__stub`), if any."""
    found = {c.naming.namespace_name(server) for c in client_cards() if c.naming is not None and c.api == api}
    return tuple(sorted(n for n in found if n is not None))


def check_server_name(server_name: str, names: Sequence[str]) -> None:
    """A user error when none of the clients `names` takes `server_name` as a server's name in its MCP config,
    each client's rule said with the package that declared it. A client with no naming rule of its own
    (toolsurface's) takes any."""
    rules = []
    for name in names:
        card = client_card(name)
        if card.naming is None or card.naming.accepts_server(server_name):
            return
        package = client_origin(name).split(" (", 1)[0]
        rules.append(f"{card.title} ({name}, of {package}) takes [{card.naming.server_allowed}]+")
    raise ToolsurfaceError(f"--server-name {server_name!r}: no client takes it as a server's name: {'; '.join(rules)}")
