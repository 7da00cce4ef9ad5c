"""Description quality (TS203-TS208): what a tool's text shows of its purpose, its answer, its parameters, its limits,
its verbs and its length, each finding with what its fix adds in tokens; `lint --score` a score per tool and a
TDQS-like score per server in every format."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.paths import ROOT
from toolsurface.harness.analyze.lint import (
    Finding,
    LintSettings,
    example_tool,
    lint_tools,
    score_surface,
)
from toolsurface.harness.analyze.lint._quality import FIX_TEXTS
from toolsurface.harness.measure import count_tokens

DESK = ROOT / "tests" / "fixtures" / "servers" / "ticket_desk.py"
QUALITY = "TS203,TS204,TS205,TS206,TS207,TS208"


def quality(tools: list[dict[str, Any]], instructions: str | None = None) -> list[Finding]:
    names = ("purpose", "usage-returns", "parameter-description", "unstated-limit", "vague-verb", "length-outlier")
    return lint_tools("t", tools, instructions, select=names).findings


def rules_of(findings: list[Finding]) -> list[str]:
    return [f.rule_id for f in findings]


def key(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


# ---------------------------------------------------------------------------------------------------------------
# What a fix adds


def test_each_fix_text_costs_what_the_projects_counter_says() -> None:
    for kind, (text, tokens) in FIX_TEXTS.items():
        assert count_tokens(text) == tokens, kind


def test_a_quality_finding_carries_what_its_fix_adds_in_its_message_and_its_json() -> None:
    tool = example_tool("ticket_get", "Read a ticket of the desk.", {"key": key("TD-1, say.")}, read_only=True)
    [finding] = quality([tool])
    assert finding.rule_id == "TS204" and finding.cost_tokens == FIX_TEXTS["returns"][1]
    assert finding.message.endswith(f"a fix adds about {finding.cost_tokens} tokens a request")
    assert finding.to_json()["cost_tokens"] == finding.cost_tokens
    other = lint_tools("t", [example_tool("ticket_get", "Read a ticket.", {"key": key("The ticket's key, TD-1.")})])
    assert all("cost_tokens" not in f.to_json() for f in other.findings if f.cost_tokens is None)
    assert any(f.rule_id == "TS201" for f in other.findings)


# ---------------------------------------------------------------------------------------------------------------
# TS203 purpose


def test_a_description_that_only_repeats_the_name_says_no_purpose() -> None:
    for name, description in (
        ("ticket_search", "Ticket search."),
        ("get_issue", "Retrieves an issue."),
        ("jira_get_user_profile", "Retrieve profile information for a specific Jira user."),
    ):
        [finding] = [f for f in quality([example_tool(name, description)]) if f.rule_id == "TS203"]
        assert finding.severity == "warning" and "says nothing its name does not" in finding.message


def test_a_description_that_names_more_than_the_name_states_a_purpose() -> None:
    for name, description in (
        ("search_tempo_traces", "Search for traces using TraceQL queries"),
        ("ticket_search", "Search tickets by words in their title or body."),
    ):
        assert "TS203" not in rules_of(quality([example_tool(name, description)]))


def test_a_tool_with_no_description_is_known_by_its_name_alone_and_scores_zero() -> None:
    surface = lint_tools("t", [example_tool("ticket_search", "", {"query": key("Words to look for.")})])
    [finding] = [f for f in surface.findings if f.rule_id == "TS203"]
    assert "has no description" in finding.message
    assert score_surface(surface).tools[0].score == 0


# ---------------------------------------------------------------------------------------------------------------
# TS204 usage-returns


def test_a_read_tool_whose_one_sentence_names_nothing_of_its_answer_is_found() -> None:
    [finding] = quality([example_tool("incident_list", "Get incidents from Datadog", read_only=True)])
    assert (finding.rule_id, finding.aspect, finding.severity) == ("TS204", "returns", "info")
    assert "names nothing of what comes back" in finding.message


@pytest.mark.parametrize(
    "description",
    [
        "Read a ticket: its title, status and comments.",
        "List the comments on a ticket, oldest first.",
        "Get the total number of active hosts.",
        "Lists the tasks of a project with number, title, status and assignee.",
        "Read a ticket by its key. Returns its title and status.",
        "Whether a ticket is within its service-level agreement.",
    ],
)
def test_a_read_tool_that_says_what_comes_back_is_not_found(description: str) -> None:
    assert quality([example_tool("ticket_get", description, read_only=True)]) == []


def test_a_read_tool_with_an_output_schema_needs_no_words_on_its_answer() -> None:
    tool = {**example_tool("incident_list", "Get incidents from Datadog", read_only=True)}
    tool["outputSchema"] = {"type": "object", "properties": {"incidents": {"type": "array"}}}
    assert quality([tool]) == []


def test_a_tool_that_changes_things_in_one_bare_sentence_says_neither_when_nor_what() -> None:
    [finding] = quality([example_tool("host_mute", "Mute a host in Datadog", read_only=False, destructive=False)])
    assert (finding.rule_id, finding.aspect) == ("TS204", "usage")
    for said in ("Mute a host in Datadog; use it during planned maintenance.", "Mute a host; returns its new state."):
        assert quality([example_tool("host_mute", said, read_only=False, destructive=False)]) == []


def test_a_tool_that_waits_or_clicks_is_not_asked_what_it_reads() -> None:
    tools = [example_tool("wait_for", "Wait for the specified text to appear on the selected page.", read_only=True)]
    assert quality(tools) == []


# ---------------------------------------------------------------------------------------------------------------
# TS205 parameter-description


def test_a_required_parameter_without_a_description_is_a_warning_an_optional_one_information() -> None:
    [required] = quality(
        [
            example_tool(
                "ticket_close", "Close a ticket; returns its new status.", {"code": "integer"}, required=["code"]
            )
        ]
    )
    assert (required.rule_id, required.severity, required.parameters) == ("TS205", "warning", ["code"])
    [optional] = quality([example_tool("ticket_close", "Close a ticket; returns its new status.", {"code": "integer"})])
    assert optional.severity == "info"


def test_a_description_that_only_repeats_its_parameters_name_is_information() -> None:
    [finding] = quality(
        [
            example_tool(
                "page_get",
                "Read a page: its title and body.",
                {"page_id": key("The ID of the page")},
                required=["page_id"],
                read_only=True,
            )
        ]
    )
    assert (finding.severity, finding.aspect) == ("info", "")
    assert "page_id only repeats its name" in finding.message
    assert finding.cost_tokens == FIX_TEXTS["parameter-form"][1]


@pytest.mark.parametrize(
    "description",
    [
        "Name from describe_sheet.",
        "Sheet for the PivotTable.",
        "The number of the item, e.g. 14.",
        "The item's number (#N)",
    ],
)
def test_a_parameter_description_that_adds_a_source_a_form_or_an_example_says_more_than_the_name(
    description: str,
) -> None:
    tool = example_tool("sheet_get", "Read a sheet: its cells.", {"name": key(description)}, read_only=True)
    assert quality([tool]) == []


def test_the_list_explains_a_parameter_its_description_names_or_another_tool_describes() -> None:
    tools = [
        example_tool(
            "ticket_get", "Read one ticket by its key: its title and status.", {"key": "string"}, read_only=True
        ),
        example_tool(
            "ticket_store", "Create or change a ticket; returns its key.", {"number": key("The ticket to change.")}
        ),
        example_tool("ticket_delete", "Delete a ticket for good; returns its key.", {"number": "integer"}),
        example_tool(
            "ticket_find", "Find bugs or tasks: their keys.", {"kind": {"type": "string", "enum": ["bug", "task"]}}
        ),
    ]
    assert quality(tools) == []
    # The server's instructions explain a shared parameter once.
    alone = [example_tool("ticket_close", "Close a ticket; returns its status.", {"projectId": "string"})]
    assert quality(alone) != [] and quality(alone, "Every tool takes the projectId of the desk.") == []


def test_an_object_whose_fields_are_described_is_explained() -> None:
    fields = {"type": "object", "properties": {"slug": {"type": "string", "description": "gh/org/project"}}}
    behind = {"anyOf": [{"$ref": "#/$defs/Params"}, {"type": "null"}]}
    schema = {"type": "object", "properties": {"params": behind}, "$defs": {"Params": fields}}
    tools = [
        example_tool("pipeline_get", "Read a pipeline: its status.", {"params": fields}, read_only=True),
        example_tool("pipeline_list", "List pipelines: their status.", schema=schema, read_only=True),
    ]
    assert quality(tools) == []


def test_a_parameter_left_undescribed_in_several_tools_is_one_finding_naming_them_all() -> None:
    run = run_cli("lint", "--format", "json", "--select", "TS205", "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    findings = run.json()["surfaces"][0]["findings"]
    [shared] = [f for f in findings if f["parameters"] == ["key"]]
    assert shared["message"].startswith("key has no description in 5 tools")
    assert shared["cost_tokens"] == 5 * FIX_TEXTS["parameter"][1]
    # ticket_get names its key ("by its key (for example 'TD-1')"), the reassignment its two agents.
    assert "ticket_get" not in shared["tools"]
    assert not any("from_agent" in f["parameters"] for f in findings)


# ---------------------------------------------------------------------------------------------------------------
# TS206 unstated-limit


def test_a_deletion_that_does_not_say_whether_it_can_be_undone_is_a_warning() -> None:
    tools = [example_tool("drop-collection", "Removes a collection from the database.", destructive=True)]
    [finding] = [f for f in quality(tools) if f.rule_id == "TS206"]
    assert (finding.rule_id, finding.severity, finding.aspect) == ("TS206", "warning", "undo")
    said = "Delete an epic (cannot be undone)."
    assert "TS206" not in rules_of(quality([example_tool("epic_delete", said, destructive=True)]))


def test_a_destructive_hint_alone_or_a_drop_of_files_is_no_deletion() -> None:
    tools = [
        example_tool("browser_click", "Click an element; returns the page's new state.", destructive=True),
        example_tool("browser_drop", "Drop files onto an element; returns the page's new state.", destructive=True),
    ]
    assert "TS206" not in rules_of(quality(tools))


def test_a_list_tool_that_pages_without_a_word_on_it_is_information() -> None:
    paged = {"page": "integer", "per_page": "integer"}
    tools = [example_tool("issue_list", "List issues: their titles.", paged, read_only=True)]
    [finding] = [f for f in quality(tools) if f.rule_id == "TS206"]
    assert (finding.rule_id, finding.severity, finding.parameters) == ("TS206", "info", ["page", "per_page"])
    capped = {"limit": {"type": "integer", "default": 20, "description": "Issues per page."}}
    assert quality([example_tool("issue_list", "List issues: their titles.", capped, read_only=True)]) == []
    since = {"start": {"type": "string", "description": "RFC 3339 time to search from."}}
    assert quality([example_tool("trace_search", "Search traces: their ids.", since, read_only=True)]) == []


# ---------------------------------------------------------------------------------------------------------------
# TS207 vague-verb


def test_a_first_sentence_that_only_manages_or_handles_is_vague() -> None:
    tools = [example_tool("browser_handle_dialog", "Handle a dialog", {"accept": key("Accept it.")})]
    [finding] = [f for f in quality(tools) if f.rule_id == "TS207"]
    assert "says only 'handle'" in finding.message
    for said in (
        "Manage tickets: create, update or close one by its key.",
        "Perform comprehensive research on a given topic; returns a report.",
        "Manage a Kubernetes resource. It can create, read, update or delete it.",
    ):
        assert "TS207" not in rules_of(quality([example_tool("tickets", said, {"key": key("TD-1")})]))


# ---------------------------------------------------------------------------------------------------------------
# TS208 length-outlier


def siblings(count: int) -> list[dict[str, Any]]:
    verbs = ("get", "play", "rate", "tag", "hide", "show", "copy", "find", "keep", "skip")[:count]
    return [
        example_tool(f"song_{verb}", f"{verb.capitalize()} a song of the album; returns its number.", read_only=True)
        for verb in verbs
    ]


def test_a_description_far_longer_than_its_siblings_says_what_cutting_it_saves() -> None:
    long = example_tool("song_lyrics", "Read a song's lyrics, line by line. " + "Lines keep their rhymes. " * 40)
    [finding] = [f for f in quality([*siblings(8), long]) if f.rule_id == "TS208"]
    tokens = count_tokens(long["description"])
    assert finding.aspect == "long" and finding.cost_tokens is not None and finding.cost_tokens < 0
    assert f"its description is {tokens:,} tokens" in finding.message and "saves about" in finding.message


def test_length_is_judged_only_among_enough_tools() -> None:
    long = example_tool("song_lyrics", "Read a song's lyrics, line by line. " + "Lines keep their rhymes. " * 40)
    assert "TS208" not in rules_of(quality([*siblings(6), long]))


# ---------------------------------------------------------------------------------------------------------------
# --score


def test_a_tools_score_is_100_less_the_weight_of_each_finding_and_the_server_60_mean_40_worst() -> None:
    tools = [
        # TS204 (20) and TS205 for two parameters (5 each): 70.
        example_tool("host_mute", "Mute a host in Datadog", {"target": "string", "minutes": "integer"}),
        example_tool("host_get", "Read a host: its name and state.", {"name": key("As host_list gives it.")}),
    ]
    surface = lint_tools("t", tools, select=("usage-returns", "parameter-description"))
    scored = score_surface(surface)
    assert [(t.tool, t.score, t.rules) for t in scored.tools] == [
        ("host_mute", 70, ("TS204", "TS205")),
        ("host_get", 100, ()),
    ]
    assert scored.score == round(0.6 * 85 + 0.4 * 70) == 79
    assert scored.tools[0].cost_tokens == FIX_TEXTS["usage"][1] + 2 * FIX_TEXTS["parameter"][1]


def test_what_the_configuration_turns_off_takes_nothing_from_the_score() -> None:
    tools = [example_tool("host_mute", "Mute a host in Datadog", {"target": "string"})]
    off = LintSettings("lint", disable=("usage-returns",))
    assert score_surface(lint_tools("t", tools, settings=off)).tools[0].score == 95


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("desk")
    run = run_cli("snapshot", "-o", str(folder / "desk.json"), "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    return folder / "desk.json"


def test_lint_score_prints_each_tools_score_and_the_servers_as_a_table(desk: Path) -> None:
    run = run_cli("lint", str(desk), "--score", env={"COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    assert "ticket-desk: description quality " in run.stdout and "(60 % of the mean" in run.stdout
    assert "0.6 x mean + 0.4 x worst" in run.stdout
    assert "ticket_create" in run.stdout


def test_lint_score_as_json_gives_every_tools_score_rules_and_fix_tokens(desk: Path) -> None:
    data = run_cli("lint", str(desk), "--score", "--format", "json").json()
    [surface] = data["surfaces"]
    score = surface["score"]
    assert score["formula"] == "0.6 * mean + 0.4 * worst"
    tools = {t["tool"]: t for t in score["tools"]}
    assert len(tools) == 14 and tools["ticket_create"]["rules"] == ["TS205"]
    assert tools["ticket_create"]["score"] == 100 - 15 and tools["ticket_get"]["score"] == 100
    mean = sum(t["score"] for t in tools.values()) / len(tools)
    assert score["score"] == round(0.6 * mean + 0.4 * min(t["score"] for t in tools.values()))
    assert score["cost_tokens"] == sum(t["cost_tokens"] for t in tools.values())


def test_lint_score_as_csv_is_a_row_per_tool_and_one_for_the_server(desk: Path) -> None:
    lines = run_cli("lint", str(desk), "--score", "--format", "csv").stdout.splitlines()
    assert lines[0] == "surface,tool,score,rules,cost_tokens"
    assert len(lines) == 1 + 14 + 1 and lines[-1].startswith("ticket-desk,(server),")
    assert "ticket-desk,ticket_create,85,TS205,45" in lines


def test_lint_score_in_markdown_sarif_junit_and_github(desk: Path, tmp_path: Path) -> None:
    markdown = run_cli("lint", str(desk), "--score", "--format", "markdown").stdout
    assert "**ticket-desk: description quality " in markdown and "| tool | score | rules | fix tokens |" in markdown
    sarif = run_cli("lint", str(desk), "--score", "--format", "sarif").json()
    said = sarif["runs"][0]["properties"]["descriptionQuality"]["ticket-desk"]
    assert set(said) == {"score", "mean", "worst"}
    junit = run_cli("lint", str(desk), "--score", "--format", "junit").stdout
    properties = {p.attrib["name"]: p.attrib["value"] for p in ET.fromstring(junit).iter("property")}
    assert properties["description-quality"] == str(said["score"])
    summary = tmp_path / "summary.md"
    github = run_cli("lint", str(desk), "--score", "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert any(
        line.startswith("::notice title=ticket-desk%3A description quality::") for line in github.stdout.splitlines()
    )
    assert "description quality" in summary.read_text(encoding="utf-8")


def test_lint_without_score_prints_no_scores(desk: Path) -> None:
    data = run_cli("lint", str(desk), "--format", "json").json()
    assert "score" not in data["surfaces"][0]


def test_score_with_select_leaving_out_every_quality_rule_is_one_line(desk: Path) -> None:
    assert_one_line_error(run_cli("lint", str(desk), "--score", "--select", "TS101"), "--score", "--select")
    assert run_cli("lint", str(desk), "--score", "--select", "TS205", "--format", "json").returncode == 0


def test_a_surface_of_a_configuration_is_scored_and_the_clashes_among_servers_are_not(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    server = {"command": sys.executable, "args": [str(DESK), "--clean"]}
    config.write_text(json.dumps({"mcpServers": {"desk": server}}), encoding="utf-8")
    data = run_cli("lint", "--mcp-config", str(config), "--score", "--format", "json").json()
    desk_entry, together = data["surfaces"]
    assert "score" in desk_entry and "score" not in together
