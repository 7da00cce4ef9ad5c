"""toolsurface diff: what changed per tool between two lists, how much it costs, and whether it breaks clients."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import run_cli
from toolsurface.harness.analyze.diff import (
    ChangeClass,
    SurfaceDiff,
    ToolDiff,
    diff_surfaces,
    diff_tools,
    diff_view,
    marked_segments,
    marked_text,
    word_changes,
)
from toolsurface.harness.measure import count_tokens, wire_list
from toolsurface.harness.output import compact_json, render
from toolsurface.harness.surface import resolve

BREAKING, NON_BREAKING, SIZE_ONLY = ChangeClass.BREAKING, ChangeClass.NON_BREAKING, ChangeClass.SIZE_ONLY


def wire(name: str) -> list[dict[str, Any]]:
    return anyio.run(wire_list, resolve(name)).tools


def task_list() -> dict[str, Any]:
    return {
        "name": "task_list",
        "description": "List tasks.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "projectId": {"type": "string", "description": "The project"},
                "status": {"type": "string", "enum": ["open", "closed", "blocked"]},
                "limit": {"type": "integer", "maximum": 100},
                "owner": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": ["string", "integer"]}},
                "filter": {"type": "object", "properties": {"status": {"type": "string"}}},
            },
            "required": ["projectId", "status"],
        },
        "annotations": {"readOnlyHint": True},
    }


def task_get() -> dict[str, Any]:
    return {
        "name": "task_get",
        "description": "Read a task.",
        "inputSchema": {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]},
        "outputSchema": {
            "type": "object",
            "properties": {"title": {"type": "string"}, "due": {"type": "string"}},
            "required": ["title"],
        },
    }


def write_list(path: Path, tools: list[dict[str, Any]]) -> str:
    path.write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    return str(path)


def diff_files(tmp_path: Path, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> SurfaceDiff:
    """Both sides as snapshot files, read through the registry like any surface the CLI is given."""
    a = write_list(tmp_path / "before.json", before)
    b = write_list(tmp_path / "after.json", after)
    return diff_surfaces(resolve(a), resolve(b), a_label=a, b_label=b, tokens=False)


def only_tool(result: SurfaceDiff) -> ToolDiff:
    assert len(result.tools) == 1, [t.name for t in result.tools]
    return result.tools[0]


def changes(tool: ToolDiff) -> list[tuple[str, str, ChangeClass]]:
    return [(p.name, p.change, p.cls) for p in tool.parameters]


# The issue's bar, through the command line ------------------------------------------------------------------


def test_before_v2_to_consistent_names_each_changed_tool_and_the_size_delta() -> None:
    run = run_cli("diff", "before-v2", "consistent", "--format", "markdown")
    assert run.returncode == 0, run.stderr
    result = diff_tools(wire("before-v2"), wire("consistent"), a="before-v2", b="consistent")
    assert result.cls is BREAKING
    assert [t.name for t in result.added] == ["task_block"] and not result.removed
    assert len(result.changed) == 27
    rows = [line for line in run.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [t.name for t in result.tools]
    for row, tool in zip(rows, result.tools, strict=True):
        assert f"({tool.chars.delta:+,})" in row and tool.cls.value in row
    assert f"{result.chars.before:,} → {result.chars.after:,} chars ({result.chars.delta:+,})" in run.stdout
    assert "**BREAKING**" in run.stdout
    memory_recall = next(t for t in result.tools if t.name == "memory_recall")
    assert ("includeUpstream", "removed", BREAKING) in changes(memory_recall)


def test_v2_first_to_v2_changes_two_descriptions_and_nothing_that_breaks() -> None:
    run = run_cli("diff", "v2-first", "v2", "--format", "markdown")
    assert run.returncode == 0, run.stderr
    result = diff_tools(wire("v2-first"), wire("v2"))
    assert [t.name for t in result.tools] == ["item_list", "item_action"]
    assert result.cls is NON_BREAKING and result.unchanged == 6
    for tool in result.tools:
        assert tool.description_changed and not tool.annotations
        # Decision 8: approve and reject need a reason once they need no version; the rest is unchanged.
        described = [(p.name, p.change) for p in tool.parameters]
        assert described == ([("reason", "description")] if tool.name == "item_action" else []), described
        assert f"| `{tool.name}` | changed | NON_BREAKING | {tool.chars.before:,} → {tool.chars.after:,}" in run.stdout
    assert f"({result.chars.delta:+,})" in run.stdout and result.chars.delta > 0


def test_a_list_against_itself_passes_fail_on_any() -> None:
    run = run_cli("diff", "v2", "v2", "--fail-on", "any")
    assert run.returncode == 0, run.stderr
    assert "no differences" in run.stdout


def test_a_changed_list_fails_fail_on_any_but_not_fail_on_breaking_when_nothing_breaks() -> None:
    assert run_cli("diff", "v2-first", "v2", "--fail-on", "any").returncode == 1
    assert run_cli("diff", "v2-first", "v2", "--fail-on", "breaking").returncode == 0
    assert run_cli("diff", "before-v2", "consistent", "--fail-on", "breaking").returncode == 1


def test_without_fail_on_a_breaking_diff_still_exits_0() -> None:
    assert run_cli("diff", "before-v2", "consistent", "--format", "json").returncode == 0


@pytest.mark.parametrize(
    ("side", "content"),
    [
        ("no-such-surface", None),
        ("missing.json", None),
        ("broken.json", "{not json"),
        ("wrong.json", '{"tools": 3}'),
        ("invalid.json", '{"tools": [{"inputSchema": {"type": "object"}}]}'),
    ],
)
def test_a_side_that_cannot_be_read_exits_2_with_one_line(tmp_path: Path, side: str, content: str | None) -> None:
    if content is not None:
        (tmp_path / side).write_text(content, encoding="utf-8")
    spec = str(tmp_path / side) if side.endswith(".json") else side
    for args in ((spec, "v2"), ("v2", spec)):
        run = run_cli("diff", *args, "--fail-on", "any")
        assert run.returncode == 2, (run.stdout, run.stderr)
        assert run.stdout == ""
        assert run.stderr.startswith("toolsurface: ") and len(run.stderr.strip().splitlines()) == 1


# Classes on hand-written pairs -------------------------------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(tool: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node = tool
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(tool: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node = tool
        for key in parents:
            node = node[key]
        del node[last]

    return change


PROPS = "inputSchema/properties"
CASES: dict[str, tuple[Callable[[dict[str, Any]], object], ChangeClass, list[tuple[str, str, ChangeClass]]]] = {
    "a required parameter added is breaking": (
        lambda t: (
            t["inputSchema"]["properties"].update(due={"type": "string"}),
            t["inputSchema"]["required"].append("due"),
        ),
        BREAKING,
        [("due", "added", BREAKING)],
    ),
    "an optional parameter added is not breaking": (
        _set(f"{PROPS}/due", {"type": "string"}),
        NON_BREAKING,
        [("due", "added", NON_BREAKING)],
    ),
    "a parameter removed is breaking": (_drop(f"{PROPS}/limit"), BREAKING, [("limit", "removed", BREAKING)]),
    "a parameter newly required is breaking": (
        _set("inputSchema/required", ["projectId", "status", "limit"]),
        BREAKING,
        [("limit", "required", BREAKING)],
    ),
    "a parameter no longer required is not breaking": (
        _set("inputSchema/required", ["projectId"]),
        NON_BREAKING,
        [("status", "optional", NON_BREAKING)],
    ),
    "a nullable type made strict narrows and breaks": (
        _set(f"{PROPS}/owner/type", "string"),
        BREAKING,
        [("owner", "type_narrowed", BREAKING)],
    ),
    "integer to number widens and does not break": (
        _set(f"{PROPS}/limit/type", "number"),
        NON_BREAKING,
        [("limit", "type_widened", NON_BREAKING)],
    ),
    "a type swapped for another breaks": (
        _set(f"{PROPS}/projectId/type", "integer"),
        BREAKING,
        [("projectId", "type_changed", BREAKING)],
    ),
    "enum values removed break": (
        _set(f"{PROPS}/status/enum", ["open", "closed"]),
        BREAKING,
        [("status", "enum_narrowed", BREAKING)],
    ),
    "enum values added do not break": (
        _set(f"{PROPS}/status/enum", ["open", "closed", "blocked", "review"]),
        NON_BREAKING,
        [("status", "enum_widened", NON_BREAKING)],
    ),
    "an item type narrowed inside an array breaks": (
        _set(f"{PROPS}/tags/items/type", "string"),
        BREAKING,
        [("tags[]", "type_narrowed", BREAKING)],
    ),
    "a nested property removed is named by its path": (
        _set(f"{PROPS}/filter/properties", {}),
        BREAKING,
        [("filter.status", "removed", BREAKING)],
    ),
    "a lower maximum narrows": (
        _set(f"{PROPS}/limit/maximum", 50),
        BREAKING,
        [("limit", "constraint_narrowed", BREAKING)],
    ),
    "unknown properties refused at the root narrows": (
        _set("inputSchema/additionalProperties", False),
        BREAKING,
        [("(root)", "constraint_narrowed", BREAKING)],
    ),
    "a default changed is metadata and does not break": (
        _set(f"{PROPS}/limit/default", 20),
        NON_BREAKING,
        [("limit", "metadata", NON_BREAKING)],
    ),
    "a parameter description changed does not break": (
        _set(f"{PROPS}/projectId/description", "The id of the project"),
        NON_BREAKING,
        [("projectId", "description", NON_BREAKING)],
    ),
    "an allOf added cannot be ordered and counts as breaking": (
        _set(f"{PROPS}/owner/allOf", [{"minLength": 1}]),
        BREAKING,
        [("owner", "schema", BREAKING)],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_parameter_change_has_its_class(tmp_path: Path, case: str) -> None:
    change, expected_class, expected_changes = CASES[case]
    after = task_list()
    change(after)
    result = diff_files(tmp_path, [task_list()], [after])
    tool = only_tool(result)
    assert tool.change == "changed"
    assert changes(tool) == expected_changes
    assert tool.cls is expected_class and result.cls is expected_class
    assert not tool.description_changed and not tool.annotations


def test_number_to_integer_narrows_and_breaks(tmp_path: Path) -> None:
    before, after = task_list(), task_list()
    before["inputSchema"]["properties"]["limit"]["type"] = "number"
    tool = only_tool(diff_files(tmp_path, [before], [after]))
    assert changes(tool) == [("limit", "type_narrowed", BREAKING)]
    assert tool.parameters[0].before == "number" and tool.parameters[0].after == "integer"


def test_a_tool_removed_is_breaking_and_one_added_is_not(tmp_path: Path) -> None:
    removed = diff_files(tmp_path, [task_list(), task_get()], [task_list()])
    assert [(t.name, t.change, t.cls) for t in removed.tools] == [("task_get", "removed", BREAKING)]
    assert removed.cls is BREAKING
    added = diff_files(tmp_path, [task_list()], [task_list(), task_get()])
    assert [(t.name, t.change, t.cls) for t in added.tools] == [("task_get", "added", NON_BREAKING)]
    assert added.cls is NON_BREAKING
    size = len(compact_json(task_get()))
    assert added.tools[0].chars.to_json() == {"before": 0, "after": size, "delta": size}


def test_a_description_change_alone_is_not_breaking(tmp_path: Path) -> None:
    after = task_list()
    after["description"] = "List the tasks of a project."
    tool = only_tool(diff_files(tmp_path, [task_list()], [after]))
    assert tool.cls is NON_BREAKING and tool.description_changed and not tool.parameters
    assert (tool.description_before, tool.description_after) == ("List tasks.", "List the tasks of a project.")


def test_an_annotation_flip_is_recorded_hint_by_hint(tmp_path: Path) -> None:
    after = task_list()
    after["annotations"] = {"readOnlyHint": False, "destructiveHint": True}
    tool = only_tool(diff_files(tmp_path, [task_list()], [after]))
    assert tool.cls is NON_BREAKING and not tool.parameters
    assert [a.to_json() for a in tool.annotations] == [
        {"name": "readOnlyHint", "before": True, "after": False, "class": "NON_BREAKING"},
        {"name": "destructiveHint", "before": None, "after": True, "class": "NON_BREAKING"},
    ]


def test_keys_in_another_order_change_only_the_size(tmp_path: Path) -> None:
    before = task_list()
    after = {key: before[key] for key in reversed(list(before))}
    after["inputSchema"] = {key: before["inputSchema"][key] for key in reversed(list(before["inputSchema"]))}
    result = diff_files(tmp_path, [before], [after])
    tool = only_tool(result)
    assert tool.cls is SIZE_ONLY and result.cls is SIZE_ONLY
    assert not tool.parameters and not tool.annotations and not tool.description_changed
    assert tool.note == "same JSON with keys in another order"
    assert (
        run_cli("diff", str(tmp_path / "before.json"), str(tmp_path / "after.json"), "--fail-on", "breaking").returncode
        == 0
    )
    assert (
        run_cli("diff", str(tmp_path / "before.json"), str(tmp_path / "after.json"), "--fail-on", "any").returncode == 1
    )


def test_required_names_in_another_order_change_only_the_size(tmp_path: Path) -> None:
    after = task_list()
    after["inputSchema"]["required"] = ["status", "projectId"]
    tool = only_tool(diff_files(tmp_path, [task_list()], [after]))
    assert tool.cls is SIZE_ONLY and not tool.parameters
    assert tool.chars.delta == 0


def test_a_definition_moved_to_defs_changes_only_the_size(tmp_path: Path) -> None:
    after = task_list()
    schema = after["inputSchema"]
    schema["$defs"] = {"Filter": schema["properties"]["filter"]}
    schema["properties"]["filter"] = {"$ref": "#/$defs/Filter"}
    tool = only_tool(diff_files(tmp_path, [task_list()], [after]))
    assert tool.cls is SIZE_ONLY and not tool.parameters


def test_an_optional_anyof_made_required_and_strict_breaks(tmp_path: Path) -> None:
    before, after = task_list(), task_list()
    before["inputSchema"]["properties"]["owner"] = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    after["inputSchema"]["properties"]["owner"] = {"type": "string"}
    after["inputSchema"]["required"].append("owner")
    tool = only_tool(diff_files(tmp_path, [before], [after]))
    assert changes(tool) == [
        ("owner", "type_narrowed", BREAKING),
        ("owner", "metadata", NON_BREAKING),
        ("owner", "required", BREAKING),
    ]


def test_output_schemas_count_the_other_way_round(tmp_path: Path) -> None:
    narrower, wider = task_get(), task_get()
    narrower["outputSchema"]["required"] = ["title", "due"]
    del wider["outputSchema"]["properties"]["due"]
    guaranteed = only_tool(diff_files(tmp_path, [task_get()], [narrower]))
    assert [(p.name, p.change, p.cls) for p in guaranteed.output] == [("due", "required", NON_BREAKING)]
    assert guaranteed.cls is NON_BREAKING
    dropped = only_tool(diff_files(tmp_path, [task_get()], [wider]))
    assert [(p.name, p.change, p.cls) for p in dropped.output] == [("due", "removed", BREAKING)]
    assert dropped.cls is BREAKING


def test_the_same_tools_in_another_order_change_only_the_size(tmp_path: Path) -> None:
    result = diff_files(tmp_path, [task_list(), task_get()], [task_get(), task_list()])
    assert result.tools == [] and result.unchanged == 2
    assert result.order_changed and result.cls is SIZE_ONLY and result.chars.delta == 0


def test_the_overall_class_is_the_worst_present(tmp_path: Path) -> None:
    described, narrowed = task_list(), task_get()
    described["description"] = "List the tasks."
    narrowed["inputSchema"]["properties"]["number"]["minimum"] = 1
    result = diff_files(tmp_path, [task_list(), task_get()], [described, narrowed])
    assert [t.cls for t in result.tools] == [NON_BREAKING, BREAKING]
    assert result.cls is BREAKING


def test_identical_lists_have_no_class(tmp_path: Path) -> None:
    result = diff_files(tmp_path, [task_list(), task_get()], copy.deepcopy([task_list(), task_get()]))
    assert result.cls is None and result.tools == [] and not result.fails("any")


# Shapes and figures ------------------------------------------------------------------------------------------


def test_json_output_carries_every_detail(tmp_path: Path) -> None:
    after = task_list()
    after["description"] = "List the tasks."
    after["inputSchema"]["properties"]["owner"]["type"] = "string"
    a = write_list(tmp_path / "a.json", [task_list(), task_get()])
    b = write_list(tmp_path / "b.json", [after])
    run = run_cli("diff", a, b, "--format", "json")
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert set(data) >= {"a", "b", "class", "chars", "tokens", "tools"}
    assert (data["a"], data["b"], data["class"]) == (a, b, "BREAKING")
    assert set(data["chars"]) == set(data["tokens"]) == {"before", "after", "delta"}
    first, second = data["tools"]
    assert set(first) >= {"name", "change", "class", "chars", "tokens", "description_changed", "parameters"}
    assert (first["name"], first["change"], first["class"], first["description_changed"]) == (
        "task_list",
        "changed",
        "BREAKING",
        True,
    )
    (owner,) = first["parameters"]
    assert {k: owner[k] for k in ("name", "change", "before", "after", "class")} == {
        "name": "owner",
        "change": "type_narrowed",
        "before": ["string", "null"],
        "after": "string",
        "class": "BREAKING",
    }
    assert first["annotations"] == []
    text = compact_json(after)
    assert first["chars"]["after"] == len(text) and first["tokens"]["after"] == count_tokens(text)
    assert (second["name"], second["change"], second["class"]) == ("task_get", "removed", "BREAKING")
    assert second["chars"]["after"] == 0 and second["tokens"]["after"] == 0


def test_totals_equal_what_measure_reports_for_each_side() -> None:
    measured = run_cli("measure", "v2-first", "v2", "--format", "json", "--no-growth")
    assert measured.returncode == 0, measured.stderr
    sides = {s["name"]: s for s in measured.json()["surfaces"]}
    diffed = run_cli("diff", "v2-first", "v2", "--format", "json").json()
    assert diffed["chars"]["before"] == sides["v2-first"]["chars"]
    assert diffed["chars"]["after"] == sides["v2"]["chars"]
    assert diffed["tokens"]["before"] == sides["v2-first"]["tokens"]
    assert diffed["tokens"]["after"] == sides["v2"]["tokens"]
    per_tool = {t["name"]: t for t in sides["v2"]["per_tool"]}
    for tool in diffed["tools"]:
        assert tool["chars"]["after"] == per_tool[tool["name"]]["chars"]
        assert tool["tokens"]["after"] == per_tool[tool["name"]]["tokens"]


def test_the_table_format_names_the_changed_tools() -> None:
    run = run_cli("diff", "v2-first", "v2")
    assert run.returncode == 0, run.stderr
    assert "NON_BREAKING" in run.stdout and "item_list" in run.stdout and "item_action" in run.stdout
    assert "item_store" not in run.stdout


def test_markdown_cells_escape_pipes_so_the_table_keeps_its_columns(tmp_path: Path) -> None:
    after = task_list()
    after["inputSchema"]["properties"]["a|b"] = {"type": "string"}
    markdown = render(diff_view([diff_files(tmp_path, [task_list()], [after])]), "markdown")
    row = next(line for line in markdown.splitlines() if line.startswith("| `task_list`"))
    assert row.replace("\\|", "").count("|") == 7


# What changed in a text, word by word ---------------------------------------------------------------------------

DESCRIBED = "Find tickets by text.\nReturns at most 20 tickets, newest first."
REWORDED = "Find tickets by their text or key.\nReturns at most 50 tickets, newest first."


def described(description: str) -> dict[str, Any]:
    return {**task_get(), "description": description}


def test_a_changed_description_is_shown_word_by_word_in_the_terminal_not_as_two_escaped_texts(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"tools": [described(DESCRIBED)]}), encoding="utf-8")
    b.write_text(json.dumps({"tools": [described(REWORDED)]}), encoding="utf-8")
    run = run_cli("diff", str(a), str(b), env={"COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    assert "REVIEW description: Find tickets by {+their+} text {+or key+}.\n" in run.stdout
    assert "\n    Returns at most [-20-]{+50+} tickets, newest first.\n" in run.stdout
    assert "\\n" not in run.stdout and "before '" not in run.stdout
    whole = run_cli("diff", str(a), str(b), "--whole", env={"COLUMNS": "400"})
    assert f"REVIEW description: before {DESCRIBED!r}, after {REWORDED!r}" in whole.stdout


def test_the_json_gives_each_run_of_words_removed_and_added_where_it_is(tmp_path: Path) -> None:
    d = diff_files(tmp_path, [described(DESCRIBED)], [described(REWORDED)])
    [item] = d.tools[0].review
    changes = item.to_json()["changes"]
    assert [(c["removed"], c["added"]) for c in changes] == [("", " their"), ("", " or key"), ("20", "50")]
    # Each change put in place in the text before gives the text after.
    text, moved = DESCRIBED, 0
    for c in changes:
        assert DESCRIBED[c["before_at"] : c["before_at"] + len(c["removed"])] == c["removed"]
        assert REWORDED[c["after_at"] : c["after_at"] + len(c["added"])] == c["added"]
        at = c["before_at"] + moved
        text = text[:at] + c["added"] + text[at + len(c["removed"]) :]
        moved += len(c["added"]) - len(c["removed"])
    assert text == REWORDED
    assert item.to_json()["before"] == DESCRIBED and item.to_json()["after"] == REWORDED


def test_a_long_text_shows_its_changes_with_a_few_words_each_side_and_the_rest_cut() -> None:
    before = " ".join(f"w{n}" for n in range(100))
    after = before.replace("w50", "fifty").replace("w90 ", "w90 new ")
    assert marked_text(marked_segments(before, after)) == (
        "[...] w42 w43 w44 w45 w46 w47 w48 w49 [-w50-]{+fifty+} w51 w52 w53 w54 w55 w56 w57 w58 [...] w83 w84 w85"
        " w86 w87 w88 w89 w90 {+new+} w91 w92 w93 w94 w95 w96 w97 w98 [...]"
    )
    assert marked_text(marked_segments(before, after, context=None)).startswith("w0 w1 w2")
    # A change of spaces alone is seen, and a value that is not a text is compared as its JSON.
    assert marked_text(marked_segments("a b", "a\nb")) == "a[- -]{+\n+}b"


def test_a_megabyte_description_changed_in_one_word_is_diffed_in_well_under_a_second(tmp_path: Path) -> None:
    import time

    before = " ".join(f"word{n % 997}" for n in range(120_000))
    at = before.index(" ", 500_000) + 1
    after = before[:at] + "CHANGED " + before[at:]
    started = time.perf_counter()
    [change] = word_changes(before, after)
    marked = marked_segments(before, after)
    assert time.perf_counter() - started < 1.0
    assert change.added.strip() == "CHANGED" and [s.kind for s in marked] == ["cut", "kept", "added", "kept", "cut"]
