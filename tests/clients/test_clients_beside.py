"""`clients --with`: a surface's server beside others in each client's config, each under its own name, and
Claude Code deciding shown or deferred for itself (`claude:auto`, `auto:N`, `default`) by its model's window
(`--context-window`). The real Claude Code from npm, at both tested versions, on the scripted endpoint."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import node_server, npm_servers
from tests.helpers.npm_packages import agent_cli_dir
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents.claude import ClaudeAgent

__all__ = ["npm_servers"]  # the fixture, used here

PINNED, NEWEST = ClaudeAgent.card.tested_versions[0], ClaudeAgent.card.tested_versions[-1]
ACME = FIXTURES / "servers" / "acme_help_desk.py"


def env_with(home: Path, version: str) -> dict[str, str]:
    """Only Claude Code `version` on PATH (the system's directories give node), and a home of the test's own."""
    home.mkdir(parents=True, exist_ok=True)
    system = [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
    path = os.pathsep.join([str(agent_cli_dir("claude", version)), *system])
    # Only that version: toolsurface's cache, where the tests install the others, is the home's own.
    return {"PATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}


def rows(done: Run) -> list[dict[str, Any]]:
    assert done.returncode == 0, done.stderr
    return list(done.json()["rows"])


def snapshot(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def tool(name: str, description: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"id": {"type": "string", "description": "The record's id"}}}
    return {"name": name, "description": description, "inputSchema": schema}


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """150 tools, about 21,000 o200k tokens with Claude Code's own: over 10 % of 200,000, under 10 % of 1,000,000."""
    words = "Read one record of kind {n} by its id and return every field it holds, with its history, its owner, its"
    words += " links to other records and the notes people left on it. "
    tools = [tool(f"record_{n:03d}_get", words.format(n=n) * 3) for n in range(150)]
    return snapshot(tmp_path_factory.mktemp("wide") / "wide.json", tools)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("files")
    return snapshot(folder / "files.json", [tool("read_file", "Read a file."), tool("list_directory", "List one.")])


@pytest.mark.parametrize("version", [PINNED, NEWEST])
def test_claude_auto_defers_the_surface_by_what_it_counted_against_the_models_window(
    version: str, wide: Path, files: Path, tmp_path: Path
) -> None:
    done = run_cli(
        "clients", str(wide), "--with", str(files), "--client", "claude:auto", "--context-window", "200000,1000000",
        "--format", "json", env=env_with(tmp_path / "home", version), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    by_window = {row["context_window"]: row for row in rows(done)}
    assert set(by_window) == {200_000, 1_000_000}
    small, large = by_window[200_000], by_window[1_000_000]
    assert small["deferred"]["tools"] == 150 and small["shown"]["tools"] == 0, small
    assert small["decision"].startswith("deferred: ") and "≥ 10 % of 200,000 (20,000)" in small["decision"]
    counted = int(small["decision"].split()[1].replace(",", ""))
    assert 20_000 <= counted < 100_000
    if version == NEWEST:
        # 2.1.332 gives claude-opus-5-5 a window of 1,000,000: the same tools, under 100,000, in full.
        assert large["shown"]["tools"] == 150 and large["deferred"]["tools"] == 0, large
        assert (
            large["decision"]
            == f"shown: {counted:,} tokens counted less 500 ({counted - 500:,}) < 10 % of 1,000,000 (100,000)"
        )
    else:
        # 2.1.197 defers them still: the row says it did not decide as that window would have it.
        assert large["deferred"]["tools"] == 150, large
        assert large["decision"].endswith("did not give claude-opus-5-5 this window"), large["decision"]
    for row in (small, large):
        [beside] = row["neighbours"]
        assert beside["server"] == "files" and beside["shown"]["tools"] + beside["deferred"]["tools"] == 2
        assert {t["sent_as"] for t in beside["sent"]} == {"mcp__files__read_file", "mcp__files__list_directory"}
        assert 0 < row["window_share"] < 0.2


def test_claude_auto_with_a_share_and_default_each_say_why(wide: Path, tmp_path: Path) -> None:
    done = run_cli(
        "clients", str(wide), "--client", "claude:auto:5", "--client", "claude:default", "--context-window",
        "1000000", "--format", "json", env=env_with(tmp_path / "home", NEWEST), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    by_mode = {row["mode"]: row for row in rows(done)}
    assert "< 5 % of 1,000,000 (50,000)" in by_mode["auto:5"]["decision"]
    assert by_mode["auto:5"]["shown"]["tools"] == 150
    # Unset, 2.1.332 keeps tool search on: every MCP tool deferred.
    assert by_mode["default"]["decision"] == "deferred: as Claude Code decides with its settings unset"


def test_two_servers_sharing_a_name_and_a_configurations_server_go_beside_the_surface(
    files: Path, tmp_path: Path
) -> None:
    own = snapshot(tmp_path / "own.json", [tool("read_file", "Read one of ours."), tool("note_get", "Read a note.")])
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"desk": {"command": sys.executable, "args": [str(ACME)]}}}))
    done = run_cli(
        "clients", str(own), "--with", str(files), "--mcp-config", str(config), "--client", "claude:full-list",
        "--format", "json", env=env_with(tmp_path / "home", PINNED), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    [row] = rows(done)
    assert row["shown"]["tools"] == 2 and row["builtin"]["tools"] == 0, row
    assert {n["server"]: n["shown"]["tools"] for n in row["neighbours"]} == {"files": 2, "desk": 3}
    assert row["clashes"] == ["read_file: own's shown as mcp__own__read_file, files' shown as mcp__files__read_file"]
    table = run_cli(
        "clients", str(own), "--with", str(files), "--client", "claude:full-list", "--format", "markdown",
        env=env_with(tmp_path / "home2", PINNED), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert table.returncode == 0, table.stderr
    assert "### Beside it" in table.stdout and "| own | claude 2.1.197 | full-list | files | 2 · " in table.stdout
    assert "- claude 2.1.197 full-list: read_file: own's shown as mcp__own__read_file" in table.stdout


def test_a_server_in_the_configuration_and_given_as_the_command_is_the_surface_once_not_its_own_neighbour(
    files: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "server.py").write_text(ACME.read_text(encoding="utf-8"), encoding="utf-8")
    servers = {"desk": {"command": sys.executable, "args": ["server.py"]}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    done = run_cli(
        "clients", "--with", str(files), "--mcp-config", ".mcp.json", "--client", "claude:full-list", "--format",
        "json", "--", sys.executable, "server.py",
        env=env_with(tmp_path / "home", PINNED), cwd=project, timeout=600,
    )  # fmt: skip
    [row] = rows(done)
    assert row["surface"] == "acme-help-desk" and row["shown"]["tools"] == 3
    # Measured once: not beside itself, so no name it shares with itself.
    assert [n["server"] for n in row["neighbours"]] == ["files"] and row["clashes"] == []
    assert f"toolsurface: desk: given: the same server as -- {sys.executable} server.py: measured once" in done.stderr


def test_server_filesystem_beside_v2_carries_both_servers_tools_as_claude_sends_them(
    npm_servers: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    fs = tmp_path / "filesystem.snap.json"
    taken = run_cli("snapshot", "-o", str(fs), "--", *node_server(npm_servers, "server-filesystem"), str(folder))
    assert taken.returncode == 0, taken.stderr
    listed = json.loads(fs.read_text(encoding="utf-8"))["tools"]
    done = run_cli(
        "clients", "v2", "--with", str(fs), "--client", "claude", "--format", "json",
        env=env_with(tmp_path / "home", NEWEST), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    found = {row["mode"]: row for row in rows(done)}
    assert set(found) == {"on-demand", "full-list"}
    for mode, row in found.items():
        [beside] = row["neighbours"]
        carried = beside["shown"]["tools"] + beside["deferred"]["tools"]
        assert carried == len(listed), (mode, beside)
        assert {t["tool"] for t in beside["sent"]} == {t["name"] for t in listed}
        assert all(t["sent_as"] == f"mcp__{beside['server']}__{t['tool']}" for t in beside["sent"])
        assert row["shown"]["tools"] + row["deferred"]["tools"] == 8
    assert found["full-list"]["neighbours"][0]["shown"]["tools"] == len(listed)
    assert found["on-demand"]["neighbours"][0]["deferred"]["tools"] == len(listed)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--context-window", "0"], ["--context-window '0'", "above 0"]),
        (["--context-window", "lots"], ["--context-window 'lots'"]),
        (["--client", "claude:auto", "--context-window", "500000"], ["500000", "200,000 (claude-sonnet-4-5)"]),
        (["--client", "claude:auto:0"], ["no mode 'auto:0'", "auto[:N]"]),
        (["--client", "claude:auto:101"], ["no mode 'auto:101'"]),
    ],
)
def test_a_window_or_a_deciding_mode_claude_does_not_take_is_one_line(
    args: list[str], words: list[str], files: Path, tmp_path: Path
) -> None:
    done = run_cli("clients", str(files), *args, env=env_with(tmp_path / "home", PINNED), cwd=tmp_path)
    assert_one_line_error(done, *words)


def test_a_neighbour_named_as_the_surfaces_server_is_refused(files: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    twin.mkdir()
    again = snapshot(twin / "files.json", [tool("other", "Another.")])
    done = run_cli(
        "clients", str(files), "--with", str(again), "--client", "claude:full-list",
        env=env_with(tmp_path / "home", PINNED), cwd=tmp_path,
    )  # fmt: skip
    assert_one_line_error(done, "a neighbour is named 'files'", "--server-name")


def test_session_run_with_a_neighbour_passes_six_tasks_and_records_what_each_request_carried_of_it(
    files: Path, tmp_path: Path
) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--surface", "v2", "--agent", "claude:full-list", "--runs", "1", "--model-endpoint",
        "scripted", "--with", str(files), "--out", str(out),
        env=env_with(tmp_path / "home", NEWEST), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [run] = (out / "runs" / "v2").iterdir()
    assert json.loads((run / "spec.json").read_text(encoding="utf-8"))["neighbours"] == ["files"]
    result = json.loads((run / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok" and all(check["passed"] for check in result["checks"]), result["checks"]
    turns = [json.loads(line) for line in (run / "model-requests.jsonl").read_text(encoding="utf-8").splitlines()]
    turns = [t for t in turns if t["purpose"] == "turn"]
    assert turns and all(len(t["neighbours"][0]["shown"]["tools"]) == 2 for t in turns)
    # The neighbour's tools are its own part, neither the surface's nor the client's own.
    assert all(t["builtin_shown"]["tools"] == [] and len(t["stub_shown"]["tools"]) == 8 for t in turns)


def test_session_run_refuses_a_neighbour_for_an_agent_on_toolsurfaces_own_client(files: Path, tmp_path: Path) -> None:
    done = run_cli(
        "session", "run", "--surface", "v2", "--agent", "script", "--runs", "1", "--with", str(files), "--out",
        str(tmp_path / "study"), cwd=tmp_path,
    )  # fmt: skip
    assert_one_line_error(done, "--with: script reach the surface through toolsurface's own MCP client")


def test_compat_thresholds_finds_where_each_claude_code_defers_by_window(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = env_with(home, NEWEST)
    env["PATH"] = os.pathsep.join([str(agent_cli_dir("claude", PINNED)), env["PATH"]])
    done = run_cli(
        "compat", "--thresholds", "--client", "claude", "--format", "json", env=env, cwd=tmp_path, timeout=900
    )
    assert done.returncode == 0, done.stderr
    data = done.json()
    assert data["format"] == "toolsurface-compat-thresholds/1"
    found = {(t["version"], t["window"]): (t["largest_shown"], t["smallest_deferred"]) for t in data["thresholds"]}
    # Both defer once the count, less 500, reaches 10 % of the window; 2.1.197 gives claude-opus-5-5 no 1,000,000.
    assert found[(PINNED, 200_000)] == found[(NEWEST, 200_000)] == (20_499, 20_500)
    assert found[(NEWEST, 1_000_000)] == (100_499, 100_500)
    assert found[(PINNED, 1_000_000)] == (None, 50_250)
    refused = run_cli("compat", "--thresholds", "--client", "codex", env=env, cwd=tmp_path)
    assert_one_line_error(refused, "--thresholds: none of codex decides shown or deferred")


def test_one_by_one_shows_where_the_neighbours_turn_the_surface_deferred(
    wide: Path, files: Path, tmp_path: Path
) -> None:
    args = ["clients", "v2", "--with", str(files), "--with", str(wide), "--one-by-one", "--client", "claude:auto"]
    args += ["--context-window", "200000,1000000"]
    env = env_with(tmp_path / "home", NEWEST)
    found = rows(run_cli(*args, "--format", "json", env=env, cwd=tmp_path, timeout=600))
    carried = {
        (r["context_window"], tuple(n["server"] for n in r["neighbours"])): r["decision"].partition(":")[0]
        for r in found
    }
    assert carried == {
        (200_000, ()): "shown",
        (200_000, ("files",)): "shown",
        (200_000, ("files", "wide")): "deferred",
        (1_000_000, ()): "shown",
        (1_000_000, ("files",)): "shown",
        (1_000_000, ("files", "wide")): "shown",
    }
    table = run_cli(*args, "--format", "markdown", env=env, cwd=tmp_path, timeout=600)
    assert f"- claude {NEWEST} auto: shown beside files at 200,000, deferred beside files, wide at 200,000" in (
        table.stdout
    )
    assert_one_line_error(
        run_cli("clients", "v2", "--one-by-one", env=env, cwd=tmp_path), "--one-by-one goes with --with"
    )
