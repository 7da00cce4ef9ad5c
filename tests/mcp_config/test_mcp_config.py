"""A client's MCP configuration as a set of servers: each client's file format read as that client reads it, the
servers listed at once and measured one by one and together, the names that clash among them, and budgets for
all of them and each one. The servers are real: a designer's own (tests/fixtures/servers/acme_help_desk.py) and
PyPI's mcp-server-time; nothing is ever written to a configuration file."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import node_server, npm_servers
from tests.helpers.paths import FIXTURES as ALL_FIXTURES
from toolsurface.harness.mcp_config import McpConfigError, read_mcp_config

__all__ = ["npm_servers"]  # the fixture, used here

PY = sys.executable
FIXTURES = ALL_FIXTURES / "servers"
DESK = str(FIXTURES / "acme_help_desk.py")
TIME = ["-m", "mcp_server_time"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def configs(tmp_path: Path) -> dict[str, Path]:
    """Claude Code's, VS Code's and codex's files, each naming the help desk and the time server."""
    claude = write(
        tmp_path / "claude" / ".mcp.json",
        json.dumps(
            {"mcpServers": {"help desk": {"command": PY, "args": [DESK]}, "time": {"command": PY, "args": TIME}}}
        ),
    )
    vscode = write(
        tmp_path / "vs" / ".vscode" / "mcp.json",
        "// VS Code's own comments and trailing commas\n"
        + json.dumps(
            {
                "servers": {
                    "desk": {"type": "stdio", "command": PY, "args": [DESK]},
                    "time": {"command": PY, "args": TIME},
                }
            }
        )[:-2]
        + "},}\n",
    )
    codex = write(
        tmp_path / "codex" / "config.toml",
        f'[mcp_servers.desk]\ncommand = "{PY}"\nargs = ["{DESK}"]\n\n[mcp_servers.time]\ncommand = "{PY}"\n'
        f"args = {json.dumps(TIME)}\n",
    )
    return {"claude": claude, "vscode": vscode, "codex": codex}


@pytest.mark.parametrize(
    ("which", "names"), [("claude", ["help-desk", "time"]), ("vscode", ["desk", "time"]), ("codex", ["desk", "time"])]
)
def test_measure_names_each_server_of_a_configuration_by_its_key_and_gives_the_total(
    configs: dict[str, Path], which: str, names: list[str]
) -> None:
    before = digest(configs[which])
    done = run_cli("measure", "--mcp-config", str(configs[which]), "--context-window", "200000", "--format", "json")
    assert done.returncode == 0, done.stderr
    found = done.json()
    assert [s["name"] for s in found["surfaces"]] == names
    rows = found["mcp_config"]["rows"]
    assert [r["name"] for r in rows] == names and all(r["status"] == "listed" for r in rows)
    total = found["mcp_config"]["total"]
    assert total["servers"] == 2 and total["tools"] == 5
    assert total["chars"] == sum(s["chars"] for s in found["surfaces"])
    assert total["tokens"] == sum(s["tokens"] for s in found["surfaces"])
    assert total["share"] == {"200000": total["tokens"] / 200000}
    assert digest(configs[which]) == before


def test_the_servers_are_listed_at_once(tmp_path: Path) -> None:
    servers = {f"slow{n}": {"command": PY, "args": [str(FIXTURES / "acme_help_desk.py")]} for n in range(4)}
    config = write(tmp_path / ".mcp.json", json.dumps({"mcpServers": servers}))
    done = run_cli("measure", "--mcp-config", str(config), "--jobs", "4", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert [s["name"] for s in done.json()["surfaces"]] == list(servers)


def test_a_server_that_cannot_start_is_a_row_saying_why_and_the_others_are_measured(tmp_path: Path) -> None:
    config = write(
        tmp_path / ".mcp.json",
        json.dumps(
            {
                "mcpServers": {
                    "time": {"command": PY, "args": TIME},
                    "gone": {"command": "no-such-program-of-ours"},
                    "empty": {"args": ["x"]},
                    "hangs": {"command": PY, "args": ["-c", "import time; time.sleep(60)"]},
                }
            }
        ),
    )
    # Long enough for mcp_server_time to start on a loaded machine; the hanging one is cut at it.
    done = run_cli(
        "measure", "--mcp-config", str(config), "--timeout", "15", "--format", "json", "--keep-going", timeout=300
    )
    assert done.returncode == 0, done.stderr
    rows = {r["name"]: r for r in done.json()["mcp_config"]["rows"]}
    assert rows["time"]["status"] == "listed"
    assert rows["gone"]["status"] == "failed" and "no such command" in rows["gone"]["why"]
    assert rows["empty"]["why"] == "names no command and no url"
    assert rows["hangs"]["status"] == "failed" and "15 s" in rows["hangs"]["why"]
    assert "toolsurface: gone: failed: cannot start 'no-such-program-of-ours'" in done.stderr
    total = done.json()["mcp_config"]["total"]
    assert total["complete"] is False and total["not_listed"] == ["gone", "empty", "hangs"]


def test_a_servers_environment_is_minimal_unless_the_user_gives_theirs(tmp_path: Path) -> None:
    probe = write(
        tmp_path / "env_server.py",
        (FIXTURES / "acme_help_desk.py")
        .read_text(encoding="utf-8")
        .replace(
            'name = sys.argv[sys.argv.index("--name") + 1] if "--name" in sys.argv else "acme/help desk"',
            'import os\n    name = "has-secret" if os.environ.get("MY_SECRET_KEY") else "no-secret"\n'
            '    name += "-" + os.environ.get("TOKEN", "none")',
        ),
    )
    config = write(
        tmp_path / ".mcp.json",
        json.dumps(
            {"mcpServers": {"s": {"command": PY, "args": [str(probe)], "env": {"TOKEN": "${MY_TOKEN:-plain}"}}}}
        ),
    )
    env = {"MY_SECRET_KEY": "s3cret", "MY_TOKEN": "from-shell"}
    quiet = run_cli("measure", "--mcp-config", str(config), "--format", "json", env=env)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.json()["surfaces"][0]["title"] == "s (no-secret-plain 0.1.0)"
    shell = run_cli("measure", "--mcp-config", str(config), "--env-from-shell", "--format", "json", env=env)
    assert shell.json()["surfaces"][0]["title"] == "s (has-secret-from-shell 0.1.0)"


def test_each_clients_format_is_read_as_that_client_reads_it(tmp_path: Path) -> None:
    home = tmp_path / "project"
    home.mkdir()
    cases = {
        "claude_desktop_config.json": (
            {"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server-filesystem", "/tmp"]}}},
            "claude-desktop",
            [("fs", "stdio", ("npx", "-y", "server-filesystem", "/tmp"), None)],
        ),
        ".cursor/mcp.json": (
            {"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp", "headers": {"X-Key": "${env:KEY}"}}}},
            "cursor",
            [("remote", "http", None, "https://mcp.example.com/mcp")],
        ),
        ".gemini/settings.json": (
            {"mcpServers": {"a": {"httpUrl": "http://127.0.0.1:1/mcp"}, "b": {"url": "http://127.0.0.1:2/sse"}}},
            "gemini",
            [("a", "http", None, "http://127.0.0.1:1/mcp"), ("b", "sse", None, "http://127.0.0.1:2/sse")],
        ),
        "opencode.json": (
            {
                "mcp": {
                    "local": {"type": "local", "command": ["node", "server.js"], "environment": {"K": "{env:K}"}},
                    "off": {"type": "remote", "url": "https://x.example/mcp", "enabled": False},
                }
            },
            "opencode",
            [("local", "stdio", ("node", "server.js"), None), ("off", "http", None, "https://x.example/mcp")],
        ),
        "mcp-config.json": (
            {"mcpServers": {"gh": {"type": "http", "url": "https://api.example.com/mcp/"}}},
            "copilot",
            [("gh", "http", None, "https://api.example.com/mcp/")],
        ),
    }
    for name, (data, fmt, expected) in cases.items():
        path = write(home / name, json.dumps(data))
        config = read_mcp_config(path, cwd=home)
        assert config.format == fmt, name
        assert [(s.key, s.transport, s.command, s.url) for s in config.servers] == expected, name
    opencode = read_mcp_config(home / "opencode.json", cwd=home)
    assert opencode.servers[1].disabled and opencode.servers[0].notes == (
        "the variable {env:K} was left as written; --env-from-shell expands it",
    )
    shell = read_mcp_config(home / "opencode.json", cwd=home, env_from_shell=True, environ={"K": "v"})
    assert shell.servers[0].env == {"K": "v"} and shell.servers[0].notes == ()


def test_claude_codes_user_file_gives_the_users_servers_and_those_of_this_project(tmp_path: Path) -> None:
    project = tmp_path / "work" / "repo"
    (project / "src").mkdir(parents=True)
    path = write(
        tmp_path / ".claude.json",
        json.dumps(
            {
                "mcpServers": {"everywhere": {"command": "a"}},
                "projects": {
                    str(project): {"mcpServers": {"here": {"command": "b"}}},
                    "/elsewhere": {"mcpServers": {"no": {"command": "c"}}},
                },
            }
        ),
    )
    config = read_mcp_config(path, cwd=project / "src")
    assert config.format == "claude-user" and [s.key for s in config.servers] == ["everywhere", "here"]


def test_vscode_inputs_and_variables_are_left_as_placeholders_that_are_said(tmp_path: Path) -> None:
    path = write(
        tmp_path / ".vscode" / "mcp.json",
        json.dumps(
            {
                "inputs": [{"type": "promptString", "id": "api-key", "password": True}],
                "servers": {
                    "s": {
                        "command": "node",
                        "args": ["${workspaceFolder}/x.js"],
                        "env": {"K": "${input:api-key}", "H": "${env:HOME_DIR}"},
                    }
                },
            }
        ),
    )
    [server] = read_mcp_config(path, cwd=tmp_path).servers
    assert server.command == ("node", f"{tmp_path}/x.js") and server.cwd == tmp_path
    assert server.env == {"K": "${input:api-key}", "H": "${env:HOME_DIR}"}
    assert server.notes == (
        "uses VS Code input api-key: left as its placeholder (VS Code prompts for it)",
        "the variable ${env:HOME_DIR} was left as written; --env-from-shell expands it",
    )


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        (".mcp.json", "{not json", "not JSON"),
        ("config.toml", "[mcp_servers\n", "not valid TOML"),
        (".mcp.json", json.dumps({"mcpServers": {}}), "names no MCP server"),
        ("other.json", json.dumps({"something": 1}), "not a client's MCP configuration"),
        (
            ".mcp.json",
            json.dumps({"mcpServers": {"a b": {"command": "x"}, "a-b": {"command": "y"}}}),
            "'a b' and 'a-b'",
        ),
    ],
)
def test_a_configuration_that_cannot_be_read_is_one_line(tmp_path: Path, name: str, text: str, needle: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(McpConfigError, match=needle.replace("(", r"\(")):
        read_mcp_config(path)
    assert_one_line_error(run_cli("measure", "--mcp-config", str(path)), str(path), needle)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("window", ["0", "-5", "lots", "100,0"])
def test_a_context_window_that_is_not_a_number_of_tokens_is_refused(configs: dict[str, Path], window: str) -> None:
    assert_one_line_error(
        run_cli("measure", "--mcp-config", str(configs["claude"]), "--context-window", window), "--context-window"
    )


def test_the_options_of_a_configuration_go_with_one(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("measure", "v2", "--env-from-shell"), "--env-from-shell goes with --mcp-config FILE")
    assert_one_line_error(run_cli("budget", "v2", "--max-server-tokens", "3"), "go with --mcp-config FILE")


def test_a_configuration_none_of_whose_servers_lists_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp.json", json.dumps({"mcpServers": {"gone": {"command": "no-such-program-of-ours"}}}))
    assert_one_line_error(
        run_cli("measure", "--mcp-config", str(path)), "no server could be listed", "gone: cannot start"
    )


# -- clashes ---------------------------------------------------------------------------------------------------


def test_lint_reports_a_tool_two_servers_share_and_where_it_bites(tmp_path: Path) -> None:
    config = write(
        tmp_path / ".mcp.json",
        json.dumps({"mcpServers": {"time-a": {"command": PY, "args": TIME}, "time-b": {"command": PY, "args": TIME}}}),
    )
    done = run_cli("lint", "--mcp-config", str(config), "--format", "json")
    assert done.returncode == 0, done.stderr
    surfaces = {s["name"]: s for s in done.json()["surfaces"]}
    together = surfaces[".mcp.json (all servers)"]
    shared = [f for f in together["findings"] if f["category"] == "shared-name"]
    assert {tuple(f["tools"]) for f in shared} == {
        ("time-a/get_current_time", "time-b/get_current_time"),
        ("time-a/convert_time", "time-b/convert_time"),
    }
    assert all(f["rule"] == "TS401" and "Claude Code" in f["message"] and "gemini-cli" in f["message"] for f in shared)
    assert run_cli("lint", "--mcp-config", str(config), "--fail-on", "shared-name").returncode == 1


def test_names_a_clients_prefix_joins_alike_are_an_error_naming_the_clients() -> None:
    from toolsurface.harness.analyze.lint import lint_together
    from toolsurface.harness.surface import Snapshot

    def server(name: str, *tools: str) -> Snapshot:
        return Snapshot(name, Path(f"{name}.json"), [{"name": t, "inputSchema": {"type": "object"}} for t in tools])

    together = lint_together([server("a", "b_c"), server("a_b", "c"), server("x", "y")], "all")
    [joined] = [f for f in together.findings if f.category == "joined-name"]
    assert joined.tools == ["a/b_c", "a_b/c"]
    # gemini-cli joins with one underscore, opencode too; Claude Code's double underscores keep them apart.
    assert "mcp_a_b_c in gemini-cli" in joined.message and "a_b_c in opencode" in joined.message
    assert "Claude Code" not in joined.message


def test_a_tool_named_like_a_clients_own_is_a_finding_naming_the_client_and_the_versions_seen() -> None:
    from toolsurface.harness.analyze.lint import lint_together
    from toolsurface.harness.surface import Snapshot

    def server(name: str, *tools: str) -> Snapshot:
        return Snapshot(name, Path(f"{name}.json"), [{"name": t, "inputSchema": {"type": "object"}} for t in tools])

    together = lint_together([server("files", "read_file", "stat"), server("shell", "Bash")], "all")
    found = {tuple(f.tools): f for f in together.findings if f.category == "builtin-name"}
    assert set(found) == {("files/read_file",), ("shell/Bash",)}
    assert found[("files/read_file",)].rule_id == "TS403"
    assert "gemini-cli 0.61.0" in found[("files/read_file",)].message
    assert found[("files/read_file",)].message.startswith("files' read_file is named like the own tool of")
    assert "Claude Code 2.1.197 and 2.1.332" in found[("shell/Bash",)].message


# -- budgets ---------------------------------------------------------------------------------------------------


def test_budget_of_a_configuration_exits_1_naming_the_servers_over(configs: dict[str, Path]) -> None:
    over = run_cli("budget", "--mcp-config", str(configs["claude"]), "--max-chars", "500")
    assert over.returncode == 1, over.stderr
    assert over.stdout.splitlines()[0] == "largest servers: time 2,273 chars, help-desk 708 chars"
    assert "over budget (500 chars): 2,481 chars over 500" in over.stdout
    each = run_cli("budget", "--mcp-config", str(configs["claude"]), "--max-server-tokens", "400", "--format", "json")
    assert each.returncode == 1
    assert each.json()["servers_over"] == [{"server": "time", "over": ["552 tokens over 400"]}]
    within = run_cli(
        "budget", "--mcp-config", str(configs["claude"]), "--max-tokens", "5000", "--max-server-chars", "3000"
    )
    assert within.returncode == 0 and "within budget" in within.stdout


def test_a_configured_mcp_config_is_held_to_its_budgets_by_budget(tmp_path: Path) -> None:
    write(
        tmp_path / ".mcp.json",
        json.dumps({"mcpServers": {"desk": {"command": PY, "args": [DESK]}, "time": {"command": PY, "args": TIME}}}),
    )
    write(tmp_path / "toolsurface.toml", 'mcp-config = ".mcp.json"\nmax-tokens = 5000\nmax-server-tokens = 400\n')
    over = run_cli("budget", cwd=tmp_path)
    assert over.returncode == 1 and over.stdout.splitlines()[0] == "time: 552 tokens over 400"
    write(tmp_path / "toolsurface.toml", 'mcp-config = ".mcp.json"\nmax-tokens = 5000\n')
    assert run_cli("budget", cwd=tmp_path).returncode == 0
    write(tmp_path / "toolsurface.toml", 'mcp-config = "missing.json"\nmax-tokens = 5000\n')
    assert_one_line_error(run_cli("budget", cwd=tmp_path), "mcp-config", "missing.json: no such file")
    write(tmp_path / "toolsurface.toml", 'mcp-config = ".mcp.json"\n')
    assert_one_line_error(run_cli("budget", cwd=tmp_path), "give max-chars or max-tokens")


def test_a_budget_with_a_server_it_could_not_list_is_not_passed(tmp_path: Path) -> None:
    config = write(
        tmp_path / ".mcp.json",
        json.dumps(
            {"mcpServers": {"time": {"command": PY, "args": TIME}, "gone": {"command": "no-such-program-of-ours"}}}
        ),
    )
    done = run_cli("budget", "--mcp-config", str(config), "--max-tokens", "5000")
    assert done.returncode == 2
    assert "gone: not listed: cannot start" in done.stdout
    [line] = done.stderr.strip().splitlines()
    assert "a server could not be listed: gone (cannot start 'no-such-program-of-ours'" in line
    assert line.endswith(
        "so what the servers cost together is not known (--keep-going goes on without it; or disable it in the file)"
    )
    going = run_cli("budget", "--mcp-config", str(config), "--max-tokens", "5000", "--keep-going")
    assert going.returncode == 0, going.stderr
    assert going.stdout.splitlines()[-1].endswith("within budget (5,000 tokens) for the servers listed")


# -- the other verbs ---------------------------------------------------------------------------------------------


def test_snapshot_writes_a_snapshot_per_server_named_by_its_key(configs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "snaps"
    done = run_cli("snapshot", "--mcp-config", str(configs["codex"]), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["desk.json", "desk.meta.json", "time.json", "time.meta.json"]
    measured = run_cli("measure", str(out / "desk.json"), str(out / "time.json"), "--format", "json").json()
    assert [s["name"] for s in measured["surfaces"]] == ["desk", "time"]
    assert_one_line_error(
        run_cli("snapshot", "--mcp-config", str(configs["codex"])), "--mcp-config FILE and --out DIR go together"
    )


def test_findability_and_the_report_take_a_configurations_servers_and_print_commands_that_run(
    configs: dict[str, Path], tmp_path: Path
) -> None:
    queries = tmp_path / "q.json"
    made = run_cli("new", "queries", "-o", str(queries), "--mcp-config", str(configs["claude"]))
    assert made.returncode == 0, made.stderr
    assert f"toolsurface findability --queries {queries} --mcp-config {configs['claude']}" in made.stdout
    found = run_cli(
        "findability", "--queries", str(queries), "--mcp-config", str(configs["claude"]), "--format", "json"
    )
    assert [s["name"] for s in found.json()["surfaces"]] == ["help-desk", "time"]
    out = tmp_path / "rep"
    # The configuration's servers and the commands are the subject, not a client's own search: none is run.
    done = run_cli(
        "report", "--mcp-config", str(configs["claude"]), "--queries", str(queries), "--out", str(out),
        "--search-client", "none",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "## The servers of .mcp.json (Claude Code's .mcp.json) together" in text
    assert "| all |  | 5 | 2981 | 723 |  |" in text
    # No study's figures: these servers are of no study.
    assert "seed" not in text
    tables = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (out / "tables").glob("*.json")}
    for key, table in tables.items():
        args = table["command"].split()[1:]
        assert "--mcp-config" in args, key
        again = run_cli(*args)
        assert again.returncode in (0, 1), (key, again.stderr)


def test_each_client_cards_configuration_file_is_read_by_its_name(tmp_path: Path) -> None:
    from toolsurface.harness.mcp_config import read_mcp_config

    server = {"command": PY, "args": TIME}
    files = {
        ".qwen/settings.json": {"mcpServers": {"t": server, "web": {"httpUrl": "https://example.invalid/mcp"}}},
        ".gemini/settings.json": {"mcpServers": {"t": server, "old": {"url": "https://example.invalid/sse"}}},
    }
    for name, data in files.items():
        path = write(tmp_path / "project" / name, json.dumps(data))
        config = read_mcp_config(path)
        assert config.format == name.split("/")[0].lstrip(".")
        assert [s.transport for s in config.servers] == ["stdio", "http" if "qwen" in name else "sse"]
        assert config.servers[0].cwd == tmp_path / "project"


# -- configurations measured whole -------------------------------------------------------------------------------


def test_measure_of_server_everything_counts_its_instructions_prompts_and_resources_in_the_total(
    npm_servers: Path, tmp_path: Path
) -> None:
    config = write(
        tmp_path / ".mcp.json",
        json.dumps(
            {
                "mcpServers": {
                    "everything": {"command": "node", "args": node_server(npm_servers, "server-everything")[1:]}
                }
            }
        ),
    )
    done = run_cli("measure", "--mcp-config", str(config), "--no-growth", "--format", "json", timeout=120)
    assert done.returncode == 0, done.stderr
    [surface] = done.json()["surfaces"]
    [row] = done.json()["mcp_config"]["rows"]
    total = done.json()["mcp_config"]["total"]
    parts = {p["part"]: p for p in surface["parts"]}
    assert parts["instructions"]["chars"] > 1000 and parts["prompts"]["entries"] == 4
    # Every part a session pays for: the tools, the instructions, the prompts, the resources with their templates, and
    # the skills (none here: server-everything does not declare the extension).
    assert total["include"] == ["instructions", "prompts", "resources", "skills"]
    assert (
        row["chars"]
        == total["chars"]
        == surface["total_chars"]
        == surface["chars"] + sum(p["chars"] for p in parts.values())
    )
    assert total["tokens"] == surface["total_tokens"] and row["tool_chars"] == surface["chars"]
    table = run_cli("measure", "--mcp-config", str(config), "--no-growth", "--format", "markdown", timeout=120).stdout
    assert (
        "what every session pays for them together (the tools with their instructions, prompts, resources and skills)"
        in table
    )
    assert f"instructions {parts['instructions']['chars']:,}, 4 prompts {parts['prompts']['chars']:,}" in table
    # budget counts the tools alone unless --include names parts, as for one list.
    alone = run_cli("budget", "--mcp-config", str(config), "--max-chars", "100000", "--format", "json", timeout=120)
    assert alone.returncode == 0, alone.stderr
    assert alone.json()["total"]["chars"] == surface["chars"]
    both = run_cli(
        "budget", "--mcp-config", str(config), "--max-chars", "100000", "--include", "instructions", timeout=120
    )
    assert both.returncode == 0, both.stderr
    with_instructions = surface["chars"] + parts["instructions"]["chars"]
    assert both.stdout.splitlines()[-1].startswith(
        f"{config}: 1 server, 13 tools + instructions, {with_instructions:,} chars, "
    )
    assert f"counted beside the tools: everything instructions {parts['instructions']['chars']:,}" in both.stdout
    wrong = run_cli("budget", "--mcp-config", str(config), "--max-chars", "100000", "--include", "everything")
    assert_one_line_error(wrong, "unknown part")


@pytest.fixture
def one_down(tmp_path: Path) -> Path:
    """A configuration of the time server and one that cannot start."""
    return write(
        tmp_path / ".mcp.json",
        json.dumps(
            {"mcpServers": {"time": {"command": PY, "args": TIME}, "gone": {"command": "no-such-program-of-ours"}}}
        ),
    )


@pytest.mark.parametrize(
    ("verb", "what"),
    [
        (["lint"], "their findings and the names they share with the others are not known"),
        (["findability", "--queries", "QUERIES"], "their tools are not ranked"),
        (["clients", "v2"], "no client would see what that configuration gives it"),
        (["measure"], "what the servers cost together is not known"),
    ],
)
def test_a_server_that_could_not_be_listed_is_exit_2_in_one_line_or_said_with_keep_going(
    one_down: Path, tmp_path: Path, verb: list[str], what: str
) -> None:
    queries = write(
        tmp_path / "q.json",
        json.dumps({"queries": [{"query": "what time is it", "expected": {"time": "get_current_time"}}]}),
    )
    args = [str(queries) if arg == "QUERIES" else arg for arg in verb]
    done = run_cli(*args, "--mcp-config", str(one_down), "--format", "json", timeout=120)
    assert_one_line_error(
        done,
        str(one_down),
        "a server could not be listed: gone (cannot start 'no-such-program-of-ours'",
        what,
        "--keep-going",
    )
    if verb[0] == "clients":
        return  # its sessions are not run without the server: tests/clients runs them
    going = run_cli(*args, "--mcp-config", str(one_down), "--format", "json", "--keep-going", timeout=120)
    assert going.returncode == 0, going.stderr
    assert going.stderr.strip() == "toolsurface: gone: failed: cannot start 'no-such-program-of-ours': no such command"


def test_findability_of_a_configuration_without_queries_is_one_line(one_down: Path) -> None:
    done = run_cli("findability", "--mcp-config", str(one_down), timeout=120)
    assert_one_line_error(done, "time has no queries of its own")


def test_a_vscode_variable_left_as_written_is_said_in_its_row_and_the_total_is_not_all(tmp_path: Path) -> None:
    config = write(
        tmp_path / ".vscode" / "mcp.json",
        json.dumps(
            {
                "servers": {
                    "time": {"command": PY, "args": TIME},
                    "tz": {"command": PY, "args": [*TIME, "--local-timezone", "${env:TZNAME}"]},
                }
            }
        ),
    )
    done = run_cli(
        "measure", "--mcp-config", str(config), "--no-growth", "--format", "json", env={"TZNAME": "Europe/Paris"}
    )
    assert_one_line_error(
        done,
        "tz (the variable ${env:TZNAME} was left as written; --env-from-shell expands it; then it could not be listed:",
    )
    found = done.json()["mcp_config"]
    rows = {r["name"]: r for r in found["rows"]}
    assert rows["tz"]["status"] == "failed"
    assert rows["tz"]["why"].startswith("the variable ${env:TZNAME} was left as written; --env-from-shell expands it")
    assert found["total"]["complete"] is False and found["total"]["servers"] == 1
    table = run_cli(
        "measure", "--mcp-config", str(config), "--no-growth", "--format", "markdown", "--keep-going"
    ).stdout
    assert "| 1 of 2 servers (not listed: tz) |" in table and "| all (" not in table
    shell = run_cli(
        "measure", "--mcp-config", str(config), "--no-growth", "--format", "markdown", "--env-from-shell",
        env={"TZNAME": "Europe/Paris"},
    )  # fmt: skip
    assert shell.returncode == 0, shell.stderr
    assert "| all (2 servers) |" in shell.stdout


def test_a_server_in_the_configuration_and_on_the_command_line_is_measured_once_and_said_so(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copy(DESK, write(project / "server.py", ""))
    config = write(
        project / ".mcp.json",
        json.dumps(
            {"mcpServers": {"desk": {"command": PY, "args": ["server.py"]}, "time": {"command": PY, "args": TIME}}}
        ),
    )
    done = run_cli(
        "measure", "--mcp-config", str(config), "--no-growth", "--format", "json", "--", PY, "server.py", cwd=project
    )
    assert done.returncode == 0, done.stderr
    assert [s["name"] for s in done.json()["surfaces"]] == ["acme-help-desk", "time"]
    rows = {r["name"]: r for r in done.json()["mcp_config"]["rows"]}
    assert rows["desk"]["status"] == "given" and rows["desk"]["tools"] == 3
    assert rows["desk"]["why"] == f"the same server as -- {PY} server.py: measured once, as that one"
    assert done.json()["mcp_config"]["total"]["tools"] == 5
    assert f"toolsurface: desk: given: the same server as -- {PY} server.py: measured once, as that one" in done.stderr
    linted = run_cli("lint", "--mcp-config", str(config), "--format", "json", "--", PY, "server.py", cwd=project)
    assert linted.returncode == 0, linted.stderr
    together = next(s for s in linted.json()["surfaces"] if s["name"] == ".mcp.json (all servers)")
    assert not [f for f in together["findings"] if f["category"] == "shared-name"]
    report = run_cli(
        "report", "--mcp-config", str(config), "--out", "rep", "--", PY, "server.py", cwd=project, timeout=300
    )
    assert report.returncode == 0, report.stderr
    text = (project / "rep" / "report.md").read_text(encoding="utf-8")
    assert "| desk | given | 3 |" in text and "| all |  | 5 |" in text
    # Another folder's server.py is another server.
    elsewhere = tmp_path / "elsewhere"
    shutil.copy(DESK, write(elsewhere / "server.py", ""))
    other = run_cli(
        "measure", "--mcp-config", str(config), "--no-growth", "--format", "json", "--", PY, "server.py", cwd=elsewhere
    )
    assert [s["name"] for s in other.json()["surfaces"]] == ["acme-help-desk", "desk", "time"]


def test_codex_env_vars_that_are_not_a_list_of_names_are_a_row_saying_why(tmp_path: Path) -> None:
    config = write(
        tmp_path / "config.toml",
        f'[mcp_servers.time]\ncommand = "{PY}"\nargs = {json.dumps(TIME)}\nenv_vars = ["A", {{ name = "B" }}]\n\n'
        f'[mcp_servers.five]\ncommand = "{PY}"\nenv_vars = 5\n\n[mcp_servers.word]\ncommand = "{PY}"\nenv_vars = "NAME"\n',
    )
    servers = {
        s.key: s for s in read_mcp_config(config, env_from_shell=True, environ={"A": "1", "B": "2", "N": "3"}).servers
    }
    assert servers["time"].env == {"A": "1", "B": "2"} and servers["time"].problem is None
    assert (
        servers["five"].problem
        == servers["word"].problem
        == "env_vars must be a list of variable names (or tables with a name)"
    )
    done = run_cli("measure", "--mcp-config", str(config), "--no-growth", "--format", "json", "--keep-going")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    rows = {r["name"]: r for r in done.json()["mcp_config"]["rows"]}
    assert rows["time"]["status"] == "listed"
    assert rows["time"]["why"] == "the variables A (env_vars), B (env_vars) were not read; --env-from-shell reads them"
    assert rows["five"]["status"] == rows["word"]["status"] == "failed"


def test_codex_expands_no_variable_in_its_values_and_reads_only_those_it_names(tmp_path: Path) -> None:
    config = write(
        tmp_path / "config.toml",
        f'[mcp_servers.local]\ncommand = "{PY}"\nargs = ["${{ARG}}"]\nenv = {{ K = "${{VAR}}" }}\n\n'
        '[mcp_servers.remote]\nurl = "https://mcp.example.invalid/mcp"\nbearer_token_env_var = "TOKEN"\n'
        'env_http_headers = { "X-Team" = "TEAM" }\nhttp_headers = { "X-Fixed" = "${TEAM}" }\n',
    )
    environ = {"ARG": "a", "VAR": "v", "TOKEN": "t0k", "TEAM": "blue"}
    shell = {s.key: s for s in read_mcp_config(config, env_from_shell=True, environ=environ).servers}
    assert shell["local"].command == (PY, "${ARG}") and shell["local"].env == {"K": "${VAR}"}
    assert shell["local"].notes == ()
    assert shell["remote"].headers == {"X-Fixed": "${TEAM}", "Authorization": "Bearer t0k", "X-Team": "blue"}
    quiet = {s.key: s for s in read_mcp_config(config, environ=environ).servers}
    assert quiet["remote"].headers == {"X-Fixed": "${TEAM}"}
    assert quiet["remote"].notes == (
        "the variables TOKEN (bearer_token_env_var), TEAM (env_http_headers) were not read; --env-from-shell reads them",
    )
