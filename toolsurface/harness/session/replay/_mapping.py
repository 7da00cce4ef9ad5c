"""A mapping: which old tool and arguments become which call of a candidate surface, for `session replay
--mapping FILE` (a 27-tool surface switched to 8: `memory_store` becomes `item_store` with `kind: memory`).

The file (JSON, `toolsurface-mapping/1`) has `tools`: per old tool, `tool` (the candidate's, or null: it has
none), `arguments` (set on every call) and `rename` (an old argument's new name, or null: dropped; a dotted
name puts it inside an object argument, `fields.title`). An old tool the file does not name is replayed by its
own name. `new mapping OLD NEW` writes a starter."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["MAPPING_FORMAT", "CallMapping", "MappingClash", "ToolMapping", "read_mapping", "starter_mapping"]

MAPPING_FORMAT = "toolsurface-mapping/1"


class MappingClash(ToolsurfaceError):
    """A recorded call the mapping cannot make the new one of without losing an argument."""


@dataclass(frozen=True)
class ToolMapping:
    tool: str | None
    arguments: dict[str, Any] = field(default_factory=dict)
    rename: dict[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class CallMapping:
    tools: dict[str, ToolMapping]

    def call(self, tool: str, arguments: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """The candidate's call for a recorded one: its tool (None: the candidate has none) and arguments. A
        MappingClash where the mapping would put an argument where the call has one already (a value it sets, or a
        new name, that the call gives itself): never one silently over the other."""
        found = self.tools.get(tool)
        if found is None:
            return tool, dict(arguments)
        if found.tool is None:
            return None, dict(arguments)
        renamed: dict[str, Any] = {}
        for name, value in arguments.items():
            new = found.rename.get(name, name)
            if new is None:
                continue
            *outer, last = new.split(".")
            into = renamed
            for at, part in enumerate(outer):
                nested = into.setdefault(part, {})
                if not isinstance(nested, dict):
                    where = ".".join(outer[: at + 1])
                    raise MappingClash(f"the mapping puts {name} into {where}, which the call gives as a value")
                into = nested
            if last in into:
                raise MappingClash(f"the mapping names two of the call's arguments {new}")
            into[last] = value
        for name, value in found.arguments.items():
            if name in renamed and renamed[name] != value:
                raise MappingClash(f"the mapping sets {name}, which the call gives already ({renamed[name]!r})")
        return found.tool, {**renamed, **found.arguments}


def read_mapping(path: Path) -> CallMapping:
    """A mapping file, every part checked; what is wrong is one line naming the file and the part."""
    from toolsurface.harness.files import read_json

    data = read_json(path, what="mapping")
    if not isinstance(data, dict) or data.get("format") != MAPPING_FORMAT:
        raise ToolsurfaceError(f"{path}: not a mapping (its format is not {MAPPING_FORMAT!r})")
    tools = data.get("tools")
    if not isinstance(tools, dict):
        raise ToolsurfaceError(f"{path}: `tools` is not an object of old tool names")
    found = {}
    for old, entry in tools.items():
        where = f"{path}: tools.{old}"
        if not isinstance(entry, dict):
            raise ToolsurfaceError(f"{where} is not an object (tool, arguments, rename)")
        unknown = sorted(set(entry) - {"tool", "arguments", "rename"})
        if unknown:
            raise ToolsurfaceError(f"{where}: unknown key {unknown[0]!r} (a tool's entry has tool, arguments, rename)")
        tool, arguments, rename = entry.get("tool"), entry.get("arguments", {}), entry.get("rename", {})
        if tool is not None and not isinstance(tool, str):
            raise ToolsurfaceError(f"{where}.tool is not a tool's name or null")
        if not isinstance(arguments, dict):
            raise ToolsurfaceError(f"{where}.arguments is not an object")
        if not isinstance(rename, dict) or not all(v is None or isinstance(v, str) for v in rename.values()):
            raise ToolsurfaceError(f"{where}.rename is not an object of new names (or null, to drop one)")
        _check_targets(where, arguments, rename)
        found[str(old)] = ToolMapping(tool, dict(arguments), dict(rename))
    return CallMapping(found)


def _check_targets(where: str, arguments: Mapping[str, Any], rename: Mapping[str, str | None]) -> None:
    """No two arguments of a call go to one name, and none to a name the entry sets itself."""
    seen: dict[str, str] = {}
    for old, new in rename.items():
        if new is None:
            continue
        if new in seen:
            raise ToolsurfaceError(f"{where}.rename: {old} and {seen[new]} both become {new}")
        seen[new] = old
        if new.split(".")[0] in arguments:
            raise ToolsurfaceError(f"{where}.rename.{old}: {new} is set by the entry's arguments already")


def _properties(tool: Mapping[str, Any]) -> dict[str, Any]:
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return properties if isinstance(properties, dict) else {}


def _kind_argument(tool: Mapping[str, Any], noun: str) -> tuple[int, dict[str, str]]:
    """The argument of `tool` that likely takes `noun` (`kind: memory`), and how sure that is: 3 an enum holds it,
    2 a string argument's description names it, 1 a string argument is called `kind`; 0 and none otherwise."""
    strings = {
        name: schema
        for name, schema in _properties(tool).items()
        if isinstance(schema, dict) and schema.get("type") in ("string", None)
    }
    word = re.compile(rf"\b{re.escape(noun)}\b", re.I)
    for name, schema in strings.items():
        if noun in (schema.get("enum") or []):
            return 3, {name: noun}
    for name, schema in strings.items():
        if word.search(str(schema.get("description") or "")):
            return 2, {name: noun}
    return (1, {"kind": noun}) if "kind" in strings else (0, {})


def _counterpart(old: str, new_tools: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], dict[str, str]] | None:
    """The new tool an old one most likely became: the same name, else the one of the same verb (the name's
    last word) of the same noun (its first word), else the one of that verb surest to take the noun as an
    argument; none where two are as likely."""
    by_name = {str(t.get("name")): t for t in new_tools}
    if old in by_name:
        return by_name[old], {}
    words = old.split("_")
    if len(words) < 2:
        return None
    noun, verb = words[0], words[-1]
    ranked = []
    for name, tool in by_name.items():
        if name == verb or name.endswith("_" + verb):
            sure, arguments = _kind_argument(tool, noun)
            ranked.append((4 if name.split("_")[0] == noun else sure, tool, arguments))
    ranked.sort(key=lambda found: -found[0])
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1], ranked[0][2]


def starter_mapping(
    old_name: str, old_tools: Sequence[Mapping[str, Any]], new_name: str, new_tools: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A mapping from every old tool to its likely counterpart (null where none was found), with each of its
    arguments the new tool does not take to rename (null: dropped until named)."""
    tools: dict[str, Any] = {}
    for old in old_tools:
        name = str(old.get("name"))
        found = _counterpart(name, new_tools)
        if found is None:
            tools[name] = {"tool": None, "arguments": {}, "rename": {}}
            continue
        new, arguments = found
        taken = _properties(new)
        rename: dict[str, str | None] = {p: None for p in _properties(old) if p not in taken}
        tools[name] = {"tool": str(new.get("name")), "arguments": arguments, "rename": rename}
    return {"format": MAPPING_FORMAT, "from": old_name, "to": new_name, "tools": tools}
