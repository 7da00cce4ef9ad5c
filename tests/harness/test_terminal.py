"""What a tool list carries never acts on the terminal: control characters are shown escaped, markup literally."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

# A window title, a screen clear and a C1 CSI: sequences rich never writes for its own styling.
HOSTILE = "\x1b]0;pwned\x07", "\x1b[2J", "\x9b"


def hostile_lists(folder: Path) -> tuple[Path, Path]:
    tools = [
        {
            "name": "evil\x1b[2J_get",
            "description": "Reads \x1b]0;pwned\x07 the thing [/x] and [bold]more[/bold].\x9b2J Then stops.",
            "inputSchema": {
                "type": "object",
                "properties": {"id\x1b[2J": {"type": "string", "description": "x\x1b]0;pwned\x07"}},
            },
        },
        {"name": "plain_get", "description": "Reads a thing.", "inputSchema": {"type": "object"}},
    ]
    evil, plain = folder / "evil.json", folder / "plain.json"
    evil.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    plain.write_text(json.dumps({"tools": tools[1:]}), encoding="utf-8")
    # A query and a task step that find the hostile tool, so its name is in the table.
    query = {"query": "reads evil thing", "expected": {}}
    (folder / "queries.json").write_text(json.dumps({"queries": [query]}), encoding="utf-8")
    (folder / "task.json").write_text(json.dumps({"name": "read", "steps": [query]}), encoding="utf-8")
    return evil, plain


def on_a_terminal(*args: str) -> tuple[int, str]:
    """The CLI with stdout and stderr on a pseudo-terminal, as a user sees it; its exit code and output."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "toolsurface", *args],
        stdout=follower,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "250", "TERM": "xterm-256color"},
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return process.wait(timeout=120), output.decode("utf-8", "replace")


@pytest.mark.parametrize(
    "command",
    [
        ["measure", "{evil}", "--per-tool"],
        ["measure", "{evil}", "--format", "markdown", "--per-tool"],
        ["lint", "{evil}"],
        ["findability", "{evil}", "--queries", "{folder}/queries.json"],
        ["findability", "{evil}", "--queries", "{folder}/queries.json", "--format", "markdown"],
        ["lint", "{evil}", "--format", "csv"],
        ["roundtrip", "{evil}", "--task", "{folder}/task.json"],
        ["diff", "{plain}", "{evil}"],
        ["budget", "{evil}", "--max-chars", "10"],
    ],
)
def test_control_characters_in_a_tool_list_reach_the_terminal_escaped_never_as_they_are(
    tmp_path: Path, command: list[str]
) -> None:
    evil, plain = hostile_lists(tmp_path)
    code, output = on_a_terminal(*(part.format(evil=evil, plain=plain, folder=tmp_path) for part in command))
    assert code in (0, 1), output
    for sequence in HOSTILE:
        assert sequence not in output, (sequence, output[-2000:])
    assert "evil\\u001b[2J_get" in output


def test_rich_markup_in_a_tool_list_is_shown_as_written(tmp_path: Path) -> None:
    path = tmp_path / "markup.json"
    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ("open[/x]", "[bold]loud[/bold]")]
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    code, output = on_a_terminal("measure", str(path), "--per-tool")
    assert code == 0, output
    assert "open[/x]" in output and "[bold]loud[/bold]" in output


def test_an_error_line_shows_the_control_characters_of_what_it_names(tmp_path: Path) -> None:
    missing = tmp_path / "snap\x1b]0;pwned\x07.json"
    code, output = on_a_terminal("measure", str(missing))
    assert code == 2 and "snap\\u001b]0;pwned\\u0007.json: no such file" in output, output
    assert not any(sequence in output for sequence in HOSTILE)


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
