"""`toolsurface new calls`: a starter calls file of every read-only tool with the arguments a probe would make, each a
draft; probe saying how many drafts are left; and a calls file for tools the server lacks refused, naming them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.paths import FIXTURES
from toolsurface.harness.probe import starter_calls

PY = sys.executable
REFUSING = [PY, str(FIXTURES / "servers" / "refusing.py")]


def test_new_calls_writes_a_draft_call_of_every_read_only_tool_with_its_made_arguments(tmp_path: Path) -> None:
    out = tmp_path / "calls.json"
    run = run_cli("new", "calls", "-o", str(out), "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr == f"wrote {out} (4 draft calls of the read-only tools of records)\n"
    assert run.stdout.startswith("next: give each call real arguments, then toolsurface probe")
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["calls"] == [
        {"tool": "record_get", "arguments": {"id": "r-0"}, "draft": True},
        {"tool": "record_find", "arguments": {"query": "x"}, "draft": True},
        {"tool": "record_count", "arguments": {}, "draft": True},
        {"tool": "record_stats", "arguments": {}, "draft": True},
    ]
    assert "read-only tool of records" in written["note"] and 'remove its "draft" mark' in written["note"]


def test_probe_says_how_many_drafts_are_left_and_calls_them(tmp_path: Path) -> None:
    out = tmp_path / "calls.json"
    assert run_cli("new", "calls", "-o", str(out), "--", *REFUSING, timeout=60).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    data["calls"][0] = {"tool": "record_get", "arguments": {"id": "r-7"}}
    data["calls"][1] = {"tool": "record_find", "arguments": {"query": "invoices"}}
    out.write_text(json.dumps(data), encoding="utf-8")
    run = run_cli("probe", "--calls", str(out), "--format", "json", "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"{out}: 2 of 4 calls are still drafts" in run.stderr
    assert [c["error_answer"] for c in run.json()["calls"]] == [False, False, True, False]


def test_new_calls_never_writes_over_a_file(tmp_path: Path) -> None:
    out = tmp_path / "calls.json"
    out.write_text("mine", encoding="utf-8")
    assert_one_line_error(run_cli("new", "calls", "-o", str(out), "--", *REFUSING), f"{out}: exists")
    assert out.read_text(encoding="utf-8") == "mine"


def test_a_read_only_tool_no_arguments_can_be_made_for_is_a_draft_called_no_times(tmp_path: Path) -> None:
    impossible = {"type": "object", "properties": {"x": {"type": "string", "minLength": 3, "maxLength": 2}},
                  "required": ["x"]}  # fmt: skip
    tools = [
        {"name": "odd", "inputSchema": impossible, "annotations": {"readOnlyHint": True}},
        {"name": "fine", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
        {"name": "write", "inputSchema": {"type": "object"}},
    ]
    starter = starter_calls("mine", tools)
    assert starter["calls"] == [
        {"tool": "odd", "times": 0, "draft": True},
        {"tool": "fine", "arguments": {}, "draft": True},
    ]
    assert starter["note"].endswith("No arguments could be made for odd: write them and remove their times 0.")
    snapshot, out = tmp_path / "mine.json", tmp_path / "calls.json"
    snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    run = run_cli("new", "calls", str(snapshot), "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "(2 draft calls of the read-only tools of" in run.stderr and "; 1 with no arguments made" in run.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["calls"] == starter["calls"]


def test_a_calls_file_naming_tools_the_server_lacks_is_one_line_naming_them(tmp_path: Path) -> None:
    calls = tmp_path / "calls.json"
    entries = [{"tool": "record_get", "arguments": {"id": "r-7"}}, {"tool": "ticket_get"}, {"tool": "ticket_find"}]
    calls.write_text(json.dumps({"calls": entries}), encoding="utf-8")
    line = assert_one_line_error(
        run_cli("probe", "--calls", str(calls), "--", *REFUSING, timeout=60),
        f"{calls}: names 2 tools",
        "does not list: 'ticket_get' (calls[1]), 'ticket_find' (calls[2])",
        "its tools: record_get, record_find",
    )
    assert "record_get'" not in line.split("its tools")[0]
    calls.write_text(json.dumps({"calls": [{"tool": "record_get", "draft": "yes"}]}), encoding="utf-8")
    assert_one_line_error(run_cli("probe", "--calls", str(calls), "--", *REFUSING), "draft must be true or false")
