"""session replay against every kind of candidate: calls that kept no values (imported without --keep-content)
checked by shape against a candidate's schema, a snapshot checked the same way, and a live server (over stdio, the
server that records every call it gets) sent only its read-only tools' calls unless --allow-writes. The recorded
runs are written here as `session import` writes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.probe_servers import called, recorded_server
from toolsurface.harness.session.importer._content import kept_arguments
from toolsurface.harness.session.replay import check_by_shape

TICKET_GET = {
    "name": "ticket_get",
    "inputSchema": {
        "type": "object",
        "properties": {"id": {"type": "string", "pattern": "^T-[0-9]+$"}, "depth": {"type": "integer"}},
        "required": ["id"],
    },
}
TICKET_SEARCH = {
    "name": "ticket_search",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 2},
            "where": {"$ref": "#/$defs/where"},
            "tags": {"type": "array", "maxItems": 2, "items": {"enum": ["a", "b"]}},
        },
        "required": ["query"],
        "$defs": {
            "where": {"type": "object", "properties": {"queue": {"type": "string"}}, "additionalProperties": False}
        },
    },
}


def shaped(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as an import without --keep-content keeps them."""
    found = kept_arguments(arguments, keep=False)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("tool", "arguments", "refusal"),
    [
        (TICKET_GET, {}, "missing required parameter 'id'; required: id"),
        (TICKET_GET, {"id": 7}, "parameter 'id' must be of type string, got an integer"),
        (TICKET_GET, {"id": "T-1", "depth": 1.5}, "parameter 'depth' must be of type integer, got a number"),
        (TICKET_GET, {"id": "T-1", "deep": True}, "unknown parameter 'deep' for ticket_get; parameters: id, depth"),
        (TICKET_SEARCH, {"query": "x"}, "parameter 'query' is not valid: a string of 1 char, under its minLength 2"),
        (TICKET_SEARCH, {"query": "vpn", "tags": ["a", "b", "a"]}, "an array of 3 items, over its maxItems 2"),
        (
            TICKET_SEARCH,
            {"query": "vpn", "where": {"team": "x"}},
            "unknown parameter 'team' for where; parameters: queue",
        ),
    ],
)
def test_what_the_shapes_decide_is_refused_as_the_stub_would_say_it(
    tool: dict[str, Any], arguments: dict[str, Any], refusal: str
) -> None:
    checked = check_by_shape(tool, shaped(arguments))
    assert checked.refusal is not None and refusal in checked.refusal


def test_what_needs_the_values_is_listed_as_not_checked_and_a_whole_number_fits_an_integer() -> None:
    checked = check_by_shape(TICKET_GET, shaped({"id": "T-1", "depth": 2.0}))
    assert checked.refusal is None and checked.unchecked == ("id: pattern",)
    searched = check_by_shape(TICKET_SEARCH, shaped({"query": "vpn", "tags": ["a"], "where": {"queue": "it"}}))
    assert searched.refusal is None and searched.unchecked == ("tags: items",)


def test_a_parameter_a_schema_that_is_not_closed_does_not_name_is_refused_only_by_a_stub() -> None:
    arguments = shaped({"id": "T-1", "deep": True})
    checked = check_by_shape(TICKET_GET, arguments, strict=False)
    assert checked.refusal is None and checked.unchecked == ("id: pattern", "deep: not named by the schema")


def test_a_value_a_mapping_sets_is_checked_in_full() -> None:
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"kind": {"enum": ["memory", "task"]}}}}
    assert check_by_shape(tool, {"kind": "memory"}).refusal is None
    refused = check_by_shape(tool, {"kind": "page"}).refusal
    assert refused is not None and "'kind' is not valid" in refused


def write_run(folder: Path, calls: list[tuple[str, dict[str, Any], str]], keep: bool) -> Path:
    """A run folder as `session import` writes one: the session's calls (tool, arguments, outcome)."""
    folder.mkdir(parents=True)
    spec = {"surface": "notes", "agent": "claude", "source": "~/.claude/projects/x/s.jsonl", "content_kept": keep}
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    lines = []
    for seq, (tool, arguments, outcome) in enumerate(calls, 1):
        record = {
            "seq": seq, "time": "", "method": "tools/call", "tool": tool, "outcome": outcome, "message": None,
            "arguments": arguments if keep else kept_arguments(arguments, keep=False),
            "response_chars": 10, "latency_ms": 0.0, "allowed": None, "response_sha256": None, "response": None,
            "protocol": None, "format": "toolsurface-call/1",
        }  # fmt: skip
        lines.append(json.dumps(record) + "\n")
    (folder / "calls.jsonl").write_text("".join(lines), encoding="utf-8")
    return folder


NOTES_CALLS = [
    ("notes_find", {"query": "printer"}, "ok"),
    ("notes_write", {"text": "a new note"}, "ok"),
    ("notes_purge", {}, "ok"),
    ("weather", {"city": "Oslo"}, "ok"),
    ("notes_find", {"query": 3}, "refused"),
    ("notes_move", {"to": "x"}, "ok"),
]


def replayed_live(run: Path, record: Path, *options: str) -> dict[str, Any]:
    """The JSON of the run replayed against the recording server (its calls written to `record`)."""
    done = run_cli("session", "replay", str(run), *options, "--format", "json", "--", *recorded_server(record))
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = done.json()
    return data


def test_calls_that_kept_no_values_are_checked_by_shape_and_no_call_reaches_the_server(tmp_path: Path) -> None:
    run = write_run(tmp_path / "imported" / "runs" / "notes" / "claude-r001", NOTES_CALLS, keep=False)
    record = tmp_path / "record.jsonl"
    data = replayed_live(run, record)
    assert data["method"] == "by shape" and data["against"] == "live server"
    calls = data["runs"][0]["calls"]
    assert [c["change"] for c in calls] == [
        "fits the schema", "fits the schema", "fits the schema", "fits the schema", "still refused", "unmappable",
    ]  # fmt: skip
    assert calls[3]["unchecked"] == ["city: enum"]
    assert "parameter 'query' must be of type string, got an integer" in calls[4]["message"]
    assert calls[5]["message"].startswith("unknown tool 'notes_move'; tools: notes_find, notes_report")
    assert called(record) == []
    table = run_cli("session", "replay", str(run), "--", *recorded_server(record)).stdout
    assert "Replayed against notes (the live server): by shape" in table
    assert "#4 weather: fits the schema (ok → fits); not checked without --keep-content: city: enum" in table
    assert "Answer sizes need the calls played: import the sessions with --keep-content." in table


def test_a_live_server_is_sent_only_its_read_only_tools_calls_unless_writes_are_allowed(tmp_path: Path) -> None:
    run = write_run(tmp_path / "kept" / "runs" / "notes" / "claude-r001", NOTES_CALLS, keep=True)
    record = tmp_path / "record.jsonl"
    data = replayed_live(run, record)
    assert data["method"] == "played" and data["skipped"] == {"notes_write": 1, "notes_purge": 1}
    assert [c["tool"] for c in called(record)] == ["notes_find", "weather", "notes_find"]
    messages = {c["tool"]: c["message"] for c in data["runs"][0]["calls"] if c["after"] == "not played"}
    assert (
        messages["notes_write"] == "notes_write is not marked read-only (readOnlyHint false); --allow-writes plays it"
    )
    assert messages["notes_purge"].startswith("notes_purge is not marked read-only (no readOnlyHint)")
    table = run_cli("session", "replay", str(run), "--", *recorded_server(tmp_path / "again.jsonl")).stdout
    assert (
        "Not played, 2 calls of tools that may write (notes_write 1, notes_purge 1): --allow-writes plays them."
        in table
    )
    assert replayed_live(run, tmp_path / "all.jsonl", "--allow-writes")["skipped"] == {}
    assert [c["tool"] for c in called(tmp_path / "all.jsonl")] == [
        "notes_find", "notes_write", "notes_purge", "weather", "notes_find",
    ]  # fmt: skip


def test_a_snapshot_has_no_server_so_its_calls_are_checked_by_shape(tmp_path: Path) -> None:
    run = write_run(tmp_path / "kept" / "runs" / "notes" / "claude-r001", NOTES_CALLS, keep=True)
    snapshot = tmp_path / "notes.json"
    taken = run_cli("snapshot", "-o", str(snapshot), "--", *recorded_server(tmp_path / "listed.jsonl"))
    assert taken.returncode == 0, taken.stderr
    done = run_cli("session", "replay", str(run), "--surface", str(snapshot), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert done.json()["against"] == "snapshot" and done.json()["method"] == "by shape"
    # Values kept: the snapshot's enum is checked in full.
    assert [c["change"] for c in done.json()["runs"][0]["calls"]][3] == "fits the schema"
    assert (
        "a snapshot has no server to call" in run_cli("session", "replay", str(run), "--surface", str(snapshot)).stdout
    )


def test_allow_writes_without_a_live_server_is_one_line(tmp_path: Path) -> None:
    run = write_run(tmp_path / "kept" / "runs" / "notes" / "claude-r001", NOTES_CALLS, keep=True)
    done = run_cli("session", "replay", str(run), "--surface", "v2", "--allow-writes")
    assert done.returncode == 2
    assert done.stderr.strip() == "toolsurface: --allow-writes goes with a live server: --url URL or -- CMD ARGS..."
