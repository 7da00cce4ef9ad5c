"""A small value that matches a JSON Schema: the scripted model's answer to an agent's structured side
request (a router's choice, a check of who speaks next), so the agent goes on instead of retrying."""

from __future__ import annotations

from typing import Any

__all__ = ["sample_value"]


def sample_value(schema: object, depth: int = 0) -> Any:
    if not isinstance(schema, dict) or depth > 20:
        return {}
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return sample_value(schema[key][0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    kind = kind.lower() if isinstance(kind, str) else ("object" if "properties" in schema else None)
    if kind == "object":
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            return {}
        return {name: sample_value(sub, depth + 1) for name, sub in properties.items()}
    if kind == "array":
        minimum = schema.get("minItems")
        count = minimum if isinstance(minimum, int) else 0
        return [sample_value(schema.get("items"), depth + 1) for _ in range(count)]
    if kind == "string":
        return ""
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return {}
