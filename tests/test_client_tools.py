"""What each client does to each tool (`clients --per-tool`): the naming rules the adapters declare, the
per-tool record the model endpoint keeps, the API rules the scripted endpoint answers as the APIs do, and the
real CLIs (Claude Code 2.1.197 and 2.1.332, codex 0.171.0, gemini-cli 0.61.0) on the 5-tool surface and on
public servers' snapshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.npm_packages import agent_cli_dir, agent_clis_dir
from tests.test_clients import env_with, rows
from tests.test_snapshot_live import install_npm_servers, node_server, npm_cache_dir
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.agents.codex import CodexAgent
from toolsurface.harness.agents.gemini import GeminiAgent
from toolsurface.harness.endpoint import check_request, read_conversation

FIVE = Path(__file__).resolve().parent / "fixtures" / "surfaces" / "five_limits.json"
LONG = "a_tool_with_a_name_that_is_much_too_long_for_some_clients_to_accept_ok_x"
PINNED, NEWEST = ClaudeAgent.tested_versions[0], ClaudeAgent.tested_versions[-1]


# -- the naming rules, as each client made the names it sent (compat's observations) -----------------------


@pytest.mark.parametrize(
    ("naming", "tool", "full"),
    [
        (ClaudeAgent.naming, "dotted.name", "mcp__stub__dotted_name"),
        (ClaudeAgent.naming, LONG, f"mcp__stub__{LONG}"),
        (ClaudeAgent.naming, "emoji_\U0001f600_x", "mcp__stub__emoji____x"),
        (CodexAgent.naming, "get-sum", "mcp__stub__get_sum"),
        (CodexAgent.naming, "emoji_\U0001f600_x", "mcp__stub__emoji___x"),
        (GeminiAgent.naming, "dotted.name", "mcp_stub_dotted.name"),
        (GeminiAgent.naming, LONG, "mcp_stub_a_tool_with_a_name_th...or_some_clients_to_accept_ok_x"),
        (GeminiAgent.naming, "a/b", "mcp_stub_a_b"),
    ],
)
def test_each_adapter_declares_the_name_its_client_gives_a_tool(naming: Any, tool: str, full: str) -> None:
    assert naming.full_name(tool, "stub") == full


def test_codex_names_cut_or_colliding_are_matched_by_their_hash_suffix_alone() -> None:
    naming = CodexAgent.naming
    assert naming.matches("mcp__stub__a_b_00288267ff9b", "a.b", "stub")
    assert naming.matches("mcp__stub__" + "j" * 104 + "_965268e222fd", "j" * 130, "stub")
    assert not naming.matches("mcp__stub__a_b_00288267ff9b", "a_c", "stub")
    assert len(naming.full_name("j" * 130, "stub")) == 128


def test_the_server_name_goes_into_every_prefix() -> None:
    assert ClaudeAgent.naming.prefix("enterprise-database-management") == "mcp__enterprise-database-management__"
    assert ClaudeAgent.naming.room("item_get", "enterprise-database-management", 64) == 64 - 45
    assert GeminiAgent.naming.full_name("x", "mcp_docs") == "mcp_docs_x"  # gemini adds mcp_ only once
    assert not ClaudeAgent.naming.accepts_server("my server") and CodexAgent.naming.accepts_server("my-server")


# -- the API rules at the scripted endpoint -----------------------------------------------------------------


def test_the_anthropic_api_refuses_a_name_over_64_with_its_own_error() -> None:
    body = {"model": "m", "messages": [], "tools": [{"name": f"mcp__stub__{LONG}", "input_schema": {"type": "object"}}]}
    refusal = check_request("anthropic", body)
    assert refusal is not None and refusal.status == 400 and refusal.tool == f"mcp__stub__{LONG}"
    sent = json.loads(refusal.body)
    assert sent["type"] == "error" and sent["error"]["type"] == "invalid_request_error"
    assert sent["error"]["message"] == "tools.0.custom.name: String should have at most 64 characters"
    assert sent["request_id"].startswith("req_")
    assert check_request("anthropic", {**body, "tools": [{"name": "mcp__stub__ok", "input_schema": {}}]}) is None


def test_a_tool_reference_over_64_is_refused_where_the_api_finds_it() -> None:
    reference = {"type": "tool_reference", "tool_name": f"mcp__stub__{LONG}"}
    body = {"messages": [{"role": "user", "content": [{"type": "tool_result", "content": [reference]}]}]}
    refusal = check_request("anthropic", body)
    assert refusal is not None
    assert refusal.message.startswith("messages.0.content.0.tool_result.content.0.tool_reference.tool_name:")


def test_openai_and_gemini_refuse_as_they_document() -> None:
    tools = [{"type": "function", "function": {"name": "a.b", "parameters": {"type": "object"}}}] * 130
    chat = check_request("openai-chat", {"tools": tools})
    assert chat is not None and json.loads(chat.body)["error"]["code"] == "array_above_max_length"
    one = check_request("openai-chat", {"tools": tools[:1]})
    assert one is not None and json.loads(one.body)["error"]["param"] == "tools[0].function.name"
    namespace = {"type": "namespace", "name": "mcp__stub", "tools": [{"type": "function", "name": "x" * 129}]}
    responses = check_request("openai-responses", {"tools": [namespace]})
    assert responses is not None and "tools[0].tools[0].name" in responses.message
    gemini = check_request("gemini", {"tools": [{"functionDeclarations": [{"name": "9starts"}, {"name": "ok"}]}]})
    assert gemini is not None and json.loads(gemini.body)["error"]["status"] == "INVALID_ARGUMENT"
    assert "function_declarations[0].name: Invalid function name" in gemini.message


# -- the per-tool record -------------------------------------------------------------------------------------


def test_the_per_tool_record_says_what_changed_in_each_tool() -> None:
    from toolsurface.harness.endpoint._sent import Sizes, match_sent

    wire = json.loads(FIVE.read_text(encoding="utf-8"))["tools"]
    long = wire[2]
    sent_long = {
        "name": "mcp__stub__long_description",
        "description": long["description"][:2048] + "\u2026 [truncated]",
        "input_schema": long["inputSchema"],
    }
    ref = dict(wire[3]["inputSchema"])
    ref["$defs"] = {"Item": {"type": "object", "properties": {"when": {"type": "string"}}}}
    body = {
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [
            sent_long,
            {"name": "mcp__stub__ref_schema", "description": wire[3]["description"], "input_schema": ref},
            {"name": "mcp__stub__dotted_name", "description": "A tool with a dot in its name.", "input_schema": {}},
            {"name": "Read", "description": "built-in", "input_schema": {"type": "object"}},
        ],
    }
    conversation = read_conversation("anthropic", body, "/v1/messages")
    found, stub = match_sent(
        wire, conversation.entries, [], False, set(), ClaudeAgent.naming, "stub", Sizes(lambda text: len(text) // 4)
    )
    by = {t.tool: t for t in found}
    assert by["long_description"].description == "cut" and by["long_description"].cut_at == 2048
    assert by["long_description"].marker == "\u2026 [truncated]"
    assert by["ref_schema"].schema == ["-$defs.Item.properties.when.format"]
    assert by["dotted.name"].name_change == "cleaned" and by["dotted.name"].schema == ["-type", "-properties"]
    assert by[LONG].how == "dropped" and by["annotated"].how == "dropped"
    assert stub == {"mcp__stub__long_description", "mcp__stub__ref_schema", "mcp__stub__dotted_name"}


# -- the real clients -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> str:
    base = tmp_path_factory.mktemp("five")
    env = env_with(base / "home", agent_clis_dir(), agent_cli_dir("claude", NEWEST))
    done = run_cli(
        "clients", str(FIVE), "--per-tool", "--format", "json", "--out", str(base / "out"), env=env, cwd=base,
        timeout=900,
    )  # fmt: skip
    markdown = run_cli(
        "clients", str(FIVE), "--per-tool", "--format", "markdown", "--client", "gemini", env=env, cwd=base,
        timeout=600,
    )  # fmt: skip
    assert markdown.returncode == 0, markdown.stderr
    return json.dumps({"rows": rows(done), "markdown": markdown.stdout})


def by_client(five: str) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(r["client"], r["version"], r["mode"]): r for r in json.loads(five)["rows"]}


def sent(row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["tool"]: t for t in row["sent"]}


def test_every_client_renames_cuts_and_drops_as_it_does_and_no_stub_tool_is_built_in(five: str) -> None:
    found = by_client(five)
    for version in (PINNED, NEWEST):
        full = found[("claude", version, "full-list")]
        assert full["shown"]["tools"] == 5 and full["builtin"]["tools"] == 0
        assert sent(full)["dotted.name"]["sent_as"] == "mcp__stub__dotted_name"
        assert sent(full)["dotted.name"]["name_change"] == "cleaned"
        assert sent(full)["annotated"]["dropped"] == ["title", "annotations", "outputSchema"]
    direct = found[("codex", "0.171.0", "direct")]
    assert direct["shown"]["tools"] == 5 and sent(direct)["dotted.name"]["sent_as"] == "mcp__stub__dotted_name"
    assert direct["builtin"]["tools"] == 9  # exec and codex's own, none of the stub's
    default = sent(found[("codex", "0.171.0", "default")])["dotted.name"]
    assert (default["how"], default["name_change"]) == ("namespace", "cleaned")
    assert "-$defs.Item.properties.when.format" in sent(direct)["ref_schema"]["schema"]
    gemini = found[("gemini", "0.61.0", "default")]
    assert gemini["shown"]["tools"] == 5 and gemini["builtin"]["tools"] == 0
    assert sent(gemini)[LONG]["sent_as"] == "mcp_stub_a_tool_with_a_name_th...or_some_clients_to_accept_ok_x"
    assert sent(gemini)[LONG]["name_change"] == "cut"


def test_claude_code_2_1_197_cuts_the_long_description_at_2048_and_2_1_332_sends_it_whole(five: str) -> None:
    found = by_client(five)
    old = sent(found[("claude", PINNED, "full-list")])["long_description"]
    assert (old["description"], old["cut_at"], old["marker"]) == ("cut", 2048, "\u2026 [truncated]")
    assert sent(found[("claude", NEWEST, "full-list")])["long_description"]["description"] == "kept"


def test_claude_codes_83_character_name_is_refused_by_the_anthropic_api_in_a_row_that_says_so(five: str) -> None:
    found = by_client(five)
    for version in (PINNED, NEWEST):
        row = found[("claude", version, "full-list")]
        assert row["status"].startswith("refused by the API: tools.")
        assert "String should have at most 64 characters" in row["status"] and f"mcp__stub__{LONG}" in row["status"]
        assert sent(row)[LONG]["refused"] and len(sent(row)[LONG]["sent_as"]) == 83
        # On demand the name is refused where a tool_reference names it, after the first request.
        on_demand = found[("claude", version, "on-demand")]
        assert on_demand["status"].startswith("refused by the API: messages.")
        assert "tool_reference.tool_name" in sent(on_demand)[LONG]["refused"]
        assert sent(on_demand)["dotted.name"]["refused"] is None
    assert found[("gemini", "0.61.0", "default")]["status"] == "ok"


def test_the_markdown_shows_each_tool_and_the_prefix_arithmetic(five: str) -> None:
    markdown = json.loads(five)["markdown"]
    assert "### Tool by tool" in markdown and "mcp_stub_ (9 chars) + the tool's name" in markdown
    assert "| five_limits | gemini 0.61.0 | default | dotted.name | mcp_stub_dotted.name | shown | kept |" in markdown
    assert "+properties.wait_for_previous" in markdown


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("public")
    modules = install_npm_servers(npm_cache_dir())
    root = base / "root"
    root.mkdir()
    snapshots = {}
    for name, extra in (("server-everything", []), ("server-filesystem", [str(root)])):
        path = base / f"{name}.json"
        done = run_cli("snapshot", "-o", str(path), "--", *node_server(modules, name), *extra, timeout=120)
        assert done.returncode == 0, done.stderr
        snapshots[name] = path
    return snapshots


def test_codex_direct_shows_server_everythings_13_tools_renamed_and_gemini_all_14_of_server_filesystem(
    public: dict[str, Path], tmp_path: Path
) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", str(public["server-everything"]), str(public["server-filesystem"]), "--client", "codex:direct",
        "--client", "gemini", "--per-tool", "--format", "json", env=env, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    found = {(r["surface"], r["client"]): r for r in rows(done)}
    everything = found[("server-everything", "codex")]
    assert everything["shown"]["tools"] == 13 and everything["builtin"]["tools"] == 9
    renamed = [t for t in everything["sent"] if "-" in t["tool"]]
    assert renamed and all(t["name_change"] == "cleaned" and "-" not in t["sent_as"] for t in renamed)
    assert everything["instructions_chars"]  # in the mcp__stub namespace's description
    filesystem = found[("server-filesystem", "gemini")]
    assert filesystem["shown"]["tools"] == 14 and filesystem["builtin"]["tools"] == 0
    assert sent(filesystem)["write_file"]["how"] == "shown"  # no exclusion of ours hides it


def test_a_long_server_name_shows_its_prefix_and_one_no_client_takes_is_one_line(tmp_path: Path) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", "v2", "--client", "codex:direct", "--server-name", "enterprise-database-management",
        "--per-tool", "--format", "json", env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    [row] = rows(done)
    assert row["status"] == "ok" and row["shown"]["tools"] == 8
    # codex cleans the server's name as it cleans a tool's.
    assert row["naming"].startswith("mcp__enterprise_database_management__ (37 chars)")
    assert all(t["sent_as"].startswith("mcp__enterprise_database_management__") for t in row["sent"])
    bad = run_cli("clients", "v2", "--server-name", "my server!", env=env, cwd=tmp_path)
    assert bad.returncode == 2, bad.stdout + bad.stderr
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith("toolsurface: --server-name 'my server!': no client takes it")


def test_a_studys_report_shows_each_tool_as_each_client_carried_it(tmp_path: Path) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    study = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "codex:direct", "--model-endpoint", "scripted", "--surface", "v2", "--runs", "1",
        "--out", str(study), env=env, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = run_cli("report", str(study), "--out", str(tmp_path / "report"), "--html", env=env, timeout=600)
    assert report.returncode == 0, report.stderr
    csv = (tmp_path / "report" / "tables" / "tool_changes.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0].startswith("surface,agent,mode,tool,sent as,as,name,description,schema")
    assert len(csv) == 1 + 8 and all(",mcp__stub__" in line and ",shown," in line for line in csv[1:])
    assert "What each client did to each tool" in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "section-tool_changes" in (tmp_path / "report" / "report.html").read_text(encoding="utf-8")


def test_system_prompt_chars_are_the_same_whatever_home_and_run_folder_the_machine_has(tmp_path: Path) -> None:
    # Claude Code puts $HOME in its system prompt, codex the session's folder: counted as placeholders.
    found = []
    for home, out in (("h", "o"), ("a-much-longer-home-folder", "a-much-longer-out-folder")):
        env = env_with(tmp_path / home, agent_clis_dir(), agent_cli_dir("claude", NEWEST))
        done = run_cli(
            "clients", "v2", "--client", "claude:full-list", "--client", "codex:direct", "--format", "json",
            "--out", str(tmp_path / out), env=env, cwd=tmp_path, timeout=600,
        )  # fmt: skip
        found.append({(r["client"], r["version"]): r["system_chars"] for r in rows(done)})
    assert found[0] == found[1] and len(found[0]) == 3, found
