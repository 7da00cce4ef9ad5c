"""A recorded call checked by its shape against a candidate tool's inputSchema, without its values: the calls of
sessions imported without --keep-content keep each argument's name and kind (with a string's length and an
array's count), not its value (harness.session.importer._content.shape).

What the shapes decide is said as the stub would say it: an unknown parameter, a missing required one, a value of
the wrong JSON type, a string or an array too short or too long. What needs the values (a pattern, an enum, a
range, a format, an array's items) is listed per call as not checked. A value that is not a shape (one a mapping
sets) is checked in full."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolsurface.stubs.kit import refuse_unknown
from toolsurface.stubs.refusal import Refusal

__all__ = ["ShapeCheck", "check_by_shape", "shape_kind"]

_SHAPE = re.compile(
    r"^<(?:(?P<string>string), (?P<chars>\d+) chars?|(?P<array>array), (?P<items>\d+) items?"
    r"|(?P<number>number|integer)), [0-9a-f]+>$|^<(?P<literal>true|false|null)>$"
)
# A shape's kind, and the JSON Schema types that take it.
_TAKEN_BY = {
    "string": {"string"},
    "array": {"array"},
    "integer": {"integer", "number"},
    "number": {"number"},
    "boolean": {"boolean"},
    "null": {"null"},
    "object": {"object"},
}
# What a schema may say that no shape can decide.
_NEEDS_VALUES = (
    "pattern",
    "format",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "items",
    "prefixItems",
    "contains",
    "uniqueItems",
    "not",
    "if",
    "contentEncoding",
    "contentMediaType",
)
# A $ref chain longer than this is not followed.
_MAX_REFS = 32


@dataclass(frozen=True)
class ShapeCheck:
    """The refusal the shapes decide (None: they fit the schema as far as shapes tell), and what was not checked,
    each as `parameter: keyword`."""

    refusal: str | None
    unchecked: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Kind:
    kind: str
    size: int | None = None


def shape_kind(value: Any) -> _Kind | None:
    """The kind of a recorded shape (a string of 9 chars, an integer, ...), or None for a value that is not one."""
    if isinstance(value, dict):
        return _Kind("object", len(value))
    if not isinstance(value, str):
        return None
    found = _SHAPE.match(value)
    if found is None:
        return None
    if found["string"]:
        return _Kind("string", int(found["chars"]))
    if found["array"]:
        return _Kind("array", int(found["items"]))
    if found["number"]:
        return _Kind(found["number"])
    return _Kind({"true": "boolean", "false": "boolean", "null": "null"}[found["literal"]])


def _described(kind: _Kind) -> str:
    if kind.kind == "string":
        return f"a string of {kind.size:,} char{'' if kind.size == 1 else 's'}"
    if kind.kind == "array":
        return f"an array of {kind.size:,} item{'' if kind.size == 1 else 's'}"
    if kind.kind == "object":
        return "an object"
    return "an integer" if kind.kind == "integer" else f"a {kind.kind}"


def _resolved(schema: Any, root: Mapping[str, Any]) -> Any:
    """`schema` with its local `$ref`s followed (`#/$defs/x`); one that cannot be followed stays as it is."""
    for _ in range(_MAX_REFS):
        if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str):
            return schema
        ref: str = schema["$ref"]
        if not ref.startswith("#"):
            return schema
        target: Any = root
        for part in filter(None, ref[1:].split("/")):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        if target is None:
            return schema
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


class _Checker:
    def __init__(self, root: Mapping[str, Any], tool: str, strict: bool) -> None:
        self.root = root
        self.tool = tool
        self.strict = strict
        self.unchecked: list[str] = []

    def object(self, schema: Mapping[str, Any], arguments: Mapping[str, Any], path: str) -> None:
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        assert isinstance(properties, dict)
        required = [str(r) for r in schema.get("required") or [] if isinstance(r, str)]
        for name in required:
            if name not in arguments:
                within = f" in {path!r}" if path else ""
                raise Refusal(
                    f"missing required parameter {_at(path, name)!r}; required{within}: {', '.join(required)}",
                    required,
                )
        for name, value in arguments.items():
            if name in properties:
                self.value(properties[name], value, _at(path, name))
        unknown = [name for name in arguments if name not in properties]
        closed = schema.get("additionalProperties") is False or (self.strict and not path)
        if unknown and closed:
            if not properties:
                raise Refusal(f"{self.tool} takes no parameters ({unknown[0]!r} given); call it with {{}}", ["{}"])
            refuse_unknown(unknown, list(properties), noun="parameter", of=path or self.tool, label="parameters")
        for name in unknown:
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                self.value(extra, arguments[name], _at(path, name))
            else:
                # A schema that does not close its properties takes it; whether the server does, only a call says.
                self.unchecked.append(f"{_at(path, name)}: not named by the schema")
        if "patternProperties" in schema or "propertyNames" in schema:
            self.unchecked.append(f"{path or 'the arguments'}: patternProperties or propertyNames")

    def value(self, schema: Any, value: Any, path: str) -> None:
        schema = _resolved(schema, self.root)
        if not isinstance(schema, dict):
            return
        kind = shape_kind(value)
        if kind is None:
            self.full(schema, value, path)
            return
        self.types(schema, kind, path)
        for part in schema.get("allOf") or []:
            self.value(part, value, path)
        if kind.kind == "object":
            self.object(schema, value, path)
        elif kind.kind == "string":
            self.sizes(schema, kind, path, "minLength", "maxLength")
        elif kind.kind == "array":
            self.sizes(schema, kind, path, "minItems", "maxItems")
        said = [key for key in _NEEDS_VALUES if key in schema and _applies(key, kind)]
        self.unchecked += [f"{path}: {key}" for key in said]

    def types(self, schema: Mapping[str, Any], kind: _Kind, path: str) -> None:
        declared = schema.get("type")
        names = [str(t) for t in (declared if isinstance(declared, list) else [declared])] if declared else []
        if not names:
            branches = [_resolved(b, self.root) for key in ("anyOf", "oneOf") for b in schema.get(key) or []]
            typed = [b.get("type") for b in branches if isinstance(b, dict)]
            if branches and len(typed) == len(branches) and all(typed):
                names = list(dict.fromkeys(str(t) for ts in typed for t in (ts if isinstance(ts, list) else [ts])))
                if set(names) & _TAKEN_BY[kind.kind]:
                    self.unchecked.append(f"{path}: {'anyOf' if 'anyOf' in schema else 'oneOf'}")
            elif branches:
                self.unchecked.append(f"{path}: {'anyOf' if 'anyOf' in schema else 'oneOf'}")
        if names and not set(names) & _TAKEN_BY[kind.kind]:
            raise Refusal(f"parameter {path!r} must be of type {' or '.join(names)}, got {_described(kind)}", names)

    def sizes(self, schema: Mapping[str, Any], kind: _Kind, path: str, least: str, most: str) -> None:
        assert kind.size is not None
        low, high = schema.get(least), schema.get(most)
        if isinstance(low, int) and kind.size < low:
            raise Refusal(f"parameter {path!r} is not valid: {_described(kind)}, under its {least} {low}", [least])
        if isinstance(high, int) and kind.size > high:
            raise Refusal(f"parameter {path!r} is not valid: {_described(kind)}, over its {most} {high}", [most])

    def full(self, schema: Mapping[str, Any], value: Any, path: str) -> None:
        """A value the mapping set, not a shape: checked against its schema in full."""
        from jsonschema import Draft202012Validator

        error = next(iter(Draft202012Validator({**schema, **_definitions(self.root)}).iter_errors(value)), None)
        if error is not None:
            raise Refusal(f"parameter {path!r} is not valid: {error.message[:200]}", [path])


def _definitions(root: Mapping[str, Any]) -> dict[str, Any]:
    return {key: root[key] for key in ("$defs", "definitions") if key in root}


def _applies(key: str, kind: _Kind) -> bool:
    if key in ("items", "prefixItems", "contains", "uniqueItems"):
        return kind.kind == "array"
    if key in ("pattern", "format", "contentEncoding", "contentMediaType"):
        return kind.kind == "string"
    if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        return kind.kind in ("integer", "number")
    return True


def _at(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def check_by_shape(tool: Mapping[str, Any], arguments: Mapping[str, Any], strict: bool = True) -> ShapeCheck:
    """`arguments` (shapes, or values a mapping set) against `tool`'s inputSchema. `strict`: a parameter the
    schema does not name is refused, as the stub refuses it, whatever the schema says of others."""
    schema = tool.get("inputSchema")
    root = schema if isinstance(schema, dict) else {}
    checker = _Checker(root, str(tool.get("name")), strict)
    try:
        checker.object(root, arguments, "")
    except Refusal as refusal:
        return ShapeCheck(refusal.message, tuple(dict.fromkeys(checker.unchecked)))
    return ShapeCheck(None, tuple(dict.fromkeys(checker.unchecked)))
