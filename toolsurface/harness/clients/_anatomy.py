"""What each client keeps of each part of a tool (clients --anatomy), from what its first request carried of it.

A tool as listed has its anatomy (harness.measure: its o200k tokens and chars by part). What a request carried
of it is recorded per tool (endpoint.SentTool, matched by the client's naming rule): the MCP-only members it
left out, how its description came through (kept, cut at so many UTF-16 units, dropped, rewritten), and every
keyword path of its schema the client removed (`-`), changed (`~`) or added (`+`), found by comparing the sent
schema with the listed one path by path. Applied to the listed tool, the removals and the cut give the tool as
kept: its anatomy, counted by the same rule, is what the client kept of each part. A part is
- kept: all of it; cut: some of it left out (a description cut, some of a schema's keywords removed);
  dropped: none of it; rewritten: the client changed it in place (a path `~`, a name it cleaned, cut or hashed,
  a description rewritten), its kept figures the listed ones; extended: kept whole with text of the client's
  own beside it (a description prefixed, appended or added); `-`: the tool has none of it;
- not observed: a member of the tool the request record says nothing of (any but name, description,
  inputSchema and the MCP-only title, annotations, outputSchema, icons and `_meta`): its kept figures unknown.

What the request carried beyond what it kept (`own`) is the sent definition's size less the kept tool's: the
client's envelope and prefix, the keywords it added, the difference of what it rewrote. A tool the request only
named keeps its name; one carried under a namespace alone, or dropped, keeps nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from toolsurface.harness.clients._model import ClientRow
from toolsurface.harness.endpoint import MCP_ONLY_FIELDS, SentTool
from toolsurface.harness.measure import ANATOMY_PARTS, ToolAnatomy, anatomy_pieces, tool_anatomy

if TYPE_CHECKING:
    from toolsurface.harness.session.plan import PlannedSurface

__all__ = ["ClientAnatomy", "KeptPart", "ToolKept", "client_anatomy", "surface_wires"]

# What a part of a tool became in a request, and of a list's tools together (KeptPart.how).
KEPT, CUT, DROPPED, REWRITTEN, EXTENDED, NONE, NOT_OBSERVED = (
    "kept",
    "cut",
    "dropped",
    "rewritten",
    "extended",
    "-",
    "not observed",
)
# Members of a tool whose fate a request's record says.
_OBSERVED = frozenset(("name", "description", "inputSchema", *MCP_ONLY_FIELDS))
_CARRIED = ("shown", "deferred")


@dataclass(frozen=True)
class KeptPart:
    """One part of a tool (or of a list's tools): as listed and as the client kept it (None: not observed), and
    what became of it. Over a list, `tools` counts the tools where it was not simply kept (cut, dropped, ...)."""

    part: str
    listed_chars: int
    listed_tokens: int
    kept_chars: int | None
    kept_tokens: int | None
    how: str
    tools: int = 0


@dataclass(frozen=True)
class ToolKept:
    """One tool as one client's first request carried it: each part kept, the sent definition's size, and what the
    request carried beyond what it kept (`own_*`; None where no definition was sent). `added`: the schema keyword
    paths the client added; `note`: why the tool is not aligned, where it is not."""

    tool: str
    how: str
    parts: tuple[KeptPart, ...]
    sent_chars: int | None
    sent_tokens: int | None
    own_chars: int | None
    own_tokens: int | None
    added: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class ClientAnatomy:
    """What one client (at its version, in its mode) kept of each part of a surface's tools, summed over them."""

    surface: str
    client: str
    version: str | None
    mode: str
    status: str
    parts: tuple[KeptPart, ...]
    sent_chars: int
    sent_tokens: int
    own_chars: int | None
    own_tokens: int | None
    tools: tuple[ToolKept, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "parts": {p.part: _part_json(p) for p in self.parts},
            "sent_chars": self.sent_chars,
            "sent_tokens": self.sent_tokens,
            "own_chars": self.own_chars,
            "own_tokens": self.own_tokens,
            "tools": [
                {
                    "tool": t.tool,
                    "how": t.how,
                    "parts": {p.part: _part_json(p, of_tools=False) for p in t.parts},
                    "sent_chars": t.sent_chars,
                    "sent_tokens": t.sent_tokens,
                    "own_chars": t.own_chars,
                    "own_tokens": t.own_tokens,
                    "added": list(t.added),
                    "note": t.note,
                }
                for t in self.tools
            ],
        }


def _part_json(p: KeptPart, of_tools: bool = True) -> dict[str, Any]:
    """A part's figures; `of_tools`: over a list's tools, with how many did not simply keep it."""
    found: dict[str, Any] = {
        "listed_chars": p.listed_chars,
        "listed_tokens": p.listed_tokens,
        "kept_chars": p.kept_chars,
        "kept_tokens": p.kept_tokens,
        "how": p.how,
    }
    return {**found, "tools": p.tools} if of_tools else found


def surface_wires(surfaces: Sequence[PlannedSurface]) -> dict[str, list[dict[str, Any]]]:
    """Each planned surface's tools as its stub served them to the clients (its planned list), by the surface's name
    (as the clients' rows name it)."""
    return {planned.name: list(planned.wire) for planned in surfaces}


def client_anatomy(row: ClientRow, wire: Sequence[Mapping[str, Any]]) -> ClientAnatomy | None:
    """What the row's client kept of each part of `wire` (the surface's tools as listed), tool by tool and
    summed; None for a row with no request (a client not installed, a session that sent none)."""
    if row.shown is None:
        return None
    tools = [_tool_kept(dict(tool), sent) for tool, sent in zip(wire, row.sent, strict=False)]
    carried = [t for t in tools if t.sent_chars is not None]
    own = [t for t in carried if t.own_chars is not None]
    return ClientAnatomy(
        surface=row.surface,
        client=row.client,
        version=row.version,
        mode=row.mode,
        status=row.status,
        parts=tuple(_summed(part, [t.parts[n] for t in tools]) for n, part in enumerate(ANATOMY_PARTS)),
        sent_chars=sum(t.sent_chars or 0 for t in carried),
        sent_tokens=sum(t.sent_tokens or 0 for t in carried),
        own_chars=sum(t.own_chars or 0 for t in own) if own else None,
        own_tokens=sum(t.own_tokens or 0 for t in own) if own else None,
        tools=tuple(tools),
    )


def _summed(part: str, each: Sequence[KeptPart]) -> KeptPart:
    """A part over a list's tools: its figures summed, and what became of it where the tool has it."""
    present = [p for p in each if p.how != NONE]
    hows = {p.how for p in present}
    unknown = any(p.kept_chars is None for p in present)
    how = NONE if not present else hows.pop() if len(hows) == 1 else _mixed(hows)
    return KeptPart(
        part=part,
        listed_chars=sum(p.listed_chars for p in each),
        listed_tokens=sum(p.listed_tokens for p in each),
        kept_chars=None if unknown else sum(p.kept_chars or 0 for p in each),
        kept_tokens=None if unknown else sum(p.kept_tokens or 0 for p in each),
        how=how,
        tools=sum(1 for p in present if p.how != KEPT),
    )


def _mixed(hows: set[str]) -> str:
    """What became of a part over tools that met different fates: not observed or rewritten in any, extended in
    some and kept in the rest, else cut (some of it left out)."""
    for how in (NOT_OBSERVED, REWRITTEN):
        if how in hows:
            return how
    return EXTENDED if hows == {KEPT, EXTENDED} else CUT


def _tool_kept(tool: dict[str, Any], sent: SentTool) -> ToolKept:
    listed = tool_anatomy(tool)
    note = None
    if sent.tool != str(tool.get("name")):
        note = "not matched to the listed tool"
    elif sent.chars_before != listed.chars:
        note = f"listed as {listed.chars:,} chars here, {sent.chars_before:,} where the session served it"
    if note is not None:
        return ToolKept(sent.tool, sent.how, _parts(listed, None), None, None, None, None, note=note)
    if sent.how not in _CARRIED:
        # Only named (its name kept), or carried under its namespace alone, or dropped (nothing kept).
        named = sent.how == "named"
        parts = tuple(_only(p, keep=named and p.part == "name") for p in _parts(listed, listed))
        if named:
            return ToolKept(sent.tool, sent.how, parts, sent.chars_after, sent.tokens_after, None, None)
        return ToolKept(sent.tool, sent.how, parts, None, None, None, None)
    kept, changed, hows = _kept_form(tool, sent)
    anatomy = tool_anatomy(kept)
    cut = _lessened(tool, kept)
    rewritten = _lessened(kept, _without(kept, changed)) if changed else set()
    return ToolKept(
        tool=sent.tool,
        how=sent.how,
        parts=_parts(listed, anatomy, cut, rewritten, hows, _unobserved(tool)),
        sent_chars=sent.chars_after,
        sent_tokens=sent.tokens_after,
        own_chars=sent.chars_after - anatomy.chars,
        own_tokens=sent.tokens_after - anatomy.tokens,
        added=tuple(path[1:] for path in sent.schema if path.startswith("+")),
    )


def _only(part: KeptPart, keep: bool) -> KeptPart:
    """The part kept whole, or left out."""
    if keep or not part.listed_chars:
        return part
    return replace(part, kept_chars=0, kept_tokens=0, how=DROPPED)


def _unobserved(tool: Mapping[str, Any]) -> bool:
    return any(key not in _OBSERVED for key in tool)


def _parts(
    listed: ToolAnatomy,
    kept: ToolAnatomy | None,
    cut: Collection[str] = (),
    rewritten: Collection[str] = (),
    hows: Mapping[str, str] | None = None,
    unobserved: bool = False,
) -> tuple[KeptPart, ...]:
    """Each part as listed and as kept (`kept` None: nothing observed), and what became of it: `cut` names the
    parts the request left some of out, `rewritten` those it changed in place, `hows` what its record says."""
    found = []
    for before in listed.parts:
        after = kept.of(before.part) if kept is not None else None
        if before.part == "other" and unobserved:
            after = None
        found.append(
            KeptPart(
                part=before.part,
                listed_chars=before.chars,
                listed_tokens=before.tokens,
                kept_chars=after.chars if after is not None else None,
                kept_tokens=after.tokens if after is not None else None,
                how=_how(before.part, before.chars, after.chars if after else None, cut, rewritten, hows or {}),
            )
        )
    return tuple(found)


def _how(
    part: str, listed: int, kept: int | None, cut: Collection[str], rewritten: Collection[str], hows: Mapping[str, str]
) -> str:
    if not listed:
        return NONE
    if kept is None:
        return NOT_OBSERVED
    if part in hows:
        return hows[part]
    if part in rewritten:
        return REWRITTEN
    if part in cut:
        return CUT if kept else DROPPED
    return KEPT


def _content(tool: Any) -> dict[str, int]:
    """Each part's characters but its commas: a member left out takes the comma before it out of the structure,
    which leaves the structure itself as it was."""
    found = dict.fromkeys(ANATOMY_PARTS, 0)
    for part, text in anatomy_pieces(tool)[0]:
        found[part] += len(text) - text.count(",")
    return found


def _lessened(before: Any, after: Any) -> set[str]:
    """The parts of which `after` holds less than `before`."""
    was = _content(before)
    return {p for p, n in _content(after).items() if n < was[p]}


def _kept_form(tool: dict[str, Any], sent: SentTool) -> tuple[dict[str, Any], set[tuple[Any, ...]], dict[str, str]]:
    """The listed tool less what the request left out, the paths it changed in place, and what became of the
    parts its record says outright (the name, the description)."""
    hows: dict[str, str] = {}
    if sent.name_change:
        hows["name"] = REWRITTEN
    kept = {key: value for key, value in tool.items() if key not in sent.dropped and key in _OBSERVED}
    description = tool.get("description")
    if sent.description in ("prefixed", "appended", "added"):
        hows["description"] = EXTENDED
    elif sent.description == "rewritten":
        hows["description"] = REWRITTEN
    elif isinstance(description, str) and description:
        if sent.description == "dropped":
            del kept["description"]
        elif sent.description == "cut" and sent.cut_at is not None:
            kept["description"] = _utf16_prefix(description, sent.cut_at)
    removed, changed = _schema_paths(tool.get("inputSchema"), sent.schema)
    if ("inputSchema",) in removed:
        kept.pop("inputSchema", None)
        return kept, set(), hows
    if removed:
        kept["inputSchema"] = _pruned(tool.get("inputSchema"), removed, ("inputSchema",))
    return kept, changed, hows


def _utf16_prefix(text: str, units: int) -> str:
    """The first `units` UTF-16 code units of `text` (a character they split is left out)."""
    count = 0
    for index, char in enumerate(text):
        count += 2 if ord(char) > 0xFFFF else 1
        if count > units:
            return text[:index]
    return text


def _schema_paths(schema: Any, changes: Sequence[str]) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    """The removed (`-`) and changed (`~`) keyword paths of a request's record, as paths into the tool."""
    if "-inputSchema" in changes:
        return {("inputSchema",)}, set()
    where = _path_names(schema)
    removed: set[tuple[Any, ...]] = set()
    changed: set[tuple[Any, ...]] = set()
    for change in changes:
        sign, path = change[:1], change[1:]
        target = ("inputSchema",) if path == "(schema)" else where.get(path)
        if target is None:
            continue
        (removed if sign == "-" else changed if sign == "~" else set()).add(target)
    return removed, changed


def _path_names(schema: Any) -> dict[str, tuple[Any, ...]]:
    """Every node of a schema by the name the request record gives its path (`properties.q.title`,
    `anyOf[0].type`), the first where two share one."""
    names: dict[str, tuple[Any, ...]] = {}
    stack: list[tuple[Any, str, tuple[Any, ...]]] = [(schema, "", ("inputSchema",))]
    while stack:
        value, name, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                where = f"{name}.{key}" if name else str(key)
                names.setdefault(where, (*path, key))
                stack.append((item, where, (*path, key)))
        elif isinstance(value, list):
            for n, item in enumerate(value):
                where = f"{name}[{n}]"
                names.setdefault(where, (*path, n))
                stack.append((item, where, (*path, n)))
    return names


def _pruned(value: Any, removed: set[tuple[Any, ...]], path: tuple[Any, ...]) -> Any:
    """`value` (at `path` in the tool) without the members at the `removed` paths."""
    if isinstance(value, dict):
        return {k: _pruned(v, removed, (*path, k)) for k, v in value.items() if (*path, k) not in removed}
    if isinstance(value, list):
        return [_pruned(v, removed, (*path, n)) for n, v in enumerate(value)]
    return value


def _without(tool: dict[str, Any], paths: set[tuple[Any, ...]]) -> dict[str, Any]:
    """The kept tool without the paths the client changed: what is left of each part it did not touch."""
    if ("inputSchema",) in paths:
        return {k: v for k, v in tool.items() if k != "inputSchema"}
    if "inputSchema" not in tool:
        return tool
    return {**tool, "inputSchema": _pruned(tool["inputSchema"], paths, ("inputSchema",))}
