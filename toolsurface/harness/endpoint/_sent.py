"""What a request carried of each of the server's tools, matched by the client's own naming rule (its prefix,
the characters it replaces, how it cuts): kept, renamed, its description cut or rewritten, its schema's
keywords added, removed or changed, the MCP fields it left out, shown, deferred, only named, or dropped; and
its size before (the MCP tool as listed) and after (the definition as sent).

A tool is the server's when the naming rule names it so; a tool the request sends under the server's prefix
that matches none of the server's tools is still the server's (`unmatched`), never taken for the client's own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolsurface.harness.agents import ToolNaming
from toolsurface.harness.endpoint._conversation import ToolEntry
from toolsurface.harness.output import compact_json, possessive

__all__ = ["MCP_ONLY_FIELDS", "SentTool", "Sizes", "mark_refused", "match_sent", "schema_changes", "sent_schema"]

How = Literal["shown", "deferred", "named", "namespace", "dropped", "unmatched"]
# What an MCP tool may carry that no model API takes: a client keeps it out of the request or puts it elsewhere.
MCP_ONLY_FIELDS = ("title", "annotations", "outputSchema", "icons", "_meta")
# The longest tail a client adds where it cuts a description ("… [truncated]").
_MARKER_MAX = 40
_SCHEMA_KEYS = ("input_schema", "parameters", "parametersJsonSchema", "parametersSchema", "inputSchema")


@dataclass(frozen=True)
class SentTool:
    """One of the server's tools as one request carried it.

    `sent_as`: the full name the model calls it by (a namespace's tools as `NAMESPACE__NAME`), None when the
    request names it nowhere (dropped, or only its namespace named). `name_change`: "" (the tool's own name after the client's prefix), `cleaned`
    (characters replaced), `cut`, `hashed` (a suffix of the client's own). `description`: kept, cut, added,
    prefixed, appended, rewritten, dropped or `-` (no definition sent); a cut's `cut_at` counts UTF-16 code
    units of the original kept, and `marker` is what the client put after them. `schema`: each keyword path
    added (`+properties.wait_for_previous`), removed (`-$defs.Item.properties.when.format`) or changed (`~type`).
    `dropped`: the MCP-only fields the tool had and the request does not carry. `chars_*`/`tokens_*`: compact
    JSON and o200k tokens of the tool as listed and as sent (a tool only named: its name). `refused`: the
    API's message when this tool is what the API would refuse the request for. `not_judged`: the tool (by the
    name the request gave it) a request was refused for that would have been refused for this one too, had the
    API's message gone past the first: what the API makes of this one that request cannot say."""

    tool: str
    sent_as: str | None
    how: How
    name_change: str = ""
    description: str = "-"
    description_chars: int = 0
    sent_description_chars: int | None = None
    cut_at: int | None = None
    marker: str | None = None
    schema: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    chars_before: int = 0
    tokens_before: int = 0
    chars_after: int = 0
    tokens_after: int = 0
    digest: str | None = None
    note: str | None = None
    refused: str | None = None
    not_judged: str | None = None


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def describe_change(before: str, after: str | None) -> tuple[str, int | None, str | None]:
    """How a description came through: (kind, cut_at, marker)."""
    if after is None:
        return ("dropped" if before else "-"), None, None
    if after == before:
        return "kept", None, None
    if not before:
        return "added", None, None
    if not after:
        return "dropped", None, None
    if after.startswith(before):
        return "appended", None, None
    if after.endswith(before):
        return "prefixed", None, None
    common = next(
        (n for n, (b, a) in enumerate(zip(before, after, strict=False)) if b != a), min(len(before), len(after))
    )
    tail = after[common:]
    if common and common < len(before) and len(tail) <= _MARKER_MAX:
        return "cut", _utf16(before[:common]), tail
    return "rewritten", None, None


def schema_changes(before: Any, after: Any, path: str = "") -> list[str]:
    """Every keyword path where `after` differs from `before` (key order is no change)."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[str] = []
        for key in before:
            where = f"{path}.{key}" if path else str(key)
            if key not in after:
                found.append(f"-{where}")
            else:
                found += schema_changes(before[key], after[key], where)
        found += [f"+{path}.{key}" if path else f"+{key}" for key in after if key not in before]
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [
            c for n, (b, a) in enumerate(zip(before, after, strict=True)) for c in schema_changes(b, a, f"{path}[{n}]")
        ]
    return [] if before == after else [f"~{path}" if path else "~(schema)"]


def sent_schema(value: Mapping[str, Any]) -> Any:
    """A sent definition's schema, whichever key its API gives it (a chat tool's inside `function`)."""
    inner = _definition(value)
    for key in _SCHEMA_KEYS:
        if key in inner:
            return inner[key]
    return None


def _definition(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return value["function"] if isinstance(value.get("function"), dict) else value


def _description(value: Mapping[str, Any]) -> str | None:
    description = _definition(value).get("description")
    return description if isinstance(description, str) else None


def _name_change(naming: ToolNaming, tool: str, server: str, full: str) -> str:
    own = full[len(naming.prefix(server)) :] if full.startswith(naming.prefix(server)) else full
    if own == tool:
        return ""
    if naming.cuts(tool, server):
        return "cut"
    if naming.punycode and not tool.isascii():
        return "punycode"
    if own != naming.clean(tool):
        return "hashed"
    return "cleaned"


def _score(tool: Mapping[str, Any], entry: ToolEntry) -> int:
    """How alike a wire tool and a sent one are, to pair tools whose names collide."""
    value = entry.value if isinstance(entry.value, dict) else {}
    before, after = str(tool.get("description") or ""), _description(value) or ""
    score = 4 if before == after else 2 if after and before.startswith(after[: max(1, len(after) // 2)]) else 0
    return score + (1 if sent_schema(value) == tool.get("inputSchema") else 0)


@dataclass
class Sizes:
    """The o200k tokens of each text once: a run's requests carry the same definitions again and again."""

    tokens: Callable[[str], int]
    seen: dict[str, int] = field(default_factory=dict)

    def of(self, text: str) -> int:
        if text not in self.seen:
            self.seen[text] = self.tokens(text)
        return self.seen[text]


def match_sent(
    wire: Sequence[Mapping[str, Any]],
    entries: Sequence[ToolEntry],
    named: Iterable[str],
    namespace_named: bool,
    referenced: set[str],
    naming: ToolNaming,
    server: str,
    sizes: Sizes,
) -> tuple[list[SentTool], set[str]]:
    """Each wire tool as the request carried it, in the wire's order, then the tools sent under the server's
    prefix that match none; and the full names of every entry that is the server's."""
    named = set(named)
    prefix = naming.prefix(server)
    taken: set[int] = set()
    by_name: dict[str, list[int]] = {}
    for n, entry in enumerate(entries):
        by_name.setdefault(entry.name, []).append(n)
    hashed = naming.cut == "hash" or naming.collisions == "hash"
    under_prefix = [n for n, e in enumerate(entries) if e.name.startswith(prefix)]
    expected_by: dict[str, str] = {}
    found: list[SentTool] = []
    for tool in wire:
        name = str(tool.get("name"))
        expected = naming.full_name(name, server)
        candidates = [n for n in by_name.get(expected, []) if n not in taken]
        if not candidates and hashed:
            candidates = [n for n in under_prefix if n not in taken and naming.matches(entries[n].name, name, server)]
        before_text = compact_json(dict(tool))
        base: dict[str, Any] = {
            "tool": name,
            "description_chars": _utf16(str(tool.get("description") or "")),
            "chars_before": len(before_text),
            "tokens_before": sizes.of(before_text),
        }
        if candidates:
            best = max(candidates, key=lambda n: _score(tool, entries[n]))
            taken.add(best)
            found.append(_carried(tool, entries[best], referenced, naming, server, sizes, base))
        elif expected in named or (hashed and any(naming.matches(n, name, server) for n in named)):
            found.append(
                SentTool(
                    sent_as=expected,
                    how="named",
                    name_change=_name_change(naming, name, server, expected),
                    chars_after=len(expected),
                    tokens_after=sizes.of(expected),
                    **base,
                )
            )
        elif namespace_named:
            # The request names the server's namespace alone ("Deferred tool namespaces: - mcp__stub"):
            # the tool is sent under no name of its own.
            found.append(SentTool(sent_as=None, how="namespace", **base))
        else:
            other = expected_by.get(expected)
            note = (
                f"its name as the client makes it ({expected}) is {possessive(other)} too; the client sent one"
                if other
                else None
            )
            found.append(SentTool(sent_as=None, how="dropped", note=note, **base))
        expected_by.setdefault(expected, name)
    for n in under_prefix:
        if n not in taken:
            entry = entries[n]
            text = compact_json(entry.value)
            found.append(
                SentTool(
                    tool="",
                    sent_as=entry.name,
                    how="unmatched",
                    chars_after=len(text),
                    tokens_after=sizes.of(text),
                    note="sent under the server's prefix, and matches none of its tools by the client's naming rule",
                )
            )
    stub = {entries[n].name for n in taken} | {entries[n].name for n in under_prefix}
    return found, stub


def mark_refused(
    sent: Sequence[SentTool], names: Sequence[str], message: str, unjudged: Sequence[str] = ()
) -> list[SentTool]:
    """`sent`, each tool that `names` name (as a request gave them) marked with the API's `message`, unless a
    request before was refused for it, and each that `unjudged` name marked not judged, for the first of
    `names`, unless it was refused or left unjudged before."""

    def named(tool: SentTool, among: Sequence[str]) -> bool:
        as_sent = tool.sent_as
        return as_sent is not None and any(as_sent == name or as_sent.endswith(f"__{name}") for name in among)

    found = []
    for tool in sent:
        if tool.refused is None and named(tool, names):
            tool = replace(tool, refused=message, not_judged=None)
        elif tool.refused is None and tool.not_judged is None and names and named(tool, unjudged):
            tool = replace(tool, not_judged=names[0])
        found.append(tool)
    return found


def _carried(
    tool: Mapping[str, Any],
    entry: ToolEntry,
    referenced: set[str],
    naming: ToolNaming,
    server: str,
    sizes: Sizes,
    base: dict[str, Any],
) -> SentTool:
    value = entry.value if isinstance(entry.value, dict) else {}
    text = compact_json(value)
    before = str(tool.get("description") or "")
    after = _description(value)
    kind, cut_at, marker = describe_change(before, after)
    definition = _definition(value)
    schema = sent_schema(value)
    return SentTool(
        sent_as=entry.name,
        how="deferred" if entry.deferred and entry.name not in referenced else "shown",
        name_change=_name_change(naming, str(tool.get("name")), server, entry.name),
        description=kind,
        sent_description_chars=_utf16(after) if after is not None else None,
        cut_at=cut_at,
        marker=marker,
        schema=schema_changes(tool.get("inputSchema"), schema) if schema is not None else ["-inputSchema"],
        dropped=[key for key in MCP_ONLY_FIELDS if key in tool and key not in definition],
        chars_after=len(text),
        tokens_after=sizes.of(text),
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        **base,
    )
