"""Findability that reads meaning and counts right: stop words match nothing, an embedding scorer ranks by meaning
offline, --confusion says what each scorer takes for the expected tool, --fail-below-rank counts failing queries,
and a configured project's targets and queries file are what the commands read when given none."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.offline import UNREACHABLE
from tests.helpers.paths import FIXTURES, ROOT
from toolsurface.harness.analyze.findability import (
    SCORERS,
    WORD_SCORERS,
    QuerySet,
    findability,
    parse_queries,
    rank_tools,
    stop_words,
)

DESK = [sys.executable, str(FIXTURES / "servers" / "ticket_desk.py"), "--clean"]
QUERIES = FIXTURES / "queries" / "ticket_desk.json"


def tool(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ticket desk's clean list, as a snapshot file."""
    path = tmp_path_factory.mktemp("desk") / "ticket-desk.json"
    done = run_cli("snapshot", "-o", str(path), "--", *DESK)
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture(scope="module")
def desk_json(desk: Path) -> dict[str, Any]:
    done = run_cli("findability", str(desk), "--queries", str(QUERIES), "--confusion", "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = done.json()
    return data


def ranks(data: dict[str, Any], query: str) -> dict[str, tuple[int | None, str | None]]:
    rows = data["surfaces"][0]["queries"]
    return {r["scorer"]: (r["rank"], r["top"]) for r in rows if r["query"] == query}


# -- stop words ------------------------------------------------------------------------------------------------

PLAN = [tool("sla_check", "Whether it is the time to escalate."), tool("plan_get", "Read a customer's plan.")]


def test_stop_words_match_no_tool_so_the_word_that_means_something_decides() -> None:
    # "what", "is" and "the" are sla_check's too: counted, they put it first by keyword (two words to one).
    for scorer in WORD_SCORERS:
        ranked = rank_tools(PLAN, "what is the plan", scorer)
        assert ranked.tools == ["plan_get"], scorer
        assert ranked.missing == [] and ranked.full_matches == 1


def test_a_listed_word_that_names_a_tool_still_matches_there() -> None:
    assert {"all", "is", "who", "the"} <= stop_words().words
    named = [tool("list_all", "Lists every item."), tool("item_get", "Read an item.")]
    assert rank_tools(named, "all", "keyword").top == "list_all"
    assert rank_tools([tool("item_get", "Read all items.")], "all", "keyword").top is None


def test_the_stop_words_are_the_packages_list_stated_with_the_other_settings(desk_json: dict[str, Any]) -> None:
    listed = stop_words()
    assert (listed.package, listed.language, listed.listed) == ("stopwords", "english", 174)
    assert desk_json["stop_words"] == {
        "package": "stopwords",
        "version": listed.version,
        "language": "english",
        "words": 174,
        "kept": "a word of a tool's name on the surface",
    }
    table = run_cli("findability", "v2", "--format", "markdown").stdout.splitlines()[0]
    assert f"stop words: stopwords {listed.version} english, 174 words (a tool's name words kept)" in table


def test_on_the_ticket_desk_who_is_this_customer_finds_the_customer_by_every_scorer(
    desk_json: dict[str, Any],
) -> None:
    assert ranks(desk_json, "who is this customer") == {s: (1, "customer_get") for s in SCORERS}
    assert ranks(desk_json, "is the ticket overdue")["keyword"] == (1, "sla_status")
    assert ranks(desk_json, "is the ticket overdue")["bm25"] == (1, "sla_status")
    row = next(r for r in desk_json["surfaces"][0]["queries"] if r["query"] == "who is this customer")
    assert row["missing"] == [], "stop words are no query words, so none is missing"


# -- the embedding scorer --------------------------------------------------------------------------------------

NOTES = [tool("note_get", "Read one note by its id."), tool("note_store", "Create or update a note.")]


def test_the_embedding_scorer_finds_by_meaning_what_no_word_of_the_query_names() -> None:
    assert rank_tools(NOTES, "save text", "keyword").top is None
    assert rank_tools(NOTES, "save text", "embedding").top == "note_store"
    assert rank_tools(NOTES, "select:note_get", "embedding").tools == ["note_get"]


def test_a_description_of_a_megabyte_is_embedded_from_its_first_thousand_characters() -> None:
    """The model pads a batch to its longest text: a megabyte with no full stop would take gigabytes."""
    from toolsurface.harness.analyze.findability import EMBEDDED_CHARS, embedding_text

    big = tool("ticket_dump", "word " * 200_000)
    assert EMBEDDED_CHARS == 1_000 and embedding_text(big).startswith("ticket dump. word word")
    assert len(embedding_text(big)) == EMBEDDED_CHARS
    assert embedding_text(tool("note_get", "Read one note. Returns its text.")) == "note get. Read one note."
    assert "ticket_dump" in rank_tools([big, *NOTES], "ticket", "embedding").tools


def test_embedding_is_a_default_scorer_and_names_its_model(desk_json: dict[str, Any]) -> None:
    from toolsurface.harness.analyze._embed import embedding_label

    assert SCORERS == ("keyword", "bm25", "embedding") and "scorers" not in desk_json
    assert desk_json["embedding"]["model"] == embedding_label()
    alone = run_cli("findability", "v2", "--scorer", "embedding", "--format", "json").json()
    assert alone["scorers"] == ["embedding"] and "stop_words" not in alone and "weights" in alone
    assert {r["scorer"] for r in alone["surfaces"][0]["queries"]} == {"embedding"}


_OFFLINE = (
    UNREACHABLE
    + """
import sys
from toolsurface.harness.cli import main

main(sys.argv[1:])
"""
)


def test_the_acceptance_command_ranks_counts_and_confuses_with_the_network_unreachable() -> None:
    args = ["findability", "--queries", str(QUERIES), "--fail-below-rank", "1", "--confusion", "--format", "markdown"]
    done = subprocess.run(
        [sys.executable, "-c", _OFFLINE, *args, "--", *DESK],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()), "COLUMNS": "200"},
    )
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("toolsurface: 7 of 15 queries failing (expected tool not found at rank 1 or better by")
    assert "keyword 6, bm25 6, embedding 4)" in line
    assert "| keyword rank | keyword above | bm25 rank | bm25 above | embedding rank | embedding above |" in done.stdout
    assert "### Tools taken for each other" in done.stdout
    assert "| ticket-desk | ticket_find | ticket_search | 3 | 0 | keyword 1, bm25 1, embedding 1 |" in done.stdout


# -- --confusion -----------------------------------------------------------------------------------------------


def test_confusion_names_what_each_scorer_ranks_above_the_expected_tool(desk_json: dict[str, Any]) -> None:
    queries = {q["query"]: q for q in desk_json["confusion"]["queries"]}
    assert len(queries) == 15
    printer = queries["find all tickets mentioning the printer"]
    assert printer["expected"] == "ticket_search"
    assert printer["ranks"] == {"keyword": 3, "bm25": 4, "embedding": 2}
    assert printer["above"]["keyword"] == ["ticket_find", "tickets_bulk_reassign"]
    assert printer["above"]["embedding"] == ["ticket_find"]
    assert queries["who is this customer"]["above"] == {s: [] for s in SCORERS}
    # Found by no word scorer: every tool it ranks is above (none here).
    assert queries["send the standard reboot reply"]["ranks"]["keyword"] is None


def test_confusion_counts_per_pair_how_often_each_tool_was_taken_for_the_other(desk_json: dict[str, Any]) -> None:
    pairs = {(p["a"], p["b"]): p for p in desk_json["confusion"]["pairs"]}
    find = pairs[("ticket_find", "ticket_search")]
    assert (find["a_for_b"], find["b_for_a"]) == (3, 0)
    assert find["scorers"] == {"keyword": 1, "bm25": 1, "embedding": 1}
    assert find["queries"] == ["find all tickets mentioning the printer"]
    assert pairs[("tickets_bulk_reassign", "ticket_assign")]["scorers"] == {"keyword": 1, "bm25": 1}
    times = [p["a_for_b"] + p["b_for_a"] for p in desk_json["confusion"]["pairs"]]
    assert times == sorted(times, reverse=True)


def test_a_pair_taken_both_ways_is_one_row_counting_each_way() -> None:
    tools = [tool("page_read", "Read a page."), tool("page_store", "Store a page.")]
    queries = QuerySet(
        "inline",
        parse_queries(
            [
                {"query": "store page", "expected": {"two": "page_read"}},
                {"query": "read page", "expected": {"two": "page_store"}},
                {"query": "read page", "expected": {"two": "page_read"}},
            ],
            "inline",
        ),
    )
    from toolsurface.harness.analyze.findability import confusion
    from toolsurface.harness.surface import Snapshot

    snap = Snapshot(name="two", path=Path("two.json"), tools=tools)
    found = confusion(findability([snap], queries, scorers=["keyword"]))
    [pair] = found.pairs
    assert (pair.a, pair.b, pair.a_for_b, pair.b_for_a) == ("page_store", "page_read", 1, 1)


def test_confusion_keeps_the_first_ten_tools_above_and_counts_the_rest() -> None:
    from toolsurface.harness.analyze.findability import ABOVE_KEPT, confusion
    from toolsurface.harness.surface import Snapshot

    tools = [tool(f"widget_{n}", "A widget.") for n in range(13)]
    queries = QuerySet("inline", parse_queries([{"query": "widget", "expected": {"w": "widget_12"}}], "inline"))
    found = confusion(findability([Snapshot(name="w", path=Path("w.json"), tools=tools)], queries, scorers=["bm25"]))
    [query] = found.queries
    assert query.ranks == {"bm25": 13} and len(query.above["bm25"]) == ABOVE_KEPT == 10
    assert query.above["bm25"][0] == "widget_0" and query.more == {"bm25": 2}


def test_confusion_as_csv_is_a_row_per_pair_and_as_a_table_both_tables(desk: Path) -> None:
    args = ["findability", str(desk), "--queries", str(QUERIES), "--confusion"]
    csv = run_cli(*args, "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    lines = csv.stdout.splitlines()
    assert lines[0] == "surface,a,b,a_for_b,b_for_a,scorers,queries"
    assert lines[1] == (
        'ticket-desk,ticket_find,ticket_search,3,0,"keyword 1, bm25 1, embedding 1",'
        "find all tickets mentioning the printer"
    )
    table = run_cli(*args, env={"COLUMNS": "250"})
    assert table.returncode == 0, table.stderr
    assert "embedding above" in table.stdout and "Tools taken for each other" in table.stdout
    junit = run_cli(*args, "--format", "junit")
    assert junit.returncode == 2 and "--confusion is shown as" in junit.stderr


# -- --fail-below-rank counts queries --------------------------------------------------------------------------


def test_fail_below_rank_counts_each_failing_query_once_and_names_its_scorers(desk: Path) -> None:
    done = run_cli(
        "findability", str(desk), "--queries", str(QUERIES), "--scorer", "keyword", "--fail-below-rank", "1",
        "--format", "csv",
    )  # fmt: skip
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("toolsurface: 6 of 15 queries failing (expected tool not found at rank 1 or better by")
    both = run_cli("findability", str(desk), "--queries", str(QUERIES), "--fail-below-rank", "1", "--format", "csv")
    [line] = both.stderr.strip().splitlines()
    # 7 queries fail, where 16 rows (a query by a scorer) miss.
    assert line.startswith("toolsurface: 7 of 15 queries failing") and "by keyword 6, bm25 6, embedding 4)" in line
    assert "'find all tickets mentioning the printer': ticket_search keyword rank 3, bm25 rank 4, embedding rank 2" in (
        line
    )
    assert line.count("'find all tickets mentioning the printer'") == 1


# -- a configured project --------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project `toolsurface init` set up for the ticket desk: its target, and its queries beside the
    configuration."""
    (tmp_path / ".git").mkdir()
    command = ", ".join(json.dumps(arg) for arg in DESK)
    (tmp_path / "toolsurface.toml").write_text(f"command = [{command}]\nmax-chars = 9000\n", encoding="utf-8")
    (tmp_path / ".toolsurface").mkdir()
    (tmp_path / ".toolsurface" / "queries.json").write_text(QUERIES.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def test_findability_in_a_configured_project_ranks_its_targets_for_its_queries(project: Path) -> None:
    done = run_cli("findability", "--format", "json", cwd=project)
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert [s["name"] for s in data["surfaces"]] == ["ticket-desk"]
    assert data["queries"].endswith(str(Path(".toolsurface") / "queries.json"))
    assert len({r["query"] for r in data["surfaces"][0]["queries"]}) == 15
    gate = run_cli("findability", "--scorer", "embedding", "--fail-below-rank", "1", cwd=project)
    assert gate.returncode == 1 and "4 of 15 queries failing" in gate.stderr


def test_roundtrip_and_measure_in_a_configured_project_take_its_targets(project: Path) -> None:
    trip = run_cli("roundtrip", "--format", "json", cwd=project)
    assert trip.returncode == 0, trip.stderr
    data = trip.json()
    assert data["task"] == "every query of queries.json"
    [surface] = data["surfaces"]
    assert surface["name"] == "ticket-desk" and len(surface["found"]) == 15
    measured = run_cli("measure", "--no-growth", "--format", "json", cwd=project)
    assert measured.returncode == 0, measured.stderr
    assert [s["name"] for s in measured.json()["surfaces"]] == ["ticket-desk"]


def test_a_configured_project_without_its_queries_file_is_one_line(project: Path) -> None:
    (project / ".toolsurface" / "queries.json").unlink()
    done = run_cli("findability", cwd=project)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert ".toolsurface/queries.json: no such file" in done.stderr and "toolsurface new queries" in done.stderr
    # A queries file given stands in for it.
    given = run_cli("findability", "--queries", str(QUERIES), "--format", "csv", cwd=project)
    assert given.returncode == 0, given.stderr
    assert given.stdout.splitlines()[1].startswith("ticket-desk,who is this customer,keyword,customer_get,1,")
