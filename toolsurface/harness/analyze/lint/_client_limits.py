"""Where a client silently shortens, renames, leaves out or breaks what a server advertises (lint category
`client-limit`), from what `toolsurface compat` saw each client do (client_limits.json beside this module,
each entry naming the client and version it was seen on):

- a description or the server's instructions longer than a client keeps (Claude Code 2.1.197 cut at 2,048,
  2.1.332 at 4,096, counted as JavaScript counts a string's length: UTF-16 code units; its bundle drops a first
  half of a surrogate pair left at the cut, and cuts the instructions the same way);
- a name that, with the client's prefix and the server's name in the user's config, passes what its API takes
  (Claude Code's `mcp__SERVER__NAME` over the Anthropic API's 64: every request refused) or what the client
  keeps itself (gemini-cli cuts a name over 63 in the middle, codex over 128 with a hash), and at which
  server-name length that begins;
- two names that the client cleans alike (it sends one of them);
- a schema with `oneOf`, `anyOf` or `allOf` at its top, where a client left the tool out.
- an invalid `x-mcp-header` annotation in a tool's inputSchema (category `x-mcp-header`), which a Streamable
  HTTP client of MCP 2026-07-28 MUST drop the tool for (the SDK's own check,
  `mcp.shared.inbound.find_invalid_x_mcp_header`: on a string, integer or boolean property reached by
  `properties` alone, an RFC 9110 token, unique ignoring case).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.lint._catalog import Example, ServerTools, example_tool, rule
from toolsurface.harness.analyze.lint._model import Finding, Severity
from toolsurface.harness.output import possessive

__all__ = [
    "CLAUDE_CODE_CUT",
    "RULES",
    "SERVER_ROOM",
    "X_MCP_HEADER_KEY",
    "ClientCut",
    "Observed",
    "check_client_limits",
    "check_x_mcp_headers",
    "client_versions",
    "kept_units",
    "observed",
    "utf16_units",
]

_DATA = Path(__file__).with_name("client_limits.json")
# A name that leaves less room than this for the server's name breaks under names users give servers
# (`enterprise-database-management` is 30).
SERVER_ROOM = 30
_TOP = ("oneOf", "anyOf", "allOf")
_API = {
    "anthropic": "the Anthropic API",
    "openai-responses": "the OpenAI Responses API",
    "openai-chat": "the OpenAI Chat Completions API",
    "gemini": "the Gemini API",
}


@dataclass(frozen=True)
class ClientCut:
    """A client that keeps the first `limit` UTF-16 code units of a text and appends `marker`."""

    client: str
    limit: int
    marker: str


@dataclass(frozen=True)
class Observed:
    """One client and version as compat saw it (see toolsurface.harness.compat._limits)."""

    client: str
    version: str
    api: str
    name_limit: int | None
    naming: dict[str, Any]
    cut: ClientCut | None
    left_out: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.client} {self.version}"


@functools.cache
def observed() -> tuple[Observed, ...]:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    found = []
    for entry in data["clients"]:
        label = f"{entry['client']} {entry['version']}"
        cut = entry.get("description_cut")
        found.append(
            Observed(
                entry["client"],
                entry["version"],
                entry["api"],
                entry.get("name_limit"),
                dict(entry["naming"]),
                ClientCut(label, int(cut), str(entry.get("description_marker") or "")) if cut else None,
                tuple(entry.get("tools_left_out") or ()),
            )
        )
    return tuple(found)


def _cuts() -> list[ClientCut]:
    return [o.cut for o in observed() if o.cut is not None]


# The first cut seen (Claude Code 2.1.197, the pinned version), as the lint's messages name it first.
CLAUDE_CODE_CUT = _cuts()[0]


def utf16_units(text: str) -> int:
    """A string's length as JavaScript counts it."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def kept_units(text: str, limit: int) -> int:
    """How many UTF-16 code units survive a cut at `limit`: one fewer when the cut would split a pair."""
    units = text.encode("utf-16-le", "surrogatepass")
    if len(units) // 2 <= limit:
        return len(units) // 2
    last = int.from_bytes(units[2 * (limit - 1) : 2 * limit], "little")
    return limit - 1 if 0xD800 <= last <= 0xDBFF else limit


def _cut_message(what: str, text: str, verb: str = "is") -> tuple[str, Severity | None] | None:
    """What a client's cut of a text does, and a severity milder than an error where the newest version seen
    keeps it whole (only users of an older version lose its end)."""
    length = utf16_units(text)
    every = _cuts()
    cuts = [c for c in every if length > c.limit]
    if not cuts:
        return None
    first, *others = cuts
    kept = kept_units(text, first.limit)
    newest_cuts = every[-1] in cuts
    message = (
        f"{what} {verb} {length:,} characters (UTF-16 code units, as Claude Code counts them); {first.client}"
        f" keeps the first {kept:,} and adds '{first.marker}': {length - kept:,} characters are cut"
        f" ({(length - kept) / length:.0%}) for its users"
    )
    for cut in others:
        message += f"; {cut.client} cuts {length - kept_units(text, cut.limit):,} at {cut.limit:,}"
    message += ": every Claude Code user loses its end" if newest_cuts else f"; {every[-1].client} keeps it whole"
    return message, None if newest_cuts else "warning"


def client_versions(items: Sequence[Observed]) -> str:
    """`Acme CLI 1.0.0 and 1.1.0, Other CLI 2.0.0`: each client once, with the versions seen."""
    by_client: dict[str, list[str]] = {}
    for o in items:
        by_client.setdefault(o.client, []).append(o.version)
    return ", ".join(f"{client} {' and '.join(dict.fromkeys(versions))}" for client, versions in by_client.items())


def _name_findings(name: str, ours: bool, server_name: str | None, listed_name: str | None) -> list[Finding]:
    """Where the tool's full name, with each client's prefix, passes its API's limit or the client's own cut. How
    long a server name it takes depends on the name the user gives the server: given (`server_name`), a finding
    is an error made only where that name makes it bite; not given, the name toolsurface knows the server by
    (`listed_name`, its own) is judged instead, and a finding is a warning that says from which length it bites;
    with neither (a surface of ours), a warning where a name of up to SERVER_ROOM characters would not fit."""
    from toolsurface.harness.agents import ToolNaming

    judged = server_name if server_name is not None else None if ours else listed_name
    groups: dict[tuple[str, int, str], list[Observed]] = {}
    for o in observed():
        rule = ToolNaming(**o.naming)
        if rule.max_length is not None and rule.cut is not None:
            limit, effect = rule.max_length, ("cuts it in the middle" if rule.cut == "middle" else "cuts it to a hash")
        elif o.name_limit is not None:
            limit, effect = o.name_limit, f"is refused by {_API.get(o.api, o.api)} (every request, whole)"
        else:
            continue
        room = rule.room(name, "", limit)
        fits = room >= 1 and (len(judged) <= room if judged is not None else room >= SERVER_ROOM)
        if not fits:
            shown = rule.template.format(server="SERVER", tool=rule.clean(name))
            groups.setdefault((shown, room, f"{effect} over {limit} characters"), []).append(o)
    findings = []
    for (shown, room, effect), items in groups.items():
        if room < 1:
            when = "whatever the server is called"
        elif server_name is not None:
            when = f"with the server named {server_name!r} ({len(server_name)} characters; it fits up to {room})"
        elif judged is not None:
            when = (
                f"with the server named {judged!r} as it names itself ({len(judged)} characters; it fits up to {room};"
                " --server-name or a configuration's key judges the name your users give it)"
            )
        else:
            when = f"once the server's name is {room + 1} characters or more"
        message = (
            f"{name}: {client_versions(items)} {'name' if len(items) > 1 else 'names'} it {shown}"
            f" ({len(shown) - len('SERVER')} characters and the server's name as the user's config gives it), which"
            f" {effect}: {when}"
        )
        if judged is None and room >= 1 and ours:
            message += f" (it fits with a name of up to {room}, as `stub` does)" if room >= 4 else f" (up to {room})"
        elif judged is None and room >= 1:
            message += (
                f" (it fits with a server name of up to {room} {'character' if room == 1 else 'characters'};"
                " --server-name or the configuration's key says which name to judge)"
            )
        # Bites for every name, or for the name the user gave: an error; for a name the user did not give: a warning.
        level: Severity | None = None if room < 1 or server_name is not None else "warning"
        over = effect.rsplit(" over ", 1)[-1].split()[0]
        findings.append(Finding("client-limit", [name], [], message, level=level, aspect=f"name:{shown}:{over}"))
    return findings


def _clash_findings(names: Sequence[str]) -> list[Finding]:
    """Tools whose names a client cleans alike: it sends one of them."""
    from toolsurface.harness.agents import ToolNaming

    findings = []
    clashes: dict[tuple[str, ...], list[Observed]] = {}
    for o in observed():
        if "name-clash" not in o.left_out:
            continue
        rule = ToolNaming(**o.naming)
        by_clean: dict[str, list[str]] = {}
        # Two tools of the very same name are a malformed list (TS001), not names a client cleans alike.
        for name in dict.fromkeys(names):
            by_clean.setdefault(rule.clean(name), []).append(name)
        for same in by_clean.values():
            if len(same) > 1:
                clashes.setdefault(tuple(same), []).append(o)
    for group, items in clashes.items():
        rule = ToolNaming(**items[0].naming)
        shown = rule.template.format(server="SERVER", tool=rule.clean(group[0]))
        message = (
            f"{', '.join(group)}: {client_versions(items)} clean these names alike ({shown}) and send only one of them"
        )
        findings.append(Finding("client-limit", list(group), [], message, aspect="clean-alike"))
    return findings


def _top_findings(tool: Mapping[str, Any]) -> list[Finding]:
    schema = tool.get("inputSchema")
    found = [k for k in _TOP if isinstance(schema, dict) and k in schema]
    leaving = [o for o in observed() if "schema-top-oneof" in o.left_out]
    if not found or not leaving:
        return []
    name = str(tool.get("name"))
    message = (
        f"{possessive(name)} input schema has {', '.join(found)} at its top: {client_versions(leaving)} left such a"
        " tool out"
    )
    return [Finding("client-limit", [name], [], message, aspect="schema-top")]


_LONG = "It holds the title, the artist and the lyrics of the song, and the album it is on. "


@rule(
    "TS301",
    "client-limit",
    "error",
    checks="What a client breaks, drops or cuts, as toolsurface compat saw each client do: a name that with the"
    " client's prefix and the server's name passes what its API takes or what it keeps, names it cleans"
    " alike, a schema with oneOf, anyOf or allOf at its top, a description or server instructions longer"
    " than it keeps.",
    why="What a client cuts, renames or leaves out never reaches the model, and a name over the provider's limit"
    " makes every request of the session fail. A name's length depends on the name the user gives the server:"
    " such a finding is an error only where it bites for that name (--server-name, a configuration's key), a"
    " warning where no name is given.",
    source="toolsurface compat, observed per client and version (client_limits.json)",
    fix="Shorten the name or the text below the limit the message gives; give the schema an object at its top.",
    bad=Example.of(
        example_tool("song_get", "Read a song by number. " + _LONG * 40, {"number": "integer"}, read_only=True)
    ),
    good=Example.of(example_tool("song_get", "Read a song by number. " + _LONG, {"number": "integer"}, read_only=True)),
)
def _client_limit(given: ServerTools) -> list[Finding]:
    """A finding per text longer than a client keeps, per name a client's prefix takes past a limit, per names a
    client cleans alike, per schema a client leaves out. `ours`: a surface of ours, served as `stub`."""
    return check_client_limits(
        given.tools, given.instructions, ours=given.ours, server_name=given.server_name, listed_name=given.listed_name
    )


def check_client_limits(
    tools: Sequence[Mapping[str, Any]],
    instructions: str | None,
    ours: bool = False,
    server_name: str | None = None,
    listed_name: str | None = None,
) -> list[Finding]:
    findings = []
    for tool in tools:
        description = tool.get("description")
        if isinstance(description, str):
            cut = _cut_message(f"{possessive(str(tool.get('name')))} description", description)
            if cut is not None:
                message, level = cut
                name = str(tool.get("name"))
                findings.append(Finding("client-limit", [name], [], message, level=level, aspect="description"))
        findings += _name_findings(str(tool.get("name")), ours, server_name, listed_name)
        findings += _top_findings(tool)
    findings += _clash_findings([str(t.get("name")) for t in tools])
    if instructions is not None:
        cut = _cut_message("the server instructions", instructions, "are")
        if cut is not None:
            message, level = cut
            findings.append(Finding("client-limit", [], [], message, level=level, aspect="instructions"))
    return findings


# The annotation's key as the SDK spells it (mcp.shared.inbound.X_MCP_HEADER_KEY, held equal by a test): a schema
# whose text lacks it has nothing to check, so the SDK's types (half a second to import) load only for one that has.
X_MCP_HEADER_KEY = "x-mcp-header"


@rule(
    "TS302",
    "x-mcp-header",
    "error",
    checks="An invalid x-mcp-header annotation in a tool's inputSchema, for which a Streamable HTTP client of MCP"
    " 2026-07-28 must drop the tool.",
    why="The 2026-07-28 specification has clients mirror annotated parameters into HTTP headers and drop a tool"
    " whose annotation is invalid: no agent on such a client sees the tool.",
    source="MCP 2026-07-28 (x-mcp-header); the SDK's own check, mcp.shared.inbound.find_invalid_x_mcp_header",
    fix="Annotate only string, integer or boolean properties, with an RFC 9110 token unique ignoring case.",
    bad=Example.of(
        example_tool(
            "song_get",
            "Read a song by number.",
            {"number": {"type": "integer", "x-mcp-header": "Song Number"}},
            read_only=True,
        )
    ),
    good=Example.of(
        example_tool(
            "song_get",
            "Read a song by number.",
            {"number": {"type": "integer", "x-mcp-header": "Song-Number"}},
            read_only=True,
        )
    ),
)
def _x_mcp_header(given: ServerTools) -> list[Finding]:
    return check_x_mcp_headers(given.tools)


def check_x_mcp_headers(tools: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """A finding per tool whose inputSchema has an x-mcp-header annotation a 2026-07-28 client drops it for."""
    annotated = [
        (tool, schema)
        for tool in tools
        if isinstance(schema := tool.get("inputSchema"), dict) and X_MCP_HEADER_KEY in str(schema)
    ]
    if not annotated:
        return []
    from mcp.shared.inbound import find_invalid_x_mcp_header

    findings = []
    for tool, schema in annotated:
        reason = find_invalid_x_mcp_header(schema)
        if reason is not None:
            name = str(tool.get("name"))
            message = (
                f"{name}: invalid {X_MCP_HEADER_KEY} ({reason}); a Streamable HTTP client of MCP 2026-07-28 drops"
                f" the tool from its list, so no agent on such a client sees {name}"
            )
            findings.append(Finding("x-mcp-header", [name], [], message))
    return findings


RULES = (_client_limit, _x_mcp_header)
