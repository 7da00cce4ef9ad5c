"""Names that clash across the servers a client runs together (a client's configuration): a tool name two
servers share; names that each client's prefix and cleaning rule join alike, so its request carries two tools of
one name, or one of them; and a tool named like a client's own tool. Each finding names the clients where it
bites, by the naming rules `toolsurface compat` saw each client follow (client_limits.json)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolsurface.harness.analyze.lint._catalog import Example, ServerSet, example_tool, rule
from toolsurface.harness.analyze.lint._client_limits import client_versions, observed
from toolsurface.harness.analyze.lint._model import Finding
from toolsurface.harness.output import possessive

__all__ = ["RULES", "check_clashes"]


def _servers(**listed: tuple[str, ...]) -> Example:
    """An example of servers configured together, each a name and its tools' names."""
    return Example(
        servers=tuple(
            (server, tuple(example_tool(t, f"{t} of {server}.") for t in names)) for server, names in listed.items()
        )
    )


def _qualified(server: str, tool: str) -> str:
    return f"{server}/{tool}"


@rule(
    "TS401",
    "shared-name",
    "warning",
    checks="A tool name two servers of one configuration share: a client that prefixes the server's name keeps them"
    " apart, but its model is shown two tools called alike; one that does not sends only one.",
    why="The model tells two tools of one name apart by their descriptions alone, and a client that does not"
    " prefix names sends only one of them.",
    source="toolsurface compat, each client's naming rule",
    fix="Name each server's tools after what they work on (a prefix of the product's own), or keep one server.",
    bad=_servers(docs=("search",), issues=("search",)),
    good=_servers(docs=("docs_search",), issues=("issue_search",)),
    scope="servers",
)
def _shared_rule(given: ServerSet) -> list[Finding]:
    return _shared(given.servers)


def _shared(servers: Sequence[tuple[str, Sequence[str]]]) -> list[Finding]:
    """The same tool name on two servers or more: each client that prefixes the server's name keeps them
    apart, but the model is shown two tools of one name to tell apart by their descriptions alone."""
    owners: dict[str, list[str]] = {}
    for server, tools in servers:
        for tool in dict.fromkeys(tools):
            owners.setdefault(tool, []).append(server)
    findings = []
    for tool, where in owners.items():
        if len(where) < 2:
            continue
        apart = client_versions(observed())
        message = (
            f"{tool} is a tool of {', '.join(where)}: {apart} keep them apart by the server's name in the tool's,"
            " but the model is shown two tools called alike, told apart by their descriptions alone; a client"
            " that does not prefix sends only one"
        )
        findings.append(Finding("shared-name", [_qualified(s, tool) for s in where], [], message))
    return findings


@rule(
    "TS402",
    "joined-name",
    "error",
    checks="Tools of two servers that a client's prefix and cleaning rule name alike (server a's b_c and server a_b's"
    " c both mcp_a_b_c in gemini-cli): its request carries two tools of one name, or only one.",
    why="A request with two tools of one name is refused by the provider's API, or the client keeps only one: a"
    " tool of one server silently stands for the other's.",
    source="toolsurface compat, each client's naming rule",
    fix="Rename a server in the configuration, or a tool, so the joined names differ.",
    bad=_servers(a=("b_c",), a_b=("c",)),
    good=_servers(a=("b_c",), d=("c",)),
    scope="servers",
)
def _joined_rule(given: ServerSet) -> list[Finding]:
    return _joined(given.servers)


def _joined(servers: Sequence[tuple[str, Sequence[str]]]) -> list[Finding]:
    """Tools of different servers that a client's rule names alike: a prefix joins the server's name and the
    tool's with one character (gemini-cli sends server `a`'s `b_c` and server `a_b`'s `c` both as `mcp_a_b_c`),
    cleaning folds `.` into `_`, a cut keeps a head or both ends."""
    from toolsurface.harness.agents import ToolNaming

    found: dict[tuple[str, ...], dict[str, list[Any]]] = {}
    for o in observed():
        rule = ToolNaming(**o.naming)
        by_name: dict[str, list[str]] = {}
        for server, tools in servers:
            for tool in dict.fromkeys(tools):
                by_name.setdefault(rule.full_name(tool, server), []).append(_qualified(server, tool))
        for full, sources in by_name.items():
            if len(sources) > 1 and len({s.partition("/")[0] for s in sources}) > 1:
                found.setdefault(tuple(sources), {}).setdefault(full, []).append(o)
    findings = []
    for group, names in found.items():
        shown = "; ".join(f"{full} in {client_versions(obs)}" for full, obs in names.items())
        message = (
            f"{' and '.join(group)} are sent under one name ({shown}): a request carries two tools of that name,"
            " which an API refuses or the client sends one of"
        )
        findings.append(Finding("joined-name", list(group), [], message))
    return findings


@rule(
    "TS403",
    "builtin-name",
    "warning",
    checks="A server's tool named like a client's own tool: a setting that names the client's tool (an exclusion, a"
    " permission) reaches the server's tool too.",
    why="Clients match their settings by name: a permission or exclusion written for the client's own tool"
    " applies to the server's tool of that name as well.",
    source="the client cards' built-in tools, as each client's requests carried them",
    fix="Name the tool after the server's product and what it does (files_read, not Read).",
    bad=_servers(files=("Read",)),
    good=_servers(files=("files_read",)),
    scope="servers",
)
def _builtins_rule(given: ServerSet) -> list[Finding]:
    return _builtins(given.servers, given.builtins)


def _builtins(servers: Sequence[tuple[str, Sequence[str]]], builtins: Mapping[str, Sequence[str]]) -> list[Finding]:
    """A server's tool named like a client's own tool (as the client sends the server's tool, or as it is):
    a client that matches its settings by name applies them to the server's tool too."""
    findings = []
    for server, tools in servers:
        for tool in dict.fromkeys(tools):
            clients = [client for client, names in builtins.items() if tool in names]
            if clients:
                message = (
                    f"{possessive(server)} {tool} is named like the own tool of {', '.join(clients)}: a setting that names"
                    " the client's tool (an exclusion, a permission) reaches the server's tool too"
                )
                findings.append(Finding("builtin-name", [_qualified(server, tool)], [], message))
    return findings


def check_clashes(
    servers: Sequence[tuple[str, Sequence[str]]], builtins: Mapping[str, Sequence[str]] | None = None
) -> list[Finding]:
    """Clashes among the tools of servers configured together: `servers` are (name, tool names) in the
    configuration's order; `builtins`, each client's own tools by name, where they are known."""
    return [*_shared(servers), *_joined(servers), *_builtins(servers, builtins or {})]


RULES = (_shared_rule, _joined_rule, _builtins_rule)
