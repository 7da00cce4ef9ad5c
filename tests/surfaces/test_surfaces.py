"""The four Conderis surfaces are reconstructed as the design page describes them."""

from __future__ import annotations

from typing import Any

import mcp.types as types
import pytest

from docs.conderis.live_corrections import breakdown
from toolsurface.harness.surface import SurfaceDefinition, resolve
from toolsurface.surfaces.conderis._shared import ToolsModule
from toolsurface.surfaces.conderis.kinds import COMMIT, KINDS
from toolsurface.surfaces.conderis.v2_design import CORRECTIONS, FINAL, LIVE, corrected

SEED_OLD_TOOLS = [
    "memory_recall", "system_memory", "project_list", "task_assignee_list", "project_create", "project_update",
    "item_get", "memory_get", "relation_list", "item_history", "task_list", "item_search", "proposal_queue",
    "memory_store", "page_store", "task_create", "task_patch", "task_claim", "task_complete", "proposal_review",
    "proposal_withdraw", "item_archive", "relation_create", "relation_remove", "item_delete",
    "privacy_deletion_queue", "privacy_deletion_review",
]  # fmt: skip
V2_TOOLS = [
    "recall",
    "project_get",
    "project_store",
    "item_get",
    "item_list",
    "item_store",
    "item_action",
    "item_delete",
]
V2_ACCESS = {
    "recall": "read", "project_get": "read", "item_get": "read", "item_list": "read",
    "project_store": "write", "item_store": "write", "item_action": "write", "item_delete": "irreversible",
}  # fmt: skip


def measure_surfaces(*names: str) -> list[Any]:
    from toolsurface.harness.measure import measure

    return measure([definition(n) for n in names], growth=False).surfaces


def definition(name: str) -> SurfaceDefinition:
    item = resolve(name)
    assert isinstance(item, SurfaceDefinition)
    return item


def tools(name: str, grow: bool = False) -> dict[str, types.Tool]:
    d = definition(name)
    kinds = [*d.kinds, COMMIT] if grow else None
    return {t.name: t for t in d.build_surface(kinds).tools}


def params(tool: types.Tool) -> dict[str, Any]:
    properties: dict[str, Any] = tool.input_schema.get("properties", {})
    return properties


def access(tool: types.Tool) -> str:
    a = tool.annotations
    assert a is not None, tool.name
    if a.read_only_hint:
        return "read"
    assert a.read_only_hint is False and a.destructive_hint is not None, tool.name
    return "irreversible" if a.destructive_hint else "write"


def test_before_v2_has_the_27_tools_the_page_names_in_its_order() -> None:
    assert list(tools("before-v2")) == SEED_OLD_TOOLS


def test_consistent_is_the_old_tools_plus_task_block() -> None:
    names = list(tools("consistent"))
    assert len(names) == 28
    assert sorted(names) == sorted([*SEED_OLD_TOOLS, "task_block"])


@pytest.mark.parametrize("name", ["v2-first", "v2", "v2-live"])
def test_v2_designs_have_the_eight_tools_with_the_page_access_split(name: str) -> None:
    built = tools(name)
    assert list(built) == V2_TOOLS
    assert {n: access(t) for n, t in built.items()} == V2_ACCESS


@pytest.mark.parametrize("name", ["before-v2", "consistent", "v2-first", "v2"])
def test_every_tool_says_whether_it_reads_writes_or_destroys(name: str) -> None:
    for tool in tools(name, grow=True).values():
        assert access(tool) in {"read", "write", "irreversible"}


def test_old_surface_splits_reading_writing_and_irreversible_as_the_page_did() -> None:
    built = tools("before-v2")
    irreversible = {n for n, t in built.items() if access(t) == "irreversible"}
    assert irreversible == {"item_delete", "privacy_deletion_review"}
    reads = {n for n, t in built.items() if access(t) == "read"}
    assert reads == {
        "memory_recall", "system_memory", "project_list", "task_assignee_list", "item_get", "memory_get",
        "relation_list", "item_history", "task_list", "item_search", "proposal_queue", "privacy_deletion_queue",
    }  # fmt: skip


def test_old_surface_keeps_every_addressing_variant() -> None:
    built = tools("before-v2")
    assert "number" in params(built["item_get"]) and "ref" in params(built["item_get"])
    for name in ("task_patch", "task_claim", "task_complete"):
        assert "taskNumber" in params(built[name]) and "number" not in params(built[name])
    for name in ("relation_create", "relation_remove"):
        assert {"sourceNumber", "targetNumber"} <= set(params(built[name]))
    assert {"id", "number"} <= set(params(built["memory_get"]))
    assert "proposalId" in params(built["proposal_review"]) and "proposalId" in params(built["proposal_withdraw"])
    assert "requestId" in params(built["privacy_deletion_review"])


def test_old_surface_mixes_version_and_base_revision() -> None:
    built = tools("before-v2")
    for name in ("task_patch", "task_claim", "task_complete", "proposal_review", "proposal_withdraw"):
        assert "version" in params(built[name]) and "baseRevisionId" not in params(built[name])
    assert "baseRevisionId" in params(built["memory_store"]) and "version" not in params(built["memory_store"])
    for name in ("page_store", "item_delete"):
        assert {"version", "baseRevisionId"} <= set(params(built[name]))


def test_old_surface_mixes_patch_rules_decision_flags_and_reason_words() -> None:
    built = tools("before-v2")
    assert params(built["task_patch"])["patch"]["type"] == "object"
    assert params(built["memory_store"])["clearExpiry"]["type"] == "boolean"
    assert params(built["proposal_review"])["approve"]["type"] == "boolean"
    assert params(built["item_archive"])["restore"]["type"] == "boolean"
    assert "explanation" in params(built["memory_store"]) and "explanation" in params(built["page_store"])
    assert "reason" in params(built["proposal_review"]) and "explanation" not in params(built["proposal_review"])


def test_old_surface_pages_and_filters_differently_per_list() -> None:
    built = tools("before-v2")
    assert "includeClosed" in params(built["task_list"]) and "includeArchived" in params(built["item_search"])
    with_offset = {n for n, t in built.items() if "offset" in params(t)}
    limit_only = {n for n, t in built.items() if "limit" in params(t) and "offset" not in params(t)}
    assert with_offset == {"item_search"}
    assert limit_only == {"task_list", "proposal_queue"}


def test_old_surface_uses_kind_for_the_relation_type_and_the_item_kind() -> None:
    built = tools("before-v2")
    for name in ("relation_list", "relation_create", "relation_remove"):
        assert "blocks" in params(built[name])["kind"]["description"]
    assert "memory" in params(built["item_search"])["kind"]["description"]


def test_old_write_tools_have_about_38_parameters() -> None:
    built = tools("before-v2")
    count = sum(len(params(built[n])) for n in ("memory_store", "page_store", "task_create", "task_patch"))
    assert 35 <= count <= 40


def test_consistent_surface_has_none_of_the_old_inconsistencies() -> None:
    built = tools("consistent")
    banned = {"taskNumber", "sourceNumber", "targetNumber", "id", "proposalId", "requestId", "baseRevisionId",
              "patch", "clearExpiry", "approve", "restore", "explanation", "offset", "kind"}  # fmt: skip
    for name, tool in built.items():
        found = banned & set(params(tool))
        if name == "item_search":
            found -= {"kind"}  # the item kind, the one meaning `kind` keeps
        if name == "item_get":
            found -= {"offset"}  # reading text in parts, not paging
        assert not found, (name, found)
    lists = [n for n, t in built.items() if "limit" in params(t)]
    assert all("cursor" in params(built[n]) for n in lists) and len(lists) >= 7


def test_v2_final_has_no_status_filter_and_the_first_design_had_one() -> None:
    final = tools("v2")["item_list"].description or ""
    first = tools("v2-first")["item_list"].description or ""
    assert "unless includeClosed" in final and "status" not in final.split("allowed keys")[1]
    assert '{"status": "open"}' in first and "- task: status" in first


def test_proposal_actions_need_the_version_only_in_the_first_design() -> None:
    assert "Every action needs the version" in (tools("v2-first")["item_action"].description or "")
    final = tools("v2")["item_action"].description or ""
    assert "proposal actions do not" in final and "block (reason required)" in final


@pytest.mark.parametrize("name", ["v2-first", "v2", "v2-live"])
def test_v2_descriptions_name_their_kinds_in_the_first_sentence(name: str) -> None:
    built = tools(name)
    for tool in ("item_get", "item_list", "item_store", "item_action", "item_delete"):
        first = (built[tool].description or "").split(". ")[0]
        assert "task" in first, tool


def test_v2_has_the_measured_texts_and_v2_live_the_corrected_ones() -> None:
    measured, live = tools("v2"), tools("v2-live")
    action, action_live = measured["item_action"].description or "", live["item_action"].description or ""
    assert "- any item: archive, restore, relate, unrelate" in action and "never archived" not in action
    assert "- proposal: approve, reject, withdraw" in action
    assert "- task: claim, complete, block (reason required), unblock, relate, unrelate" in action_live
    assert "- proposal: approve, reject (both with a reason), withdraw" in action_live
    rows = [line for line in action_live.splitlines() if line.startswith("- ")]
    assert [r.split(":")[0] for r in rows] == ["- task", "- proposal", "- memory, page"]  # the page's order, L156-L158
    assert rows[-1] == "- memory, page: archive, restore, relate, unrelate"
    assert "A task is closed with complete or by setting status canceled, never archived." in action_live
    store, store_live = measured["item_store"].description or "", live["item_store"].description or ""
    assert store.endswith("parent may name a key; all items are stored or none.")
    assert store_live.endswith(
        "the key of an earlier item of the same kind; each kind is stored atomically on its own."
    )
    assert [n for n in V2_TOOLS if measured[n] != live[n]] == ["item_store", "item_action"]


def test_item_store_parameters_say_what_the_page_says_they_mean() -> None:
    meanings = {
        "kind": "memory, page, task, instructions; later every further kind",
        "projectId": "Missing for personal memories",
        "number": "Change this item; without it, create",
        "version": "The version read with item_get; required when content changes, not for a move",
        "fields": "JSON object for the kind",
        "reason": "Shown to the moderator when the change becomes a proposal",
        "propose": "Ask for review instead of publishing",
        "batch": "Many items at once, instead of fields",
    }  # the page, L113-L121, the same in every version
    for name in ("v2-first", "v2", "v2-live"):
        described = {p: s.get("description") for p, s in params(tools(name)["item_store"]).items()}
        assert described == meanings, name


def test_the_corrections_together_give_v2_live_and_each_one_adds_to_v2() -> None:
    assert corrected(FINAL, *CORRECTIONS) == LIVE
    result = breakdown()
    sizes = {s.name: s for s in measure_surfaces("v2", "v2-live")}
    assert (result.measured.chars, result.measured.tokens) == (sizes["v2"].chars, sizes["v2"].tokens)
    assert (result.live.chars, result.live.tokens) == (sizes["v2-live"].chars, sizes["v2-live"].tokens)
    assert [c.name for c in result.corrections] == list(CORRECTIONS)
    for c in result.corrections:
        assert c.chars > 0 and c.tokens > 0, c.name
        assert set(c.tools) <= {"item_store", "item_action"} and sum(c.tools.values()) == c.chars, c.name
    # The corrections touch different sentences, so their increments add up to the whole difference.
    assert sum(c.chars for c in result.corrections) == result.chars > 0


def test_v2_and_v2_live_are_served_by_the_same_handlers() -> None:
    stubs = [getattr(definition(name).stub, "__self__", None) for name in ("v2", "v2-live")]
    assert all(isinstance(s, ToolsModule) for s in stubs)
    first, second = (s for s in stubs if isinstance(s, ToolsModule))
    assert first.name == second.name
    handled = ("status_filter", "versioned_decisions", "common_actions")
    assert [getattr(first.context[0], f) for f in handled] == [getattr(second.context[0], f) for f in handled]


@pytest.mark.parametrize("name", ["before-v2", "consistent"])
def test_per_kind_series_grow_by_three_commit_tools(name: str) -> None:
    before, after = tools(name), tools(name, grow=True)
    assert [n for n in after if n not in before] == ["commit_list", "commit_link", "commit_unlink"]
    assert all(after[n] == before[n] for n in before)


@pytest.mark.parametrize("name", ["v2-first", "v2", "v2-live"])
def test_v2_grows_by_a_line_in_store_list_and_get_and_no_tool(name: str) -> None:
    before, after = tools(name), tools(name, grow=True)
    assert list(after) == list(before)
    changed = [n for n in before if after[n] != before[n]]
    assert changed == ["item_get", "item_list", "item_store"]
    for tool in changed:
        old = (before[tool].description or "").splitlines()
        new = (after[tool].description or "").splitlines()
        added_lines = [line for line in new if line.startswith("- ") and line not in old]
        assert len(added_lines) == 1 and added_lines[0].startswith("- commit: "), (tool, added_lines)


def test_every_kind_is_data_built_with_fewer_kinds_too() -> None:
    for name in ("before-v2", "consistent", "v2-first", "v2", "v2-live"):
        d = definition(name)
        sizes = [len(d.build_surface(KINDS[:n]).tools) for n in range(1, len(KINDS) + 1)]
        assert sizes == sorted(sizes)
