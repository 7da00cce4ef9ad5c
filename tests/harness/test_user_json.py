"""Every JSON a user writes gives each key of an object once: a calls file, a queries file, a scenario, a snapshot,
a fixture, a budget log line. A key given twice reads as its last value while the file reads as naming the first
(`{"tool": "ro_true", "tool": "ro_false"}` would call the tool that is not read-only): it is one line and exit 2,
and nothing is called."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.errors import assert_one_line_error

HINTED = ROOT / "tests" / "fixtures" / "servers" / "hinted.py"
TWICE = 'an object gives the key "tool" twice ("ro_true", then "ro_false"), and a JSON reader keeps only the last'


def test_a_calls_file_naming_a_key_twice_is_refused_before_any_call(tmp_path: Path) -> None:
    calls = tmp_path / "calls.json"
    calls.write_text('{"calls": [{"tool": "ro_true", "tool": "ro_false"}]}', encoding="utf-8")
    record = tmp_path / "record.jsonl"
    for args in ([], ["--dry-run"]):
        run = run_cli("probe", "--calls", str(calls), *args, "--", sys.executable, str(HINTED), str(record))
        assert_one_line_error(run, f"{calls}: {TWICE}: give each key once")
    assert not record.exists()


@pytest.mark.parametrize(
    ("command", "name", "text"),
    [
        (["findability", "v2", "--queries"], "queries.json", '{"queries": [], "queries": []}'),
        (["measure"], "snapshot.json", '{"tools": [{"name": "a", "name": "b", "inputSchema": {"type": "object"}}]}'),
        (["serve", "v2", "--fixture"], "fixture.json", '{"project": {"id": "a", "id": "b"}}'),
    ],
)
def test_each_json_file_a_user_writes_refuses_a_key_given_twice(
    tmp_path: Path, command: list[str], name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run = run_cli(*command, str(path), timeout=60)
    assert_one_line_error(run, f"{path}: an object gives the key", "twice", "give each key once")


def test_a_scenario_giving_a_key_twice_is_refused(tmp_path: Path) -> None:
    from toolsurface.harness.scenario import ScenarioError, load_scenario

    path = tmp_path / "twice.json"
    path.write_text('{"format": "x", "prompt": "a", "prompt": "b"}', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r'gives the key "prompt" twice \("a", then "b"\)'):
        load_scenario(str(path))


def test_a_budget_log_line_giving_a_key_twice_is_its_lines_error(tmp_path: Path) -> None:
    from toolsurface.harness.config import read_log
    from toolsurface.harness.errors import ToolsurfaceError

    log = tmp_path / "budget-log.jsonl"
    log.write_text('{"format": "toolsurface-budget-log/1", "chars": 1, "chars": 2}\n', encoding="utf-8")
    with pytest.raises(ToolsurfaceError, match=r'budget-log.jsonl:1: not a budget log entry: .*"chars" twice'):
        read_log(log)
