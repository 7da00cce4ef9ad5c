"""What each client does to each tool (`clients --per-tool`): the naming rules the adapters declare, the
per-tool record the model endpoint keeps, the API rules the scripted endpoint answers as the APIs do, and the
real CLIs (Claude Code 2.1.197 and 2.1.332, codex 0.171.0, gemini-cli 0.61.0, opencode 1.18.33) on the 5-tool
surface and on public servers' snapshots, each server under its own name as its clients' configs would give it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.clients import env_with, rows
from tests.helpers.fresh_runs import FRESH_RUNS, fresh_run
from tests.helpers.live_servers import install_npm_servers, node_server, npm_cache_dir
from tests.helpers.npm_packages import agent_cli_dir, agent_clis_dir
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents import ToolNaming
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.agents.codex import CodexAgent
from toolsurface.harness.agents.gemini import GeminiAgent
from toolsurface.harness.endpoint import SentTool, check_request, name_refused, read_conversation

FIVE = FIXTURES / "surfaces" / "five_limits.json"
LONG = "a_tool_with_a_name_that_is_much_too_long_for_some_clients_to_accept_ok_x"
# The 5-tool snapshot's own name, which each client's config gives its server unless told another.
FIVE_NAME = "five_limits"
PINNED, NEWEST = ClaudeAgent.card.tested_versions[0], ClaudeAgent.card.tested_versions[-1]


# -- the naming rules, as each client made the names it sent (compat's observations) -----------------------


@pytest.mark.parametrize(
    ("naming", "tool", "full"),
    [
        (ClaudeAgent.card.naming, "dotted.name", "mcp__stub__dotted_name"),
        (ClaudeAgent.card.naming, LONG, f"mcp__stub__{LONG}"),
        (ClaudeAgent.card.naming, "emoji_\U0001f600_x", "mcp__stub__emoji____x"),
        (CodexAgent.card.naming, "get-sum", "mcp__stub__get_sum"),
        (CodexAgent.card.naming, "emoji_\U0001f600_x", "mcp__stub__emoji___x"),
        (GeminiAgent.card.naming, "dotted.name", "mcp_stub_dotted.name"),
        (GeminiAgent.card.naming, LONG, "mcp_stub_a_tool_with_a_name_th...or_some_clients_to_accept_ok_x"),
        (GeminiAgent.card.naming, "a/b", "mcp_stub_a_b"),
    ],
)
def test_each_adapter_declares_the_name_its_client_gives_a_tool(naming: Any, tool: str, full: str) -> None:
    assert naming.full_name(tool, "stub") == full


def test_codex_names_cut_or_colliding_are_matched_by_their_hash_suffix_alone() -> None:
    naming = CodexAgent.card.naming
    assert naming.matches("mcp__stub__a_b_00288267ff9b", "a.b", "stub")
    assert naming.matches("mcp__stub__" + "j" * 104 + "_965268e222fd", "j" * 130, "stub")
    assert not naming.matches("mcp__stub__a_b_00288267ff9b", "a_c", "stub")
    assert len(naming.full_name("j" * 130, "stub")) == 128


def test_an_fnv1a_suffix_is_the_32_bit_hash_of_the_names_utf16_units_in_base_36() -> None:
    naming = ToolNaming(
        "X", "mcp__{server}__{tool}", max_length=20, cut="hash", hash_digits=7, digest="fnv1a", hash_cleaned=True
    )
    # The digits JavaScript's own loop gives (h ^= charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; base 36):
    # the emoji is two UTF-16 units, each cleaned to `_`.
    assert naming.full_name("a\U0001f600", "s") == "mcp__s__a___11xjf8a"
    assert naming.full_name("a_very_long_tool_name", "s") == "mcp__s__a_ve_13ascdw"
    assert naming.full_name("ok", "s") == "mcp__s__ok"
    assert naming.matches("mcp__s__a_ve_13ascdw", "a_very_long_tool_name", "s")
    assert not naming.matches("mcp__s__a_ve_13ascdW", "a_very_long_tool_name", "s")


def test_the_server_name_goes_into_every_prefix() -> None:
    assert ClaudeAgent.card.naming.prefix("enterprise-database-management") == "mcp__enterprise-database-management__"
    assert ClaudeAgent.card.naming.room("item_get", "enterprise-database-management", 64) == 64 - 45
    assert GeminiAgent.card.naming.full_name("x", "mcp_docs") == "mcp_docs_x"  # gemini adds mcp_ only once
    assert not ClaudeAgent.card.naming.accepts_server("my server") and CodexAgent.card.naming.accepts_server(
        "my-server"
    )


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


def test_a_name_each_api_refuses_is_said_in_words_by_the_rule_its_requests_are_checked_by() -> None:
    assert name_refused("anthropic", f"mcp__stub__{LONG}") == "83 characters, over the 64 the anthropic API takes"
    assert name_refused("anthropic", "mcp__stub__a.b") == (
        "characters the anthropic API does not take in a name (only a-z, A-Z, 0-9, _ and -)"
    )
    assert name_refused("openai-responses", "x" * 128) is None and name_refused("openai-responses", "x" * 129)
    assert name_refused("gemini", "mcp_stub_a.b") is None and name_refused("gemini", "9starts")
    assert name_refused("anthropic", "mcp__stub__ok") is None
    for api, name in (("anthropic", "x" * 65), ("gemini", "9starts"), ("openai-chat", "a.b")):
        tools = {
            "anthropic": [{"name": name, "input_schema": {"type": "object"}}],
            "gemini": [{"functionDeclarations": [{"name": name}]}],
            "openai-chat": [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}],
        }[api]
        assert check_request(api, {"messages": [], "tools": tools}) is not None


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
        wire,
        conversation.entries,
        [],
        False,
        set(),
        ClaudeAgent.card.naming,
        "stub",
        Sizes(lambda text: len(text) // 4),
    )
    by = {t.tool: t for t in found}
    assert by["long_description"].description == "cut" and by["long_description"].cut_at == 2048
    assert by["long_description"].not_judged is None
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


def test_every_client_renames_cuts_and_drops_as_it_does_and_no_server_tool_is_built_in(five: str) -> None:
    found = by_client(five)
    assert {r["server_name"] for r in found.values()} == {FIVE_NAME}
    for version in (PINNED, NEWEST):
        full = found[("claude", version, "full-list")]
        assert full["shown"]["tools"] == 5 and full["builtin"]["tools"] == 0
        assert sent(full)["dotted.name"]["sent_as"] == f"mcp__{FIVE_NAME}__dotted_name"
        assert sent(full)["dotted.name"]["name_change"] == "cleaned"
        assert sent(full)["annotated"]["dropped"] == ["title", "annotations", "outputSchema"]
    direct = found[("codex", "0.171.0", "direct")]
    assert direct["shown"]["tools"] == 5
    assert sent(direct)["dotted.name"]["sent_as"] == f"mcp__{FIVE_NAME}__dotted_name"
    assert direct["builtin"]["tools"] == 9  # exec and codex's own, none of the server's
    # codex as shipped names the server's namespace alone: no tool of it is sent under a name of its own.
    default = found[("codex", "0.171.0", "default")]
    assert all(t["how"] == "namespace" and t["sent_as"] is None for t in default["sent"]), default["sent"]
    assert default["deferred"]["tools"] == 5 and default["deferred"]["chars"] == len(f"mcp__{FIVE_NAME}")
    assert "-$defs.Item.properties.when.format" in sent(direct)["ref_schema"]["schema"]
    gemini = found[("gemini", "0.61.0", "default")]
    assert gemini["shown"]["tools"] == 5 and gemini["builtin"]["tools"] == 0
    assert sent(gemini)[LONG]["sent_as"] == f"mcp_{FIVE_NAME}_a_tool_with_a_...or_some_clients_to_accept_ok_x"
    assert sent(gemini)[LONG]["name_change"] == "cut"


def test_qwen_code_hashes_a_name_it_cleans_or_cuts_and_defers_every_tool_on_demand(five: str) -> None:
    found = by_client(five)
    full, deferred = found[("qwen", "0.24.4", "full-list")], found[("qwen", "0.24.4", "on-demand")]
    assert full["shown"]["tools"] == 5 and full["builtin"]["tools"] == 0
    assert deferred["shown"]["tools"] == 0 and deferred["deferred"]["tools"] == 5
    # As Qwen Code 0.24.4 sent them: 7 base-36 digits of the 32-bit FNV-1a hash of `mcp__five_limits__TOOL`
    # (checked with JavaScript's own charCodeAt and Math.imul), after a cleaned name and in place of a cut one's end.
    assert sent(full)["dotted.name"]["sent_as"] == f"mcp__{FIVE_NAME}__dotted_name_0axjm4l"
    assert sent(full)["dotted.name"]["name_change"] == "hashed"
    assert sent(full)[LONG]["sent_as"] == f"mcp__{FIVE_NAME}__a_tool_with_a_name_that_is_much_too_l_17urfxz"
    assert sent(full)[LONG]["name_change"] == "cut" and len(sent(full)[LONG]["sent_as"]) == 63
    assert sent(full)["annotated"]["sent_as"] == f"mcp__{FIVE_NAME}__annotated"
    assert [t["sent_as"] for t in deferred["sent"]] == [t["sent_as"] for t in full["sent"]]


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
        assert "String should have at most 64 characters" in row["status"]
        assert f"mcp__{FIVE_NAME}__{LONG}" in row["status"]
        assert sent(row)[LONG]["refused"] and len(sent(row)[LONG]["sent_as"]) == 90
        # On demand the name is refused where a tool_reference names it, after the first request.
        on_demand = found[("claude", version, "on-demand")]
        assert on_demand["status"].startswith("refused by the API: messages.")
        assert "tool_reference.tool_name" in sent(on_demand)[LONG]["refused"]
        assert sent(on_demand)["dotted.name"]["refused"] is None
        # Each mode marks the name, with when it bites.
        assert [(r["tool"], r["when"]) for r in row["names_refused"]] == [(LONG, "at once")]
        assert [(r["tool"], r["when"]) for r in on_demand["names_refused"]] == [(LONG, "when tool search loads it")]
    assert found[("gemini", "0.61.0", "default")]["status"] == "ok"
    assert found[("gemini", "0.61.0", "default")]["names_refused"] == []


def test_a_name_the_api_refuses_is_marked_in_every_mode_though_the_sessions_search_loaded_another_tool(
    tmp_path: Path,
) -> None:
    # The scripted search finds the first tool; the long one is only named, until a search would load it.
    tools = [{"name": "ticket_find", "description": "Find tickets.", "inputSchema": {"type": "object"}}]
    tools.append({"name": LONG, "description": "Does a thing.", "inputSchema": {"type": "object"}})
    snapshot = tmp_path / "desk.json"
    snapshot.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", str(snapshot), "--client", "claude", "--format", "json", env=env, cwd=tmp_path, timeout=600
    )
    found = {r["mode"]: r for r in rows(done)}
    on_demand, full = found["on-demand"], found["full-list"]
    assert on_demand["status"] == "ok" and on_demand["refused"] is None
    [later] = on_demand["names_refused"]
    assert (later["tool"], later["name"], later["when"]) == (LONG, f"mcp__desk__{LONG}", "when tool search loads it")
    assert later["why"] == "83 characters, over the 64 the anthropic API takes"
    assert [(r["tool"], r["when"]) for r in full["names_refused"]] == [(LONG, "at once")]
    markdown = run_cli("clients", str(snapshot), "--client", "claude:on-demand", "--per-tool", "--format", "markdown",
                       env=env, cwd=tmp_path, timeout=600)  # fmt: skip
    assert markdown.returncode == 0, markdown.stderr
    # A snapshot's server is a server, not a surface, in the tables.
    assert "| Server | Client | Mode |" in markdown.stdout and "its model of the server in" in markdown.stdout
    assert f"| ok; the API refuses mcp__desk__{LONG} when tool search loads it (83 characters," in markdown.stdout
    assert "| the API refuses its name when tool search loads it (83 characters, over the 64" in markdown.stdout


def test_the_markdown_shows_each_tool_and_the_prefix_arithmetic(five: str) -> None:
    markdown = json.loads(five)["markdown"]
    assert "### Tool by tool" in markdown and f"(server name '{FIVE_NAME}';" in markdown
    assert f"mcp_{FIVE_NAME}_ (16 chars) + the tool's name" in markdown
    assert f"| five_limits | gemini 0.61.0 | default | dotted.name | mcp_{FIVE_NAME}_dotted.name | shown | kept |" in (
        markdown
    )
    assert "+properties.wait_for_previous" in markdown
    assert "Stub's" not in markdown and "| Server's shown | Server's deferred |" in markdown


def test_a_tool_the_client_dropped_says_why_in_the_clients_own_words(tmp_path: Path) -> None:
    # gemini-cli cuts mcp_enterprise-database-management_ + 72 chars in the middle of the prefix, says so on its
    # stderr, and leaves the tool out: the name it cut no longer starts with the server's prefix.
    env = env_with(tmp_path / "home", agent_clis_dir())
    done = run_cli(
        "clients", str(FIVE), "--per-tool", "--client", "gemini", "--server-name", "enterprise-database-management",
        "--format", "json", env=env, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    [row] = rows(done)
    long = sent(row)[LONG]
    assert (long["how"], long["sent_as"]) == ("dropped", None)
    assert long["note"].startswith('gemini-cli said: Truncating MCP tool name "mcp_enterprise-database-management_a_')
    assert "to fit within the 64 character limit" in long["note"]
    assert all(t["note"] is None for t in row["sent"] if t["tool"] != LONG)


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


def test_codex_direct_renames_server_everythings_13_tools_gemini_shows_all_14_of_server_filesystem_each_by_its_name(
    public: dict[str, Path], tmp_path: Path
) -> None:
    env = env_with(tmp_path / "home", agent_clis_dir())
    # Each server through the clients whose rows are read here: opencode starts for about 10 CPU-seconds a session.
    found_rows = []
    for server, clients in (("server-everything", ("codex:direct", "opencode")), ("server-filesystem", ("gemini",))):
        named_clients = [arg for client in clients for arg in ("--client", client)]
        done = run_cli(
            "clients", str(public[server]), *named_clients, "--per-tool", "--format", "json", env=env, cwd=tmp_path,
            timeout=600,
        )  # fmt: skip
        found_rows += rows(done)
    # Each snapshot goes by its server's name, recorded in its sidecar.
    own = {
        name: json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))["name"]
        for name, path in public.items()
    }
    assert own == {"server-everything": "mcp-servers-everything", "server-filesystem": "secure-filesystem-server"}
    found = {(next(k for k, v in own.items() if v == r["surface"]), r["client"]): r for r in found_rows}
    everything = found[("server-everything", "codex")]
    assert everything["shown"]["tools"] == 13 and everything["builtin"]["tools"] == 9
    renamed = [t for t in everything["sent"] if "-" in t["tool"]]
    assert renamed and all(t["name_change"] == "cleaned" and "-" not in t["sent_as"] for t in renamed)
    assert everything["instructions_chars"]  # in the server's namespace's description
    filesystem = found[("server-filesystem", "gemini")]
    assert filesystem["shown"]["tools"] == 14 and filesystem["builtin"]["tools"] == 0
    assert sent(filesystem)["write_file"]["how"] == "shown"  # no exclusion of ours hides it
    # Each server goes by its own name, as a user's config names it, not by toolsurface's `stub`.
    named = {server: r["server_name"] for (server, _), r in found.items()}
    assert named == own
    assert all(
        t["sent_as"].startswith(GeminiAgent.card.naming.prefix(named["server-filesystem"])) for t in filesystem["sent"]
    )
    assert all(t["sent_as"].startswith(CodexAgent.card.naming.prefix(everything["server_name"])) for t in renamed)
    # opencode quotes server-everything's instructions whole, each line indented inside <mcp_instructions>.
    instructions = json.loads(public["server-everything"].read_text(encoding="utf-8"))["instructions"]
    assert "\n" in instructions.strip()
    assert found[("server-everything", "opencode")]["instructions_chars"] == len(instructions)
    # One figure of them in `measure` and in `clients`: their text's characters as the server sent them, the
    # newline it ends with included (not the JSON string's quotes and escapes, nor the text a client trims).
    measured = run_cli("measure", str(public["server-everything"]), "--format", "json").json()["surfaces"][0]
    [part] = [p for p in measured["parts"] if p["part"] == "instructions"]
    assert part["chars"] == len(instructions) == found[("server-everything", "opencode")]["instructions_chars"]
    assert instructions != instructions.strip()


def unnamed_clients(snapshot: Path, as_name: str, tmp_path: Path, *args: str) -> tuple[list[dict[str, Any]], int]:
    """`clients` with a copy of `snapshot` called `as_name` and no sidecar (no server's name recorded), and how
    many tools it lists."""
    bare = tmp_path / as_name
    shutil.copy(snapshot, bare)
    done = run_cli(
        "clients", *[str(bare) if arg == "BARE" else arg for arg in args], "--format", "json",
        env=env_with(tmp_path / "home", agent_clis_dir()), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    return rows(done), len(json.loads(bare.read_text(encoding="utf-8"))["tools"])


def test_a_snapshot_that_records_no_server_name_goes_by_its_file_name_made_safe_in_every_client(
    public: dict[str, Path], tmp_path: Path
) -> None:
    # The common case: a file called x.snap.json, with no sidecar to record its server's name.
    args = ("BARE", "--client", "claude", "--client", "codex:direct")
    found, listed = unnamed_clients(public["server-everything"], "everything.snap.json", tmp_path, *args)
    modes = {(r["client"], r["mode"]) for r in found}
    assert modes == {("claude", "on-demand"), ("claude", "full-list"), ("codex", "direct")}
    for row in found:
        assert row["status"] == "ok" and row["server_name"] == "everything-snap", row["status"]
        assert row["shown"]["tools"] + row["deferred"]["tools"] == listed == 13


def test_a_neighbour_snapshot_that_records_no_server_name_is_beside_the_surface_under_its_file_name_made_safe(
    public: dict[str, Path], tmp_path: Path
) -> None:
    args = ("v2", "--with", "BARE", "--client", "claude")
    found, listed = unnamed_clients(public["server-filesystem"], "filesystem.snap.json", tmp_path, *args)
    assert len(found) == 2
    for row in found:
        assert row["status"] == "ok" and row["shown"]["tools"] + row["deferred"]["tools"] == 8
        [beside] = row["neighbours"]
        assert beside["server"] == "filesystem-snap"
        assert beside["shown"]["tools"] + beside["deferred"]["tools"] == listed == 14


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


@FRESH_RUNS
def test_a_studys_report_shows_each_tool_as_each_client_carried_it(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    # codex's direct run of the six tasks, made once for the test run (tests.helpers.fresh_runs).
    run = fresh_run(tmp_path_factory, "codex:direct", CodexAgent.card.pinned)
    assert run.done.returncode == 0, run.done.stderr
    study = run.study
    env = env_with(tmp_path / "home", agent_clis_dir())
    # What each client carried is the subject, not a client's own search: no search session is run.
    report = run_cli(
        "report", str(study), "--out", str(tmp_path / "report"), "--html", "--search-client", "none",
        env=env, timeout=600,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    csv = (tmp_path / "report" / "tables" / "tool_changes.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0].startswith("surface,agent,mode,tool,sent as,as,name,description,schema")
    assert len(csv) == 1 + 8 and all(",mcp__stub__" in line and ",shown," in line for line in csv[1:])
    assert "What each client did to each tool" in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "section-tool_changes" in (tmp_path / "report" / "report.html").read_text(encoding="utf-8")


def test_system_prompt_chars_are_the_same_whatever_folders_the_machine_and_the_user_have(tmp_path: Path) -> None:
    # Claude Code puts $HOME in its system prompt and its memory folder named after the session's working folder,
    # codex the session's folder, opencode its working folder: each counted as a placeholder. Folders of every
    # length: the home, the sessions' folder, the temporary folder the working folder is made in, and the folder
    # the command is started from.
    found = []
    for folder in ("h", "a-much-longer-folder-name-than-the-first-one"):
        base = tmp_path / folder
        (base / "tmp").mkdir(parents=True)
        env = {
            **env_with(base / "home", agent_clis_dir(), agent_cli_dir("claude", NEWEST)),
            "TMPDIR": str(base / "tmp"),
            "PWD": str(base),  # as the user's shell sets it for the command
        }
        done = run_cli(
            "clients", "v2", "--client", "claude:full-list", "--client", "codex:direct", "--client", "opencode",
            "--format", "json", "--out", str(base / "out"), env=env, cwd=base, timeout=600,
        )  # fmt: skip
        found.append({(r["client"], r["version"]): r["system_chars"] for r in rows(done)})
    assert found[0] == found[1] and len(found[0]) == 4, found
    assert all(chars > 1000 for chars in found[0].values())


def test_an_apis_error_names_the_first_tool_it_refuses_and_leaves_the_others_unjudged() -> None:
    from toolsurface.harness.endpoint._sent import mark_refused

    names = [f"mcp__stub__{'x' * n}" for n in (60, 64, 70)]
    body = {
        "messages": [],
        "tools": [{"name": n, "input_schema": {"type": "object"}} for n in ["mcp__stub__ok", *names]],
    }
    refusal = check_request("anthropic", body)
    assert refusal is not None and (refusal.tool, refusal.tools, refusal.unjudged) == (
        names[0],
        (names[0],),
        tuple(names[1:]),
    )
    gemini = check_request("gemini", {"tools": [{"functionDeclarations": [{"name": "9a"}, {"name": "9b"}]}]})
    assert gemini is not None and (gemini.tools, gemini.unjudged) == (("9a", "9b"), ())
    sent = [SentTool(tool=n[11:], sent_as=n, how="shown") for n in ["mcp__stub__ok", *names]]
    marked = {t.sent_as: t for t in mark_refused(sent, refusal.tools, refusal.message, refusal.unjudged)}
    assert marked[names[0]].refused == refusal.message and marked[names[0]].not_judged is None
    assert all(marked[n].refused is None and marked[n].not_judged == names[0] for n in names[1:])
    assert marked["mcp__stub__ok"].refused is None and marked["mcp__stub__ok"].not_judged is None
    # A later request refused for one left unjudged judges it.
    again = {t.sent_as: t for t in mark_refused(list(marked.values()), [names[1]], "too long")}
    assert (again[names[1]].refused, again[names[1]].not_judged) == ("too long", None)
