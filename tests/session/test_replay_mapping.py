"""session replay --mapping and `toolsurface new mapping OLD NEW`: the seed's 27 tools played against its 8, each old
call made the new one the mapping says (memory_store as item_store with kind memory), from a study of the
scripted agent on before-v2."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli


@pytest.fixture(scope="module")
def before_v2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("before-v2")
    done = run_cli("session", "run", "--agent", "script", "--surface", "before-v2", "--out", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    return out


def starter(tmp_path: Path) -> dict[str, Any]:
    done = run_cli("new", "mapping", "before-v2", "v2", "-o", str(tmp_path / "mapping.json"))
    assert done.returncode == 0, done.stderr
    assert "next: check each entry, then toolsurface session replay STUDY --surface v2 --mapping" in done.stdout
    data: dict[str, Any] = json.loads((tmp_path / "mapping.json").read_text(encoding="utf-8"))
    return data


def test_the_starter_maps_each_old_tool_to_the_new_one_it_likely_became(tmp_path: Path) -> None:
    tools = starter(tmp_path)["tools"]
    assert len(tools) == 27
    assert tools["memory_store"]["tool"] == "item_store" and tools["memory_store"]["arguments"] == {"kind": "memory"}
    assert tools["task_list"]["tool"] == "item_list" and tools["task_list"]["arguments"] == {"kind": "task"}
    assert tools["item_get"] == {"tool": "item_get", "arguments": {}, "rename": {"depth": None}}
    # Two new tools are as likely (project_get, item_get): none is guessed.
    assert tools["memory_get"]["tool"] is None
    assert "summary" in tools["memory_store"]["rename"]
    again = run_cli("new", "mapping", "before-v2", "v2", "-o", str(tmp_path / "mapping.json"))
    assert again.returncode == 2 and "exists" in again.stderr


def test_replay_with_a_mapping_plays_old_calls_as_the_new_tools_calls(before_v2: Path, tmp_path: Path) -> None:
    mapping = starter(tmp_path)
    mapping["tools"]["memory_store"]["rename"] = {"summary": "fields.summary", "baseRevisionId": None}
    (tmp_path / "mapping.json").write_text(json.dumps(mapping), encoding="utf-8")
    plain = run_cli("session", "replay", str(before_v2), "--surface", "v2", "--format", "json")
    mapped = run_cli(
        "session", "replay", str(before_v2), "--surface", "v2", "--mapping", str(tmp_path / "mapping.json"),
        "--format", "json",
    )  # fmt: skip
    assert plain.returncode == 0 and mapped.returncode == 0, mapped.stderr
    before = {c["seq"]: c for c in plain.json()["runs"][0]["calls"]}
    after = {c["seq"]: c for c in mapped.json()["runs"][0]["calls"]}
    stores = [seq for seq, c in before.items() if c["tool"] == "memory_store"]
    assert stores and all(before[seq]["change"] == "unmappable" for seq in stores)
    for seq in stores:
        assert after[seq]["replayed_as"] == "item_store" and after[seq]["change"] != "unmappable"
    # v2 wants the version read with the item, which before-v2's call did not send.
    assert any("version is required" in (after[seq]["message"] or "") for seq in stores)
    assert mapped.json()["tools"]["memory_store"] == dict(Counter(after[seq]["change"] for seq in stores))
    table = run_cli("session", "replay", str(before_v2), "--surface", "v2", "--mapping", str(tmp_path / "mapping.json"))
    assert "memory_store as item_store: now refused" in table.stdout


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ({"format": "other"}, "not a mapping (its format is not 'toolsurface-mapping/1')"),
        ({"format": "toolsurface-mapping/1", "tools": {"a": {"tool": 3}}}, "tools.a.tool is not a tool's name or null"),
        ({"format": "toolsurface-mapping/1", "tools": {"a": {"to": "b"}}}, "tools.a: unknown key 'to'"),
    ],
)
def test_a_mapping_file_that_is_wrong_is_one_line(
    before_v2: Path, tmp_path: Path, content: dict[str, Any], said: str
) -> None:
    (tmp_path / "m.json").write_text(json.dumps(content), encoding="utf-8")
    done = run_cli("session", "replay", str(before_v2), "--surface", "v2", "--mapping", str(tmp_path / "m.json"))
    assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1
