"""Names that clash across the servers a client runs together (a client's configuration): a tool name two
servers share; names that each client's prefix and cleaning rule join alike, so its request carries two tools of
one name, or one of them; and a tool named like a client's own tool. Each finding names the clients where it
bites, by the naming rules `toolsurface compat` saw each client follow (client_limits.json)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolsurface.harness.analyze.lint._client_limits import observed
from toolsurface.harness.analyze.lint._model import Finding
from toolsurface.harness.output import possessive

__all__ = ["check_clashes"]


def _labels(observers: Sequence[Any]) -> str:
    by_client: dict[str, list[str]] = {}
    for o in observers:
        by_client.setdefault(o.client, []).append(o.version)
    return ", ".join(f"{client} {' and '.join(dict.fromkeys(versions))}" for client, versions in by_client.items())


def _qualified(server: str, tool: str) -> str:
    return f"{server}/{tool}"


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
        apart = _labels(observed())
        message = (
            f"{tool} is a tool of {', '.join(where)}: {apart} keep them apart by the server's name in the tool's,"
            " but the model is shown two tools called alike, told apart by their descriptions alone; a client"
            " that does not prefix sends only one"
        )
        findings.append(Finding("shared-name", [_qualified(s, tool) for s in where], [], message))
    return findings


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
        shown = "; ".join(f"{full} in {_labels(obs)}" for full, obs in names.items())
        message = (
            f"{' and '.join(group)} are sent under one name ({shown}): a request carries two tools of that name,"
            " which an API refuses or the client sends one of"
        )
        findings.append(Finding("joined-name", list(group), [], message))
    return findings


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
