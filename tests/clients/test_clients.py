"""`toolsurface agents` (the agent CLIs on PATH, their versions and modes) and `toolsurface clients` (what a
surface costs in each: one short scripted session per client, version and mode), with the real CLIs from npm
at the versions their adapters are tested with."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import ROOT, run_cli
from tests.fixtures.servers.instructed_notes import INSTRUCTIONS
from tests.helpers.clients import NEWEST, PINNED, env_with, newest, rows
from tests.helpers.errors import assert_one_line_error
from tests.helpers.npm_packages import CLI_CARDS, OLD_CLAUDE, agent_clis_dir
from tests.helpers.paths import FIXTURES
from tests.helpers.readme import doc_table
from tests.helpers.shared import made_once
from toolsurface.harness.agents import CliAgent, make_agent
from toolsurface.harness.agents.base import AgentEndpoint, EndpointKind, RunContext, ServerCommand
from toolsurface.harness.agents.claude import ClaudeAgent
from toolsurface.harness.clients._observe import _protocol
from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests
from toolsurface.harness.scenario import Step

__all__ = ["newest"]  # the fixture, used here

# A row per client (the registry's), version its tests install and mode.
EVERY_ROW = {(c.name, v, m) for c in CLI_CARDS.values() for v in c.tested_versions for m in c.modes}
# The clients that show every stub tool in full and none of their own with builtins off, each in its one mode.
WHOLE_LIST = ("gemini", "opencode", "copilot", "cline")
INSTRUCTED = FIXTURES / "servers" / "instructed_notes.py"
# The clients run once with their own tools kept, for the tests of --builtins on.
BUILTINS_ON = ("claude:full-list", "codex:direct", "opencode", "copilot", "cline")


@pytest.fixture(scope="session")
def pinned() -> Path:
    return agent_clis_dir()


@pytest.fixture(scope="module")
def both_surfaces(pinned: Path, newest: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """`clients v2 before-v2` with every tested client on PATH (both Claude Code versions)."""
    base = tmp_path_factory.mktemp("clients")
    done = run_cli(
        "clients", "v2", "before-v2", "--format", "json", "--out", str(base / "sessions"),
        env=env_with(base / "home", pinned, newest), cwd=base, timeout=900,
    )  # fmt: skip
    return rows(done)


# Made once for the test run, whichever worker asks first (tests.helpers.shared.made_once): a test may read one of
# them beside `both_surfaces`, whose group it then joins.
@pytest.fixture(scope="session")
def codex_markdown(pinned: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """`clients v2 --client codex:direct --format markdown`: codex in direct mode, the quickest client to start (the
    formats, not the client, are the subject of the tests that read it)."""

    def make(base: Path) -> None:
        done = run_cli(
            "clients", "v2", "--client", "codex:direct", "--format", "markdown", env=env_with(base / "home", pinned),
            cwd=base, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        (base / "out.md").write_text(done.stdout, encoding="utf-8")

    return (made_once(tmp_path_factory, "clients-codex-markdown", make) / "out.md").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def builtins_on(pinned: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """`clients v2 --builtins on` of the pinned clients whose own tools the tests read, by client."""

    def make(base: Path) -> None:
        named = [arg for client in BUILTINS_ON for arg in ("--client", client)]
        done = run_cli(
            "clients", "v2", *named, "--builtins", "on", "--format", "json", env=env_with(base / "home", pinned),
            cwd=base, timeout=900,
        )  # fmt: skip
        (base / "rows.json").write_text(json.dumps(rows(done)), encoding="utf-8")

    found = json.loads(
        (made_once(tmp_path_factory, "clients-builtins-on", make) / "rows.json").read_text(encoding="utf-8")
    )
    return {r["client"]: r for r in found}


# -- agents ------------------------------------------------------------------------------------------------


def test_agents_lists_every_cli_on_path_with_its_version_support_and_modes(
    pinned: Path, newest: Path, tmp_path: Path
) -> None:
    done = run_cli("agents", "--format", "json", env=env_with(tmp_path / "home", pinned, newest))
    assert done.returncode == 0, done.stderr
    found = {(r["name"], r["version"]): r for r in done.json()}
    assert set(found) == {(name, version) for name, version, _ in EVERY_ROW}
    assert all(r["supported"] and r["tested"] for r in found.values())
    assert found[("claude", NEWEST)]["modes"] == ["on-demand", "full-list"]
    assert found[("claude", NEWEST)]["search_modes"] == ["on-demand"]
    assert found[("codex", "0.171.0")]["modes"] == ["default", "direct"]
    assert found[("gemini", "0.61.0")]["modes"] == ["default"]
    for name, version in (("opencode", "1.18.33"), ("copilot", "1.0.102"), ("cline", "3.0.65")):
        assert found[(name, version)]["modes"] == ["default"] and found[(name, version)]["search_modes"] == []


def test_agents_says_which_cli_is_missing_and_which_is_too_old(tmp_path: Path) -> None:
    old = agent_clis_dir(OLD_CLAUDE, "claude-old")
    done = run_cli("agents", "--format", "json", env=env_with(tmp_path / "home", old))
    assert done.returncode == 0, done.stderr
    found = {r["name"]: r for r in done.json()}
    assert found["claude"]["version"] == "2.0.0" and not found["claude"]["supported"]
    assert "too old" in found["claude"]["problem"] and PINNED in found["claude"]["problem"]
    assert found["codex"]["path"] is None and "not found on PATH" in found["codex"]["problem"]
    table = run_cli("agents", env=env_with(tmp_path / "home", old))
    assert table.returncode == 0 and "2.0.0" in table.stdout


# -- clients -----------------------------------------------------------------------------------------------


def test_clients_gives_a_row_per_surface_installed_client_version_and_mode(both_surfaces: list[dict[str, Any]]) -> None:
    for surface in ("v2", "before-v2"):
        found = {(r["client"], r["version"], r["mode"]) for r in both_surfaces if r["surface"] == surface}
        assert found == EVERY_ROW, surface
    assert all(r["status"] == "ok" for r in both_surfaces), [r["status"] for r in both_surfaces]


@pytest.mark.parametrize(("surface", "tools"), [("v2", 8), ("before-v2", 27)])
def test_each_mode_shows_defers_or_surrounds_the_stubs_tools_as_the_client_does(
    both_surfaces: list[dict[str, Any]], surface: str, tools: int
) -> None:
    row = {(r["client"], r["version"], r["mode"]): r for r in both_surfaces if r["surface"] == surface}
    for version in (PINNED, NEWEST):
        on_demand, full_list = row[("claude", version, "on-demand")], row[("claude", version, "full-list")]
        assert (on_demand["shown"]["tools"], on_demand["deferred"]["tools"]) == (0, tools)
        assert on_demand["builtin"]["tools"] == 1 and on_demand["searches"] == 1  # ToolSearch, searched once
        assert (full_list["shown"]["tools"], full_list["deferred"]["tools"], full_list["builtin"]["tools"]) == (
            tools,
            0,
            0,
        )
        assert full_list["searches"] == 0
        # A deferred tool costs the model its name: far less than its definition.
        assert on_demand["deferred"]["chars"] < full_list["shown"]["chars"] / 10
        assert on_demand["server_share"] < full_list["server_share"]
    # codex as shipped defers the stub's tools behind code mode; direct puts them before the model.
    default, direct = row[("codex", "0.171.0", "default")], row[("codex", "0.171.0", "direct")]
    assert (default["shown"]["tools"], default["deferred"]["tools"]) == (0, tools)
    assert (direct["shown"]["tools"], direct["deferred"]["tools"]) == (tools, 0)
    assert default["builtin"]["tools"] > 0 and direct["builtin"]["tools"] > 0
    for (client, _, _), whole in row.items():
        if client in WHOLE_LIST:
            assert (whole["shown"]["tools"], whole["deferred"]["tools"], whole["builtin"]["tools"]) == (tools, 0, 0)
    assert all(r["system_chars"] > 1000 for r in row.values())
    # The Conderis stubs serve their server instructions: Claude Code, Gemini CLI and opencode copy them whole
    # into what the model reads; Copilot CLI and cline keep none of them; codex is recorded for what it keeps.
    from toolsurface.harness.surface import SurfaceDefinition, resolve

    definition = resolve(surface)
    assert isinstance(definition, SurfaceDefinition)
    instructions = definition.parts().instructions
    assert instructions
    whole = len(instructions.strip())
    assert all(r["instructions_chars"] == whole for k, r in row.items() if k[0] in ("claude", "gemini", "opencode"))
    assert all(r["instructions_chars"] == 0 for k, r in row.items() if k[0] in ("copilot", "cline"))
    # codex direct puts them whole in its namespace's description: instructions, not the namespace's envelope.
    assert direct["instructions_chars"] == whole and 0 < default["instructions_chars"] < whole
    assert direct["wrappers"]["tools"] > 0 and 0 < direct["wrappers"]["chars"] < whole
    assert all(r["wrappers"]["tools"] == 0 for k, r in row.items() if k[0] != "codex")


def readme_example(key: tuple[str, str, str]) -> bool:
    """The README's example: `clients v2` with the newest Claude Code and the pinned codex and gemini."""
    return key[0] == "v2" and key[1] != f"claude {PINNED}" and key[1].split()[0] in ("claude", "codex", "gemini")


@pytest.mark.parametrize("page", ["docs/sessions.md", "README.md"])
def test_the_docs_show_the_clients_table_as_the_command_prints_it(
    both_surfaces: list[dict[str, Any]], page: str
) -> None:
    table = doc_table(page, "| Surface | Client | Mode | Protocol |")
    printed = {(r["surface"], f"{r['client']} {r['version']}", r["mode"]): r for r in both_surfaces}
    assert {(r["Surface"], r["Client"], r["Mode"]) for r in table} == {
        key for key in printed if page != "README.md" or readme_example(key)
    }
    for cells in table:
        row = printed[(cells["Surface"], cells["Client"], cells["Mode"])]
        for column, part in (
            ("Server's shown", "shown"),
            ("Server's deferred", "deferred"),
            ("Built-in", "builtin"),
            ("Namespaces", "wrappers"),
        ):
            p = row[part]
            assert cells[column] == f"{p['tools']} · {p['chars']:,} · {p['tokens']:,}", (cells, column)
        # gemini-cli 0.61.0 and Claude Code 2.1.197 put text that differs by run into their system prompts (seen
        # 26,630 and 26,658; 5,653 and 5,656, with the machine's paths already placeholders): within 1 %.
        documented = int(cells["System prompt chars"].replace(",", ""))
        assert abs(documented - row["system_chars"]) <= row["system_chars"] / 100, cells
        assert cells["Server instructions chars"] == f"{row['instructions_chars']:,}", cells


def test_markdown_prints_the_parts_apart_with_what_the_cells_hold(
    codex_markdown: str, pinned: Path, tmp_path: Path
) -> None:
    assert "tools · chars · o200k tokens" in codex_markdown
    assert "system prompt chars with $HOME, the run folder and the working folder as placeholders" in codex_markdown
    [line] = [line for line in codex_markdown.splitlines() if line.startswith("| v2 |")]
    assert line.startswith("| v2 | codex 0.171.0 | direct | ") and line.endswith("| ok |")
    csv = run_cli(
        "clients", "v2", "--client", "codex:direct", "--format", "csv", env=env_with(tmp_path / "home", pinned),
        cwd=tmp_path, timeout=300,
    )  # fmt: skip
    header, row = csv.stdout.splitlines()
    assert header.startswith("surface,client,version,mode,builtins,protocol,shown_tools")
    assert row.startswith("v2,codex,0.171.0,direct,False,")


def test_a_missing_client_is_a_row_that_says_so(newest: Path, tmp_path: Path) -> None:
    done = run_cli(
        "clients", "v2", "--format", "json", env=env_with(tmp_path / "home", newest), cwd=tmp_path, timeout=300
    )
    found = {(r["client"], r["mode"]): r["status"] for r in rows(done)}
    assert found == {
        ("claude", "on-demand"): "ok",
        ("claude", "full-list"): "ok",
        **{
            (name, "-"): f"not installed (toolsurface agents --install {name})"
            for name in CLI_CARDS
            if name != "claude"
        },
    }


def test_a_named_client_that_is_missing_is_one_line(newest: Path, tmp_path: Path) -> None:
    done = run_cli("clients", "v2", "--client", "gemini", env=env_with(tmp_path / "home", newest), cwd=tmp_path)
    assert_one_line_error(done, "gemini: not found on PATH", "npm install -g @google/gemini-cli")


def test_a_named_client_too_old_is_one_line(tmp_path: Path) -> None:
    old = agent_clis_dir(OLD_CLAUDE, "claude-old")
    done = run_cli("clients", "v2", "--client", "claude", env=env_with(tmp_path / "home", old), cwd=tmp_path)
    assert_one_line_error(done, "claude: version 2.0.0 is too old", f"claude {PINNED} or newer is needed")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("clients", "v2", "--client", "claude:fast"), ("no mode 'fast'", "on-demand, full-list")),
        (
            ("clients", "v2", "--client", "cursor"),
            ("--client 'cursor'", "claude, codex, gemini, opencode, copilot, cline"),
        ),
        (("clients", "v2", "--client", "cline:plan"), ("cline: no mode 'plan'", "it runs in default")),
        (("session", "run", "--agent", "cursor", "--surface", "v2"), ("unknown agent 'cursor'", "opencode, copilot")),
        (("clients", "v2", "--builtins", "maybe"), ("'maybe' is not one of 'off', 'on'",)),
        (("clients", "no-such-surface", "--client", "claude"), ("no-such-surface",)),
        (("session", "run", "--agent", "codex:fast", "--surface", "v2"), ("no mode 'fast'", "default, direct")),
        (("session", "run", "--agent", "claude", "--surface", "v2", "--builtins", "all"), ("'all' is not one of",)),
    ],
)
def test_bad_input_is_one_line(pinned: Path, tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    out = ("--out", str(tmp_path / "o")) if args[0] == "session" else ()
    done = run_cli(*args, *out, env=env_with(tmp_path / "home", pinned), cwd=tmp_path)
    assert_one_line_error(done, *words)
    assert not (tmp_path / "o" / "runs").exists()


def test_builtins_on_keeps_the_clients_own_tools_beside_the_stubs(
    both_surfaces: list[dict[str, Any]], builtins_on: dict[str, dict[str, Any]]
) -> None:
    # Off is the default: `both_surfaces` ran the pinned claude and codex so.
    off = {(r["client"], r["mode"]): r for r in both_surfaces if r["surface"] == "v2" and r["version"] != NEWEST}
    found = {
        "off": {client: off[(client, mode)] for client, mode in (("claude", "full-list"), ("codex", "direct"))},
        "on": {client: builtins_on[client] for client in ("claude", "codex")},
    }
    assert found["off"]["claude"]["builtin"]["tools"] == 0 < found["on"]["claude"]["builtin"]["tools"]
    assert found["off"]["codex"]["builtin"]["chars"] < found["on"]["codex"]["builtin"]["chars"]
    assert all(r["shown"]["tools"] == 8 and r["builtins"] == (b == "on") for b in found for r in found[b].values())


def test_a_snapshot_file_is_served_for_listing_only(newest: Path, tmp_path: Path) -> None:
    snapshot = tmp_path / "tools.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    done = run_cli(
        "clients", str(snapshot), "--client", "claude:full-list", "--format", "json",
        env=env_with(tmp_path / "home", newest), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    [row] = rows(done)
    assert row["status"] == "ok" and row["shown"]["tools"] == 8 and row["version"] == NEWEST


def test_the_protocol_is_read_from_the_stubs_call_log_where_it_names_one(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    log.write_text('{"seq": 1, "method": "initialize"}\n{"seq": 2, "protocol": "2026-07-28"}\n', encoding="utf-8")
    assert _protocol(log) == "2026-07-28"
    log.write_text('{"seq": 1, "method": "initialize"}\n', encoding="utf-8")
    assert _protocol(log) is None and _protocol(tmp_path / "none.jsonl") is None


@pytest.mark.parametrize("version", [PINNED, NEWEST])
def test_the_server_instructions_claude_puts_before_its_model_are_found_and_counted(
    pinned: Path, newest: Path, tmp_path: Path, version: str
) -> None:
    env = env_with(tmp_path / "home", pinned if version == PINNED else newest)
    agent = ClaudeAgent()
    agent.check_available(env, "scripted")
    assert agent.version == version
    steps = [Step(0, {"say": "Done."})]
    log = tmp_path / "model-requests.jsonl"
    prompt = "Read the note called welcome."
    server = ServerCommand(command=sys.executable, args=[str(INSTRUCTED)], cwd=str(ROOT))

    async def run() -> None:
        with ModelEndpoint(log, steps=steps, prompt=prompt, instructions=INSTRUCTIONS) as endpoint:
            ctx = RunContext(
                prompt=prompt, server=server, workdir=tmp_path / "work", run_dir=tmp_path / "run", timeout=120,
                mode="full-list", max_turns=3, env=env, endpoint=AgentEndpoint(endpoint.url, EndpointKind.SCRIPTED),
            )  # fmt: skip
            report = await agent.run(ctx)
            assert report.status == "ok", report.error

    anyio.run(run)
    [first, *_] = [r for r in read_model_requests(log) if r.purpose == "turn"]
    assert first.stub_shown is not None and first.stub_shown.tools == ["mcp__stub__note_get"]
    assert first.instructions_chars == len(INSTRUCTIONS)


def test_builtins_on_keeps_the_own_tools_of_opencode_copilot_and_cline_beside_the_stubs(
    builtins_on: dict[str, dict[str, Any]],
) -> None:
    found = {name: builtins_on[name] for name in ("opencode", "copilot", "cline")}
    assert all(r["status"] == "ok" and r["builtins"] for r in found.values()), found
    assert all(r["shown"]["tools"] == 8 and r["builtin"]["tools"] > 0 for r in found.values())


# -- the server's name, as the user's config gives it ---------------------------------------------------------


def test_a_live_server_goes_into_each_clients_config_under_its_own_name(
    codex_markdown: str, pinned: Path, tmp_path: Path
) -> None:
    done = run_cli(
        "clients", "--client", "claude:full-list", "--client", "codex:direct", "--per-tool", "--format", "json",
        "--", sys.executable, str(INSTRUCTED), env=env_with(tmp_path / "home", pinned), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    found = {r["client"]: r for r in rows(done)}
    assert {r["server_name"] for r in found.values()} == {"instructed"}
    assert [t["sent_as"] for t in found["claude"]["sent"]] == ["mcp__instructed__note_get"]
    assert [t["sent_as"] for t in found["codex"]["sent"]] == ["mcp__instructed__note_get"]
    assert all(r["status"] == "ok" and r["shown"]["tools"] == 1 for r in found.values())
    assert "| Server's shown | Server's deferred |" in codex_markdown and "Stub's" not in codex_markdown


def test_a_snapshot_without_its_sidecar_goes_by_its_file_name_made_safe_which_every_client_takes(
    pinned: Path, tmp_path: Path
) -> None:
    snapshot = tmp_path / "help.desk.json"
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    snapshot.with_suffix(".meta.json").unlink()
    env = env_with(tmp_path / "home", pinned)
    done = run_cli("clients", str(snapshot), "--client", "codex:direct", "--format", "json", env=env, cwd=tmp_path)
    [row] = rows(done)
    assert row["server_name"] == "help-desk" and row["status"] == "ok" and row["shown"]["tools"] == 8
    given = run_cli("clients", str(snapshot), "--client", "codex:direct", "--server-name", "help.desk", env=env)
    assert_one_line_error(given, "--server-name 'help.desk': no client takes it")


@pytest.mark.parametrize(
    ("client", "mode"),
    [
        ("claude", "full-list"),
        ("codex", "default"),
        ("codex", "direct"),
        ("gemini", "default"),
        ("opencode", "default"),
        ("copilot", "default"),
        ("cline", "default"),
    ],
)
def test_a_tool_of_a_server_named_as_its_user_names_it_is_called_and_read_back_by_its_own_name(
    pinned: Path, tmp_path: Path, client: str, mode: str
) -> None:
    env = env_with(tmp_path / "home", pinned)
    agent = make_agent(client)
    assert isinstance(agent, CliAgent)
    agent.check_available(env, EndpointKind.SCRIPTED)
    steps = [Step(0, {"call": "note_get", "arguments": {"slug": "welcome"}}), Step(1, {"say": "Done."})]
    log = tmp_path / "model-requests.jsonl"
    prompt = "Read the note called welcome."
    server = ServerCommand(command=sys.executable, args=[str(INSTRUCTED)], cwd=str(ROOT))
    name = "acme-help-desk"  # codex cleans it to acme_help_desk, the others keep it

    async def run() -> Any:
        endpoint = ModelEndpoint(
            log, steps=steps, prompt=prompt, stub_tools=["note_get"], client=agent.card, server_name=name
        )
        with endpoint:
            ctx = RunContext(
                prompt=prompt, server=server, workdir=tmp_path / "work", run_dir=tmp_path / "run", timeout=180,
                mode=mode, max_turns=4, env=env, endpoint=AgentEndpoint(endpoint.url, EndpointKind.SCRIPTED),
                server_name=name,
            )  # fmt: skip
            return await agent.run(ctx)

    report = anyio.run(run)
    assert report.status == "ok", report.error
    calls = [e for e in report.events if e.kind == "tool_call"]
    assert [c.name for c in calls] == ["note_get"], calls
    [result] = [e for e in report.events if e.kind == "tool_result"]
    assert (result.text, result.is_error) == ("A note.", False)
    made = [r.reply for r in read_model_requests(log) if r.purpose == "turn" and r.reply and r.reply["kind"] == "call"]
    assert made and made[0]["tool"] == "note_get" and made[0]["offered"] is not False
