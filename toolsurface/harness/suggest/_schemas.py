"""Parameters as families compare and merge them: a parameter's type (what makes two schemas of one name
conflict), whether two tools share a parameter, and the one schema of a parameter several tools take."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["common_description", "merged_schema", "parameters", "required", "schema_type", "shares", "type_hint"]


def parameters(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's parameters by name, as its inputSchema declares them."""
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return dict(properties) if isinstance(properties, dict) else {}


def required(tool: Mapping[str, Any]) -> list[str]:
    schema = tool.get("inputSchema")
    names = schema.get("required") if isinstance(schema, dict) else None
    return [str(n) for n in names] if isinstance(names, list) else []


def schema_type(schema: Any) -> str | None:
    """A parameter's JSON type as two tools of one parameter name must agree on it: `string`, `integer` and
    `number` alike, `array of string`; None where the schema does not say (it agrees with any)."""
    if not isinstance(schema, dict):
        return None
    declared = schema.get("type")
    if isinstance(declared, list):
        found = sorted({str(t) for t in declared if t != "null"})
        declared = found[0] if len(found) == 1 else "|".join(found) if found else None
    if declared is None:
        options = [o for key in ("anyOf", "oneOf") for o in schema.get(key) or [] if isinstance(o, dict)]
        found = sorted({t for t in (schema_type(o) for o in options) if t is not None and t != "null"})
        declared = found[0] if len(found) == 1 else "|".join(found) if found else None
        if declared is None and isinstance(schema.get("enum"), list):
            declared = "string"
    if not isinstance(declared, str):
        return None
    if declared == "integer":
        return "number"
    if declared == "array":
        items = schema_type(schema.get("items"))
        return f"array of {items}" if items is not None else "array"
    return declared


def _agree(first: Any, second: Any) -> bool:
    a, b = schema_type(first), schema_type(second)
    return a is None or b is None or a == b


def shares(own: Mapping[str, Any], others: Sequence[Mapping[str, Any]], *, by_name: bool = False) -> int:
    """How many of a tool's parameters another tool takes too, of a type that agrees (`by_name`: of any type)."""
    return sum(
        1 for name, schema in own.items() if any(name in o and (by_name or _agree(schema, o[name])) for o in others)
    )


def common_description(schemas: Sequence[Mapping[str, Any]]) -> str | None:
    """The description most of them give (of two as common, the shorter)."""
    said = [str(s["description"]) for s in schemas if isinstance(s.get("description"), str) and s["description"]]
    if not said:
        return None
    counts = Counter(said)
    return min(counts, key=lambda text: (-counts[text], len(text), said.index(text)))


def merged_schema(schemas: Sequence[Mapping[str, Any]], description: str) -> dict[str, Any]:
    """One schema for a parameter several tools take: the first one's keys in its order, an enum the union of
    theirs, any other key that differs between them left out (so no value one of them took is refused), and
    `description` (none where it is empty)."""
    first = schemas[0]
    merged: dict[str, Any] = {}
    for key, value in first.items():
        if key == "description":
            if description:
                merged[key] = description
        elif key == "enum":
            if all(isinstance(s.get("enum"), list) for s in schemas):
                merged[key] = list(dict.fromkeys(v for s in schemas for v in s["enum"]))
        elif all(s.get(key) == value for s in schemas[1:]):
            merged[key] = value
        elif key == "type":
            kinds = {str(s.get("type")) for s in schemas}
            merged[key] = "number" if kinds <= {"integer", "number"} else value
    if description and "description" not in merged:
        merged["description"] = description
    return merged


def type_hint(schema: Any) -> str:
    """What a parameter takes, in a word or a few, where it is not any string: its values (low|normal|high), its
    type (boolean, array), its format (date-time)."""
    if not isinstance(schema, dict):
        return ""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and len(enum) <= 8:
        return "|".join(str(v) for v in enum)
    declared = schema.get("type")
    found = declared if isinstance(declared, str) else schema_type(schema)
    if found is not None and found.startswith("array"):
        found = "array"
    words = [w for w in (found if found != "string" else None, schema.get("format")) if isinstance(w, str)]
    return ", ".join(words)
