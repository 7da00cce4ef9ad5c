"""benchmarks/large_lists.py gives findability queries of its own for its generated snapshot (a snapshot has none, and
findability refuses a surface without queries): each expects a tool the snapshot has, found first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.large_lists import VERBS, make_queries, make_snapshot
from tests.conftest import run_cli


@pytest.mark.parametrize(("tools", "verbs"), [(150, 2), (2_000, len(VERBS))])
def test_each_query_expects_a_tool_of_the_snapshot(tmp_path: Path, tools: int, verbs: int) -> None:
    snapshot = make_snapshot(tmp_path / "large.json", tools)
    queries = json.loads(make_queries(tmp_path / "queries.json", snapshot, tools).read_text(encoding="utf-8"))
    names = {tool["name"] for tool in json.loads(snapshot.read_text(encoding="utf-8"))["tools"]}
    expected = [query["expected"]["large"] for query in queries["queries"]]
    assert len(expected) == verbs and set(expected) <= names


def test_findability_ranks_every_query_of_the_generated_snapshot_first(tmp_path: Path) -> None:
    snapshot = make_snapshot(tmp_path / "large.json", 300)
    queries = make_queries(tmp_path / "queries.json", snapshot, 300)
    done = run_cli(
        "findability", str(snapshot), "--queries", str(queries), "--scorer", "bm25", "--fail-below-rank", "1",
        "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ranks = [query["rank"] for query in done.json()["surfaces"][0]["queries"]]
    assert ranks == [1, 1, 1]
