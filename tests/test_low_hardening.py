"""The smaller cases of the second hardening pass: a server's own -32000 error, a snapshot file name that would
break the module written from it, seconds that are not finite, a line break in a tool's name or a target's
key, a report of a snapshot, and a model endpoint's surface given as a path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_cli_process
from tests.test_bad_input import assert_one_line_error

PY = sys.executable

# Answers initialize with the JSON-RPC server error -32000, as a server that is not ready might.
BUSY_SERVER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" in message:
        error = {"code": -32000, "message": "the index is still loading"}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
"""


def test_a_servers_own_32000_error_is_reported_as_its_answer_not_a_closed_connection() -> None:
    run = run_cli("snapshot", "--timeout", "20", "--", PY, "-c", BUSY_SERVER, timeout=60)
    assert_one_line_error(run, "answered initialize with error -32000: the index is still loading")
    assert "closed the connection" not in run.stderr


def test_a_snapshot_whose_name_holds_triple_quotes_gives_a_module_that_imports(tmp_path: Path) -> None:
    snapshot = tmp_path / 'x""".json'
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    made = run_cli("new", "surface", "demo", "--from", str(snapshot), "--out", str(tmp_path / "demo"))
    assert made.returncode == 0, made.stderr
    measured = run_cli("measure", str(tmp_path / "demo" / "demo.py"), "--no-growth", "--format", "json")
    assert measured.returncode == 0, measured.stderr
    assert measured.json()["surfaces"][0]["tools"] == 8


@pytest.mark.parametrize("value", ["nan", "inf"])
@pytest.mark.parametrize(
    "command",
    [
        ["session", "run", "--agent", "script", "--surface", "v2", "--out", "{out}", "--timeout"],
        ["budget", "v2", "--max-chars", "10", "--timeout"],
        ["clients", "v2", "--timeout"],
    ],
    ids=["session-run", "budget", "clients"],
)
def test_seconds_that_are_not_finite_are_refused(tmp_path: Path, command: list[str], value: str) -> None:
    args = [a.format(out=tmp_path / "study") for a in command]
    assert_one_line_error(run_cli(*args, value), f"'{value}' is not a finite number of seconds")


@pytest.fixture
def newline_snapshot(tmp_path: Path) -> Path:
    snapshot = tmp_path / "nl.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    data["tools"][0]["name"] = "bad\nname"
    snapshot.write_text(json.dumps(data), encoding="utf-8")
    return snapshot


@pytest.mark.parametrize("fmt", ["markdown", "table"])
def test_a_line_break_in_a_tool_name_keeps_its_table_row_on_one_line(newline_snapshot: Path, fmt: str) -> None:
    run = run_cli("measure", str(newline_snapshot), "--per-tool", "--no-growth", "--format", fmt)
    assert run.returncode == 0, run.stderr
    [row] = [line for line in run.stdout.splitlines() if "bad" in line]
    assert "bad\\nname" in row and "577" in row


def test_a_line_break_in_a_target_key_keeps_its_error_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolsurface.targets."a\\nb"]\nsurface = "v2"\nmax-chars = -1\n', encoding="utf-8"
    )
    assert_one_line_error(run_cli("config", cwd=tmp_path), 'targets."a\\nb".max-chars')


def test_a_report_of_a_snapshot_prints_no_warning(tmp_path: Path) -> None:
    snapshot = tmp_path / "tools.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    # A process of its own: what matplotlib warns is what a user's terminal shows.
    run = run_cli_process("report", "--surface", str(snapshot), "--out", str(tmp_path / "report"), timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and "wrote " in run.stdout


def test_a_model_endpoint_surface_given_as_a_path_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "x.json"
    elsewhere.write_text('{"format": "toolsurface-script/1", "steps": [{"say": "any JSON file"}]}', encoding="utf-8")
    relative = Path("..") / ".." / elsewhere.relative_to(elsewhere.anchor).with_suffix("")
    assert_one_line_error(
        run_cli("model-endpoint", "scripted", "--surface", str(relative), timeout=30), "is not a surface's name"
    )
