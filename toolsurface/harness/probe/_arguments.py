"""Arguments for a call no calls file gives: from the tool's inputSchema, as its author would call it where the
schema says (a whole example at its root, each required parameter's `examples`, `default`, `enum` or `const`),
else the first valid instance fences generates from the schema, with those values kept. Every set is checked
against the schema (its own draft) before it is used; a schema nothing valid can be made for is one reason.

fences walks a schema's decisions in a fixed order, so the arguments, and the answers measured with them, are
the same from one run to the next.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MadeArguments", "NoArguments", "schema_arguments"]

# Valid paths of a schema's decision graph tried before giving up: a schema whose first instances fail
# (a pattern fences cannot follow, say) rarely has a valid one later.
MAX_TRIES = 200
# A value for a string of each format, where fences knows none.
FORMAT_SAMPLES = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri": "https://example.com/",
    "iri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uri-template": "https://example.com/{id}",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "json-pointer": "/",
    "relative-json-pointer": "0",
    "regex": ".*",
    "byte": "",
}


class NoArguments(Exception):
    """No valid arguments could be made from a tool's schema: `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MadeArguments:
    """Arguments made from a schema, and where they came from: `examples`, `default`, `enum`, `const`,
    `generated` (with fences), or `none needed` for a tool that takes none."""

    arguments: dict[str, Any]
    sources: tuple[str, ...]

    @property
    def source(self) -> str:
        return ", ".join(self.sources)


_HINTS = ("examples", "default", "enum", "const")


def _hint(schema: Any) -> tuple[str, Any] | None:
    """The value a parameter's schema names for itself, and the keyword that names it."""
    if not isinstance(schema, dict):
        return None
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return "examples", examples[0]
    if "default" in schema:
        return "default", schema["default"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return "enum", enum[0]
    if "const" in schema:
        return "const", schema["const"]
    return None


def _valid(schema: Mapping[str, Any], arguments: Any) -> bool:
    from toolsurface.harness.probe._calls import schema_problem

    return isinstance(arguments, dict) and schema_problem(schema, arguments) is None


def schema_arguments(schema: Any) -> MadeArguments:
    """Valid arguments for a tool of this inputSchema, or NoArguments."""
    if not isinstance(schema, dict):
        return MadeArguments({}, ("none needed",))
    examples = schema.get("examples")
    if isinstance(examples, list):
        for example in examples:
            if _valid(schema, example):
                return MadeArguments(dict(example), ("examples",))
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    required = [name for name in schema.get("required", []) if isinstance(name, str)]
    if not required and _valid(schema, {}):
        return MadeArguments({}, ("none needed",))
    hinted: dict[str, Any] = {}
    sources: list[str] = []
    for name in required:
        found = _hint(properties.get(name))
        if found is not None:
            hinted[name] = found[1]
            sources.append(found[0])
    if len(hinted) == len(required) and _valid(schema, hinted):
        return MadeArguments(hinted, tuple(dict.fromkeys(sources)))
    made = _generated(schema, hinted)
    if made is None:
        raise NoArguments("no valid arguments could be made from its inputSchema; give them in a calls file")
    return MadeArguments(made, (*dict.fromkeys(sources), "generated"))


def _generated(schema: Mapping[str, Any], kept: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first instance fences makes that is valid for the schema, the `kept` values set as they are."""
    prepared = _prepared(copy.deepcopy(dict(schema)))
    properties = prepared.get("properties")
    if isinstance(properties, dict):
        for name, value in kept.items():
            properties[name] = {"const": value}
    try:
        from fences import parse_json_schema

        graph = parse_json_schema(prepared)
        for tried, path in enumerate(graph.generate_paths()):
            if tried >= MAX_TRIES:
                break
            if not path.is_valid:
                continue
            instance = graph.execute(path.path)
            if _valid(schema, instance):
                return dict(instance)
    except Exception:  # fences refuses what it does not know (a keyword, a format): nothing made
        return None
    return None


# Keywords whose value maps names to schemas (a property named "title" is a property, not an annotation).
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_ANNOTATIONS = ("examples", "$schema", "title", "$comment", "description", "x-mcp-header", "readOnly", "deprecated")


def _prepared(schema: Any) -> Any:
    """The schema with what fences does not know turned into a value it can give: a string of a format it
    lacks becomes that format's sample; annotations (`examples`, `title`, `description`...) are dropped."""
    if isinstance(schema, list):
        return [_prepared(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in FORMAT_SAMPLES:
        return {"const": FORMAT_SAMPLES[fmt]}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key in ("default", "enum", "const"):
            out[key] = value
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _prepared(sub) for name, sub in value.items()}
        else:
            out[key] = _prepared(value)
    return out
