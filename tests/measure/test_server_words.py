"""A server's list is called a server in measure's tables and titles, a surface of ours or the user's a surface,
both together either; growth says it is one more kind. The JSON's keys stay as they were."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli


def snapshot(tmp_path: Path) -> str:
    path = tmp_path / "desk.json"
    tools = [{"name": "ticket_get", "description": "Read a ticket.", "inputSchema": {"type": "object"}}]
    path.write_text(json.dumps({"tools": tools, "instructions": "Tickets."}), encoding="utf-8")
    return str(path)


def test_a_snapshots_tables_say_server_and_a_bundled_surfaces_say_surface(tmp_path: Path) -> None:
    desk = snapshot(tmp_path)
    markdown = run_cli("measure", desk, "--format", "markdown").stdout
    assert "List size per server" in markdown and "| Server | Tools |" in markdown
    assert "Everything each server advertises, per session" in markdown and "surface" not in markdown.lower()
    table = run_cli("measure", desk, env={"COLUMNS": "200"}).stdout
    assert "┃ server ┃" in table and "Everything each server advertises, per session" in table
    assert "surface" not in table
    bundled = run_cli("measure", "v2", env={"COLUMNS": "200"}).stdout
    assert "┃ surface ┃" in bundled and "The whole surface per session" in bundled
    assert "+1 kind (commit): +0 tools" in bundled
    both = run_cli("measure", "v2", desk, "--no-growth", "--format", "markdown").stdout
    assert "| Surface or server | Tools |" in both
    data = run_cli("measure", desk, "--format", "json").json()
    assert "server" not in data["surfaces"][0] and data["surfaces"][0]["name"] == "desk"


def test_findability_says_a_tool_missing_from_the_list_is_not_in_it(tmp_path: Path) -> None:
    queries = tmp_path / "q.json"
    queries.write_text(json.dumps({"queries": [{"query": "read", "expected": {"desk": "ticket_read"}}]}), "utf-8")
    done = run_cli("findability", snapshot(tmp_path), "--queries", str(queries), env={"COLUMNS": "200"})
    assert "ticket_read (not in the list)" in done.stdout, done.stdout + done.stderr
