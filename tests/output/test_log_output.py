"""Tables in a log (stdout a pipe or a file, as in CI): as wide as they need, every cell whole."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import run_cli
from toolsurface.harness.analyze.findability import load_tools
from toolsurface.harness.surface import resolve_all

SURFACES = ["before-v2", "v2"]
TABLE_COMMANDS = [
    ["measure", *SURFACES, "--per-tool"],
    ["lint", *SURFACES],
    ["findability", *SURFACES],
    ["roundtrip", *SURFACES],
    ["diff", *SURFACES],
]


def whole(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _without_review(data: object) -> object:
    if isinstance(data, dict):
        return {k: _without_review(v) for k, v in data.items() if k != "review"}
    return [_without_review(v) for v in data] if isinstance(data, list) else data


def tool_names() -> set[str]:
    return {name for surface in load_tools(resolve_all(SURFACES)) for name in surface.names}


@pytest.mark.parametrize("command", TABLE_COMMANDS, ids=lambda c: c[0])
def test_a_table_written_to_a_log_shows_every_tool_name_its_json_holds_whole(command: list[str]) -> None:
    table = run_cli(*command, env={"COLUMNS": None})
    data = run_cli(*command, "--format", "json", env={"COLUMNS": None})
    assert table.returncode == data.returncode and table.returncode in (0, 1), table.stderr
    # diff shows a changed text by what changed in it, not whole (--whole does): its names are not the table's.
    shown = {name for name in tool_names() if whole(name, json.dumps(_without_review(data.json())))}
    assert shown, data.stdout[:500]
    assert sorted(name for name in shown if not whole(name, table.stdout)) == []
    assert "…" not in table.stdout


def test_the_list_written_to_a_log_shows_every_surface_name_and_title_whole() -> None:
    table = run_cli("list", env={"COLUMNS": None})
    listed = json.loads(run_cli("list", "--format", "json").stdout)["surfaces"]
    assert table.returncode == 0, table.stderr
    for surface in listed:
        assert whole(surface["name"], table.stdout) and surface["title"] in table.stdout, surface["name"]
    assert "…" not in table.stdout


def test_with_columns_set_a_table_keeps_to_it_and_folds_a_long_name_instead_of_cutting_it() -> None:
    table = run_cli("findability", "v2", env={"COLUMNS": "60"})
    assert table.returncode == 0, table.stderr
    assert max(len(line) for line in table.stdout.splitlines()) <= 60
    assert "…" not in table.stdout
