"""Small helpers for writing a surface: JSON Schema properties, annotations from the access split.

A tool is written as plain data in its wire form (camelCase keys, as tools/list sends it); the surface
model validates it as an MCP Tool when the surface is built, so loading a surface imports no MCP SDK.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolsurface.harness.surface._model import Access

__all__ = [
    "ToolData",
    "annotations_for",
    "join_words",
    "make_tool",
    "object_schema",
    "prop",
]

Schema = dict[str, Any]
ToolData = dict[str, Any]
"""A tool in wire form: `name`, `description`, `inputSchema`, `annotations`."""


def prop(type_: str | list[str], description: str = "", **extra: Any) -> Schema:
    """A property; without a description when its name says all there is to say."""
    schema: Schema = {"type": type_}
    if description:
        schema["description"] = description
    return {**schema, **extra}


def object_schema(properties: Mapping[str, Schema], required: Sequence[str] = ()) -> Schema:
    schema: Schema = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    return schema


def annotations_for(access: Access) -> dict[str, bool]:
    """readOnlyHint/destructiveHint as the split says; a write that is not destructive must say so."""
    if access is Access.READ:
        return {"readOnlyHint": True}
    return {"readOnlyHint": False, "destructiveHint": access is Access.IRREVERSIBLE}


def make_tool(
    name: str,
    description: str,
    access: Access,
    properties: Mapping[str, Schema],
    required: Sequence[str] = (),
) -> ToolData:
    return {
        "name": name,
        "description": description,
        "inputSchema": object_schema(properties, required),
        "annotations": annotations_for(access),
    }


def join_words(words: Iterable[str], last: str = "or") -> str:
    """`a`, `a or b`, `a, b or c`."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
