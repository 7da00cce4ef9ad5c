"""Near-duplicate tools (TS108, and TS404 across the servers of a configuration) and parameter names that mean the
same across tools (TS109): named with their evidence on the ticket desk, siblings left alone, pairs found among
nearest neighbours exactly, and the embedding model loaded once, only where a pair is to be weighed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import run_cli
from tests.helpers.paths import ROOT
from toolsurface.harness.analyze._similar import nearest_pairs
from toolsurface.harness.analyze.lint import example_tool, lint_tools

DESK = ROOT / "tests" / "fixtures" / "servers" / "ticket_desk.py"


def findings(tools: list[dict[str, Any]], rule: str) -> list[Any]:
    return [f for f in lint_tools("server", tools).findings if f.rule_id == rule]


# -- the ticket desk ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def desk_sarif() -> dict[str, Any]:
    run = run_cli("lint", "--format", "sarif", "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout))


def test_lint_names_the_ticket_desks_deprecated_copy_with_its_renamed_parameters() -> None:
    run = run_cli("lint", "--format", "json", "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    found = run.json()["surfaces"][0]["findings"]
    [pair] = [f for f in found if f["rule"] == "TS108"]
    assert pair["tools"] == ["ticket_search", "ticket_find"]
    assert pair["severity"] == "warning"
    assert "ticket_find calls itself a deprecated copy" in pair["message"]
    assert "parameters query ~ text, limit ~ max_results" in pair["message"]
    assert "meaning 0." in pair["message"] and "words 0." in pair["message"]
    synonyms = {tuple(f["parameters"]) for f in found if f["rule"] == "TS109"}
    assert synonyms == {("query", "text"), ("limit", "max_results")}


def test_the_sarif_log_carries_the_near_duplicate_pair_and_the_limit_synonyms(desk_sarif: dict[str, Any]) -> None:
    results = desk_sarif["runs"][0]["results"]
    messages = {r["ruleId"]: [] for r in results}
    for r in results:
        messages[r["ruleId"]].append(r["message"]["text"])
    assert any("ticket_search and ticket_find read as one tool" in m for m in messages["TS108"])
    assert any("limit (ticket_search); max_results (ticket_find)" in m for m in messages["TS109"])
    rules = {r["id"] for r in desk_sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"TS108", "TS109"} <= rules


def test_the_desks_copy_that_speaks_to_the_model_is_still_named_by_its_name_and_parameters() -> None:
    run = run_cli("lint", "--format", "json", "--select", "TS108", "--", sys.executable, str(DESK))
    assert run.returncode == 0, run.stderr
    [pair] = run.json()["surfaces"][0]["findings"]
    assert pair["tools"] == ["ticket_search", "ticket_find"]
    assert "their names say one thing (search ~ find)" in pair["message"]


# -- siblings ----------------------------------------------------------------------------------------------------


def test_siblings_that_share_a_noun_but_act_differently_are_not_near_duplicates() -> None:
    entities = {"entities": {"type": "array", "items": {"type": "object"}}}
    tools = [
        example_tool("comment_add", "Add a comment to a ticket.", {"key": "string", "text": "string"}),
        example_tool("comment_list", "List the comments on a ticket.", {"key": "string"}, read_only=True),
        example_tool("ticket_get", "Read one ticket by its key.", {"key": "string"}, read_only=True),
        example_tool("ticket_close", "Close one ticket by its key.", {"key": "string"}, read_only=False),
        example_tool("create_entities", "Create entities in the knowledge graph.", entities),
        example_tool("delete_entities", "Delete entities from the knowledge graph.", entities),
        example_tool("file_read", "Read a file's text.", {"path": "string"}, read_only=True),
        example_tool("file_write", "Write a file's text.", {"path": "string", "text": "string"}),
        # The same words, but one reads and the other writes by their annotations.
        example_tool("page_snapshot", "A snapshot of the page.", {"page": "integer"}, read_only=True),
        example_tool("snapshot_page", "Save a snapshot of the page.", {"page": "integer"}, read_only=False),
    ]
    assert findings(tools, "TS108") == []


def test_a_variant_with_the_same_parameters_is_a_near_duplicate_and_one_of_other_things_is_not() -> None:
    listing = "Get a detailed listing of all files and directories in a path, each marked [FILE] or [DIR]."
    tools = [
        example_tool("list_directory", listing, {"path": "string"}, read_only=True),
        example_tool("list_directory_with_sizes", listing[:-1] + ", with sizes.", {"path": "string"}, read_only=True),
        example_tool("list_branches", "List the branches of a project.", {"project": "string"}, read_only=True),
        example_tool(
            "list_protected_branches",
            "List the protected branches of a project.",
            {"project": "string"},
            read_only=True,
        ),
    ]
    [pair] = findings(tools, "TS108")
    assert pair.tools == ["list_directory", "list_directory_with_sizes"]
    assert "one is a variant of the other (with sizes)" in pair.message and "both take path" in pair.message


def test_two_tools_of_one_name_are_a_malformed_list_not_a_near_duplicate_pair() -> None:
    search = example_tool("ticket_search", "Search tickets by words.", {"query": "string"}, read_only=True)
    linted = lint_tools("server", [search, search]).findings
    assert [f.rule_id for f in linted if f.rule_id in ("TS001", "TS108")] == ["TS001"]


# -- parameter synonyms ------------------------------------------------------------------------------------------


def test_parameter_names_that_mean_the_same_across_tools_are_named_with_the_tools_that_take_each() -> None:
    tools = [
        example_tool("issue_search", "Search issues.", {"query": "string", "limit": "integer"}, read_only=True),
        example_tool("pr_search", "Search pull requests.", {"q": "string", "max_results": "integer"}, read_only=True),
        example_tool("user_search", "Search users.", {"keywords": "string", "maxResults": "integer"}, read_only=True),
        example_tool("repo_list", "List repositories.", {"limit": "integer"}, read_only=True),
        example_tool("label_list", "List labels.", {"limit": "integer"}, read_only=True),
        # A comment's text is no search query, and a count of retries no limit.
        example_tool("comment_add", "Add a comment.", {"text": "string", "count": "integer"}),
    ]
    found = {f.aspect: f for f in findings(tools, "TS109")}
    assert set(found) == {"limit", "query"}
    limit = found["limit"]
    assert limit.parameters == ["limit", "max_results", "maxResults"]
    assert limit.message.startswith(
        "2 names for one limit: limit (issue_search, repo_list, label_list); max_results/maxResults"
    )
    assert limit.message.endswith("(most tools say limit)")
    assert found["query"].parameters == ["query", "q", "keywords"] and "comment_add" not in found["query"].tools


def test_names_one_tool_takes_side_by_side_mean_different_things_and_are_no_synonyms() -> None:
    tools = [
        example_tool("list_projects", "List projects.", {"order_by": "string", "sort": "string"}, read_only=True),
        example_tool("list_groups", "List groups.", {"sort": "string"}, read_only=True),
        example_tool("list_users", "List users.", {"order_by": "string"}, read_only=True),
    ]
    assert findings(tools, "TS109") == []


# -- across the servers of a configuration -----------------------------------------------------------------------

MIRROR = '''
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

app = MCPServer("desk-mirror")
READ = ToolAnnotations(read_only_hint=True)


@app.tool(annotations=READ)
def ticket_lookup(text: str, max_results: int = 20) -> str:
    """Look up tickets by words in their title or body. Returns each match's key and title."""
    return "no tickets match"


@app.tool(annotations=READ)
def forecast(city: str) -> str:
    """Tomorrow's weather in a city."""
    return "sunny"


if __name__ == "__main__":
    app.run()
'''


def test_lint_of_a_configuration_names_a_tool_of_one_server_that_does_what_one_of_another_does(
    tmp_path: Path,
) -> None:
    mirror = tmp_path / "mirror.py"
    mirror.write_text(textwrap.dedent(MIRROR), encoding="utf-8")
    config = tmp_path / ".mcp.json"
    servers = {
        "desk": {"command": sys.executable, "args": [str(DESK), "--clean"]},
        "mirror": {"command": sys.executable, "args": [str(mirror)]},
    }
    config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    done = run_cli("lint", "--mcp-config", str(config), "--format", "json")
    assert done.returncode == 0, done.stderr
    together = {s["name"]: s for s in done.json()["surfaces"]}[".mcp.json (all servers)"]
    pairs = {tuple(f["tools"]): f["message"] for f in together["findings"] if f["rule"] == "TS404"}
    assert set(pairs) == {("desk/ticket_search", "mirror/ticket_lookup"), ("desk/ticket_find", "mirror/ticket_lookup")}
    assert "parameters query ~ text, limit ~ max_results" in pairs[("desk/ticket_search", "mirror/ticket_lookup")]
    assert "both take text, max_results" in pairs[("desk/ticket_find", "mirror/ticket_lookup")]
    assert run_cli("lint", "--mcp-config", str(config), "--fail-on", "TS404").returncode == 1


# -- long lists, neighbours and the model ------------------------------------------------------------------------


def test_a_list_of_1000_tools_is_judged_and_its_planted_near_duplicates_named(tmp_path: Path) -> None:
    from benchmarks.lint_similar import PLANTED, make_list

    planted = json.loads(make_list(tmp_path / "list.json", 1000).read_text(encoding="utf-8"))["tools"]
    found = findings(planted, "TS108")
    assert len(found) == PLANTED
    assert all("_v2" in " ".join(f.tools) or "deprecated copy" in f.message for f in found)


def brute_force(vectors: np.ndarray, floor: float, k: int, groups: list[int] | None) -> set[tuple[int, int]]:
    scores = vectors @ vectors.T
    np.fill_diagonal(scores, -1.0)
    if groups is not None:
        labels = np.asarray(groups)
        scores[labels[:, None] == labels[None, :]] = -1.0
    found = set()
    for i in range(len(vectors)):
        nearest = [j for j in np.argsort(-scores[i], kind="stable") if scores[i, j] >= floor][:k]
        found |= {(min(i, j), max(i, j)) for j in nearest}
    return found


@pytest.mark.parametrize(("rows", "block"), [(50, 7), (257, 64), (300, 1024)])
@pytest.mark.parametrize("grouped", [False, True])
def test_nearest_pairs_in_blocks_are_each_rows_k_nearest_exactly(
    rows: int, block: int, grouped: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolsurface.harness.analyze._similar as similar

    monkeypatch.setattr(similar, "BLOCK_ROWS", block)
    vectors = np.random.default_rng(rows).standard_normal((rows, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    groups = [i % 3 for i in range(rows)] if grouped else None
    found = nearest_pairs(vectors, floor=0.2, k=3, groups=groups)
    assert {(i, j) for i, j, _ in found} == brute_force(vectors, 0.2, 3, groups)
    assert all(abs(c - float(vectors[i] @ vectors[j])) < 1e-5 for i, j, c in found)


_PROCESS = """
import json, sys
from toolsurface.harness.analyze._embed import embedder
from toolsurface.harness.analyze.lint import example_tool, lint_tools

def pair(noun):
    return [
        example_tool(noun + "_search", "Search " + noun + "s by words.", {"query": "string"}, read_only=True),
        example_tool(noun + "_find", "Find " + noun + "s by words.", {"text": "string"}, read_only=True),
    ]

lists = json.loads(sys.argv[1])
linted = [lint_tools("s", [t for noun in nouns for t in pair(noun)]).findings for nouns in lists]
found = [sum(f.rule_id == "TS108" for f in each) for each in linted]
print(json.dumps({"findings": found, "loads": embedder.cache_info().misses, "imported": "wordllama" in sys.modules}))
"""


def lint_in_a_process(lists: list[list[str]]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PROCESS, json.dumps(lists)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_the_embedding_model_is_loaded_once_for_every_list_a_process_lints() -> None:
    seen = lint_in_a_process([["ticket"], ["order", "invoice"], ["user"]])
    assert seen["findings"] == [1, 2, 1]
    assert seen["loads"] == 1


def test_a_list_with_no_pair_to_weigh_never_loads_the_embedding_model() -> None:
    seen = lint_in_a_process([[]])
    assert seen == {"findings": [0], "loads": 0, "imported": False}


def test_bm25_pairs_scores_a_tools_words_as_findability_ranks_them_for_the_same_query() -> None:
    from toolsurface.harness.analyze.findability import bm25_pairs, rank_tools, tool_fields

    tools = [
        example_tool("ticket_search", "Search tickets: titles, bodies, words."),
        example_tool("ticket_find", "Finds tickets whose title holds the text."),
        example_tool("macro_list", "List the macros an agent applies to a ticket."),
    ]
    # A query of the first tool's own words, none of them a stop word findability leaves out of a query.
    query = " ".join(w for words in tool_fields(tools[0]).fields.values() for w in words)
    ranked = rank_tools(tools, query, "bm25")
    scores = dict(zip(ranked.tools, ranked.scores, strict=True))
    assert bm25_pairs(tools, [(0, 1), (0, 2), (0, 0)]) == pytest.approx(
        [scores["ticket_find"], scores["macro_list"], scores["ticket_search"]]
    )
