"""Where a client silently shortens what a server advertises: Claude Code's cut of long tool descriptions and
server instructions (lint category `client-limit`); and where every client drops a tool: an invalid
`x-mcp-header` annotation in its inputSchema (category `x-mcp-header`), which a Streamable HTTP client of MCP
2026-07-28 MUST drop the tool for (the SDK's own check, `mcp.shared.inbound.find_invalid_x_mcp_header`: on a
string, integer or boolean property reached by `properties` alone, an RFC 9110 token, unique ignoring case)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.analyze.lint._model import Finding

__all__ = ["CLAUDE_CODE_CUT", "ClientCut", "check_client_limits", "check_x_mcp_headers", "kept_units", "utf16_units"]


@dataclass(frozen=True)
class ClientCut:
    """A client that keeps the first `limit` UTF-16 code units of a text and appends `marker`."""

    client: str
    limit: int
    marker: str


# Claude Code 2.1.197 (the version the agents are pinned to) cuts an MCP tool's description and a server's
# instructions at 2,048, counted as JavaScript counts a string's length: UTF-16 code units, not bytes and not
# code points. Read from its own bundle (`BJ=2048`; a tool's prompt is `v.length>BJ?jx(v,BJ)+"… [truncated]":v`,
# and the instructions from getInstructions() the same way; `jx` drops a first half of a surrogate pair left
# at the cut), as anthropics/claude-code#41593 (2.1.84) and #87650 (2.1.234) report and its MCP documentation
# says ("truncates tool descriptions and server instructions at 2KB each"). Claude Code 2.1.332 raised the
# default to 4,096 (16,384 once a tool is loaded through tool search; CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH).
CLAUDE_CODE_CUT = ClientCut("Claude Code 2.1.197", 2048, "\u2026 [truncated]")
NEWER_CUT = ClientCut("Claude Code 2.1.332", 4096, "\u2026 [truncated]")


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


def _cut_message(what: str, text: str, verb: str = "is") -> str | None:
    length = utf16_units(text)
    if length <= CLAUDE_CODE_CUT.limit:
        return None
    kept = kept_units(text, CLAUDE_CODE_CUT.limit)
    message = (
        f"{what} {verb} {length:,} characters (UTF-16 code units, as Claude Code counts them); {CLAUDE_CODE_CUT.client}"
        f" keeps the first {kept:,} and adds '{CLAUDE_CODE_CUT.marker}': {length - kept:,} characters are cut"
        f" ({(length - kept) / length:.0%}) for every Claude Code user"
    )
    if length > NEWER_CUT.limit:
        newer = length - kept_units(text, NEWER_CUT.limit)
        message += f"; {NEWER_CUT.client} cuts {newer:,} at {NEWER_CUT.limit:,}"
    return message


def check_client_limits(tools: Sequence[dict[str, Any]], instructions: str | None) -> list[Finding]:
    """A finding per tool description and for the instructions longer than Claude Code keeps."""
    findings = []
    for tool in tools:
        description = tool.get("description")
        if isinstance(description, str):
            message = _cut_message(f"{tool.get('name')}'s description", description)
            if message is not None:
                findings.append(Finding("client-limit", [str(tool.get("name"))], [], message))
    if instructions is not None:
        message = _cut_message("the server instructions", instructions, "are")
        if message is not None:
            findings.append(Finding("client-limit", [], [], message))
    return findings


def check_x_mcp_headers(tools: Sequence[dict[str, Any]]) -> list[Finding]:
    """A finding per tool whose inputSchema has an x-mcp-header annotation a 2026-07-28 client drops it for."""
    from mcp.shared.inbound import X_MCP_HEADER_KEY, find_invalid_x_mcp_header

    findings = []
    for tool in tools:
        schema = tool.get("inputSchema")
        if not isinstance(schema, dict) or X_MCP_HEADER_KEY not in str(schema):
            continue
        reason = find_invalid_x_mcp_header(schema)
        if reason is not None:
            name = str(tool.get("name"))
            message = (
                f"{name}: invalid {X_MCP_HEADER_KEY} ({reason}); a Streamable HTTP client of MCP 2026-07-28 drops"
                f" the tool from its list, so no agent on such a client sees {name}"
            )
            findings.append(Finding("x-mcp-header", [name], [], message))
    return findings
