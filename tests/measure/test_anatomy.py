"""A tool's anatomy (measure --anatomy): its tokens and chars by part add up exactly to its own, on the bundled
surfaces, on every snapshot of the corpus and on odd JSON; each token goes to the part of its first character."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_cli
from toolsurface.harness.corpus import corpus_snapshots
from toolsurface.harness.measure import (
    ANATOMY_PARTS,
    ToolAnatomy,
    anatomy_pieces,
    count_tokens,
    encoding,
    measure,
    tool_anatomy,
)
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import resolve

# One tool with every part: pydantic's titles, an enum, a const, defaults and examples, $defs, a property named
# like a keyword, annotations, an output schema, _meta, and two members no part names.
EVERY_PART: dict[str, Any] = {
    "name": "ticket_find",
    "title": "Find tickets",
    "description": "Find tickets by words.",
    "inputSchema": {
        "type": "object",
        "title": "ticket_findArguments",
        "properties": {
            "query": {"type": "string", "title": "Query", "description": "Words to look for."},
            "status": {"enum": ["open", "closed"], "default": "open", "description": "Which tickets."},
            "kind": {"const": "ticket"},
            "description": {"type": "string", "examples": ["a", "b"]},
            "when": {"anyOf": [{"$ref": "#/$defs/Range"}, {"type": "null"}], "default": None},
        },
        "required": ["query"],
        "$defs": {"Range": {"type": "object", "description": "A range.", "properties": {"from": {"type": "string"}}}},
    },
    "outputSchema": {"type": "object", "properties": {"tickets": {"type": "array"}}},
    "annotations": {"readOnlyHint": True},
    "_meta": {"ui": {"visibility": ["model"]}},
    "icons": [{"src": "https://example.org/i.png"}],
    "execution": {"taskSupport": "optional"},
}


def members(*pairs: tuple[str, Any]) -> int:
    """The chars of members as the counting rule writes them (`"key":value`)."""
    return sum(len(compact_json({key: value})) - 2 for key, value in pairs)


def adds_up(tool: Any, anatomy: ToolAnatomy) -> None:
    text = compact_json(tool)
    assert "".join(piece for _, piece in anatomy_pieces(tool)[0]) == text
    assert anatomy.chars == len(text) == sum(p.chars for p in anatomy.parts)
    assert anatomy.tokens == count_tokens(text) == sum(p.tokens for p in anatomy.parts)
    assert [p.part for p in anatomy.parts] == list(ANATOMY_PARTS)


def by_first_character(tool: Any) -> dict[str, int]:
    """Tokens by part, by tiktoken's own character offsets: each token to the piece its first character is in."""
    pieces, _ = anatomy_pieces(tool)
    owner = [part for part, text in pieces for _ in text]
    _, offsets = encoding().decode_with_offsets(encoding().encode(compact_json(tool), disallowed_special=()))
    found = dict.fromkeys(ANATOMY_PARTS, 0)
    for offset in offsets:
        found[owner[offset]] += 1
    return found


def test_every_part_holds_its_members_and_structure_holds_the_rest() -> None:
    anatomy = tool_anatomy(EVERY_PART)
    adds_up(EVERY_PART, anatomy)
    schema = EVERY_PART["inputSchema"]
    props = schema["properties"]
    chars = {p.part: p.chars for p in anatomy.parts}
    assert chars["name"] == members(("name", "ticket_find"))
    assert chars["title"] == members(("title", "Find tickets"), ("title", "ticket_findArguments"), ("title", "Query"))
    assert chars["description"] == members(("description", EVERY_PART["description"]))
    assert chars["parameter_descriptions"] == members(
        ("description", "Words to look for."), ("description", "Which tickets."), ("description", "A range.")
    )
    assert chars["enums"] == members(("enum", ["open", "closed"]), ("const", "ticket"))
    assert chars["defaults"] == members(("default", "open"), ("examples", ["a", "b"]), ("default", None))
    assert chars["annotations"] == members(("annotations", EVERY_PART["annotations"]))
    assert chars["output_schema"] == members(("outputSchema", EVERY_PART["outputSchema"]))
    assert chars["meta"] == members(("_meta", EVERY_PART["_meta"]))
    assert chars["other"] == members(("icons", EVERY_PART["icons"]), ("execution", EVERY_PART["execution"]))
    assert anatomy.other_keys == ("icons", "execution")
    # A property named `description` is a name (structure); its schema's `examples` are still examples.
    assert '"description":{"type":"string"' in "".join(t for p, t in anatomy_pieces(EVERY_PART)[0] if p == "structure")
    assert props["description"]["examples"] == ["a", "b"]
    assert chars["structure"] == len(compact_json(EVERY_PART)) - sum(v for k, v in chars.items() if k != "structure")
    assert schema["required"] == ["query"]


def test_a_token_across_a_seam_goes_to_the_part_of_its_first_character() -> None:
    anatomy = tool_anatomy(EVERY_PART)
    assert {p.part: p.tokens for p in anatomy.parts} == by_first_character(EVERY_PART)


def test_measure_v2_anatomy_as_json_adds_up_for_every_tool() -> None:
    done = run_cli("measure", "v2", "--anatomy", "--format", "json")
    assert done.returncode == 0, done.stderr
    [surface] = done.json()["surfaces"]
    assert len(surface["per_tool"]) == 8
    for tool in surface["per_tool"]:
        anatomy = tool["anatomy"]
        assert list(anatomy["tokens"]) == list(anatomy["chars"]) == list(ANATOMY_PARTS)
        assert sum(anatomy["tokens"].values()) == tool["tokens"]
        assert sum(anatomy["chars"].values()) == tool["chars"]
    summary = surface["anatomy"]
    assert summary["counter"] == "o200k_base" and summary["tools"] == 8
    assert summary["total_tokens"] == sum(t["tokens"] for t in surface["per_tool"]) == sum(summary["tokens"].values())
    assert summary["tokens"]["description"] > summary["tokens"]["name"] > 0
    assert sum(summary["shares"].values()) == pytest.approx(1, abs=0.001)


def test_without_anatomy_measures_json_is_as_it_was() -> None:
    done = run_cli("measure", "v2", "--format", "json")
    assert done.returncode == 0 and "anatomy" not in done.stdout


def test_every_tool_of_every_corpus_snapshot_adds_up_and_splits_by_first_character() -> None:
    counted = 0
    for entry, path in corpus_snapshots():
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            anatomy = tool_anatomy(tool)
            adds_up(tool, anatomy)
            assert {p.part: p.tokens for p in anatomy.parts} == by_first_character(tool), (entry.name, tool["name"])
            counted += 1
    assert counted >= 900


def test_each_corpus_snapshot_measured_with_anatomy_gives_the_same_tokens_as_without() -> None:
    snapshots = [resolve(str(path)) for entry, path in corpus_snapshots() if not entry.malformed]
    plain, parted = measure(snapshots, growth=False), measure(snapshots, growth=False, anatomy=True)
    for before, after in zip(plain.surfaces, parted.surfaces, strict=True):
        assert [t.tokens for t in before.per_tool] == [t.tokens for t in after.per_tool]
        assert all(t.anatomy is not None and t.anatomy.tokens == t.tokens for t in after.per_tool)
        anatomy = after.anatomy
        assert anatomy is not None and anatomy.tokens == sum(t.tokens or 0 for t in after.per_tool)


ODD: dict[str, dict[str, Any]] = {
    "non-ascii": {"name": "größe_😀", "description": "日本語の説明 — “quoted” 😀", "inputSchema": {"type": "object"}},
    "escapes": {
        "name": "esc",
        "description": 'a "quote", a \\ backslash, a\nline break, a \t tab, \u0000 and \u001f',
        "inputSchema": {"type": "object", "properties": {'we"ird\n': {"description": "\\\\"}}},
    },
    "huge-enum": {
        "name": "pick",
        "inputSchema": {"type": "object", "properties": {"x": {"enum": [f"value-{n}" for n in range(20_000)]}}},
    },
    "not-an-object-schema": {"name": "bare", "inputSchema": "string"},
    "list-schema": {"name": "listed", "inputSchema": [{"type": "string", "description": "no"}]},
    "null-schema": {"name": "nothing", "inputSchema": None, "description": None, "title": 5},
    "numbers": {"name": "n", "inputSchema": {"type": "object", "minimum": 1e300, "default": -0.0, "const": 10**40}},
    "long-description": {"name": "long", "description": "word " * 300_000, "inputSchema": {"type": "object"}},
}


def nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "description": "the deepest"}
    for level in range(depth):
        schema = {"type": "object", "description": f"level {level}", "properties": {"x": schema}}
    return {"name": "deep", "inputSchema": schema}


@pytest.mark.parametrize("name", [*ODD, "deep"])
def test_odd_json_still_adds_up(name: str) -> None:
    tool = nested(95) if name == "deep" else ODD[name]
    adds_up(tool, tool_anatomy(tool))


def test_a_deep_schema_gives_every_level_its_description() -> None:
    anatomy = tool_anatomy(nested(95))
    expected = members(("description", "the deepest"), *(("description", f"level {n}") for n in range(95)))
    assert anatomy.of("parameter_descriptions").chars == expected


def test_a_lone_surrogate_is_counted_as_the_tokenizer_reads_it() -> None:
    tool = {"name": "s", "description": "before \ud800 after", "inputSchema": {"type": "object"}}
    adds_up(tool, tool_anatomy(tool))


@settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["type", "description", "enum", "properties", "items", "anyOf", "title", "x", "a b"]),
                inner,
                max_size=5,
            )
        ),
        max_leaves=20,
    )
)
def test_any_json_where_a_schema_is_adds_up(schema: Any) -> None:
    tool = {"name": "t", "inputSchema": schema, "description": schema}
    adds_up(tool, tool_anatomy(tool))


def test_a_snapshot_of_odd_tools_is_measured_through_the_cli_and_its_tables_cut_no_cell(tmp_path: Path) -> None:
    tools = [tool for key, tool in ODD.items() if key not in ("null-schema", "long-description")] + [nested(40)]
    snapshot = tmp_path / "odd.json"
    snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    done = run_cli("measure", str(snapshot), "--anatomy", "--format", "json")
    assert done.returncode == 0, done.stderr
    for tool in done.json()["surfaces"][0]["per_tool"]:
        assert sum(tool["anatomy"]["tokens"].values()) == tool["tokens"]
    table = run_cli("measure", str(snapshot), "--anatomy", env={"COLUMNS": None})
    assert table.returncode == 0 and not table.stderr, table.stderr
    assert "…" not in table.stdout and "Traceback" not in table.stdout
    for label in ("parameter descriptions", "schema structure", "enums and constants", "größe_😀", "listed"):
        assert label in table.stdout


def test_csv_has_a_row_per_tool_and_out_writes_each_tools_parts_and_each_parts_share(tmp_path: Path) -> None:
    done = run_cli("measure", "v2", "--anatomy", "--format", "csv", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.startswith("surface,tool,chars,tokens,name_chars,name_tokens,title_chars,")
    assert header.endswith(",other_chars,other_tokens,other_keys") and len(rows) == 8
    written = tmp_path / "out"
    assert (written / "anatomy.csv").read_text(encoding="utf-8") == done.stdout
    shares = (written / "anatomy_parts.csv").read_text(encoding="utf-8").splitlines()
    assert shares[0] == "surface,part,chars,tokens,share" and len(shares) == 1 + len(ANATOMY_PARTS)
    assert "Where the tokens go: v2" in (written / "measure.md").read_text(encoding="utf-8")


def test_markdown_says_where_the_tokens_go_and_each_tools_parts() -> None:
    done = run_cli("measure", "v2", "--anatomy", "--format", "markdown", "--no-growth")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Where the tokens go: v2 (8 tools, each counted on its own with o200k_base, summed:" in text
    assert "| part | chars | tokens | share of tokens |" in text
    assert "| tool | tokens | name | description | parameter descriptions | schema structure | annotations |" in text
    assert "in no tool: title, enums and constants, defaults and examples, output schema, _meta, other" in text
