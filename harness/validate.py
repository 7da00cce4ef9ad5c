"""Checks that a tool list is one an MCP client would accept: shape, JSON Schema, unique names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.errors import InvalidToolList

__all__ = ["check_input_schema", "validate_wire_tools"]


def check_input_schema(schema: Any, where: str) -> None:
    """Refuse an inputSchema that is not an object schema valid against its metaschema."""
    from jsonschema import exceptions, validators

    if not isinstance(schema, dict):
        raise InvalidToolList(f"{where}: inputSchema is not a JSON object")
    if schema.get("type") != "object":
        raise InvalidToolList(f'{where}: inputSchema must have "type": "object", got {schema.get("type")!r}')
    validator = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except exceptions.SchemaError as error:
        path = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise InvalidToolList(f"{where}: inputSchema is not a valid JSON Schema at {path}: {error.message}") from None
    except RecursionError:
        raise InvalidToolList(f"{where}: inputSchema nests too deeply to check") from None


def validate_wire_tools(tools: Sequence[Any], origin: str) -> None:
    """Check a tools array in wire form (camelCase keys) and raise one clear error for the first problem."""
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise InvalidToolList(f"{origin}: tools[{index}] is not a JSON object")
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise InvalidToolList(f"{origin}: tools[{index}] has no name")
        where = f"{origin}: tool {name!r}"
        if name in seen:
            raise InvalidToolList(f"{origin}: two tools are named {name!r}")
        seen.add(name)
        description = tool.get("description")
        if description is not None and not isinstance(description, str):
            raise InvalidToolList(f"{where}: description is not a string")
        if "inputSchema" not in tool:
            raise InvalidToolList(f"{where}: has no inputSchema")
        check_input_schema(tool["inputSchema"], where)
