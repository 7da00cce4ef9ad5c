"""Arguments for a call no calls file gives: from the tool's inputSchema, as its author would call it where the
schema says (a whole example at its root, each required parameter's `examples`, `default`, `enum` or `const`),
else as its schema and description suggest (harness.probe._values: an example its description gives, its
format, an existing path, its pattern), else the first valid instance fences generates from the schema, with
those values kept. Every set is checked against the schema (its own draft) before it is used; a schema nothing
valid can be made for is one reason.

fences walks a schema's decisions in a fixed order and the values suggested are chosen without chance, so the
arguments, and the answers measured with them, are the same from one run to the next.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.probe._values import examples_by_parameter, parameter_value, string_schema

__all__ = ["MadeArguments", "NoArguments", "schema_arguments"]

# Valid paths of a schema's decision graph tried before giving up: a schema whose first instances fail
# rarely has a valid one later.
MAX_TRIES = 200


class NoArguments(Exception):
    """No valid arguments could be made from a tool's schema: `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MadeArguments:
    """Arguments made from a schema, and where they came from: `examples`, `default`, `enum`, `const`,
    `description`, `format`, `path`, `pattern` (harness.probe._values), `generated` (with fences), or `none
    needed` for a tool that takes none."""

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


def _value(name: str, schema: Any, examples: Sequence[str] = ()) -> tuple[str, Any] | None:
    """A parameter's value: the one its schema names, else one its schema and description (or the tool's
    `examples` of it) suggest."""
    hinted = _hint(schema)
    if hinted is not None:
        return hinted
    made = parameter_value(name, schema, examples=examples)
    return (made.source, made.value) if made is not None else None


def schema_arguments(schema: Any, description: Any = None) -> MadeArguments:
    """Valid arguments for a tool of this inputSchema (and this description, whose examples of a parameter are
    used as its own description's are), or NoArguments."""
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
    given = examples_by_parameter(description, list(properties)) if isinstance(description, str) else {}
    for name in required:
        value = _value(name, properties.get(name), given.get(name, ()))
        if value is not None:
            hinted[name] = value[1]
            sources.append(value[0])
    if len(hinted) == len(required) and _valid(schema, hinted):
        return MadeArguments(hinted, tuple(dict.fromkeys(sources)))
    made = _generated(schema, hinted, sources)
    if made is None:
        raise NoArguments("no valid arguments could be made from its inputSchema; give them in a calls file")
    return MadeArguments(made, (*dict.fromkeys(sources), "generated"))


def _generated(schema: Mapping[str, Any], kept: Mapping[str, Any], sources: list[str]) -> dict[str, Any] | None:
    """The first instance fences makes that is valid for the schema, the `kept` values set as they are; the
    hints the other parameters' values came from are added to `sources`."""
    own: list[str] = []
    prepared = _prepared(copy.deepcopy(dict(schema)), own, skip=frozenset(kept))
    properties = prepared.get("properties")
    if isinstance(properties, dict):
        # fences takes a const only of a value it can hash; each kept value is put in the instance it makes.
        for name in kept:
            properties[name] = {"const": None}
    try:
        from fences import parse_json_schema

        graph = parse_json_schema(prepared)
        for tried, path in enumerate(graph.generate_paths()):
            if tried >= MAX_TRIES:
                break
            if not path.is_valid:
                continue
            instance = graph.execute(path.path)
            if isinstance(instance, dict):
                instance.update(kept)
            if _valid(schema, instance):
                sources += own
                return dict(instance)
    except Exception:  # fences refuses what it does not know (a keyword, a format): nothing made
        return None
    return None


def _hashable(value: Any) -> bool:
    return not isinstance(value, list | dict)


# Keywords whose value maps names to schemas (a property named "title" is a property, not an annotation).
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_ANNOTATIONS = ("examples", "$schema", "title", "$comment", "description", "x-mcp-header", "readOnly", "deprecated")
# The formats fences generates itself (it refuses a schema with any other).
_FENCES_FORMATS = ("date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "byte")


def _prepared(
    schema: Any,
    sources: list[str],
    name: str | None = None,
    description: str | None = None,
    skip: frozenset[str] = frozenset(),
) -> Any:
    """The schema with what fences cannot choose well chosen here: a parameter (`name`: a property, or the
    items of one, which take its `description`) whose schema names a value, or whose schema and description
    suggest one, becomes that value (its hint added to `sources`); any other string is at least one character
    (a server reads `""` as the argument missing); annotations (`examples`, `title`, `description`...) are
    dropped, and so is a format fences does not know. The properties in `skip` are left as they are."""
    if isinstance(schema, list):
        return [_prepared(item, sources, name, description) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if name is not None:
        value = _hint(schema)
        if value is None:
            made = parameter_value(name, schema, description)
            value = (made.source, made.value) if made is not None else None
        if value is not None and _hashable(value[1]):
            sources.append(value[0])
            return {"const": value[1]}
    own = schema.get("description")
    described = own if isinstance(own, str) else description
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS or (key == "format" and value not in _FENCES_FORMATS):
            continue
        if key in ("default", "enum", "const"):
            out[key] = value
        elif key == "properties" and isinstance(value, dict):
            out[key] = {prop: sub if prop in skip else _prepared(sub, sources, prop) for prop, sub in value.items()}
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {sub_name: _prepared(sub, sources) for sub_name, sub in value.items()}
        elif key in ("items", "prefixItems", "contains", "anyOf", "oneOf", "allOf") and name is not None:
            out[key] = _prepared(value, sources, name, described)
        else:
            out[key] = _prepared(value, sources)
    if string_schema(out) and "minLength" not in out and int(out.get("maxLength", 1)) >= 1:
        out["minLength"] = 1
    return out
