"""A live server's name is decided once, when it is listed: its serverInfo.name made safe for files and table
cells by one rule (or the user's --name), recorded in its snapshot, and the same in every command and format.
The server is a designer's own (tests/fixtures/servers/acme_help_desk.py), which calls itself "acme/help desk"."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.paths import FIXTURES
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.surface import MAX_NAME_CHARS, given_server_name, resolve_all, safe_server_name

HELP_DESK = FIXTURES / "servers" / "acme_help_desk.py"
SERVER = [sys.executable, str(HELP_DESK)]


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("acme/help desk", "acme-help-desk"),
        ("mcp-servers/everything", "mcp-servers-everything"),
        ("mcp-time", "mcp-time"),
        ("  secure-filesystem-server  ", "secure-filesystem-server"),
        ("Zürich Notes", "Zurich-Notes"),
        ("mcp.time", "mcp-time"),
        ("everything.snap", "everything-snap"),
        ("日本語 notes", "notes"),
        ("_under_", "under"),
        ("a\x1b[31mred\nline", "a-31mred-line"),
        (".hidden", "hidden"),
        ("///", "server"),
        ("", "server"),
        (None, "server"),
    ],
)
def test_a_server_is_named_by_one_rule_for_files_and_cells(raw: str | None, safe: str) -> None:
    assert safe_server_name(raw) == safe


# Names a server or a file may carry, each made safe by the rule.
_AWKWARD = ["everything.snap", "acme/help desk", "Zürich Notes", "日本語", "a..b", "x" * 500, "-_-", "v2.1-beta_3", ""]


@pytest.mark.parametrize("raw", _AWKWARD)
def test_every_registered_client_takes_every_name_the_rule_makes(raw: str) -> None:
    from toolsurface.harness.agents import client_cards
    from toolsurface.harness.surface import file_server_name

    names = {safe_server_name(raw), file_server_name(Path(f"{raw}.json")), file_server_name(Path(f"{raw}.py"))}
    rules = [card.naming for card in client_cards() if card.naming is not None]
    assert rules
    for rule in rules:
        assert all(rule.accepts_server(name) for name in names), (rule.client, names)


def test_a_file_names_its_server_by_its_name_made_safe() -> None:
    from toolsurface.harness.surface import file_server_name

    assert file_server_name(Path("snaps/everything.snap.json")) == "everything-snap"
    assert file_server_name(Path("my_server.py")) == "my_server"
    assert file_server_name(Path(".json")) == "server"


def test_a_server_that_gives_no_usable_name_goes_by_its_command_then_server() -> None:
    assert safe_server_name("", "mcp-server-time") == "mcp-server-time"
    assert safe_server_name("!!", "!!") == "server"
    assert len(safe_server_name("x" * 500)) == MAX_NAME_CHARS


@pytest.mark.parametrize(
    ("given", "needle"),
    [("", "no letter or digit"), ("-.-", "no letter or digit"), ("x" * (MAX_NAME_CHARS + 1), "at most 200")],
)
def test_a_name_no_file_or_cell_can_hold_is_refused(given: str, needle: str) -> None:
    with pytest.raises(ToolsurfaceError, match=needle):
        given_server_name(given)
    assert_one_line_error(run_cli("measure", "--name", given, "--", *SERVER), "--name", needle)


def test_measure_probe_findability_and_new_queries_name_the_server_alike(tmp_path: Path) -> None:
    queries = tmp_path / "q.json"
    written = run_cli("new", "queries", "-o", str(queries), "--", *SERVER)
    assert written.returncode == 0, written.stderr
    assert "for acme-help-desk" in written.stderr
    # The next step, printed, runs as printed.
    assert f"toolsurface findability --queries {queries} -- {SERVER[0]} {SERVER[1]}" in written.stdout
    keys = {key for query in json.loads(queries.read_text(encoding="utf-8"))["queries"] for key in query["expected"]}
    measured = run_cli("measure", "--format", "json", "--", *SERVER).json()["surfaces"][0]
    probed = run_cli("probe", "--format", "json", "--", *SERVER).json()
    found = run_cli("findability", "--queries", str(queries), "--format", "json", "--", *SERVER).json()
    assert keys == {measured["name"]} == {probed["surface"]} == {s["name"] for s in found["surfaces"]}
    assert measured["name"] == "acme-help-desk"
    # The server's own name and version stay in the title.
    assert measured["title"] == "acme-help-desk (acme/help desk 0.1.0)"
    assert all(r["expected"] is not None for r in found["surfaces"][0]["queries"])


def test_name_given_names_the_server_in_every_command(tmp_path: Path) -> None:
    snap = tmp_path / "desk.json"
    assert run_cli("snapshot", "-o", str(snap), "--name", "help desk", "--", *SERVER).returncode == 0
    meta = json.loads(snap.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["name"] == "help-desk" and meta["server"]["name"] == "acme/help desk"
    assert run_cli("measure", "--format", "json", str(snap)).json()["surfaces"][0]["name"] == "help-desk"
    budget = run_cli("budget", "--max-chars", "100", "--name", "help desk", "--", *SERVER)
    assert budget.returncode == 1 and budget.stdout.splitlines()[-1].startswith("help-desk: 3 tools")
    assert_one_line_error(run_cli("measure", "v2", "--name", "x"), "--name goes with a live server")


def test_a_snapshot_file_keeps_its_servers_name_whatever_the_file_is_called(tmp_path: Path) -> None:
    first = tmp_path / "own.snap.json"
    assert run_cli("snapshot", "-o", str(first), "--", *SERVER).returncode == 0
    moved = tmp_path / "renamed.json"
    shutil.copy(first, moved)
    shutil.copy(first.with_suffix(".meta.json"), moved.with_suffix(".meta.json"))
    assert [item.name for item in resolve_all([str(moved)])] == ["acme-help-desk"]
    # Two files of one server in one command go by their files' names, and still answer to the server's.
    both = resolve_all([str(first), str(moved)])
    assert [item.name for item in both] == ["own-snap", "renamed"]
    queries = tmp_path / "q.json"
    queries.write_text(
        json.dumps({"queries": [{"query": "read a ticket", "expected": {"acme-help-desk": "ticket_get"}}]}),
        encoding="utf-8",
    )
    found = run_cli("findability", str(first), str(moved), "--queries", str(queries), "--format", "json").json()
    assert [(s["name"], s["queries"][0]["expected"]) for s in found["surfaces"]] == [
        ("own-snap", "ticket_get"),
        ("renamed", "ticket_get"),
    ]
    # A sidecar whose name breaks the rule is refused, naming the file.
    meta = json.loads(moved.with_suffix(".meta.json").read_text(encoding="utf-8"))
    moved.with_suffix(".meta.json").write_text(json.dumps({**meta, "name": "a/b"}), encoding="utf-8")
    assert_one_line_error(run_cli("measure", str(moved)), str(moved.with_suffix(".meta.json")), "'a/b'")


def test_a_live_server_has_no_growth_or_kinds_columns(tmp_path: Path) -> None:
    table = run_cli("measure", "--", *SERVER, env={"COLUMNS": "200"})
    assert table.returncode == 0, table.stderr
    header = next(line for line in table.stdout.splitlines() if "server" in line and "tools" in line)
    assert "growth" not in header and "kinds" not in header
    markdown = run_cli("measure", "--format", "markdown", "--", *SERVER).stdout
    assert "Growth by one kind" not in markdown
    # Beside a surface of ours the columns are there, a dash for the server.
    both = run_cli("measure", "v2", "--format", "markdown", "--", *SERVER).stdout
    assert "| Growth by one kind |" in both
    assert "| acme-help-desk (acme/help desk 0.1.0) | 3 | 708 | 171 | - |" in both


def test_a_configured_command_target_goes_by_the_name_the_file_gives_it(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        f"command = {json.dumps(SERVER)}\nmax-chars = 5000\n\n", encoding="utf-8"
    )
    unnamed = run_cli("budget", cwd=tmp_path)
    assert unnamed.returncode == 0, unnamed.stderr
    assert unnamed.stdout.startswith("acme-help-desk: 3 tools, 708 chars: within budget")
    (tmp_path / "toolsurface.toml").write_text(
        f'name = "desk"\ncommand = {json.dumps(SERVER)}\nmax-chars = 5000\n', encoding="utf-8"
    )
    named = run_cli("budget", cwd=tmp_path)
    assert named.returncode == 0 and named.stdout.startswith("desk: 3 tools"), named.stdout


def test_a_name_recorded_by_the_earlier_rule_is_read_made_safe_and_still_keys_a_queries_file(tmp_path: Path) -> None:
    snap = tmp_path / "notes.json"
    snap.write_text(json.dumps({"tools": [{"name": "note_get", "inputSchema": {"type": "object"}}]}), encoding="utf-8")
    snap.with_suffix(".meta.json").write_text(json.dumps({"name": "Zürich.notes"}), encoding="utf-8")
    [item] = resolve_all([str(snap)])
    assert item.name == "Zurich-notes" and "Zürich.notes" in item.aliases
    queries = tmp_path / "q.json"
    queries.write_text(
        json.dumps({"queries": [{"query": "read a note", "expected": {"Zürich.notes": "note_get"}}]}), encoding="utf-8"
    )
    found = run_cli("findability", str(snap), "--queries", str(queries), "--format", "json")
    assert found.returncode == 0, found.stderr
    assert found.json()["surfaces"][0]["queries"][0]["expected"] == "note_get"
