"""toolsurface/surfaces/conderis/README.md is what `python -m docs.conderis.readme --write` writes: every figure in it
measured from the code, every choice it costs found in the tool it names, as a piece the tool's module
declares where it writes the text (the seed's own words, or ours)."""

from __future__ import annotations

from typing import Any

import pytest

from docs.conderis.provenance import BEFORE, CONSISTENT, V2_DESIGNS, Source, Text
from docs.conderis.readme import COMMAND, README, Measured, check_origins, cost, measure_bundled, render
from toolsurface.surfaces.conderis.pieces import declared, ours, seed
from toolsurface.surfaces.conderis.v2_tools import STORE_MEANINGS


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


# Texts no tool holds, so that no choice of the README finds them.
ONE, TWO, NOTE = "⟨one piece under test⟩", "⟨two pieces under test⟩", "⟨a note under test⟩"


def test_a_declared_piece_is_its_text_and_one_text_has_one_origin() -> None:
    assert ours(ONE, name="one") == ONE and seed(TWO, 12, name="two") == TWO
    assert (declared(ONE).seed, declared(TWO).seed, declared(TWO).lines) == (False, True, (12,))
    assert ours(ONE, name="one") == ONE  # declared again alike
    with pytest.raises(ValueError, match="declared twice"):
        seed(ONE, 3, name="one")
    with pytest.raises(ValueError, match="names its lines"):
        seed("⟨a seed piece without lines⟩")


def test_a_text_names_the_one_piece_of_a_description_or_the_one_of_its_name() -> None:
    ours(ONE, name="one")
    seed(TWO, 12, name="two")
    ours(NOTE, name="note")
    assert Text().find(f"Do it{ONE}.")[0] == ONE
    with pytest.raises(LookupError, match="not 2"):
        Text().find(f"Do it{ONE} and{TWO}.")
    assert Text("two").find(f"Do it{ONE} and{TWO}.") == (TWO, declared(TWO))
    assert Text("note", parenthesized=True).find(f"- task: status ({NOTE}), title")[0] == f" ({NOTE})"
    with pytest.raises(LookupError):
        Text("two").find(f"Do it{ONE}.")


def test_a_row_of_the_seeds_own_text_costs_a_piece_declared_as_the_seeds_and_a_choice_one_of_ours() -> None:
    ours(ONE, name="one")
    seed(TWO, 12, name="two")
    tool: dict[str, Any] = {"name": "t", "description": f"Do it{ONE} and{TWO}.", "inputSchema": {"type": "object"}}
    check_origins(
        tool,
        Source(
            [], {}, [], choices=[("one", ("desc", Text("one")), "ours")], given=[("two", ("desc", Text("two")), "L12")]
        ),
    )
    with pytest.raises(ValueError, match="declares as ours"):
        check_origins(tool, Source([], {}, [], given=[("one", ("desc", Text("one")), "L1")]))
    with pytest.raises(ValueError, match="declares as the seed's"):
        check_origins(tool, Source([], {}, [], choices=[("two", ("desc", Text("two")), "ours")]))
    assert cost(tool, ("desc", Text("one"))) == len(ONE)


def test_item_stores_meanings_are_declared_once_with_their_seed_lines() -> None:
    lines = {name: declared(text).lines for name, text in STORE_MEANINGS.items()}
    assert lines == {name: (114 + n,) for n, name in enumerate(STORE_MEANINGS)}
    for (tool, _), source in V2_DESIGNS.items():
        if tool == "item_store":
            assert source.seed_meanings == {
                name: (114 + n, STORE_MEANINGS[name]) for n, name in enumerate(STORE_MEANINGS)
            }
