"""probe: what a live server's tools answer, measured call by call, on servers that really run: npm's
server-everything (node), a small SDK server that records every call it gets (tests/fixtures/servers/
calls_recorded.py), our own stubs over stdio, HTTP and in memory. A tool not annotated read-only is never called
unless the calls file names it; every answer is measured as the sessions' call logs measure it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import npm_servers
from tests.helpers.paths import ROOT
from tests.helpers.probe_servers import called, notes_over_http, recorded_server, write_calls
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.probe import (
    CallsFileError,
    NoArguments,
    parse_calls,
    plan_probe,
    probe_surface,
    schema_arguments,
)
from toolsurface.harness.surface import resolve

__all__ = ["notes_over_http", "npm_servers"]  # the fixtures, used here

PY = sys.executable
READ_ONLY = ["notes_find", "notes_report", "weather"]


def everything(modules: Path) -> list[str]:
    return ["node", str(modules / "server-everything" / "dist" / "index.js")]


# server-everything's one slow read-only tool runs for its default 10 s; the calls file makes it quick.
QUICK = {"tool": "trigger-long-running-operation", "arguments": {"duration": 0.1, "steps": 1}}


# -- what is called, and with what ------------------------------------------------------------------------------


def test_a_dry_run_lists_the_read_only_tools_of_server_everything_with_their_arguments(npm_servers: Path) -> None:
    run = run_cli("probe", "--dry-run", "--format", "json", "--", *everything(npm_servers), timeout=60)
    assert run.returncode == 0, run.stderr
    plan = run.json()
    planned = {c["tool"]: c for c in plan["calls"]}
    assert set(planned) == {
        "echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference",
        "get-structured-content", "get-sum", "get-tiny-image", "trigger-long-running-operation",
    }  # fmt: skip
    assert planned["get-structured-content"] == {
        "tool": "get-structured-content", "arguments": {"location": "New York"}, "source": "enum", "read_only": True,
        "destructive": False,
    }  # fmt: skip
    assert planned["get-sum"]["source"] == "generated" and set(planned["get-sum"]["arguments"]) == {"a", "b"}
    assert plan["dry_run"] is True and plan["answers"] is None
    skipped = {s["tool"]: s["reason"] for s in plan["skipped"]}
    assert set(skipped) == {"gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates",
                            "simulate-research-query"}  # fmt: skip
    assert all("readOnlyHint false" in reason for reason in skipped.values())


def test_a_dry_run_calls_nothing(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    run = run_cli("probe", "--dry-run", "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    assert "notes_find" in run.stdout and "not called: notes_write" in run.stdout
    assert called(record) == []


def test_without_dry_run_each_answer_of_server_everything_is_measured(npm_servers: Path, tmp_path: Path) -> None:
    calls = write_calls(tmp_path, [QUICK])
    run = run_cli("probe", "--calls", str(calls), "--format", "json", "--", *everything(npm_servers), timeout=90)
    assert run.returncode == 0, run.stderr
    data = run.json()
    by_tool = {c["tool"]: c for c in data["calls"]}
    assert len(data["calls"]) == 9 and not any(c["error_answer"] for c in data["calls"])
    echo = by_tool["echo"]
    assert echo["arguments"] == {"message": "x"} and echo["kinds"] == {"text": 1}
    assert echo["chars"] == len("Echo: x") and echo["tokens"] == count_tokens("Echo: x")
    structured = by_tool["get-structured-content"]
    # The answer is its structuredContent twice: the object, and a text block that is its JSON.
    assert structured["structured_chars"] == structured["copy_chars"] == structured["chars"] > 0
    image = by_tool["get-tiny-image"]
    assert image["kinds"]["image"] == 1 and image["media_bytes"] > 1000 and image["estimate"] >= 1600
    assert by_tool["trigger-long-running-operation"]["source"] == "calls file"
    assert by_tool["trigger-long-running-operation"]["arguments"] == QUICK["arguments"]
    assert {t["tool"] for t in data["answers"]["tools"]} == set(by_tool)


def test_a_tool_not_annotated_read_only_is_never_called_unless_the_calls_file_names_it(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    run = run_cli("probe", "--format", "json", "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    assert [c["tool"] for c in called(record)] == READ_ONLY
    skipped = {s["tool"]: s["reason"] for s in run.json()["skipped"]}
    assert "no readOnlyHint" in skipped["notes_purge"] and "readOnlyHint false" in skipped["notes_write"]

    record.unlink()
    calls = write_calls(tmp_path, [{"tool": "notes_write", "arguments": {"text": "hello"}, "times": 2},
                                   {"tool": "weather", "times": 0}])  # fmt: skip
    run = run_cli("probe", "--calls", str(calls), "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    made = called(record)
    assert [c["tool"] for c in made] == ["notes_find", "notes_report", "notes_write", "notes_write"]
    assert made[2]["arguments"] == {"text": "hello"}
    assert "notes_purge" not in {c["tool"] for c in made}

    record.unlink()
    only = write_calls(tmp_path, [{"tool": "notes_purge"}], "only.json")
    run = run_cli("probe", "--calls", str(only), "--calls-only", "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    assert called(record) == [{"tool": "notes_purge", "arguments": {}}]


def test_every_call_is_shown_with_its_arguments(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    calls = write_calls(tmp_path, [{"tool": "notes_find", "arguments": {"query": "invoices"}}])
    run = run_cli("probe", "--calls", str(calls), "--format", "csv", "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header.startswith("surface,tool,arguments,source,seconds")
    assert any('notes_find,"{""query"":""invoices""}",calls file' in row for row in rows)


def test_calls_at_once_measure_what_calls_one_at_a_time_measure(tmp_path: Path) -> None:
    def figures(*extra: str) -> list[tuple[str, int, int]]:
        run = run_cli("probe", *extra, "--format", "json", "--", *recorded_server(tmp_path / "r.jsonl"), timeout=60)
        assert run.returncode == 0, run.stderr
        return [(c["tool"], c["chars"], c["tokens"]) for c in run.json()["calls"]]

    assert figures("--jobs", "3") == figures()


# -- a bundled surface, in memory, beside its sessions ----------------------------------------------------------


def _session_answers(surface: str) -> dict[str, list[tuple[int, str | None]]]:
    """Each (tool, arguments) the recorded sessions called on `surface`, with every answer's chars and text."""
    root = ROOT / "toolsurface" / "sessions" / "runs"
    found: dict[str, list[tuple[int, str | None]]] = {}
    for log in sorted(root.glob(f"*/runs/{surface}/*/calls.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("method") == "tools/call" and record.get("outcome") == "ok":
                key = f"{record['tool']} {json.dumps(record['arguments'], sort_keys=True)}"
                found.setdefault(key, []).append((record["response_chars"], record.get("response")))
    return found


@pytest.mark.parametrize("surface", ["before-v2", "consistent", "v2-first", "v2", "helpdesk-tools", "helpdesk"])
def test_a_bundled_surface_probed_agrees_with_its_sessions_where_they_called_the_same(surface: str) -> None:
    import hashlib

    from toolsurface.harness.probe import load_calls
    from toolsurface.harness.surface import study_calls

    own = study_calls(surface)
    assert own is not None
    probe = probe_surface(resolve(surface), load_calls(own))
    sessions = _session_answers(surface)
    agreed = 0
    named = [done for done in probe.calls if done.call.source == "calls file"]
    assert len(named) == len(load_calls(own).calls)
    for done in named:
        assert done.figures is not None
        logged = sessions[f"{done.call.tool} {json.dumps(done.call.arguments, sort_keys=True)}"]
        for chars, text in logged:
            if text is not None and hashlib.sha256(text.encode()).hexdigest() == done.figures.sha256:
                assert (done.figures.chars, done.figures.tokens) == (chars, count_tokens(text))
                agreed += 1
                break
    # Reads after a session's own writes answered otherwise; the rest are the same answers, the same figures.
    assert agreed >= len(named) // 2, (agreed, len(named))


def test_v2s_largest_session_answer_is_the_probes_too() -> None:
    from toolsurface.harness.probe import load_calls
    from toolsurface.harness.surface import study_calls

    own = study_calls("v2")
    assert own is not None
    probe = probe_surface(resolve("v2"), load_calls(own))
    page = [c for c in probe.calls if c.call.arguments == {"projectId": "acme-shop", "number": 20, "offset": 0,
                                                           "take": 3000}]  # fmt: skip
    assert page and page[0].figures is not None
    assert (page[0].figures.chars, page[0].figures.tokens) == (3365, 745)


def test_probing_a_bundled_surface_calls_its_read_only_tools_by_their_annotations() -> None:
    run = run_cli("probe", "v2", "--format", "json")
    assert run.returncode == 0, run.stderr
    data = run.json()
    # The calls file's calls (the sessions' reads of item_get and item_list), and the other read-only tools.
    assert {c["tool"] for c in data["calls"]} == {"recall", "project_get", "item_get", "item_list"}
    assert {s["tool"] for s in data["skipped"]} == {"project_store", "item_store", "item_action", "item_delete"}
    assert data["calls_file"].endswith("v2.json")


def test_a_snapshot_file_has_no_server_to_probe(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    assert run_cli("snapshot", "v2", "-o", str(path)).returncode == 0
    assert_one_line_error(run_cli("probe", str(path)), str(path), "no server to call")


# -- the answers part, measure, diff and budget -----------------------------------------------------------------


def test_snapshot_probe_records_the_answers_part_that_measure_shows(tmp_path: Path) -> None:
    record, path = tmp_path / "record.jsonl", tmp_path / "notes.json"
    run = run_cli("snapshot", "--probe", "-o", str(path), "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    answers = json.loads(path.read_text(encoding="utf-8"))["answers"]
    assert answers["counter"] == "o200k" and answers["protocol_version"] == "2025-11-25"
    report = next(t for t in answers["tools"] if t["tool"] == "notes_report")
    assert report["calls"] == 1 and report["max_tokens"] == report["median_tokens"] > 900
    assert report["largest_arguments"] == {}
    shown = run_cli("measure", str(path), "--format", "markdown")
    assert shown.returncode == 0, shown.stderr
    assert "What the tools' answers cost, as probed" in shown.stdout and "| notes | notes_report | 1 |" in shown.stdout
    assert run_cli("measure", str(path), "--format", "json").json()["surfaces"][0]["answers"] == answers


def test_the_report_shows_the_answers_a_snapshot_recorded_beside_its_list_sizes(tmp_path: Path) -> None:
    record, path, out = tmp_path / "record.jsonl", tmp_path / "notes.json", tmp_path / "report"
    run = run_cli("snapshot", "--probe", "-o", str(path), "--", *recorded_server(record), timeout=60)
    assert run.returncode == 0, run.stderr
    assert run_cli("report", "--surface", str(path), "--out", str(out), timeout=120).returncode == 0
    text = (out / "report.md").read_text(encoding="utf-8")
    shown = text.index("## What the tools' answers cost, as probed")
    # A snapshot of a server is a server's list, not a surface.
    assert (
        text.index("## List size per server") < shown < text.index("## Everything each server advertises, per session")
    )
    assert "| notes | notes_report | 1 | 0 | 5,500 | 5,500 |" in text[shown:]
    answers = json.loads((out / "tables" / "answers_probed.json").read_text(encoding="utf-8"))
    assert {row["tool"] for row in answers["rows"]} == set(READ_ONLY)


def test_diff_classes_an_answer_that_grew(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    short = write_calls(tmp_path, [{"tool": "notes_find", "arguments": {"query": "a"}}], "short.json")
    long = write_calls(tmp_path, [{"tool": "notes_find", "arguments": {"query": "a" * 400}}], "long.json")
    for path, calls in ((before, short), (after, long)):
        run = run_cli("snapshot", "--probe", "--calls", str(calls), "-o", str(path), "--", *recorded_server(record))
        assert run.returncode == 0, run.stderr
    diff = run_cli("diff", str(before), str(after), "--format", "json", "--fail-on", "any")
    assert diff.returncode == 1
    data = diff.json()
    assert data["class"] == "SIZE_ONLY" and data["tools_before"] == data["tools_after"] == 5
    [grew] = [p for p in data["parts"] if p["part"] == "answers"]
    assert grew["name"] == "notes_find" and grew["class"] == "SIZE_ONLY" and grew["chars"]["delta"] == 399
    assert "largest answer grew" in grew["details"][0]["text"]
    live = run_cli("diff", str(before), "--probe", "--calls", str(long), "--", *recorded_server(record))
    assert live.returncode == 0, live.stderr
    assert "answers of notes_find changed" in live.stdout and "largest answer grew" in live.stdout


def test_budget_max_answer_tokens_fails_naming_the_tool_and_the_call(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    run = run_cli("budget", "--max-answer-tokens", "100", "--", *recorded_server(record), timeout=60)
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert (
        lines[0].startswith("answer over budget: notes_report answered 1,0") and "the call: notes_report {}" in lines[0]
    )
    assert "over budget (100 tokens an answer): 1 over" in run.stdout
    within = run_cli("budget", "--max-answer-tokens", "5000", "--max-chars", "5000", "--", *recorded_server(record))
    assert within.returncode == 0, within.stdout + within.stderr
    assert "within budget (5,000 tokens an answer)" in within.stdout


def test_an_answer_over_budget_is_said_in_every_ci_format(tmp_path: Path) -> None:
    server = recorded_server(tmp_path / "record.jsonl")
    github = run_cli("budget", "--max-answer-tokens", "100", "--format", "github", "--", *server,
                     env={"GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")})  # fmt: skip
    assert github.returncode == 1
    assert (
        github.stdout.startswith("::error title=notes%3A tool answers over budget::")
        and "notes_report" in github.stdout
    )
    assert "answer over budget: notes_report answered" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    junit = run_cli("budget", "--max-answer-tokens", "100", "--format", "junit", "--", *server)
    assert junit.returncode == 1 and '<failure message="1 answer over budget"' in junit.stdout
    data = run_cli("budget", "--max-answer-tokens", "100", "--format", "json", "--", *server).json()
    [over] = data["results"][0]["answers"]["over"]
    assert over == {"tool": "notes_report", "tokens": over["tokens"], "limit": 100, "by": "the answer budget",
                    "arguments": {}}  # fmt: skip


def test_budget_holds_answers_to_each_clients_cap_by_default() -> None:
    run = run_cli("budget", "v2", "--probe", "--format", "json")
    assert run.returncode == 0, run.stderr
    [result] = run.json()["results"]
    assert result["answers"]["max_answer_tokens"] is None and result["answers"]["within"] is True
    assert result["max_chars"] is None and result["answers"]["largest"]["tool"] == "item_get"


def test_the_configured_max_answer_tokens_probes_the_target(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    command = json.dumps(recorded_server(record))
    (tmp_path / "toolsurface.toml").write_text(f"command = {command}\nmax-chars = 5000\nmax-answer-tokens = 100\n")
    run = run_cli("budget", cwd=tmp_path, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "notes_report answered" in run.stdout and [c["tool"] for c in called(record)] == READ_ONLY


def test_client_caps_are_those_the_installed_claude_code_bundles_hold() -> None:
    from tests.helpers.npm_packages import agent_cli_dir, agent_clis_dir
    from toolsurface.harness.measure import client_answer_caps

    def bundle(bin_dir: Path) -> bytes:
        package = bin_dir.parent / "@anthropic-ai"
        found = [p for p in package.rglob("claude*") if p.is_file() and p.stat().st_size > 10**8]
        return found[0].read_bytes()

    old, new = bundle(agent_clis_dir()), bundle(agent_cli_dir("claude", "2.1.332"))
    assert [c.client for c in client_answer_caps()] == ["Claude Code 2.1.197", "Claude Code 2.1.332"]
    assert b"var php=0.5,nga=1600,fhp=25000" in old and b",MHp=1e4" in old
    assert b"var y=0.5,B=4,h=1600,E=25000" in new and b"var gl=1e4" in new
    assert b"Large MCP response (~" in old and b"Large MCP response (~" in new
    assert all(c.cap == 25000 and c.warn == 10000 for c in client_answer_caps())


# -- bad input: one line, exit 2, nothing written half ----------------------------------------------------------


@pytest.mark.parametrize(
    ("calls", "words"),
    [
        ([{"tool": "notes_nothing"}], ("calls[0]", "lists no tool 'notes_nothing'", "notes_find")),
        ([{"tool": "notes_find", "arguments": {"query": 7}}], ("calls[0]", "notes_find does not take", "query")),
        (
            [{"tool": "notes_find", "times": -1}],
            (
                "calls[0]",
                "times must be a whole number",
            ),
        ),
        (
            [{"tool": "notes_find", "args": {}}],
            (
                "calls[0]",
                "unknown key 'args'",
            ),
        ),
    ],
)
def test_a_bad_calls_file_is_one_line_and_writes_nothing(
    tmp_path: Path, calls: list[dict[str, Any]], words: tuple[str, ...]
) -> None:
    record, out = tmp_path / "record.jsonl", tmp_path / "snap.json"
    path = write_calls(tmp_path, calls)
    run = run_cli("snapshot", "--probe", "--calls", str(path), "-o", str(out), "--", *recorded_server(record))
    assert_one_line_error(run, str(path), *words)
    assert not out.exists() and not out.with_suffix(".meta.json").exists() and called(record) == []


def test_a_server_that_hangs_on_a_call_is_one_line_within_the_call_timeout(tmp_path: Path) -> None:
    record, out = tmp_path / "record.jsonl", tmp_path / "snap.json"
    run = run_cli(
        "snapshot", "--probe", "--call-timeout", "1", "-o", str(out), "--", *recorded_server(record, "--hang"),
        timeout=60,
    )  # fmt: skip
    assert_one_line_error(run, "no answer to tools/call notes_wait within 1 s")
    assert not out.exists() and not out.with_suffix(".meta.json").exists()


def test_an_answer_over_the_size_limit_is_one_line(tmp_path: Path) -> None:
    run = run_cli("probe", "--max-answer-bytes", "2000", "--", *recorded_server(tmp_path / "r.jsonl"), timeout=60)
    assert_one_line_error(run, "its answer to tools/call notes_report is larger than the answer limit, 2,000 bytes")


def test_bad_probe_options_are_one_line(tmp_path: Path) -> None:
    server = recorded_server(tmp_path / "r.jsonl")
    assert_one_line_error(run_cli("budget", "--max-answer-tokens", "0", "--", *server), "--max-answer-tokens")
    assert_one_line_error(run_cli("probe", "--calls-only", "--", *server), "--calls-only goes with --calls")
    assert_one_line_error(run_cli("snapshot", "--jobs", "2", "--", *server), "--jobs goes with --probe")
    assert_one_line_error(run_cli("probe"), "give a SURFACE, --url URL, or -- CMD")


# -- the arguments a schema gives ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "arguments", "source"),
    [
        ({"type": "object", "properties": {}}, {}, "none needed"),
        ({"type": "object", "examples": [{"q": "x"}], "properties": {"q": {"type": "string"}}}, {"q": "x"}, "examples"),
        (
            {"type": "object", "properties": {"q": {"type": "string", "examples": ["tea"]}}, "required": ["q"]},
            {"q": "tea"},
            "examples",
        ),
        (
            {"type": "object", "properties": {"n": {"type": "integer", "default": 3}}, "required": ["n"]},
            {"n": 3},
            "default",
        ),
        ({"type": "object", "properties": {"k": {"enum": ["a", "b"]}}, "required": ["k"]}, {"k": "a"}, "enum"),
        (
            {
                "type": "object",
                "properties": {"n": {"type": "integer", "minimum": 5}},
                "required": ["n"],
                "additionalProperties": False,
            },
            {"n": 5},
            "generated",
        ),
        (
            {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}, "required": ["at"]},
            {"at": "2026-01-01T00:00:00Z"},
            "format",
        ),
    ],
)
def test_arguments_come_from_the_schema_as_its_author_wrote_them(
    schema: dict[str, Any], arguments: dict[str, Any], source: str
) -> None:
    made = schema_arguments(schema)
    assert (made.arguments, made.source) == (arguments, source)


def test_a_schema_no_valid_arguments_can_be_made_for_leaves_its_tool_out_saying_why() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "minLength": 3, "maxLength": 2}},
              "required": ["x"]}  # fmt: skip
    with pytest.raises(NoArguments, match="give them in a calls file"):
        schema_arguments(schema)
    tool = {"name": "odd", "inputSchema": schema, "annotations": {"readOnlyHint": True}}
    plan = plan_probe([tool], "s")
    assert plan.calls == () and plan.skipped[0].reason.startswith("no valid arguments")
    with pytest.raises(CallsFileError, match=r"calls\[0\]: odd: no valid arguments"):
        plan_probe([tool], "s", parse_calls({"calls": [{"tool": "odd"}]}, "calls.json"))


# -- live servers wherever a surface goes ---------------------------------------------------------------------


def test_probe_over_http_measures_the_same_answers_as_over_stdio(notes_over_http: str, tmp_path: Path) -> None:
    def figures(run: Run) -> list[tuple[str, int, int]]:
        assert run.returncode == 0, run.stderr
        return [(c["tool"], c["chars"], c["tokens"]) for c in run.json()["calls"]]

    over_http = run_cli("probe", "--format", "json", "--url", notes_over_http, "--header", "X-Test: 1", timeout=60)
    over_stdio = run_cli("probe", "--format", "json", "--", *recorded_server(tmp_path / "r.jsonl"), timeout=60)
    assert figures(over_http) == figures(over_stdio)
    assert_one_line_error(
        run_cli("probe", "--max-answer-bytes", "2000", "--url", notes_over_http, timeout=60),
        "its answer to tools/call notes_report is larger than the answer limit",
    )


# -- the bundled surfaces' answers beside their sessions' (docs/measure.md) ------------------------------------

BUNDLED = ["before-v2", "consistent", "v2-first", "v2", "v2-live", "helpdesk-tools", "helpdesk"]


def bundled_answers_rows() -> list[list[str]]:
    """Per bundled surface: its probe's calls and largest answer, and the largest answer its sessions logged."""
    from toolsurface.harness.probe import load_calls
    from toolsurface.harness.surface import study_calls

    root = ROOT / "toolsurface" / "sessions" / "runs"
    rows = []
    for surface in BUNDLED:
        own = study_calls(surface)
        assert own is not None
        probe = probe_surface(resolve(surface), load_calls(own))
        largest = probe.answers().largest
        assert largest is not None and largest.sizes.max_tokens is not None
        logged: tuple[int, str, int] | None = None
        for log in sorted(root.glob(f"*/runs/{surface}/*/calls.jsonl")):
            for line in log.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record.get("method") == "tools/call" and (logged is None or record["response_chars"] > logged[0]):
                    logged = (record["response_chars"], record["tool"], count_tokens(record["response"]))
        session = ["-", "-", "-"] if logged is None else [f"`{logged[1]}`", f"{logged[0]:,}", f"{logged[2]:,}"]
        rows.append(
            [
                surface, str(len(probe.calls)), f"`{largest.tool}`", f"{largest.sizes.max_chars:,}",
                f"{largest.sizes.max_tokens:,}", *session,
            ]
        )  # fmt: skip
    return rows


def test_the_measure_page_shows_each_bundled_surfaces_probed_answers_beside_its_sessions() -> None:
    from tests.helpers.readme import doc_table

    shown = [list(row.values()) for row in doc_table("docs/measure.md", "| surface | probed calls |")]
    assert shown == bundled_answers_rows()


if __name__ == "__main__":
    for row in bundled_answers_rows():
        print("| " + " | ".join(row) + " |")


def test_the_table_shows_every_call_s_arguments_whole_when_piped(tmp_path: Path) -> None:
    done = run_cli("probe", "v2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # v2's calls file pages the longest item: its arguments are longer than a narrow column would hold.
    assert '{"projectId":"acme-shop","number":20,"offset":2915,"take":1181}' in done.stdout
    assert '{"kind":"task","projectId":"acme-shop","query":"Checkout redesign"}' in done.stdout
    assert "…" not in done.stdout
