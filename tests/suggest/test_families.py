"""The rule that finds families, on small lists: how a name reads, which tools are one operation over nouns or one
noun under operations, that reading and writing tools are never one, that a tool sharing none of its parameters
leaves, and the parts of one thing before any nouns."""

from __future__ import annotations

from typing import Any

import pytest

from toolsurface.harness.suggest import candidate_of, find_plans, read_name


def tool(name: str, params: tuple[str, ...] = ("project_id",), read_only: bool | None = None) -> dict[str, Any]:
    said = "A value this tool takes, described at the length servers describe theirs, e.g. `x`."
    found: dict[str, Any] = {
        "name": name,
        "description": f"Does {name}. What it answers, and when to use it, in a second sentence.",
        "inputSchema": {"type": "object", "properties": {p: {"type": "string", "description": said} for p in params}},
    }
    if read_only is not None:
        found["annotations"] = {"readOnlyHint": read_only}
    return found


def grouped(tools: list[dict[str, Any]]) -> list[tuple[str, tuple[str, ...]]]:
    plans, _, _ = find_plans(tools)
    return [(p.grouping, p.names) for p in plans]


@pytest.mark.parametrize(
    ("name", "scope", "verb", "noun"),
    [
        ("memory_store", (), "store", ("memory",)),
        ("task_assignee_list", (), "list", ("task", "assignee")),
        ("get_merge_request", (), "get", ("merge", "request")),
        ("jira_get_issue", ("jira",), "get", ("issue",)),
        ("listMastraPackages", (), "list", ("mastra", "packages")),
        ("API-retrieve-a-page", ("api",), "retrieve", ("page",)),
        ("add_footnote_to_document", (), "add", ("footnote",)),
        ("system_memory", (), None, ()),
    ],
)
def test_a_name_reads_as_an_operation_on_a_noun(
    name: str, scope: tuple[str, ...], verb: str | None, noun: tuple[str, ...]
) -> None:
    read = read_name(tool(name), scoped_first=True)
    assert (read.scope, read.verb, read.noun) == (scope, verb, noun)


def test_a_name_that_reads_both_ways_reads_as_most_of_its_lists_names() -> None:
    # trace is a verb too: performance_start_trace reads as its neighbour performance_analyze_insight does.
    tools = [tool("performance_start_trace"), tool("performance_stop_trace"), tool("performance_analyze_insight")]
    assert grouped(tools) == [("action", ("performance_start_trace", "performance_stop_trace"))]


def test_one_operation_over_nouns_and_one_noun_under_operations_are_families() -> None:
    tools = [
        tool("issue_create", ("project_id", "title")),
        tool("label_create", ("project_id", "title")),
        tool("ticket_claim", ("project_id", "number", "version")),
        tool("ticket_close", ("project_id", "number", "version", "reason")),
    ]
    assert grouped(tools) == [
        ("kind", ("issue_create", "label_create")),
        ("action", ("ticket_claim", "ticket_close")),
    ]


def test_reading_and_writing_tools_are_never_one_family() -> None:
    tools = [tool("issue_get", read_only=True), tool("issue_close", read_only=False)]
    assert grouped(tools) == []


def test_a_tool_sharing_none_of_its_parameters_leaves_its_family() -> None:
    tools = [
        tool("get_issue", ("project_id", "iid")),
        tool("get_label", ("project_id", "label_id")),
        tool("get_weather", ("city", "units")),
    ]
    assert grouped(tools) == [("kind", ("get_issue", "get_label"))]


def test_the_parts_of_one_thing_are_a_family_before_any_nouns() -> None:
    params = ("project_id", "merge_request_iid")
    tools = [
        tool("get_merge_request", params),
        tool("get_merge_request_notes", params),
        tool("get_merge_request_diffs", params),
        tool("get_issue", ("project_id", "merge_request_iid")),
    ]
    candidate = candidate_of("s", "s-candidate", tools)
    [family] = candidate.families
    assert family.name == "get_merge_request"
    assert family.values == ("merge_request", "notes", "diffs")
    assert candidate.kept == ["get_issue"]


def test_nouns_that_end_alike_are_one_tool_named_for_what_they_share() -> None:
    params = ("project_id", "awardable_id")
    tools = [tool(f"list_{owner}_emoji_reactions", params) for owner in ("issue", "merge_request", "issue_note")]
    [family] = candidate_of("s", "s-candidate", tools).families
    assert family.name == "list_emoji_reactions"
    assert family.values == ("issue", "merge_request", "issue_note")
    assert family.tool["inputSchema"]["required"] == ["kind"]


def test_a_family_much_larger_than_its_largest_tool_is_narrowed() -> None:
    # Nouns of nothing in common, of 8 parameters against 3 at most: the last with most of its own leaves.
    tools = [
        tool("get_a", ("p", "x")),
        tool("get_b", ("p", "x")),
        tool("get_c", ("p", "c1", "c2")),
        tool("get_d", ("p", "d1", "d2")),
        tool("get_e", ("p", "e1", "e2")),
    ]
    assert grouped(tools) == [("kind", ("get_a", "get_b", "get_c", "get_d"))]


def test_the_one_tool_takes_a_kind_enum_the_shared_parameters_once_and_the_rest_in_fields() -> None:
    tools = [
        tool("memory_store", ("project_id", "title", "summary", "tags")),
        tool("page_store", ("project_id", "title", "parent", "position")),
    ]
    candidate = candidate_of("s", "s-candidate", tools)
    [family] = candidate.families
    properties = family.tool["inputSchema"]["properties"]
    assert list(properties) == ["kind", "project_id", "title", "fields"]
    assert properties["kind"]["enum"] == ["memory", "page"]
    assert "- memory: Does memory_store. fields: summary, tags." in family.tool["description"]
    assert candidate.mapping["tools"]["page_store"] == {
        "tool": "item_store",
        "arguments": {"kind": "page"},
        "rename": {"parent": "fields.parent", "position": "fields.position"},
    }


def test_a_family_no_smaller_as_one_tool_is_not_proposed_and_said() -> None:
    tiny = [
        {"name": n, "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}
        for n in ("a_get", "b_get")
    ]
    candidate = candidate_of("s", "s-candidate", tiny)
    assert not candidate.found and candidate.kept == ["a_get", "b_get"]
    [turned] = candidate.turned_down
    assert turned.tools == ("a_get", "b_get") and turned.why.endswith("as 2: it saves nothing")
