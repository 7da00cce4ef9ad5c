"""A surface of plain data is listed without the SDK in exactly the form a real connection receives."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from toolsurface.harness.measure import list_plainly, list_surface, list_text, plain_lists, wire_list
from toolsurface.harness.protocol import MODERN_PROTOCOL
from toolsurface.harness.surface import Kind, SurfaceDefinition, default_surfaces, resolve, resolve_all

pytestmark = pytest.mark.anyio

BUNDLED = [*default_surfaces(), "helpdesk", "helpdesk-tools"]

# Every field the plain form orders, in an order none of the wire models uses, with keywords the schema models
# keep after their own fields.
TRICKY: list[dict[str, Any]] = [
    {
        "title": "Export tickets",
        "name": "ticket_export",
        "outputSchema": {
            "additionalProperties": False,
            "type": "object",
            "properties": {"rows": {"type": "array", "items": {"type": "string"}}},
            "$schema": "https://json-schema.org/draft/2020-12/schema",
        },
        "inputSchema": {
            "$defs": {"when": {"type": "string", "format": "date"}},
            "required": ["since"],
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "since": {"$ref": "#/$defs/when"},
                "all": True,
                "limit": {"type": "integer", "maximum": 1.5},
            },
        },
        "description": "Export tickets → CSV, «every» one since a date.",
        "annotations": {"title": "Export", "readOnlyHint": True, "openWorldHint": False, "idempotentHint": True},
    },
    {
        "name": "ticket_close",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    },
]


def definition(tools: Sequence[dict[str, Any]], **beside: Any) -> SurfaceDefinition:
    return SurfaceDefinition("tricky", "Tricky", "Fields in every order.", build=lambda kinds: list(tools), **beside)


def series(item: SurfaceDefinition) -> list[list[Kind]]:
    kinds = [*item.kinds, *([item.growth_kind] if item.growth_kind else [])]
    return [kinds[:count] for count in range(1, len(kinds) + 1)]


@pytest.mark.parametrize("name", BUNDLED)
async def test_every_list_of_a_bundled_surface_is_the_list_a_real_connection_receives(name: str) -> None:
    item = resolve(name)
    assert isinstance(item, SurfaceDefinition)
    for kinds in series(item):
        plain = list_plainly(item, kinds)
        real = await list_surface(item.build_surface(kinds))
        assert plain is not None
        assert list_text(plain.tools) == list_text(real.tools)
        assert plain.parts == real.parts and plain.protocol_version == real.protocol_version


async def test_fields_in_any_order_come_out_in_the_order_a_real_connection_receives() -> None:
    item = definition(TRICKY, instructions="Tickets of the help desk.")
    plain = list_plainly(item)
    real = await list_surface(item.build_surface())
    assert plain is not None
    assert list_text(plain.tools) == list_text(real.tools)
    assert plain.parts == real.parts


@pytest.mark.parametrize(
    "tool",
    [
        {"name": "a", "inputSchema": {"type": "object"}, "icons": [{"src": "https://example.com/a.png"}]},
        {"name": "a", "inputSchema": {"type": "object"}, "_meta": {"x": 1}},
        {"name": "a", "inputSchema": {"type": "object", "properties": {"p": {"default": None}}}},
        {"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}},
        {"name": "a", "inputSchema": {"type": "object", "properties": {"p": 3}}},
        {"name": "a", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
    ],
    ids=["icons", "meta", "a null", "a hint not a bool", "a property not a schema", "execution"],
)
def test_a_tool_the_sdk_could_change_or_refuse_is_left_to_a_real_connection(tool: dict[str, Any]) -> None:
    assert list_plainly(definition([tool])) is None


def test_prompts_beside_the_tools_or_another_protocol_era_are_left_to_a_real_connection() -> None:
    prompts = [{"name": "triage", "description": "Triage a ticket."}]
    assert list_plainly(definition(TRICKY, prompts=prompts)) is None
    assert list_plainly(definition(TRICKY), protocol=MODERN_PROTOCOL) is None


async def test_a_tool_left_to_a_real_connection_is_measured_through_it() -> None:
    tools = [{**TRICKY[1], "icons": [{"src": "https://example.com/close.png", "sizes": ["48x48"]}]}]
    item = definition(tools)
    real = await list_surface(item.build_surface())
    assert list_text((await wire_list(item)).tools) == list_text(real.tools)
    assert "icons" in json.loads(list_text(real.tools))[0]


def test_measuring_the_bundled_study_loads_no_part_of_the_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from toolsurface.harness.measure import measure\n"
        "from toolsurface.harness.surface import default_surfaces, resolve_all\n"
        "measure(resolve_all(default_surfaces()))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'pydantic')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_every_bundled_list_is_listed_plainly() -> None:
    assert plain_lists(resolve_all(BUNDLED)) is not None
    for item in resolve_all(BUNDLED):
        assert isinstance(item, SurfaceDefinition)
        assert all(list_plainly(item, kinds) is not None for kinds in series(item))
