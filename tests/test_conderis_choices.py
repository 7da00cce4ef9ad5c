"""toolsurface/surfaces/conderis/README.md is what `python -m toolsurface.surfaces.conderis.readme --write` writes: every figure in it
measured from the code, every choice it costs found in the tool it names."""

from __future__ import annotations

from typing import Any

import pytest

from toolsurface.surfaces.conderis.provenance import BEFORE, CONSISTENT
from toolsurface.surfaces.conderis.readme import COMMAND, README, Measured, cost, measure_bundled, render


@pytest.fixture(scope="module")
def measured() -> dict[str, Measured]:
    return measure_bundled()


def test_the_readme_is_what_the_command_writes(measured: dict[str, Measured]) -> None:
    assert README.read_text(encoding="utf-8") == render(measured), f"regenerate it: {COMMAND}"


def test_every_old_tool_has_its_seed_lines(measured: dict[str, Measured]) -> None:
    assert list(BEFORE) == list(measured["before-v2"].tools)
    assert sorted(CONSISTENT) == sorted(measured["consistent"].tools)


def test_a_choice_costs_what_it_adds_to_the_compact_json() -> None:
    tool: dict[str, Any] = {
        "name": "t",
        "description": "Do it. Now.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "string", "description": "x"}},
            "required": ["a"],
        },
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    }
    assert cost(tool, ("desc", " Now.")) == 5
    assert cost(tool, ("desc", "it", "it all")) == -4  # a choice not taken: what it would add
    assert cost(tool, ("pdesc_all", "a")) == len(',"description":"x"')
    assert cost(tool, ("required",)) == len(',"required":["a"]')
    assert cost(tool, ("ann_default",)) == len(',"annotations":{"readOnlyHint":false,"destructiveHint":true}')
    with pytest.raises(LookupError):
        cost(tool, ("desc", "not in it"))
