"""session replay --mapping where the mapping would put an argument where the call has one already: a call is
never made with one argument silently over another (a row says why), and a mapping file that sends two arguments
to one name, or renames one to a name its entry sets, is one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.suggest import RUNS, before_v2
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.session.replay import MappingClash, read_mapping

__all__ = ["before_v2"]  # the fixture, used here

RUN = RUNS / "script-full-list-r001"


def mapping_with(folder: Path, name: str, change: dict[str, Any]) -> Path:
    data = json.loads((folder / "cand.mapping.json").read_text(encoding="utf-8"))
    data["tools"].update(change)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_value_the_mapping_sets_over_one_the_call_gives_is_a_row_saying_so(
    before_v2: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = before_v2
    clash = {"memory_store": {"tool": "item_store", "arguments": {"kind": "memory", "number": 9}, "rename": {}}}
    path = mapping_with(folder, "clash.json", clash)
    done = run_cli(
        "session", "replay", str(RUN), "--surface", "cand.json", "--mapping", str(path), "--format", "json", cwd=folder
    )
    assert done.returncode == 0, done.stderr
    stores = [c for c in done.json()["runs"][0]["calls"] if c["tool"] == "memory_store"]
    assert stores and {c["change"] for c in stores} == {"unmappable"}
    assert {c["message"] for c in stores} == {"the mapping sets number, which the call gives already (3)"}


def test_an_argument_renamed_into_a_value_the_call_gives_is_a_clash() -> None:
    from toolsurface.harness.session.replay import CallMapping, ToolMapping

    mapping = CallMapping({"a_store": ToolMapping("item_store", {}, {"summary": "fields.summary"})})
    with pytest.raises(MappingClash, match="puts summary into fields, which the call gives as a value"):
        mapping.call("a_store", {"fields": "plain", "summary": "s"})
    assert mapping.call("a_store", {"fields": {"x": 1}, "summary": "s"}) == (
        "item_store",
        {"fields": {"x": 1, "summary": "s"}},
    )


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            {"tool": "item_store", "arguments": {"kind": "memory"}, "rename": {"type": "kind"}},
            "tools.memory_store.rename.type: kind is set by the entry's arguments already",
        ),
        (
            {"tool": "item_store", "arguments": {}, "rename": {"summary": "fields.x", "tags": "fields.x"}},
            "tools.memory_store.rename: tags and summary both become fields.x",
        ),
    ],
)
def test_a_mapping_file_whose_targets_clash_is_one_line(
    before_v2: tuple[Path, dict[str, Any]], entry: dict[str, Any], said: str
) -> None:
    folder, _ = before_v2
    path = mapping_with(folder, "bad.json", {"memory_store": entry})
    with pytest.raises(ToolsurfaceError) as raised:
        read_mapping(path)
    assert said in str(raised.value)
    done = run_cli("session", "replay", str(RUN), "--surface", "cand.json", "--mapping", str(path), cwd=folder)
    assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1
