"""The lint finds the seed's inconsistencies on before-v2, little on consistent, nothing on v2, by general rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from toolsurface.harness.analyze.lint import (
    CATEGORIES,
    QUALITY_RULES,
    RULES,
    SEVERITIES,
    Finding,
    LintResult,
    SurfaceLint,
    find_rule,
    lint,
    lint_tools,
)
from toolsurface.harness.surface import resolve_all
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER


@pytest.fixture(scope="module")
def bundled_lint() -> dict[str, SurfaceLint]:
    return {s.name: s for s in lint(resolve_all(BUNDLED_ORDER)).surfaces}


# The description-quality rules (TS203-TS208) judge how fully each description speaks: the hand-written surfaces
# here are terse on purpose, each built for one of the other rules, and are judged by those
# (tests/analyze/test_lint_quality.py judges descriptions).
QUALITY = tuple(c for c in CATEGORIES if (r := find_rule(c)) is not None and r.id in QUALITY_RULES)
OTHERS = tuple(c for c in CATEGORIES if c not in QUALITY)
OTHER_IDS = ",".join(r.id for c in OTHERS if (r := find_rule(c)) is not None)


def only(surface: SurfaceLint, category: str) -> list[Finding]:
    return [f for f in surface.findings if f.category == category]


def the_one(surface: SurfaceLint, category: str, parameter: str) -> Finding:
    found = [f for f in only(surface, category) if parameter in f.parameters]
    assert len(found) == 1, surface.findings
    return found[0]


# ---------------------------------------------------------------------------------------------------------------
# Hand-written surfaces in another domain: each triggers exactly one rule, and a clean one triggers none.


def tool(
    name: str,
    description: str,
    params: dict[str, dict[str, Any]] | None = None,
    *,
    read_only: bool = False,
    destructive: bool | None = False,
) -> dict[str, Any]:
    annotations: dict[str, bool] = {"readOnlyHint": read_only}
    if not read_only and destructive is not None:
        annotations["destructiveHint"] = destructive
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": params or {}},
        "annotations": annotations,
    }


def integer(description: str = "") -> dict[str, Any]:
    return {"type": "integer", "description": description}


def string(description: str = "") -> dict[str, Any]:
    return {"type": "string", "description": description}


def boolean(description: str = "") -> dict[str, Any]:
    return {"type": "boolean", "description": description}


SINGLE_RULE_SURFACES: dict[str, list[dict[str, Any]]] = {
    "malformed-tool": [
        {
            "name": "song_get",
            "description": "Read a song by number.",
            "inputSchema": {"properties": {"number": integer("The number of the song.")}},
            "annotations": {"readOnlyHint": True},
        }
    ],
    "x-mcp-header": [
        tool(
            "song_get",
            "Read a song by number.",
            {"number": {**integer("The number of the song."), "x-mcp-header": "Song Number"}},
            read_only=True,
        ),
    ],
    "client-limit": [
        tool(
            "song_get",
            "Read a song by number. " + "It holds the title, the artist and the lyrics of the song. " * 40,
            {"number": integer("The number of the song.")},
            read_only=True,
        ),
    ],
    "addressing": [
        tool(
            "ticket_get", "Read a ticket by number.", {"number": integer("The number of the ticket.")}, read_only=True
        ),
        tool("ticket_close", "Close a ticket.", {"ticketNumber": integer("The number of the ticket.")}),
    ],
    "concurrency": [
        tool("note_update", "Update a note's text.", {"number": integer(), "etag": string("The etag you read.")}),
        tool("note_rename", "Rename a note.", {"number": integer(), "title": string(), "version": integer()}),
    ],
    "patch-rule": [
        tool(
            "card_edit",
            "Change a card.",
            {"number": integer(), "patch": {"type": "object", "description": "The fields to change."}},
        ),
        tool(
            "card_store",
            "Store a card; omitted fields are kept.",
            {"number": integer(), "due": string(), "clearDue": boolean("Remove the due date.")},
        ),
    ],
    "decision-flag": [
        tool(
            "invite_answer",
            "Answer an invite.",
            {"number": integer(), "accept": boolean("true to accept the invite, false to decline it.")},
        ),
    ],
    "reason": [
        tool("order_cancel", "Cancel an order.", {"number": integer(), "reason": string("Why the order is canceled.")}),
        tool("order_refund", "Refund an order.", {"number": integer(), "justification": string("Shown to the buyer.")}),
    ],
    "filter-paging": [
        tool("song_list", "List songs.", {"limit": integer("Songs per page.")}, read_only=True),
        tool("album_search", "Search albums by title.", {"query": string(), "cursor": string()}, read_only=True),
    ],
    "near-duplicate": [
        tool("song_search", "Search songs by words in their title.", {"query": string()}, read_only=True),
        tool(
            "song_find",
            "Finds songs whose title holds the words; deprecated, use song_search.",
            {"query": string("Words to find.")},
            read_only=True,
        ),
    ],
    "parameter-synonyms": [
        tool("song_search", "Search songs by title.", {"query": string(), "limit": integer()}, read_only=True),
        tool("album_search", "Search albums by title.", {"query": string(), "max_results": integer()}, read_only=True),
    ],
    "overloaded-word": [
        tool("file_create", "Create a file or folder.", {"name": string(), "kind": string("file or folder.")}),
        tool("folder_share", "Share a folder with a person.", {"kind": string("viewer, editor or owner.")}),
    ],
    "permission-split": [
        tool("photo_delete", "Delete a photo.", {"number": integer()}, destructive=False),
    ],
    "first-sentence": [
        tool("item_store", "Store one item. Allowed kinds: recipe, menu.", {"kind": string("recipe or menu.")}),
    ],
    "purpose": [
        tool(
            "song_get", "Song get.", {"number": integer("The song's number, as song_search gives it.")}, read_only=True
        ),
    ],
    "usage-returns": [
        tool("song_get", "Read a song of the album.", {"number": integer("As song_search gives it.")}, read_only=True),
    ],
    "parameter-description": [
        tool("song_rate", "Rate a song by number; returns its new average.", {"stars": integer()}),
    ],
    "unstated-limit": [
        tool(
            "song_delete",
            "Delete a song by number; returns the songs left.",
            {"number": integer("As song_search gives it.")},
            destructive=True,
        ),
    ],
    "vague-verb": [
        tool("song_admin", "Manages songs: the ones on the album.", {"number": integer("As song_search gives it.")}),
    ],
    "length-outlier": [
        *(
            tool(
                f"song_{verb}",
                f"{verb.capitalize()} a song of the album; returns the song's number.",
                {"number": integer("As song_search gives it.")},
                read_only=True,
            )
            for verb in ("get", "play", "rate", "tag", "hide", "pin", "copy", "mute")
        ),
        tool(
            "song_lyrics",
            "Read a song's lyrics, returned line by line. " + "Lines keep their breaks and their rhymes. " * 30,
            {"number": integer("As song_search gives it.")},
            read_only=True,
        ),
    ],
}
# Text that works against the user (TS5xx): each rule's own bad example, which triggers it alone.
SINGLE_RULE_SURFACES.update({r.name: [dict(t) for t in r.bad.tools] for r in RULES if r.id.startswith("TS5")})

CLEAN_SURFACE: list[dict[str, Any]] = [
    tool(
        "task_list",
        "List tasks as short entries; closed ones with includeClosed.",
        {"includeClosed": boolean("Closed tasks too"), "limit": integer(), "cursor": string()},
        read_only=True,
    ),
    tool("task_get", "Read a task by number.", {"number": integer()}, read_only=True),
    tool(
        "task_store",
        "Create or change a task. An omitted field is kept, null clears it.",
        {
            "number": integer("Task to change; omit to create"),
            "version": integer("Version read with task_get"),
            "title": {"type": ["string", "null"]},
            "reason": string("Shown to the reviewer"),
        },
    ),
    tool(
        "task_action",
        "Act on a task: claim, complete or cancel it.",
        {"number": integer(), "version": integer(), "action": string("claim, complete or cancel"), "reason": string()},
    ),
    tool("task_delete", "Delete a task.", {"number": integer(), "reason": string()}, destructive=True),
]


def write_snapshot(tmp_path: Path, name: str, tools: list[dict[str, Any]]) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


@pytest.mark.parametrize("category", list(SINGLE_RULE_SURFACES))
def test_a_small_surface_built_for_one_rule_triggers_exactly_that_rule(category: str) -> None:
    result = lint_tools(category, SINGLE_RULE_SURFACES[category], select=None if category in QUALITY else OTHERS)
    assert result.categories == [category], result.findings


def test_an_x_mcp_header_a_modern_client_drops_the_tool_for_is_named_and_a_valid_one_is_not() -> None:
    [finding] = lint_tools("x", SINGLE_RULE_SURFACES["x-mcp-header"], select=OTHERS).findings
    assert finding.tools == ["song_get"] and "'Song Number' is not an RFC 9110 token" in finding.message
    assert "drops the tool" in finding.message
    number = {**integer("The number."), "x-mcp-header": "Song"}
    valid = tool("song_get", "Read a song by number.", {"number": number}, read_only=True)
    on_number = tool(
        "song_find", "Find a song.", {"rating": {"type": "number", "x-mcp-header": "Rating"}}, read_only=True
    )
    assert lint_tools("v", [valid], select=OTHERS).categories == []
    assert "only permitted on integer/string/boolean" in only(lint_tools("n", [on_number]), "x-mcp-header")[0].message


LINT_AND_SAY_WHAT_LOADED = """
import json, sys
from toolsurface.harness.analyze.lint import lint_tools
result = lint_tools("x", json.loads(sys.argv[1]), select=json.loads(sys.argv[2]))
print(json.dumps([result.categories, sorted({m.split(".")[0] for m in sys.modules} & {"mcp", "mcp_types"})]))
"""


def test_the_x_mcp_header_check_loads_the_sdk_only_for_a_schema_that_has_the_annotation() -> None:
    """The SDK's types take half a second to import; a surface without the annotation (most) never needs them."""
    plain = [tool("song_get", "Read a song by number.", {"number": integer("The number.")}, read_only=True)]
    annotated = SINGLE_RULE_SURFACES["x-mcp-header"]
    said = []
    for tools in (plain, annotated):
        done = subprocess.run(
            [sys.executable, "-c", LINT_AND_SAY_WHAT_LOADED, json.dumps(tools), json.dumps(OTHERS)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        said.append(json.loads(done.stdout))
    assert said == [[[], []], [["x-mcp-header"], ["mcp", "mcp_types"]]]


def test_the_x_mcp_header_key_looked_for_is_the_sdks_own() -> None:
    from mcp.shared.inbound import X_MCP_HEADER_KEY as SDK_KEY

    from toolsurface.harness.analyze.lint._client_limits import X_MCP_HEADER_KEY

    assert X_MCP_HEADER_KEY == SDK_KEY


def test_the_single_rule_surfaces_cover_every_category() -> None:
    # TS4xx are rules of servers configured together (tests/mcp_config/test_mcp_config.py), not of one surface.
    together = {"shared-name", "joined-name", "builtin-name", "near-duplicate-servers"}
    assert set(SINGLE_RULE_SURFACES) == set(CATEGORIES) - together


def test_a_consistent_hand_written_surface_triggers_no_rule() -> None:
    assert lint_tools("clean", CLEAN_SURFACE, select=OTHERS).findings == []


def test_hand_written_findings_name_their_tools_and_parameters() -> None:
    addressing = lint_tools("a", SINGLE_RULE_SURFACES["addressing"], select=OTHERS).findings[0]
    assert addressing.tools == ["ticket_get", "ticket_close"]
    assert addressing.parameters == ["number", "ticketNumber"]
    concurrency = lint_tools("c", SINGLE_RULE_SURFACES["concurrency"], select=OTHERS).findings[0]
    assert concurrency.parameters == ["etag", "version"]
    decision = lint_tools("d", SINGLE_RULE_SURFACES["decision-flag"], select=OTHERS).findings[0]
    assert (decision.tools, decision.parameters) == (["invite_answer"], ["accept"])
    overloaded = lint_tools("o", SINGLE_RULE_SURFACES["overloaded-word"], select=OTHERS).findings[0]
    assert (overloaded.tools, overloaded.parameters) == (["file_create", "folder_share"], ["kind"])
    split = lint_tools("p", SINGLE_RULE_SURFACES["permission-split"], select=OTHERS).findings[0]
    assert split.tools == ["photo_delete"] and "destructiveHint" in split.message


def test_a_read_tool_without_read_only_hint_is_a_permission_split() -> None:
    bare = {"name": "song_get", "description": "Read a song.", "inputSchema": {"type": "object"}}
    assert lint_tools("bare", [bare], select=OTHERS).categories == ["permission-split"]


def test_a_boolean_switching_to_permanent_deletion_is_a_permission_split() -> None:
    surface = [
        tool(
            "report_decide",
            "Decide an abuse report.",
            {
                "number": integer(),
                "uphold": boolean("Deletes the post permanently; otherwise the report is dismissed."),
            },
            destructive=True,
        )
    ]
    finding = lint_tools("s", surface, select=OTHERS).findings[0]
    assert (finding.category, finding.parameters) == ("permission-split", ["uphold"])


@pytest.mark.parametrize("category", ["addressing", "overloaded-word", "first-sentence"])
def test_a_snapshot_file_is_linted_wherever_a_surface_name_is(tmp_path: Path, category: str) -> None:
    path = write_snapshot(tmp_path, category, SINGLE_RULE_SURFACES[category])
    run = run_cli("lint", str(path), "--format", "json", "--select", OTHER_IDS)
    assert run.returncode == 0, run.stderr
    [surface] = run.json()["surfaces"]
    assert surface["name"] == category
    assert {f["category"] for f in surface["findings"]} == {category}


def test_the_clean_snapshot_file_has_no_findings_through_the_cli(tmp_path: Path) -> None:
    path = write_snapshot(tmp_path, "clean", CLEAN_SURFACE)
    run = run_cli("lint", str(path), "--format", "json", "--select", OTHER_IDS)
    assert run.returncode == 0, run.stderr
    [clean] = run.json()["surfaces"]
    assert clean["name"] == "clean" and clean["findings"] == [] and clean["categories_with_findings"] == 0
    assert clean["counts"] == dict.fromkeys(CATEGORIES, 0)


# ---------------------------------------------------------------------------------------------------------------
# The bundled surfaces: the bar


def test_before_v2_shows_at_least_six_categories_including_the_seeds_seven(
    bundled_lint: dict[str, SurfaceLint],
) -> None:
    categories = bundled_lint["before-v2"].categories
    assert len(categories) >= 6
    seeds = {"addressing", "concurrency", "patch-rule", "decision-flag", "reason", "filter-paging", "overloaded-word"}
    assert seeds <= set(categories)


def test_v2_and_v2_first_show_at_most_one_category(bundled_lint: dict[str, SurfaceLint]) -> None:
    assert len(bundled_lint["v2"].categories) <= 1
    assert len(bundled_lint["v2-first"].categories) <= 1


def test_consistent_is_close_to_clean(bundled_lint: dict[str, SurfaceLint]) -> None:
    """consistent is before-v2 made consistent, its descriptions as terse: the description-quality rules are
    test_lint_quality.py's."""
    consistent = [f for f in bundled_lint["consistent"].findings if f.category in OTHERS]
    before = [f for f in bundled_lint["before-v2"].findings if f.category in OTHERS]
    assert len({f.category for f in consistent}) <= 1
    assert len(consistent) < len(before) / 4
    seeds = {"addressing", "concurrency", "patch-rule", "decision-flag", "reason", "filter-paging", "overloaded-word"}
    assert not seeds & {f.category for f in consistent}


def test_before_v2_addressing_names_every_item_reference_but_not_the_project(
    bundled_lint: dict[str, SurfaceLint],
) -> None:
    finding = the_one(bundled_lint["before-v2"], "addressing", "number")
    assert {"number", "taskNumber", "sourceNumber", "targetNumber", "id", "ref", "proposalId", "requestId"} == set(
        finding.parameters
    )
    assert {"task_patch", "relation_create", "memory_get", "proposal_review", "privacy_deletion_review"} <= set(
        finding.tools
    )


def test_before_v2_concurrency_names_both_tokens_and_the_tools_taking_two(
    bundled_lint: dict[str, SurfaceLint],
) -> None:
    findings = only(bundled_lint["before-v2"], "concurrency")
    assert {"version", "baseRevisionId"} <= set(findings[0].parameters)
    both = [f.tools for f in findings[1:] if set(f.parameters) == {"version", "baseRevisionId"}]
    assert both == [["page_store"], ["item_delete"]]


def test_before_v2_patch_rule_sets_the_patch_object_against_the_clear_flag(
    bundled_lint: dict[str, SurfaceLint],
) -> None:
    finding = the_one(bundled_lint["before-v2"], "patch-rule", "patch")
    assert set(finding.tools) == {"task_patch", "memory_store"}
    assert set(finding.parameters) == {"patch", "clearExpiry"}


def test_before_v2_decision_flags_are_approve_and_restore(bundled_lint: dict[str, SurfaceLint]) -> None:
    findings = only(bundled_lint["before-v2"], "decision-flag")
    assert {p for f in findings for p in f.parameters} == {"approve", "restore"}
    assert the_one(bundled_lint["before-v2"], "decision-flag", "approve").tools == [
        "proposal_review",
        "privacy_deletion_review",
    ]
    assert the_one(bundled_lint["before-v2"], "decision-flag", "restore").tools == ["item_archive"]


def test_before_v2_reason_sets_explanation_against_reason(bundled_lint: dict[str, SurfaceLint]) -> None:
    finding = the_one(bundled_lint["before-v2"], "reason", "reason")
    assert {"explanation", "reason"} <= set(finding.parameters)
    assert {"memory_store", "page_store", "proposal_review", "item_delete"} <= set(finding.tools)


def test_before_v2_filters_overlap_and_list_tools_page_differently(bundled_lint: dict[str, SurfaceLint]) -> None:
    overlap = the_one(bundled_lint["before-v2"], "filter-paging", "includeArchived")
    assert set(overlap.parameters) == {"includeArchived", "includeClosed"}
    assert set(overlap.tools) == {"item_search", "task_list"}
    paging = the_one(bundled_lint["before-v2"], "filter-paging", "offset")
    assert {"item_search", "task_list", "proposal_queue", "project_list"} <= set(paging.tools)
    assert "offset/limit" in paging.message and "limit only" in paging.message and "no paging" in paging.message


def test_before_v2_kind_means_the_relation_type_and_the_item_kind(bundled_lint: dict[str, SurfaceLint]) -> None:
    finding = the_one(bundled_lint["before-v2"], "overloaded-word", "kind")
    assert set(finding.tools) == {"relation_list", "relation_create", "relation_remove", "item_search"}
    assert "relation type" in finding.message and "item kind" in finding.message


def test_before_v2_deletion_review_mixes_an_irreversible_action_into_a_decision(
    bundled_lint: dict[str, SurfaceLint],
) -> None:
    finding = the_one(bundled_lint["before-v2"], "permission-split", "approve")
    assert finding.tools == ["privacy_deletion_review"]


# ---------------------------------------------------------------------------------------------------------------
# The command line


def test_lint_json_has_surfaces_with_findings_of_the_documented_shape() -> None:
    run = run_cli("lint", "before-v2", "v2", "--format", "json")
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert list(data) == ["surfaces"]
    assert [s["name"] for s in data["surfaces"]] == ["before-v2", "v2"]
    for surface in data["surfaces"]:
        assert list(surface) == ["name", "findings", "counts", "categories_with_findings", "severities", "suppressed"]
        assert list(surface["counts"]) == list(CATEGORIES)
        assert sum(surface["counts"].values()) == len(surface["findings"])
        assert surface["categories_with_findings"] == sum(1 for n in surface["counts"].values() if n)
        assert list(surface["severities"]) == ["error", "warning", "info"]
        assert sum(surface["severities"].values()) == len(surface["findings"]) and surface["suppressed"] == 0
        for finding in surface["findings"]:
            keys = ["category", "rule", "severity", "tools", "parameters", "message"]
            # What a fix adds in tokens, where the rule estimates it (the description-quality rules).
            assert list(finding) in (keys, [*keys, "cost_tokens"])
            assert finding["category"] in CATEGORIES
            rule = find_rule(finding["category"])
            assert rule is not None and finding["rule"] == rule.id
            # A finding may be milder than its rule (information where only optional parameters are undescribed).
            assert SEVERITIES.index(finding["severity"]) >= SEVERITIES.index(rule.severity)
            assert all(isinstance(t, str) for t in finding["tools"]) and finding["tools"]
            assert all(isinstance(p, str) for p in finding["parameters"])
            assert isinstance(finding["message"], str) and finding["message"]
    assert data["surfaces"][1]["findings"] == []


def test_lint_json_matches_the_library(bundled_lint: dict[str, SurfaceLint]) -> None:
    run = run_cli("lint", "consistent", "--format", "json")
    assert run.json() == LintResult([bundled_lint["consistent"]]).to_json()


def test_lint_table_shows_a_table_per_surface_with_its_categories() -> None:
    run = run_cli("lint", "before-v2", "v2", env={"COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    assert "before-v2: 20 findings in 12 rules (13 warnings, 7 info)" in run.stdout
    assert "v2: no findings" in run.stdout
    for rule in ("TS101 addressing", "TS104 decision-flag", "TS107 overloaded-word"):
        assert rule in run.stdout


def test_lint_of_an_unknown_surface_fails_with_one_line_and_exit_2() -> None:
    run = run_cli("lint", "no-such-surface")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "toolsurface: unknown surface 'no-such-surface'; known: before-v2, consistent, v2-first, v2, v2-live, helpdesk, "
        "helpdesk-tools"
    ]


def test_lint_of_a_snapshot_that_cannot_be_read_fails_with_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"tools": [{"description": "no name"}]}', encoding="utf-8")
    run = run_cli("lint", str(path))
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "has no name" in run.stderr


def test_lint_of_a_snapshot_with_a_tool_without_a_schema_names_it_and_judges_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(
        '{"tools": [{"name": "a"}, {"name": "b_get", "inputSchema": {"type": "object"}}]}', encoding="utf-8"
    )
    run = run_cli("lint", str(path), "--format", "json")
    assert run.returncode == 0, run.stderr
    findings = run.json()["surfaces"][0]["findings"]
    assert [f["message"] for f in findings if f["rule"] == "TS001"] == ["a: it has no inputSchema"]
    assert any(f["tools"] == ["b_get"] for f in findings)


def test_a_piped_lint_table_is_as_wide_as_its_cells_and_wraps_long_ones(tmp_path: Path) -> None:
    tools = [
        {"name": name, "description": f"{verb} a note.", "inputSchema": {"type": "object"}}
        for name, verb in (("note_get", "Read"), ("note_store", "Store"))
    ]
    snapshot = write_snapshot(tmp_path, "notes", tools)
    run = run_cli("lint", str(snapshot), "--select", OTHER_IDS, env={"COLUMNS": None})
    lines = run.stdout.splitlines()
    # The widest cell of each column ("TS201 permission-split", the header "severity", "note_get", the message
    # wrapped at 100), each padded by one space a side, and five borders. (note_store may create or overwrite: no
    # hint it leaves out is wrong for it.)
    assert max(len(line) for line in lines) == 22 + 8 + 8 + 100 + 4 * 2 + 5
    assert lines[0].strip() == "notes: 1 finding in 1 rule (1 info)"
    wide = run_cli("lint", "before-v2", "--select", OTHER_IDS, env={"COLUMNS": None}).stdout.splitlines()
    # Long lists of tools wrap at 40, messages at 100: no line of hundreds of characters.
    assert max(len(line) for line in wide) <= 22 + 8 + 40 + 30 + 100 + 5 * 2 + 6
    assert "privacy_deletion_review" in "".join(wide)
