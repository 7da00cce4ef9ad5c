"""A call that answered an error (isError, or a JSON-RPC error) measures nothing: probe, budget and snapshot --probe
mark it in every format, keep it out of the answer sizes and budgets (saying how many answers they rest on),
say how many calls answered errors and what to do, and fail on it with --fail-on-error-answers. Against a
server that refuses what a probe makes up (tests/fixtures/servers/refusing.py) and the real mcp-server-time."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import python_servers
from tests.helpers.paths import FIXTURES

__all__ = ["python_servers"]  # the fixture, used here

PY = sys.executable
REFUSING = [PY, str(FIXTURES / "servers" / "refusing.py")]
ERRORS_LINE = (
    "3 of 4 calls answered errors (record_get, record_find, record_count): give arguments in a calls file"
    " (toolsurface new calls writes a starter)"
)
# The answer record_stats gives, the one call of the four that is not an error.
STATS = json.dumps({"records": 1, "lines": 12})
RECORD = json.dumps({"id": "r-7", "title": "March invoices", "lines": 12})


def write_calls(tmp_path: Path, calls: list[dict[str, Any]]) -> Path:
    path = tmp_path / "calls.json"
    path.write_text(json.dumps({"calls": calls}), encoding="utf-8")
    return path


def test_the_probe_table_marks_each_error_answer_and_says_how_many_calls_answered_errors() -> None:
    run = run_cli("probe", "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    rows: dict[str, str] = {}
    for line in run.stdout.splitlines():
        if line.startswith("│"):
            rows.setdefault(line.split("│")[1].strip(), line)  # the calls' table comes first
    assert "│ isError " in rows["record_find"] and '{"id":"r-0"}' in rows["record_get"]
    assert "JSON-RPC error 0: the record index is not built" in run.stdout
    assert "4 calls, 3 answered errors in" in run.stdout
    assert "sizes of the answers that were not errors" in run.stdout
    assert f"error answers: {ERRORS_LINE}; the answers per tool leave them out" in run.stdout


def test_probe_json_csv_and_markdown_mark_every_error_answer() -> None:
    run = run_cli("probe", "--format", "json", "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert {c["tool"]: c["error_answer"] for c in data["calls"]} == {
        "record_get": True, "record_find": True, "record_count": True, "record_stats": False,
    }  # fmt: skip
    assert data["error_answers"] == 3 and data["error_answers_text"] == ERRORS_LINE
    tools = {t["tool"]: t for t in data["answers"]["tools"]}
    assert tools["record_count"] == {
        "tool": "record_count", "calls": 1, "answers": 0, "errors": 1, "median_chars": 0, "max_chars": 0,
        "median_tokens": None, "max_tokens": None, "largest_estimate": 0, "largest_arguments": {},
    }  # fmt: skip
    assert tools["record_stats"]["max_chars"] == len(STATS) and tools["record_stats"]["errors"] == 0
    assert run.stderr == f"toolsurface: {ERRORS_LINE}\n"

    csv = run_cli("probe", "--format", "csv", "--", *REFUSING, timeout=60)
    header, *rows = csv.stdout.splitlines()
    assert header.split(",")[5] == "error_answer"
    shown = {row.split(",")[1]: row for row in rows}
    assert ",True," in shown["record_count"] and ",False," in shown["record_stats"]

    markdown = run_cli("probe", "--format", "markdown", "--", *REFUSING, timeout=60).stdout
    assert '| record_find | {"query":"x"} | generated |' in markdown and "| isError |" in markdown
    assert f"- error answers: {ERRORS_LINE}" in markdown


def test_an_error_answer_is_kept_out_of_its_tool_s_sizes(tmp_path: Path) -> None:
    # The error answer names the long id it was given, so it is the longer one: counted, it would be the largest.
    calls = write_calls(
        tmp_path,
        [
            {"tool": "record_get", "arguments": {"id": "r-7"}},
            {"tool": "record_get", "arguments": {"id": "r-" + "0" * 300}},
        ],
    )
    run = run_cli("probe", "--calls", str(calls), "--calls-only", "--format", "json", "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    [tool] = run.json()["answers"]["tools"]
    assert (tool["calls"], tool["answers"], tool["errors"]) == (2, 1, 1)
    assert tool["max_chars"] == tool["median_chars"] == len(RECORD) and tool["largest_arguments"] == {"id": "r-7"}
    assert run.stderr == f"toolsurface: 1 of 2 calls answered an error (record_get): give arguments in {calls}\n"


def test_probe_fails_on_error_answers_only_when_asked() -> None:
    run = run_cli("probe", "--fail-on-error-answers", "--", *REFUSING, timeout=60)
    assert run.returncode == 1 and ERRORS_LINE in run.stdout
    quiet = run_cli("probe", "--fail-on-error-answers", "v2")
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert_one_line_error(
        run_cli("probe", "--dry-run", "--fail-on-error-answers", "--", *REFUSING), "a dry run calls nothing"
    )


# -- budget -----------------------------------------------------------------------------------------------------


def test_budget_says_the_answers_were_errors_and_what_its_figure_rests_on() -> None:
    run = run_cli("budget", "--probe", "--max-answer-tokens", "5000", "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"warning: {ERRORS_LINE}"
    assert lines[1].startswith("records: answers: 1 answer of 1 tool, 3 error answers left out, the largest")
    assert lines[1].endswith("(o200k; record_stats {}): within budget (5,000 tokens an answer)")


@pytest.mark.usefixtures("python_servers")
def test_budget_on_a_server_that_refuses_empty_arguments_says_the_answers_were_errors(tmp_path: Path) -> None:
    empty = [{"tool": "get_current_time", "arguments": {"timezone": ""}},
             {"tool": "convert_time", "arguments": {"source_timezone": "", "time": "", "target_timezone": ""}}]  # fmt: skip
    calls = write_calls(tmp_path, empty)
    server = [PY, "-m", "mcp_server_time"]
    args = ["budget", "--probe", "--max-answer-tokens", "5000", "--calls", str(calls), "--calls-only"]
    run = run_cli(*args, "--", *server, timeout=90)
    assert run.returncode == 0, run.stdout + run.stderr
    said = "2 of 2 calls answered errors (get_current_time, convert_time): give arguments in"
    assert f"warning: {said} {calls}" in run.stdout
    assert "answers: none measured, all 2 calls answered errors (5,000 tokens an answer)" in run.stdout
    assert "within budget" not in run.stdout.splitlines()[1]
    failing = run_cli(*args, "--fail-on-error-answers", "--", *server, timeout=90)
    assert failing.returncode == 1 and f"error answers: {said}" in failing.stdout
    assert "failing: 2 error answers (fail-on-error-answers)" in failing.stdout


def test_budget_fails_on_error_answers_in_every_ci_format(tmp_path: Path) -> None:
    args = ["budget", "--fail-on-error-answers", "--max-chars", "5000"]
    data = run_cli(*args, "--format", "json", "--", *REFUSING, timeout=60)
    assert data.returncode == 1
    [result] = data.json()["results"]
    answers = result["answers"]
    assert result["within"] is False and answers["within"] is False and answers["fail_on_error_answers"] is True
    assert (answers["calls"], answers["answers"], answers["errors"]) == (4, 1, 3)
    assert answers["error_tools"] == ["record_get", "record_find", "record_count"]
    assert data.stderr == f"toolsurface: records: {ERRORS_LINE}\n"
    junit = run_cli(*args, "--format", "junit", "--", *REFUSING, timeout=60)
    assert junit.returncode == 1 and '<failure message="3 error answers (fail-on-error-answers)"' in junit.stdout
    github = run_cli(*args, "--format", "github", "--", *REFUSING, env={"GITHUB_STEP_SUMMARY": str(tmp_path / "s.md")})
    assert github.returncode == 1 and github.stdout.startswith("::error title=records%3A tool calls answered errors::")
    assert f"error answers: {ERRORS_LINE}" in (tmp_path / "s.md").read_text(encoding="utf-8")
    csv = run_cli("budget", "--probe", "--max-chars", "5000", "--format", "csv", "--", *REFUSING, timeout=60)
    header, row = csv.stdout.splitlines()
    assert header.endswith(",largest,error_answers") and row.endswith(",3") and csv.returncode == 0


def test_a_configured_target_fails_on_error_answers(tmp_path: Path) -> None:
    command = json.dumps(REFUSING)
    config = tmp_path / "toolsurface.toml"
    config.write_text(f"command = {command}\nmax-chars = 5000\nfail-on-error-answers = true\n", encoding="utf-8")
    run = run_cli("budget", cwd=tmp_path, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"error answers: {ERRORS_LINE}" in run.stdout and "within budget (5,000 chars)" in run.stdout
    config.write_text(f"command = {command}\nmax-chars = 5000\nfail-on-error-answers = 'yes'\n", encoding="utf-8")
    assert_one_line_error(run_cli("budget", cwd=tmp_path), "fail-on-error-answers", "expected true or false")


# -- the snapshot's answers part --------------------------------------------------------------------------------


def test_snapshot_probe_records_error_answers_apart_and_measure_shows_them(tmp_path: Path) -> None:
    path = tmp_path / "records.json"
    run = run_cli("snapshot", "--probe", "-o", str(path), "--", *REFUSING, timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"toolsurface: {ERRORS_LINE}; the answers part leaves them out of the sizes" in run.stderr
    tools = {t["tool"]: t for t in json.loads(path.read_text(encoding="utf-8"))["answers"]["tools"]}
    assert {name: (t["calls"], t["answers"], t["errors"]) for name, t in tools.items()} == {
        "record_get": (1, 0, 1), "record_find": (1, 0, 1), "record_count": (1, 0, 1), "record_stats": (1, 1, 0),
    }  # fmt: skip
    shown = run_cli("measure", str(path), "--format", "markdown")
    assert shown.returncode == 0, shown.stderr
    assert "| Error answers |" in shown.stdout and "| record_count | 1 | 1 | - | - | - | - | - |" in shown.stdout


def test_a_snapshot_written_before_answers_were_recorded_reads_its_errors_out_of_its_calls(tmp_path: Path) -> None:
    from toolsurface.harness.surface import answers_from_wire

    old = {"tool": "t", "calls": 3, "errors": 1, "median_chars": 10, "max_chars": 12, "median_tokens": 3,
           "max_tokens": 4}  # fmt: skip
    found = answers_from_wire({"answers": {"counter": "o200k", "tools": [old]}}, "old.json")
    assert found is not None
    [tool] = found.tools
    assert (tool.calls, tool.sizes.calls, tool.errors) == (3, 2, 1)
    bad = {**old, "answers": 5}
    with pytest.raises(Exception, match=r"do not add up to calls \(3\)"):
        answers_from_wire({"answers": {"counter": "o200k", "tools": [bad]}}, "bad.json")


def test_diff_says_when_a_tool_answers_with_more_errors(tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    for path, record in ((before, "r-7"), (after, "r-8")):
        calls = write_calls(tmp_path, [{"tool": "record_get", "arguments": {"id": record}}])
        args = ["snapshot", "--probe", "--calls", str(calls), "--calls-only", "-o", str(path), "--", *REFUSING]
        assert run_cli(*args, timeout=60).returncode == 0
    diff = run_cli("diff", str(before), str(after), "--format", "json")
    assert diff.returncode == 0, diff.stderr
    [changed] = [p for p in diff.json()["parts"] if p["part"] == "answers"]
    texts = [d["text"] for d in changed["details"]]
    assert texts == ["no answer measured: every call answered an error", "answers with an error 0 -> 1 of 1 call"]
