"""A published list with a tool a client refuses, repairs or may drop (no object schema, as the published
@modelcontextprotocol/server-gitlab has; a second tool of one name) is measured, snapshotted, diffed and linted as
it is: the tool is marked, and the rest is judged."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.paths import ROOT

TOOLS: list[dict[str, Any]] = [
    {
        "name": "issue_get",
        "description": "Read an issue of a project by its number.",
        "inputSchema": {"properties": {"project_id": {"type": "string"}, "issue_iid": {"type": "number"}}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "issue_list",
        "description": "List the issues of a project.",
        "inputSchema": {
            "type": "object",
            "properties": {"project_id": {"type": "string"}, "cursor": {"type": "string"}},
        },
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "issue_list",
        "description": "List the issues of a project, again.",
        "inputSchema": {
            "type": "object",
            "properties": {"project_id": {"type": "string"}, "limit": {"type": "integer"}},
        },
        "annotations": {"readOnlyHint": True},
    },
]


@pytest.fixture
def published(tmp_path: Path) -> Path:
    path = tmp_path / "gitlab.json"
    path.write_text(json.dumps({"tools": TOOLS}), encoding="utf-8")
    return path


def test_measure_counts_a_published_list_as_it_is_and_marks_the_tools_a_client_would_not_take(published: Path) -> None:
    run = run_cli("measure", str(published), "--per-tool", "--format", "json")
    assert run.returncode == 0, run.stderr
    [surface] = run.json()["surfaces"]
    assert surface["tools"] == 3 and surface["chars"] == len(json.dumps(TOOLS, separators=(",", ":")))
    problems = [t["problem"] for t in surface["per_tool"]]
    assert problems[0] is not None and '"type": "object"' in problems[0]
    assert problems[1] is None and "a second tool is named 'issue_list'" in problems[2]
    table = run_cli("measure", str(published), env={"COLUMNS": "200"})
    assert "gitlab: issue_get: inputSchema must have" in table.stdout and "measured as published" in table.stdout


def test_lint_judges_the_rest_and_names_each_malformed_tool_as_an_error(published: Path) -> None:
    run = run_cli("lint", str(published), "--format", "json")
    assert run.returncode == 0, run.stderr
    findings = run.json()["surfaces"][0]["findings"]
    malformed = [f for f in findings if f["rule"] == "TS001"]
    assert [(f["tools"], f["severity"]) for f in malformed] == [(["issue_get"], "error"), (["issue_list"], "error")]
    # The other rules still judge the list: two ways of paging.
    assert any(f["rule"] == "TS106" for f in findings)
    assert run_cli("lint", str(published), "--fail-on", "error").returncode == 1


def test_diff_compares_a_published_list_with_a_malformed_tool(published: Path, tmp_path: Path) -> None:
    fixed = tmp_path / "fixed.json"
    repaired = [{**TOOLS[0], "inputSchema": {"type": "object", **TOOLS[0]["inputSchema"]}}, TOOLS[1]]
    fixed.write_text(json.dumps({"tools": repaired}), encoding="utf-8")
    run = run_cli("diff", str(published), str(fixed), "--format", "json")
    assert run.returncode == 0, run.stderr


def test_snapshot_of_a_live_server_keeps_the_tool_as_published(tmp_path: Path) -> None:
    out = tmp_path / "gitlab.snap.json"
    odd = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "odd_answers.py"), "gitlab"]
    run = run_cli("snapshot", "-o", str(out), "--", *odd, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    [tool] = json.loads(out.read_text(encoding="utf-8"))["tools"]
    assert tool["inputSchema"] == {"properties": {"project_id": {"type": "string"}}}
    lint = run_cli("lint", str(out), "--format", "json")
    assert [f["rule"] for f in lint.json()["surfaces"][0]["findings"] if f["severity"] == "error"] == ["TS001"]
