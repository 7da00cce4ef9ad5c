"""Findability and the on-demand round trip as Claude Code itself measures them: the real Claude Code from npm
(pinned in tests.helpers.npm_packages), its own ToolSearch driven by the scripted model endpoint, one on-demand
session per surface. Each CLI run gets a home of its own; nothing here needs a key."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.npm_packages import agent_cli_dir, agent_clis_dir, newer_than_pinned
from tests.helpers.readme import doc_text
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.analyze.findability import load_tools
from toolsurface.harness.session.plan import plan_surface
from toolsurface.harness.session.tool_search import SearchRequest, ToolSearchRun, observe_tool_search
from toolsurface.harness.surface import resolve_all

SIX = ["create task", "store memory", "read page", "approve proposal", "block task", "recall project"]
# The figures in docs/analyze.md are the newest tested Claude Code's.
VERSION = ClaudeAgent.card.tested_versions[-1]
PINNED = ClaudeAgent.card.tested_versions[0]
NEEDED = ".".join(map(str, ClaudeAgent.card.min_version))


@pytest.fixture(scope="module")
def clis() -> Path:
    return agent_cli_dir("claude", VERSION)


def env_with(bin_dir: Path | None, home: Path) -> dict[str, str]:
    """PATH with `bin_dir` first (or with no claude at all), and a home of the test's own, its cache too: toolsurface
    finds the agent CLIs it installed in its cache as well as on PATH."""
    home.mkdir(parents=True, exist_ok=True)
    base = os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin"
    path = f"{bin_dir}{os.pathsep}{base}" if bin_dir else base
    return {"PATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}


def surface_tools(name: str) -> set[str]:
    [surface] = load_tools(resolve_all([name]))
    return set(surface.names)


def transcript_searches(run_dir: Path) -> list[tuple[str, list[str]]]:
    """Each ToolSearch call's query and the tool names its tool_result referenced, read straight from the
    transcript Claude Code wrote."""
    queries: dict[str, str] = {}
    found: list[tuple[str, list[str]]] = []
    for line in (run_dir / "transcript.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        content = (record.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use" and block.get("name") == "ToolSearch":
                queries[block["id"]] = block["input"]["query"]
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in queries:
                refs = block["content"] if isinstance(block["content"], list) else []
                names = [b["tool_name"] for b in refs if b.get("type") == "tool_reference"]
                found.append((queries[block["tool_use_id"]], names))
    return found


@pytest.fixture(scope="module")
def all_scorers(clis: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("home")
    done = run_cli(
        "findability", "before-v2", "v2", "--scorer", "all", "--format", "json",
        env=env_with(clis, home), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = done.json()
    return data


@pytest.fixture(scope="module")
def observed(clis: Path, tmp_path_factory: pytest.TempPathFactory) -> list[ToolSearchRun]:
    out = tmp_path_factory.mktemp("searches")
    searches = [SearchRequest(text) for text in SIX]
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env_with(clis, tmp_path_factory.mktemp("home")).items():
            patch.setenv(name, value)
        planned = [plan_surface("before-v2"), plan_surface("v2")]
        return observe_tool_search(planned, searches, client="claude", out=out)


def test_every_scorer_is_printed_for_the_six_queries_with_the_claude_code_version(
    all_scorers: dict[str, Any],
) -> None:
    assert all_scorers["scorers"] == ["keyword", "bm25", "embedding", "claude"]
    assert all_scorers["claude"]["version"] == VERSION and all_scorers["claude"]["mode"] == "on-demand"
    assert [s["name"] for s in all_scorers["surfaces"]] == ["before-v2", "v2"]
    for surface in all_scorers["surfaces"]:
        rows = surface["queries"]
        scorers = ("keyword", "bm25", "embedding", "claude")
        assert [(r["query"], r["scorer"]) for r in rows] == [(q, s) for q in SIX for s in scorers]
        shape = {"query", "scorer", "expected", "rank", "top", "missing", "full_matches"}
        for row in rows:
            assert shape <= set(row)
            if row["scorer"] == "claude":
                assert {"returned", "next_tools", "answer"} <= set(row)
                assert row["top"] == (row["returned"][0] if row["returned"] else None)


def test_every_tool_claude_code_returned_exists_on_the_surface(all_scorers: dict[str, Any]) -> None:
    for surface in all_scorers["surfaces"]:
        tools = surface_tools(surface["name"])
        for row in surface["queries"]:
            if row["scorer"] == "claude":
                assert row["returned"] and set(row["returned"]) <= tools, row
                assert len(row["returned"]) <= 5  # Claude Code's default max_results


def test_the_next_request_carried_what_the_search_returned(all_scorers: dict[str, Any]) -> None:
    for surface in all_scorers["surfaces"]:
        for row in surface["queries"]:
            if row["scorer"] == "claude":
                assert "ToolSearch" in row["next_tools"]
                assert {f"mcp__stub__{name}" for name in row["returned"]} <= set(row["next_tools"])


def test_claude_code_finds_the_intended_v2_tool_first_for_all_six_as_the_keyword_score_does(
    all_scorers: dict[str, Any],
) -> None:
    v2 = next(s for s in all_scorers["surfaces"] if s["name"] == "v2")
    assert all(r["rank"] == 1 for r in v2["queries"] if r["scorer"] in ("keyword", "claude"))


def test_before_v2_claude_code_too_finds_neither_item_get_nor_task_patch_first(all_scorers: dict[str, Any]) -> None:
    before = next(s for s in all_scorers["surfaces"] if s["name"] == "before-v2")
    rows = {(r["query"], r["scorer"]): r for r in before["queries"]}
    assert rows[("read page", "keyword")]["rank"] == 2
    assert rows[("read page", "claude")]["rank"] == 3 and rows[("read page", "claude")]["top"] == "page_store"
    assert rows[("block task", "claude")]["missing"] == ["block"]
    assert rows[("block task", "claude")]["rank"] == 5
    for text in ("create task", "store memory", "approve proposal", "recall project"):
        assert rows[(text, "claude")]["rank"] == 1


def test_the_agreement_pairs_each_two_scorers_over_every_query(all_scorers: dict[str, Any]) -> None:
    agreement = all_scorers["agreement"]
    pairs = {(p["a"], p["b"]): p for p in agreement["pairs"]}
    assert set(pairs) == {
        ("keyword", "bm25"), ("keyword", "embedding"), ("keyword", "claude"),
        ("bm25", "embedding"), ("bm25", "claude"), ("embedding", "claude"),
    }  # fmt: skip
    keyword_claude = pairs[("keyword", "claude")]
    assert keyword_claude["queries"] == 12 and keyword_claude["same_first"] == 12
    assert keyword_claude["same_rank"] == 10  # before-v2's read page (2 / 3) and block task (3 / 5)
    read = next(q for q in agreement["queries"] if (q["surface"], q["query"]) == ("before-v2", "read page"))
    assert read["ranks"] == {"keyword": 2, "bm25": 3, "embedding": 6, "claude": 3}
    assert not read["same_rank"] and read["first"] == []


def test_the_readme_shows_every_scorer_as_they_rank_today(all_scorers: dict[str, Any]) -> None:
    readme = doc_text("docs/analyze.md")

    def rank(row: dict[str, Any]) -> str:
        return "-" if row["rank"] is None else str(row["rank"])

    for surface in all_scorers["surfaces"]:
        rows = {(r["query"], r["scorer"]): r for r in surface["queries"]}
        for text in SIX:
            claude = rows[(text, "claude")]
            line = (
                f"| {surface['name']} | {text} | {claude['expected']} | {rank(rows[(text, 'keyword')])} "
                f"| {rank(rows[(text, 'bm25')])} | {rank(rows[(text, 'embedding')])} | {rank(claude)} "
                f"| {', '.join(claude['returned'])} |"
            )
            assert line in readme, line


def test_ranks_are_claude_codes_own_order_as_its_transcript_shows(observed: list[ToolSearchRun]) -> None:
    for run in observed:
        assert run.version == VERSION and run.run_dir is not None
        wait, *seen = transcript_searches(run.run_dir)
        # The first search names a tool the stub lacks: Claude Code waits for the stub, and finds nothing.
        assert wait[0].startswith("select:mcp__stub__") and wait[1] == []
        assert [q for q, _ in seen] == SIX
        for search, (_, names) in zip(run.searches, seen, strict=True):
            assert search.returned == [n.removeprefix("mcp__stub__") for n in names]


def test_each_searched_surfaces_stub_is_forked_from_one_warm_fork_server(observed: list[ToolSearchRun]) -> None:
    launched = []
    for run in observed:
        assert run.run_dir is not None
        config = json.loads((run.run_dir / "mcp-config.json").read_text(encoding="utf-8"))
        args = config["mcpServers"]["stub"]["args"]
        at = args.index("toolsurface.stubs.start.launch")
        assert args[at - 1] == "-m" and args[at + 2] == "serve"
        launched.append(args[at + 1])
    assert len(launched) == 2 and len(set(launched)) == 1


def test_the_first_request_carries_tool_search_and_none_of_the_stubs_tools(observed: list[ToolSearchRun]) -> None:
    for run in observed:
        # Claude Code 2.1.332 sends a placeholder beside ToolSearch, deferred itself; 2.1.197 sends ToolSearch alone.
        assert [t for t in run.searches[0].tools_before if t != "DeferredToolPlaceholder"] == ["ToolSearch"]
        assert run.first_chars == run.searches[0].chars_before > 0


def test_a_word_no_tool_has_and_select_queries_are_sent_as_written(clis: Path, tmp_path: Path) -> None:
    queries = {
        "queries": [
            {"query": "zebra", "expected": {"v2": None}},
            {"query": "select:mcp__stub__recall,mcp__stub__item_get", "expected": {"v2": "item_get"}},
            {"query": "select:item_get", "expected": {"v2": "item_get"}},
        ]
    }
    path = tmp_path / "queries.json"
    path.write_text(json.dumps(queries), encoding="utf-8")
    done = run_cli(
        "findability", "v2", "--queries", str(path), "--scorer", "all", "--format", "json",
        env=env_with(clis, tmp_path / "home"), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {(r["query"], r["scorer"]): r for r in done.json()["surfaces"][0]["queries"]}
    zebra = rows[("zebra", "claude")]
    assert (zebra["returned"], zebra["rank"], zebra["top"]) == ([], None, None)
    assert zebra["answer"] == "No matching deferred tools found"
    assert rows[("zebra", "keyword")]["missing"] == ["zebra"]
    selected = rows[("select:mcp__stub__recall,mcp__stub__item_get", "claude")]
    assert selected["returned"] == ["recall", "item_get"] and selected["rank"] == 2
    assert rows[("select:mcp__stub__recall,mcp__stub__item_get", "keyword")]["rank"] == 2
    # Claude Code 2.1.332 selects by the bare name too (2.1.197 only by the names it gives the tools).
    assert rows[("select:item_get", "claude")]["returned"] == ["item_get"]
    assert rows[("select:item_get", "keyword")]["rank"] == 1


def test_fail_below_rank_1_exits_1_naming_what_claude_code_did_not_find_first(clis: Path, tmp_path: Path) -> None:
    done = run_cli(
        "findability", "before-v2", "--scorer", "claude", "--fail-below-rank", "1", "--format", "csv",
        env=env_with(clis, tmp_path / "home"), timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "2 of 6 queries failing (expected tool not found at rank 1 or better by claude 2)" in line
    assert "before-v2 'read page': item_get claude rank 3" in line
    assert "before-v2 'block task': task_patch claude rank 5" in line
    assert done.stdout.startswith("surface,query,scorer,expected,rank,top,missing,full_matches,returned\n")


def test_fail_below_rank_1_exits_0_where_claude_code_finds_every_tool_first(clis: Path, tmp_path: Path) -> None:
    done = run_cli(
        "findability", "v2", "--scorer", "claude", "--fail-below-rank", "1",
        env=env_with(clis, tmp_path / "home"), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_snapshot_file_is_searched_as_served_so_a_server_project_can_hold_its_findability_in_ci(
    clis: Path, tmp_path: Path
) -> None:
    snapshot = tmp_path / "tools.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    queries = tmp_path / "queries.json"
    queries.write_text(json.dumps({"queries": [{"query": "read page", "expected": {"tools": "item_get"}}]}), "utf-8")
    done = run_cli(
        "findability", str(snapshot), "--queries", str(queries), "--scorer", "claude", "--fail-below-rank", "1",
        "--format", "csv", env=env_with(clis, tmp_path / "home"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # The snapshot goes by its server's name (v2); its file's name still keys the queries.
    assert done.stdout.splitlines()[1].startswith("v2,read page,claude,item_get,1,item_get,")


def test_roundtrip_with_claude_prints_computed_and_observed_per_step_and_surface(clis: Path, tmp_path: Path) -> None:
    done = run_cli(
        "roundtrip", "before-v2", "v2", "--client", "claude", "--format", "json",
        env=env_with(clis, tmp_path / "home"), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert data["client"] == {"name": "claude", "version": VERSION, "mode": "on-demand"}
    for surface in data["surfaces"]:
        observed = surface["observed"]
        steps = observed["steps"]
        assert [s["query"] for s in steps] == ["create task", "list tasks", "complete task"]
        tools = surface_tools(surface["name"])
        for step in steps:
            assert set(step["loaded"]) <= set(step["returned"]) <= tools
            assert step["computed_tool"] == surface["found"][step["query"]]
        assert observed["chars"] == sum(s["chars"] for s in steps) > 0
        assert observed["tokens"] == sum(s["tokens"] for s in steps) > 0
        assert sum(s["computed_chars"] for s in steps) == surface["chars"]
        assert observed["difference_chars"] == observed["chars"] - surface["chars"]
        assert observed["difference_tokens"] == observed["tokens"] - surface["tokens"]
        assert observed["tools"] == list(dict.fromkeys(t for s in steps for t in s["loaded"]))
        assert set(surface["tools"]) <= set(observed["tools"])  # it loaded the computed tools, and more
        assert observed["search_tool_chars"] > 0
        row = (
            f"| {surface['name']} | {' + '.join(surface['tools'])} | {surface['chars']:,} | {surface['tokens']:,} "
            f"| {len(observed['tools'])} | {observed['chars']:,} | {observed['tokens']:,} "
            f"| {observed['difference_chars']:+,} / {observed['difference_tokens']:+,} |"
        )
        assert row in doc_text("docs/analyze.md"), row


def test_the_table_and_csv_show_computed_beside_observed(clis: Path, tmp_path: Path) -> None:
    done = run_cli(
        "roundtrip", "v2", "--client", "claude", "--format", "csv",
        env=env_with(clis, tmp_path / "home"), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()
    assert header.endswith(",client,observed_tools,observed_chars,observed_tokens,difference_chars,difference_tokens")
    assert row.startswith("v2,item_store item_list item_action,") and f",claude {VERSION}," in row


@pytest.mark.parametrize(
    "args",
    [
        ["findability", "v2", "--scorer", "claude"],
        ["findability", "v2", "--scorer", "all"],
        ["roundtrip", "v2", "--client", "claude"],
    ],
)
def test_a_missing_claude_code_is_one_line_naming_the_version_needed(tmp_path: Path, args: list[str]) -> None:
    done = run_cli(*args, env=env_with(None, tmp_path / "home"))
    assert_one_line_error(done, f"Claude Code {NEEDED} or newer is needed", "not found on PATH", "npm install")


@pytest.mark.parametrize(
    "args", [["findability", "v2", "--scorer", "claude"], ["roundtrip", "v2", "--client", "claude"]]
)
def test_a_claude_code_older_than_the_one_toolsurface_reads_is_one_line_naming_it(
    tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real pinned Claude Code, with toolsurface asking for the release after it."""
    needed = ".".join(map(str, newer_than_pinned("claude")))
    monkeypatch.setattr(ClaudeAgent, "min_version", newer_than_pinned("claude"))
    done = run_cli(*args, env=env_with(agent_clis_dir(), tmp_path / "home"))
    assert_one_line_error(done, f"version {PINNED} is too old", f"{needed} or newer is needed")


def test_max_results_without_a_client_search_is_a_usage_error(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("findability", "v2", "--max-results", "3"), "--max-results", "--scorer claude")
    assert_one_line_error(run_cli("roundtrip", "v2", "--max-results", "3"), "--max-results", "--client claude")


def test_the_report_gains_claude_codes_columns_where_it_is_installed(clis: Path, tmp_path: Path) -> None:
    done = run_cli(
        "report", "--surface", "v2", "--out", str(tmp_path / "r"), env=env_with(clis, tmp_path / "home"), timeout=300
    )
    assert done.returncode == 0, done.stderr
    tables = tmp_path / "r" / "tables"
    trip = json.loads((tables / "roundtrip.json").read_text(encoding="utf-8"))
    [row] = trip["rows"]
    assert row["Claude Code tokens"] == row["tokens"] + row["difference tokens"]
    assert trip["command"] == "toolsurface roundtrip v2 --client claude --format csv"
    found = json.loads((tables / "findability.json").read_text(encoding="utf-8"))
    claude = [r for r in found["rows"] if r["scorer"] == "claude"]
    assert [r["query"] for r in claude] == SIX and all(r["rank"] == 1 for r in claude)
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert f"Claude Code {VERSION}" in text and "columns are absent" not in text


def test_the_report_builds_without_claude_code_and_says_its_columns_are_absent(tmp_path: Path) -> None:
    done = run_cli("report", "--surface", "v2", "--out", str(tmp_path / "r"), env=env_with(None, tmp_path / "home"))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert text.count("Claude Code's columns are absent") == 2
    found = json.loads((tmp_path / "r" / "tables" / "findability.json").read_text(encoding="utf-8"))
    assert {r["scorer"] for r in found["rows"]} == {"keyword", "bm25"}
    trip = json.loads((tmp_path / "r" / "tables" / "roundtrip.json").read_text(encoding="utf-8"))
    assert "Claude Code tokens" not in trip["rows"][0]
