"""A surface written as plain data, put in the wire form the MCP SDK's server gives it, without the SDK.

A stub serves a built surface through the SDK, which dumps each tool twice: as `mcp.types.Tool` (by alias,
no None values), then through the protocol version's generated wire model, whose fields are in name order
(`_meta`, `annotations`, `description`, ..., `title`) and whose inputSchema and outputSchema models put
`$schema`, `properties`, `required`, `type` first and any other keyword after them as given. For tools
that use only those fields with values of their declared types, the two dumps change nothing but the key
order, so the same order gives the same bytes; the SDK's import (about half a second) and an in-memory
connection are left out of a report that only needs the sizes. Anything else (icons, execution, `_meta`,
a None anywhere, prompts or resources beside the tools, another protocol era, another version of the
SDK's wire types than the one this order was checked on) is listed through the SDK as before. Tests hold
this form equal to what a real connection receives, for every bundled surface.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.util import find_spec
from typing import Any

from toolsurface.harness.protocol import DEFAULT_PROTOCOL

__all__ = ["PLAIN_WIRE_TYPES", "STUB_CAPABILITIES", "plain_wire_tools", "stub_capabilities"]

# The release of the SDK's wire types (PyPI mcp-types) whose generated models this order was read from.
PLAIN_WIRE_TYPES = "2.3.0"

_TOOL_ORDER = ("annotations", "description", "inputSchema", "name", "outputSchema", "title")
_ANNOTATION_ORDER = ("destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint", "title")
_SCHEMA_FIELDS = ("$schema", "properties", "required", "type")
_TEXT_FIELDS = ("name", "title", "description")


@cache
def _wire_types_release() -> str | None:
    """The installed mcp-types release, read from its metadata folder beside the package (not imported)."""
    spec = find_spec("mcp_types")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.dirname(next(iter(spec.submodule_search_locations)))
    prefix = "mcp_types-"
    releases = [
        name[len(prefix) : -len(".dist-info")]
        for name in os.listdir(folder)
        if name.startswith(prefix) and name.endswith(".dist-info")
    ]
    return releases[0] if len(releases) == 1 else None


def _json_data(value: Any) -> bool:
    """Whether `value` is JSON data as json.loads gives it (str keys, lists, finite numbers), with no null."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_data(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_data(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int)


def _schema(value: Any) -> dict[str, Any] | None:
    """An input or output schema in wire order, or None where its model could change or refuse it."""
    if not isinstance(value, dict):
        return None
    if value.get("type") != "object":
        return None
    if "$schema" in value and not isinstance(value["$schema"], str):
        return None
    properties = value.get("properties", {})
    if not isinstance(properties, dict) or not all(isinstance(p, dict | bool) for p in properties.values()):
        return None
    required = value.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        return None
    ordered = {key: value[key] for key in _SCHEMA_FIELDS if key in value}
    return {**ordered, **{k: v for k, v in value.items() if k not in ordered}}


def _annotations(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not set(value) <= set(_ANNOTATION_ORDER):
        return None
    for key, hint in value.items():
        if not isinstance(hint, str if key == "title" else bool):
            return None
    return {key: value[key] for key in _ANNOTATION_ORDER if key in value}


def _tool(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not set(value) <= set(_TOOL_ORDER) or not _json_data(value):
        return None
    if not all(isinstance(value[key], str) for key in _TEXT_FIELDS if key in value) or "name" not in value:
        return None
    shaped: dict[str, Any] = {}
    for key in _TOOL_ORDER:
        if key not in value:
            continue
        if key == "annotations":
            part = _annotations(value[key])
        elif key in ("inputSchema", "outputSchema"):
            part = _schema(value[key])
        else:
            part = value[key]
        if part is None:
            return None
        shaped[key] = part
    return shaped if "inputSchema" in shaped else None


def plain_wire_tools(
    tools: Sequence[object], protocol: str, beside: Mapping[str, object | None] | None = None
) -> list[dict[str, Any]] | None:
    """`tools` (as a surface's build gave them) in the wire form a client of our stub receives in
    `protocol`, or None where only the SDK can say. `beside`: what the surface advertises beside the tools
    (prompts, resources, resource templates), any of which sends the listing to the SDK."""
    if protocol != DEFAULT_PROTOCOL or any(v is not None for v in (beside or {}).values()):
        return None
    if _wire_types_release() != PLAIN_WIRE_TYPES:
        return None
    shaped = []
    for tool in tools:
        wire = _tool(tool)
        if wire is None:
            return None
        shaped.append(wire)
    return shaped


# What our stub's server declares for a surface of tools alone (no prompts or resources), as its handshake
# answer gives it on the same release of the SDK.
STUB_CAPABILITIES: dict[str, Any] = {"tools": {"listChanged": False}}


def stub_capabilities(skills: bool) -> dict[str, Any]:
    """What our stub declares for a surface of tools alone, or of tools and skills: then the resources its skills'
    files are read through, and the skills extension (stubs.mcp_server)."""
    if not skills:
        return dict(STUB_CAPABILITIES)
    from toolsurface.harness.surface import SKILLS_EXTENSION

    return {
        "resources": {"subscribe": False, "listChanged": False},
        **STUB_CAPABILITIES,
        "extensions": {SKILLS_EXTENSION: {}},
    }
