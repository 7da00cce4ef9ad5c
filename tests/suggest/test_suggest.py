"""`toolsurface suggest`: the seed's 27 -> 8 move proposed for the bundled before-v2 (its per-kind families made one
tool each, with a kind or action parameter), written as a candidate snapshot with a mapping, every figure measured
on the written file, and what it does with lists that have no families, schemas that conflict, names in no
pattern, a name that is taken and files that exist."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.paths import ROOT
from tests.helpers.suggest import RUNS, before_v2, families
from toolsurface.harness.session.replay import read_mapping

__all__ = ["before_v2"]  # the fixture, used here


def write_list(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def tool(name: str, properties: dict[str, str], read_only: bool = False, description: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "description": description or f"Does {name.replace('_', ' ')}.",
        "inputSchema": {"type": "object", "properties": {p: {"type": t} for p, t in properties.items()}},
        "annotations": {"readOnlyHint": read_only},
    }


def one_line(done: Run, *words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert all(word in line for word in words), line


# -- the seed's move on before-v2 ---------------------------------------------------------------------------


def test_before_v2_becomes_fewer_than_15_tools_of_at_most_60_percent_of_its_chars(
    before_v2: tuple[Path, dict[str, Any]],
) -> None:
    folder, result = before_v2
    assert result["before"] == {"tools": 27, "chars": 19204, "tokens": 4159}
    assert result["after"]["tools"] < 15
    assert result["after"]["chars"] <= 0.6 * result["before"]["chars"]
    assert {p.name for p in folder.iterdir()} == {"cand.json", "cand.meta.json", "cand.mapping.json"}


def test_before_v2s_families_are_the_per_kind_ones_the_seed_merged(before_v2: tuple[Path, dict[str, Any]]) -> None:
    found = families(before_v2[1])
    assert found["item_store"] == {"memory_store": "memory", "page_store": "page"}
    assert found["task_action"] == {
        "task_create": "create",
        "task_patch": "patch",
        "task_claim": "claim",
        "task_complete": "complete",
    }
    assert found["proposal_action"] == {"proposal_review": "review", "proposal_withdraw": "withdraw"}
    assert {"task_list", "item_search", "proposal_queue", "privacy_deletion_queue"} <= set(found["item_list"])
    assert found["item_get"] == {"item_get": "item", "memory_get": "memory"}
    # Names with no verb first or last are kept as they are, and said.
    assert before_v2[1]["unpatterned"] == ["system_memory", "item_history"]


def test_measure_of_the_candidate_prints_the_figures_suggest_printed(before_v2: tuple[Path, dict[str, Any]]) -> None:
    folder, result = before_v2
    measured = run_cli("measure", "cand.json", "--format", "json", cwd=folder)
    assert measured.returncode == 0, measured.stderr
    [surface] = measured.json()["surfaces"]
    assert (surface["tools"], surface["chars"], surface["tokens"]) == tuple(result["after"].values())
    assert surface["name"] == result["candidate"] == "before-v2-candidate"
    per_tool = {t["name"]: t for t in surface["per_tool"]}
    for family in result["families"]:
        assert (per_tool[family["tool"]]["chars"], per_tool[family["tool"]]["tokens"]) == (
            family["after"]["chars"],
            family["after"]["tokens"],
        )
    table = run_cli("suggest", "before-v2", "-o", "again.json", cwd=folder)
    total = f"{result['after']['chars']:,}"
    assert table.returncode == 0 and total in table.stdout
    assert total in run_cli("measure", "again.json", cwd=folder).stdout


def test_the_candidate_says_it_is_a_proposal_the_designer_edits(before_v2: tuple[Path, dict[str, Any]]) -> None:
    folder, result = before_v2
    sidecar = json.loads((folder / "cand.meta.json").read_text(encoding="utf-8"))
    assert sidecar["source"]["kind"] == "candidate" and "proposal" in sidecar["source"]["proposal"]
    assert sidecar["source"]["from"] == "before-v2"
    assert "for the designer to edit" in result["proposal"]
    table = run_cli("suggest", "before-v2", "-o", "said.json", cwd=folder)
    assert "The candidate is a proposal of toolsurface suggest, for the designer to edit" in table.stdout
    assert "a proposal: edit it before you ship it" in table.stderr


def test_the_mapping_calls_each_old_tool_as_the_candidates_tool(before_v2: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = before_v2
    mapping = read_mapping(folder / "cand.mapping.json")
    assert len(mapping.tools) == 27
    assert mapping.call("memory_store", {"summary": "s", "title": "t"}) == (
        "item_store",
        {"fields": {"summary": "s"}, "title": "t", "kind": "memory"},
    )
    assert mapping.call("item_archive", {"number": 3}) == ("item_archive", {"number": 3})
    # relation_list's own `kind` (the relation's type) keeps its name: the list's kind is itemKind.
    tool_name, arguments = mapping.call("relation_list", {"projectId": "p", "number": 4, "kind": "blocks"})
    assert tool_name == "item_list" and arguments["itemKind"] == "relation" and arguments["fields"]["kind"] == "blocks"


def test_findability_through_the_mapping_expects_the_merged_tool(before_v2: tuple[Path, dict[str, Any]]) -> None:
    rows = {(r["query"], r["scorer"]): r for r in before_v2[1]["findability"]}
    store = rows[("store memory", "bm25")]
    assert (store["expected_before"], store["expected_after"]) == ("memory_store", "item_store")
    assert store["rank_before"] == 1 and store["rank_after"] == 1
    assert rows[("recall project", "keyword")]["expected_after"] == "memory_recall"


def test_the_bundled_before_v2_runs_replay_against_the_candidate_through_the_mapping(
    before_v2: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = before_v2
    runs = sorted(str(p) for p in RUNS.iterdir())
    done = run_cli(
        "session", "replay", *runs, "--surface", "cand.json", "--mapping", "cand.mapping.json", "--format", "json",
        cwd=folder, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    calls = [c for run in done.json()["runs"] for c in run["calls"]]
    assert len(done.json()["runs"]) == 6 and calls
    assert {c["change"] for c in calls} == {"fits the schema"}
    assert {c["replayed_as"] for c in calls if c["tool"] == "memory_store"} == {"item_store"}


def test_a_live_server_is_suggested_as_its_list_is_taken(tmp_path: Path) -> None:
    desk = ROOT / "tests" / "fixtures" / "servers" / "ticket_desk.py"
    done = run_cli(
        "suggest", "-o", "c.json", "--format", "json", "--", sys.executable, str(desk), "--clean",
        cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = done.json()
    assert result["surface"] == "ticket-desk"
    assert families(result) == {
        "ticket_action": {"ticket_create": "create", "ticket_update": "update", "ticket_assign": "assign"}
    }
    assert result["findability_note"].startswith("ticket-desk has no queries of its own; name them with --queries")
    measured = run_cli("measure", "c.json", "--format", "json", cwd=tmp_path).json()["surfaces"][0]
    assert measured["chars"] == result["after"]["chars"]


# -- bad input ----------------------------------------------------------------------------------------------


def test_a_list_with_no_families_says_so_writes_nothing_and_exits_0(tmp_path: Path) -> None:
    listed = write_list(
        tmp_path / "plain.json",
        [tool("aks", {"q": "string"}), tool("cosmos", {"db": "string"}), tool("weather_get", {"city": "string"})],
    )
    done = run_cli("suggest", str(listed), "-o", "c.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "No families in plain" in done.stdout and "nothing written" in done.stdout
    assert "2 names in no pattern (no verb first or last), kept as they are: aks, cosmos." in done.stdout
    assert not (tmp_path / "c.json").exists() and not (tmp_path / "c.mapping.json").exists()


def test_a_tool_whose_parameter_has_another_type_is_kept_apart_and_said(tmp_path: Path) -> None:
    listed = write_list(
        tmp_path / "conflict.json",
        [
            tool("memory_store", {"number": "integer", "title": "string", "content": "string"}),
            tool("page_store", {"number": "integer", "title": "string", "content": "string"}),
            tool("task_store", {"number": "string", "title": "string", "content": "string"}),
        ],
    )
    done = run_cli("suggest", str(listed), "-o", "c.json", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = done.json()
    assert families(result) == {"item_store": {"memory_store": "memory", "page_store": "page"}}
    assert result["kept"] == ["task_store"]
    assert result["families"][0]["notes"] == ["task_store kept apart: number is string there, integer in memory_store"]
    done = run_cli("suggest", str(listed), "-o", "d.json", cwd=tmp_path)
    assert "item_store: task_store kept apart: number is string there, integer in memory_store." in done.stdout


def test_a_name_another_tool_has_is_not_taken_and_said(tmp_path: Path) -> None:
    listed = write_list(
        tmp_path / "taken.json",
        [
            tool("memory_store", {"number": "integer", "title": "string"}),
            tool("page_store", {"number": "integer", "title": "string"}),
            # item_store reads, so it joins no family of writing tools: the family's tool may not take its name.
            tool("item_store", {"query": "string"}, read_only=True),
        ],
    )
    done = run_cli("suggest", str(listed), "-o", "c.json", "--format", "json", cwd=tmp_path)
    result = done.json()
    assert families(result) == {"entry_store": {"memory_store": "memory", "page_store": "page"}}
    assert result["families"][0]["notes"] == [
        "item_store names another tool of the candidate, so this one is entry_store"
    ]
    names = [t["name"] for t in json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["tools"]]
    assert names == ["entry_store", "item_store"]


def test_an_output_that_exists_is_never_overwritten_without_force(before_v2: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = before_v2
    before = (folder / "cand.json").read_bytes()
    done = run_cli("suggest", "before-v2", "-o", "cand.json", cwd=folder)
    one_line(done, "cand.json: exists", "--force")
    assert (folder / "cand.json").read_bytes() == before
    (folder / "side.mapping.json").write_text("{}", encoding="utf-8")
    one_line(run_cli("suggest", "before-v2", "-o", "side.json", cwd=folder), "side.mapping.json: exists")
    assert not (folder / "side.json").exists()
    forced = run_cli("suggest", "before-v2", "-o", "side.json", "--force", cwd=folder)
    assert forced.returncode == 0, forced.stderr
    assert read_mapping(folder / "side.mapping.json").tools


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("suggest", "no-such-surface"), ("no-such-surface",)),
        (("suggest", "before-v2", "--client", "codex"), ("--client goes with --clients",)),
        (("suggest", "before-v2", "--queries", "missing.json"), ("missing.json",)),
        (("suggest",), ("give a SURFACE, --url URL, or -- CMD ARGS",)),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    one_line(run_cli(*args, "-o", "c.json", cwd=tmp_path), *words)
    assert not (tmp_path / "c.json").exists()
