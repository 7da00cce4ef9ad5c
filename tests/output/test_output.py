"""Output pieces have one home (toolsurface.harness.output), and every verb that prints a table offers the same
--format choices: table, json, csv and markdown where they make sense, github and junit where a check can fail."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from tests.conftest import ROOT, run_cli
from toolsurface.harness.analyze._embed import embedding_label
from toolsurface.harness.analyze.findability import stop_words
from toolsurface.harness.cli import main
from toolsurface.harness.measure import BY_KINDS_COLUMNS, PER_TOOL_COLUMNS
from toolsurface.harness.output import (
    PLAIN,
    Column,
    compact_json,
    csv_table,
    keys,
    labels,
    markdown_cell,
    markdown_table,
    shown,
)

NOTES = [
    {
        "name": "note_get",
        "description": "Read one note | by its id.\nReturns its text.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
    },
    {
        "name": "note_store",
        "description": "Create or update a note.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    },
]


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A two-tool snapshot, with a query it ranks first and one it cannot find, and a one-step task."""
    (tmp_path / "notes.json").write_text(json.dumps({"tools": NOTES}), encoding="utf-8")
    queries = [
        {"query": "read note", "expected": {"notes": "note_get"}},
        {"query": "save text", "expected": {"notes": "note_store"}},
    ]
    (tmp_path / "queries.json").write_text(json.dumps({"queries": queries}), encoding="utf-8")
    task = {"name": "read a note", "steps": queries[:1]}
    (tmp_path / "task.json").write_text(json.dumps(task), encoding="utf-8")
    return tmp_path


def formats(*path: str) -> list[str]:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, name
        command = found
    option = next(p for p in command.params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    return list(option.type.choices)


@pytest.mark.parametrize("verb", ["measure", "findability", "roundtrip", "lint", "diff", "clients", "list", "agents"])
def test_every_verb_that_prints_a_table_offers_table_json_csv_and_markdown_in_that_order(verb: str) -> None:
    assert formats(verb)[:4] == ["table", "json", "csv", "markdown"]


@pytest.mark.parametrize("verb", ["budget", "diff", "lint", "findability"])
def test_every_verb_whose_check_can_fail_offers_github_and_junit_after_its_table_formats(verb: str) -> None:
    assert formats(verb)[4:6] == ["github", "junit"]


def test_lint_offers_sarif_last() -> None:
    assert formats("lint")[-1] == "sarif"


def test_budget_keeps_its_text_and_offers_json_csv_and_markdown_beside_it() -> None:
    assert formats("budget") == ["text", "json", "csv", "markdown", "github", "junit"]


def test_a_markdown_cell_keeps_its_row_whatever_its_text_holds() -> None:
    text = "a | b\nc  \r d"
    assert markdown_cell(text) == "a \\| b\\nc  \\r d"
    assert markdown_cell(text, "spaced") == "a \\| b c  \r d"
    assert markdown_cell(text, "collapsed") == "a \\| b c d"


def test_a_markdown_table_escapes_each_cell_and_aligns_the_columns_asked_for() -> None:
    table = markdown_table(["tool", "chars"], [["a|b", "1,234"], ["c\nd", "-"]], {1})
    assert table == "| tool | chars |\n| --- | ---: |\n| a\\|b | 1,234 |\n| c\\nd | - |\n"
    tight = markdown_table(["tool", "chars"], [["c\nd", "5"]], {1}, breaks="spaced", tight=True)
    assert tight == "| tool | chars |\n|---|--:|\n| c d | 5 |\n"


def test_a_csv_table_has_a_header_and_an_empty_cell_for_nothing() -> None:
    assert csv_table(["a", "b"], [[1, None], ["x,y", True]]) == 'a,b\n1,\n"x,y",True\n'


def test_a_value_reads_as_python_writes_it_in_report_md_and_for_reading_on_the_page() -> None:
    values = [None, float("nan"), True, False, 1234, 2.0, 0.123456, [1, 2000], "text"]
    plain = ["-", "-", "True", "False", "1,234", "2.0", "0.123456", "[1, 2000]", "text"]
    assert [shown(v, PLAIN) for v in values] == plain
    assert [shown(v) for v in values] == ["-", "-", "yes", "no", "1,234", "2", "0.1235", "1, 2,000", "text"]


def test_compact_json_is_the_counting_rule() -> None:
    assert compact_json({"b": "é", "a": [1, 2]}) == '{"b":"é","a":[1,2]}'


def test_a_column_is_declared_once_its_key_naming_it_in_csv_its_label_in_the_report() -> None:
    assert Column("surface").label == "surface"
    assert keys(PER_TOOL_COLUMNS) == ["surface", "tool", "chars", "tokens", "marginal_tokens"]
    assert labels(BY_KINDS_COLUMNS) == ["surface", "kinds", "kind added", "tools", "chars", "tokens"]
    report = ROOT / "reports" / "conderis" / "tables"
    assert (report / "per_tool.csv").read_text(encoding="utf-8").splitlines()[0] == ",".join(labels(PER_TOOL_COLUMNS))
    assert (report / "by_kinds.csv").read_text(encoding="utf-8").splitlines()[0] == ",".join(labels(BY_KINDS_COLUMNS))
    measured = run_cli("measure", "v2", "--per-tool", "--format", "csv")
    assert measured.stdout.splitlines()[0] == ",".join(keys(PER_TOOL_COLUMNS))


FINDABILITY_TITLE = (
    "### Findability (keyword weights: name 3, first_sentence 2, rest 1; bm25 k1 1.2, b 0.75; embedding:"
    f" {embedding_label()}, cosine; stop words: {stop_words().label} (a tool's name words kept); stem False)"
)
FINDABILITY_TABLE = """\
| surface | query | expected | keyword rank | keyword top | bm25 rank | bm25 top | embedding rank | embedding top \
| missing | agree |
| --- | --- | --- | ---: | --- | ---: | --- | ---: | --- | --- | --- |
| notes | read note | note_get | 1 | note_get | 1 | note_get | 1 | note_get | - | yes |
"""
# "save text" has no word of a tool's: the word scorers miss it, the embedding takes "save" for "create or update".
MISSED = "notes 'save text': note_store keyword not found, bm25 not found"


def test_findability_as_csv_is_a_row_per_surface_query_and_scorer(notes: Path) -> None:
    run = run_cli("findability", "notes.json", "--queries", "queries.json", "--format", "csv", cwd=notes)
    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        "surface,query,scorer,expected,rank,top,missing,full_matches\n"
        "notes,read note,keyword,note_get,1,note_get,,1\n"
        "notes,read note,bm25,note_get,1,note_get,,1\n"
        "notes,read note,embedding,note_get,1,note_get,,1\n"
        "notes,save text,keyword,note_store,,note_get,save,0\n"
        "notes,save text,bm25,note_store,,note_get,save,0\n"
        "notes,save text,embedding,note_store,1,note_store,save,0\n"
    )


def test_findability_as_markdown_marks_the_ranks_that_fail_the_check(notes: Path) -> None:
    args = ["findability", "notes.json", "--queries", "queries.json", "--format", "markdown"]
    plain = run_cli(*args, cwd=notes)
    assert plain.returncode == 0, plain.stderr
    unfound = "| notes | save text | note_store | - | note_get | - | note_get | 1 | note_store | save | no |\n"
    assert plain.stdout == f"{FINDABILITY_TITLE}\n\n{FINDABILITY_TABLE}{unfound}"
    checked = run_cli(*args, "--fail-below-rank", "1", cwd=notes)
    assert checked.returncode == 1
    assert checked.stdout == (
        f"{FINDABILITY_TITLE}\n\n**1 of 2 queries failing**: expected tool not found at rank 1 or better (in bold)"
        " by keyword 1, bm25 1.\n\n"
        f"{FINDABILITY_TABLE}| notes | save text | note_store | **-** | note_get | **-** | note_get | 1 | note_store"
        " | save | no |\n"
    )
    assert checked.stderr == (
        "toolsurface: 1 of 2 queries failing (expected tool not found at rank 1 or better by keyword 1, bm25 1):"
        f" {MISSED}\n"
    )


def test_findability_for_github_annotates_each_expected_tool_not_ranked_first(notes: Path) -> None:
    args = ["findability", "notes.json", "--queries", "queries.json", "--format", "github"]
    run = run_cli(*args, "--fail-below-rank", "1", cwd=notes, env={"GITHUB_STEP_SUMMARY": str(notes / "summary.md")})
    assert run.returncode == 1
    assert run.stdout == (
        "::error title=notes%3A findability keyword::notes 'save text': note_store keyword not found\n"
        "::error title=notes%3A findability bm25::notes 'save text': note_store bm25 not found\n"
    )
    assert (notes / "summary.md").read_text(encoding="utf-8").startswith(f"{FINDABILITY_TITLE}\n\n**1 of 2 queries")
    unchecked = run_cli(*args, cwd=notes, env={"GITHUB_STEP_SUMMARY": str(notes / "again.md")})
    assert unchecked.returncode == 0
    assert unchecked.stdout.splitlines()[0].startswith("::warning title=notes%3A findability keyword::")


def test_roundtrip_as_csv_and_markdown(notes: Path) -> None:
    args = ["roundtrip", "notes.json", "--task", "task.json", "--format"]
    csv = run_cli(*args, "csv", cwd=notes)
    assert csv.stdout == (
        "surface,tools,chars,tokens,searches,list_chars,list_tokens,chosen_by\nnotes,note_get,169,42,1,306,74,expected\n"
    )
    markdown = run_cli(*args, "markdown", cwd=notes)
    assert markdown.returncode == 0, markdown.stderr
    assert markdown.stdout == (
        "### Round trip: read a note (compact JSON per tool, o200k_base)\n\n"
        "| surface | tools loaded | searches | chars | tokens | list chars | list tokens |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
        "| notes | note_get | 1 | 169 | 42 | 306 | 74 |\n\n"
        "on demand: each distinct tool loaded once, one search per step; whole list: every tool up front\n"
    )


def test_lint_as_csv_is_a_row_per_finding_and_as_markdown_its_job_summary(notes: Path) -> None:
    # The notes' terse descriptions are the description-quality rules' (TS203-TS208) to judge; here, the format.
    csv = run_cli("lint", "notes.json", "--format", "csv", "--select", "TS201", cwd=notes)
    assert csv.returncode == 0, csv.stderr
    # note_get reads without saying so; note_store may create or overwrite, so no hint it leaves out is wrong for it.
    said = (
        "note_get reads (get) but has no readOnlyHint: clients that read the hint take it for a tool that changes"
        " things (the hint defaults to false) and ask before each call"
    )
    assert csv.stdout == (
        f"surface,rule,category,severity,tools,parameters,message\nnotes,TS201,permission-split,info,note_get,,{said}\n"
    )
    markdown = run_cli(
        "lint", "notes.json", "--format", "markdown", "--fail-on", "permission-split", "--select", "TS201", cwd=notes
    )
    assert markdown.returncode == 1
    assert markdown.stdout == (
        "### Tool list lint: notes\n\n1 finding in 1 rule (1 info), **1 failing**\n\n"
        "| rule | severity | tools | parameters | message |\n|---|---|---|---|---|\n"
        f"| **TS201 permission-split** | info | note_get | - | {said} |\n\n"
    )


def test_diff_as_csv_is_a_row_per_tool_that_differs(notes: Path) -> None:
    after = [{**NOTES[0], "description": "Read one note | by id."}, {**NOTES[1], "name": "note_delete"}]
    (notes / "after.json").write_text(json.dumps({"tools": after}), encoding="utf-8")
    run = run_cli("diff", "notes.json", "after.json", "--format", "csv", cwd=notes)
    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        "a,b,part,name,change,class,review,chars_before,chars_after,chars_delta,tokens_before,tokens_after,"
        "tokens_delta,details\n"
        "notes.json,after.json,tool,note_get,changed,NON_BREAKING,1,169,146,-23,42,36,-6,description changed\n"
        "notes.json,after.json,tool,note_store,removed,BREAKING,0,134,0,-134,30,0,-30,\n"
        "notes.json,after.json,tool,note_delete,added,NON_BREAKING,0,0,135,135,0,30,30,\n"
    )


def test_budget_as_json_csv_and_markdown_gives_each_list_against_its_budget(notes: Path) -> None:
    args = ["budget", "notes.json", "--max-chars", "300", "--format"]
    csv = run_cli(*args, "csv", cwd=notes)
    assert csv.returncode == 1
    assert csv.stdout == (
        "surface,source,tools,chars,max_chars,tokens,max_tokens,counter,within,chars_over,tokens_over,largest,"
        "error_answers\n"
        "notes,,2,306,300,,,o200k,False,6,0,note_get note_store,\n"
    )
    data = json.loads(run_cli(*args, "json", cwd=notes).stdout)
    assert data["format"] == "toolsurface-budget/1"
    assert data["results"] == [
        {
            "surface": "notes",
            "source": None,
            "protocol_version": "unknown",
            "counted": "2 tools",
            "tools": 2,
            "chars": 306,
            "max_chars": 300,
            "tokens": None,
            "max_tokens": None,
            "counter": "o200k",
            "other_counts": {},
            "within": False,
            "chars_over": 6,
            "tokens_over": 0,
            "include": [],
            "parts": [],
            "largest": [
                {"name": "note_get", "chars": 169, "tokens": None},
                {"name": "note_store", "chars": 134, "tokens": None},
            ],
            "grown_since": None,
            "grown": [],
        }
    ]
    markdown = run_cli(*args, "markdown", cwd=notes)
    assert markdown.stdout == (
        "### Tool list budget: notes\n\n| surface | tools | chars | tokens | budget | result | largest tools |\n"
        "|---|--:|--:|--:|---|---|---|\n"
        "| `notes` | 2 | 306 | not counted | 300 chars | **over** | note_get 169 chars, note_store 134 chars |\n\n"
        "<sub>protocol unknown</sub>\n\n"
    )


def test_the_surfaces_as_csv_and_markdown_are_a_row_each() -> None:
    listed = json.loads(run_cli("list", "--format", "json").stdout)["surfaces"]
    csv = run_cli("list", "--format", "csv").stdout.splitlines()
    assert csv[0] == "name,title,purpose,kinds,growth_kind,source" and len(csv) == 1 + len(listed)
    assert csv[1].startswith("before-v2,Before v2,") and ",task memory page proposal instructions,commit," in csv[1]
    markdown = run_cli("list", "--format", "markdown").stdout.splitlines()
    assert markdown[:2] == ["| name | title | kinds | purpose |", "| --- | --- | --- | --- |"]
    assert markdown[2].startswith("| before-v2 | Before v2 | task, memory, page, proposal, instructions (+commit) | ")


def test_the_agent_clis_as_csv_name_every_field_json_has(tmp_path: Path) -> None:
    # No agent CLI on PATH nor in toolsurface's cache.
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    fields = list(json.loads(run_cli("agents", "--format", "json", env=env).stdout)[0])
    csv = run_cli("agents", "--format", "csv", env=env).stdout.splitlines()
    assert csv[0] == ",".join(fields) and csv[1].startswith("claude,,,False,False,on-demand full-list,on-demand,")
    markdown = run_cli("agents", "--format", "markdown", env=env).stdout.splitlines()
    assert markdown[0] == "| agent | version | supported | tested | modes | path |"
    assert markdown[2].startswith("| claude | - | not found on PATH")
