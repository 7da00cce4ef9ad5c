"""The smaller cases of the third hardening pass: an integer of 5,001 digits in a snapshot, a live server's answer
holding a lone surrogate or nested 400 levels deep (said at once, as what it is), two prompts of one name or two
resources of one uri in a snapshot, and a server that answers the handshake in another version than the one
asked for (snapshot and budget agree)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.errors import assert_one_line_error

ODD = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "odd_answers.py")]
TOOL = {"name": "noop", "description": "Do nothing.", "inputSchema": {"type": "object"}}


def test_an_integer_of_5001_digits_in_a_snapshot_is_one_line_in_diff(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 0}}}
    text = json.dumps({"tools": [{**TOOL, "inputSchema": schema}]}).replace('"maximum": 0', '"maximum": ' + "9" * 5001)
    (tmp_path / "big.json").write_text(text, encoding="utf-8")
    (tmp_path / "small.json").write_text(json.dumps({"tools": [TOOL]}), encoding="utf-8")
    run = run_cli("diff", str(tmp_path / "big.json"), str(tmp_path / "small.json"))
    assert_one_line_error(run, "big.json: not JSON", "an integer of more than 4,300 digits")


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("surrogate", "its answer to tools/list holds a lone surrogate (\\udc00) at result.tools.0.description"),
        ("deep", "its answer to prompts/list nests 407 levels deep, more than 100"),
    ],
)
def test_a_live_answer_the_client_cannot_take_is_said_at_once_as_what_it_is(mode: str, said: str) -> None:
    run = run_cli("snapshot", "--timeout", "120", "--", *ODD, mode, timeout=180)
    assert_one_line_error(run, said)
    assert "not JSON-RPC" not in run.stderr and "within 120 s" not in run.stderr


@pytest.mark.parametrize(
    ("part", "entry", "said"),
    [
        ("prompts", {"name": "review"}, "prompts[0] and prompts[1] are two prompts with the name 'review'"),
        ("resources", {"uri": "file:///a", "name": "a"}, "two resources with the uri 'file:///a'"),
        ("resourceTemplates", {"uriTemplate": "file:///{x}", "name": "t"}, "two resource templates"),
    ],
)
def test_two_entries_of_one_name_in_a_snapshot_are_refused_as_two_tools_of_one_name_are(
    tmp_path: Path, part: str, entry: dict[str, str], said: str
) -> None:
    path = tmp_path / "twice.json"
    path.write_text(json.dumps({"tools": [TOOL], part: [entry, dict(entry)]}), encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(path)), said)


def test_a_server_answering_another_handshake_version_than_asked_is_refused_alike_by_snapshot_and_budget(
    tmp_path: Path,
) -> None:
    asked = ["--protocol", "2025-11-25", "--timeout", "60"]
    said = "answered initialize with protocol version 2024-11-05, not 2025-11-25 as asked"
    snapshot = run_cli("snapshot", *asked, "-o", str(tmp_path / "s.json"), "--", *ODD, "old", timeout=120)
    assert_one_line_error(snapshot, said)
    assert not (tmp_path / "s.json").exists()
    assert_one_line_error(run_cli("budget", "--max-chars", "9999", *asked, "--", *ODD, "old", timeout=120), said)
    # Not asked, the version it speaks is taken, and recorded.
    assert run_cli("snapshot", "-o", str(tmp_path / "s.json"), "--", *ODD, "old", timeout=120).returncode == 0
    meta = json.loads((tmp_path / "s.meta.json").read_text(encoding="utf-8"))
    assert meta["protocol_version"] == "2024-11-05"
    assert run_cli("budget", "--max-chars", "9999", "--", *ODD, "old", timeout=120).returncode == 0


def test_a_live_server_line_without_end_is_cut_at_its_bound() -> None:
    endless = "import sys, time; sys.stdout.write('x' * 100_000_000); sys.stdout.flush(); time.sleep(100)"
    run = run_cli("snapshot", "--timeout", "120", "--", sys.executable, "-c", endless, timeout=180)
    assert_one_line_error(run, "its stdout sent a line of more than 64 MB")


@pytest.mark.parametrize("mode", ["dup", "gitlab"])
def test_a_live_list_with_a_tool_a_client_would_not_take_is_measured_as_published(mode: str, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    assert run_cli("snapshot", "-o", str(out), "--", *ODD, mode, timeout=120).returncode == 0
    listed = json.loads(out.read_text(encoding="utf-8"))["tools"]
    assert len(listed) == (2 if mode == "dup" else 1)
    budget = run_cli("budget", "--max-chars", "9999", "--", *ODD, mode, timeout=120)
    assert budget.returncode == 0 and "within budget" in budget.stdout, budget.stderr
    probe = run_cli("probe", "--", *ODD, mode, timeout=120)
    assert probe.returncode == 0, probe.stderr


def test_a_calls_file_naming_a_tool_the_live_server_lacks_names_the_server_command_once(tmp_path: Path) -> None:
    calls = tmp_path / "calls.json"
    calls.write_text(json.dumps({"calls": [{"tool": "nothing"}]}), encoding="utf-8")
    run = run_cli("probe", "--calls", str(calls), "--", *ODD, "plain", timeout=120)
    assert_one_line_error(run, f"{calls}: calls[0]: the server lists no tool 'nothing'; tools: noop")
    assert run.stderr.count(sys.executable) == 1, run.stderr


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"status": "ok", "items": [1, 2, 3]}', "answered initialize with JSON that is not a JSON-RPC message"),
        (b"<html>not found</html>", "answered initialize with a body that is not JSON (expected value at line 1"),
    ],
)
def test_a_url_answering_json_that_is_not_json_rpc_is_one_short_line(body: bytes, said: str) -> None:
    from tests.helpers.answering_http import answering, reply

    with answering(lambda r, c: c.sendall(reply(200, body, {"Content-Type": "application/json"}))) as server:
        run = run_cli("snapshot", "--url", server.url + "/mcp", timeout=60)
    assert_one_line_error(run, f"{server.url}/mcp: {said}", "is the URL an MCP server's endpoint?")
    assert len(run.stderr) < 300 and "pydantic" not in run.stderr


def test_check_stable_says_a_change_of_key_order_is_one_and_where(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    run = run_cli("snapshot", "--check-stable", "-o", str(out), "--", *ODD, "reorder", timeout=120)
    assert run.returncode == 1, run.stderr
    assert (
        "odd: not stable: listed again on the same connection, noop's keys come in another order at"
        " inputSchema.properties (q, n -> n, q), the same values"
    ) in run.stderr.splitlines()
    stability = json.loads(out.with_suffix(".meta.json").read_text(encoding="utf-8"))["stability"]
    assert [(f["kind"], f["tool"]) for f in stability["findings"]] == [("key-order", "noop")]


def test_a_changed_tool_is_said_where_it_first_differs() -> None:
    from toolsurface.harness.live import compare_lists

    before = [{"name": "t0", "description": "Find a note.", "inputSchema": {"type": "object"}}]
    after = [{"name": "t0", "description": "Find a memo.", "inputSchema": {"type": "object"}}]
    [found] = compare_lists(before, after, "listed again")
    assert (found.kind, found.text) == ("changed", "t0's text changed at description (74 -> 74 chars)")
