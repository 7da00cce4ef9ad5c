"""The claude, codex, gemini, opencode, copilot and cline adapters, against the real CLIs from npm (tests.helpers.npm_packages): the command
lines that keep each agent to the stub, what counts as credentials, a recorded real transcript read back,
and whole runs with the scripted model that time out or lose their stub."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import processes_with
from tests.helpers.agent_runs import PLANTED, PROMPT, bare_env, context, value
from tests.helpers.npm_packages import ADAPTERS, agent_clis_dir
from tests.helpers.paths import FIXTURES
from tests.helpers.waiting import wait_until_async, within
from toolsurface.harness.agents._cli import NO_RESULT, NOWHERE_PROXY
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    AgentEndpoint,
    AgentReport,
    AgentUnavailable,
    EndpointKind,
    Event,
    ServerCommand,
)
from toolsurface.harness.agents.claude import MCP_CONFIG, ClaudeAgent
from toolsurface.harness.agents.codex import CodexAgent, toml_value
from toolsurface.harness.agents.gemini import GEMINI_HOME, GeminiAgent
from toolsurface.harness.endpoint import ModelEndpoint
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.scenario import load_script
from toolsurface.stubs.calllog import read_log

pytestmark = pytest.mark.anyio

TRANSCRIPTS = FIXTURES / "transcripts"
NAMES = list(ADAPTERS)
# Run directories with spaces and quotes in their names: every path goes through JSON, TOML and a shell.
AWKWARD = "a dir with \"quotes\" and 'apostrophes'"


@pytest.fixture(scope="session")
def cli_path() -> str:
    """A PATH whose first directory holds the real, pinned `claude`, `codex` and `gemini`."""
    return f"{agent_clis_dir()}{os.pathsep}{os.environ.get('PATH', os.defpath)}"


def configs(argv: tuple[str, ...]) -> dict[str, str]:
    pairs = [argv[i + 1] for i, arg in enumerate(argv) if arg == "-c"]
    return dict(pair.split("=", 1) for pair in pairs)


def toml(raw: str) -> Any:
    return tomllib.loads(f"v = {raw}")["v"]


def calls(report: AgentReport) -> list[Event]:
    return [e for e in report.events if e.kind == "tool_call"]


# Reading a recorded real transcript


def test_claudes_pending_stub_in_on_demand_mode_is_not_a_failure() -> None:
    text = (TRANSCRIPTS / "claude-2.1.197-v2-on-demand.jsonl").read_text(encoding="utf-8")
    assert '"status":"pending"' in text.splitlines()[0]
    report = ClaudeAgent().parse(text, exit_code=0)
    assert (report.status, report.error) == ("ok", None)
    names = [c.name for c in calls(report)]
    assert names[0] == "ToolSearch" and len(names) == 15 and report.turns == 16
    assert report.final_answer is not None and report.final_answer.startswith("Open tasks:")


def test_a_failing_exit_code_turns_a_success_into_an_agent_error() -> None:
    text = (TRANSCRIPTS / "claude-2.1.197-v2-on-demand.jsonl").read_text(encoding="utf-8")
    report = ClaudeAgent().parse(text, exit_code=1)
    assert (report.status, report.error) == ("agent-error", "claude exited with code 1")
    assert len(calls(report)) == 15


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("junk", ["", "not json\n{", '[]\n42\nnull\n"text"\n{"type": 7}\n{"type": "result"'])
def test_malformed_lines_are_skipped_and_a_missing_result_is_an_agent_error(name: str, junk: str) -> None:
    report = ADAPTERS[name]().parse(junk)
    assert (report.status, report.error) == ("agent-error", NO_RESULT)


def test_codex_waiting_for_an_approval_it_cannot_get_is_an_undelivered_call_not_a_refusal() -> None:
    # codex 0.171's words, as it printed them for a call of a tool without readOnlyHint and no approval mode.
    item = {
        "id": "item_0",
        "type": "mcp_tool_call",
        "server": "stub",
        "tool": "item_store",
        "arguments": {"kind": "task"},
        "result": None,
        "error": {"message": "MCP tool call requires approval, but approval policy is never"},
        "status": "failed",
    }
    lines = [{"type": "item.started", "item": {**item, "error": None, "status": "in_progress"}}]
    lines += [{"type": "item.completed", "item": item}, {"type": "turn.completed", "usage": {}}]
    report = CodexAgent().parse("\n".join(json.dumps(line) for line in lines))
    assert report.status == "agent-error" and "approval" in str(report.error) and "item_store" in str(report.error)
    [denied] = [e for e in report.events if e.kind == "permission_denied"]
    assert denied.undelivered == "permission denied"


# Command lines, with the real executables resolved on PATH


@pytest.mark.parametrize("mode", ["on-demand", "full-list"])
def test_claude_command_keeps_the_agent_to_the_stubs_tools(tmp_path: Path, cli_path: str, mode: str) -> None:
    env = bare_env(tmp_path, PATH=cli_path, **PLANTED)
    ctx = context(tmp_path / AWKWARD, env, mode=mode, model="claude-haiku-4-5")
    invocation = ClaudeAgent().command(ctx)
    argv = invocation.argv
    assert Path(argv[0]).name == "claude" and argv[1:3] == ("-p", PROMPT)
    assert value(argv, "--output-format") == "stream-json" and "--verbose" in argv
    assert "--strict-mcp-config" in argv
    assert value(argv, "--tools") == ("ToolSearch" if mode == "on-demand" else "")
    assert value(argv, "--allowedTools") == "mcp__stub__*"
    assert value(argv, "--setting-sources") == ""
    assert value(argv, "--max-turns") == "7" and value(argv, "--model") == "claude-haiku-4-5"
    assert invocation.env["ENABLE_TOOL_SEARCH"] == ("true" if mode == "on-demand" else "false")
    assert invocation.env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    config_path = Path(value(argv, "--mcp-config"))
    assert config_path == ctx.run_dir / MCP_CONFIG
    servers = json.loads(invocation.files[config_path])["mcpServers"]
    assert list(servers) == ["stub"] and servers["stub"]["type"] == "stdio"
    assert sys.executable in servers["stub"]["args"] and ctx.server.cwd in servers["stub"]["args"]


def test_claude_connects_the_stub_before_its_first_request_and_keeps_its_own_tools_with_builtins_on(
    tmp_path: Path, cli_path: str
) -> None:
    env = bare_env(tmp_path, PATH=cli_path)
    off = ClaudeAgent().command(context(tmp_path, env, mode="on-demand"))
    on = ClaudeAgent().command(replace(context(tmp_path, env, mode="on-demand"), builtins=True))
    assert off.env["MCP_CONNECTION_NONBLOCKING"] == "false" == on.env["MCP_CONNECTION_NONBLOCKING"]
    # It waits that long for the stub, not its own 5 s: a stub slow to start under load still connects first.
    assert off.env["MCP_CONNECT_TIMEOUT_MS"] == str(int(context(tmp_path, env).timeout * 1000))
    assert value(off.argv, "--tools") == "ToolSearch" and "--tools" not in on.argv
    assert value(on.argv, "--allowedTools") == "mcp__stub__*" and value(on.argv, "--permission-mode") == "default"


@pytest.mark.parametrize(("mode", "direct"), [("default", False), ("direct", True), ("full-list", True)])
def test_codex_runs_as_shipped_by_default_and_with_the_stubs_tools_direct_in_direct_mode(
    tmp_path: Path, cli_path: str, mode: str, direct: bool
) -> None:
    invocation = CodexAgent().command(context(tmp_path, bare_env(tmp_path, PATH=cli_path), mode=mode))
    assert ("features.code_mode" in configs(invocation.argv)) is direct
    assert toml(configs(invocation.argv)["features.shell_tool"]) is False


def test_codex_and_gemini_with_builtins_on_keep_their_own_tools(tmp_path: Path, cli_path: str) -> None:
    env = bare_env(tmp_path, PATH=cli_path)
    codex = CodexAgent().command(replace(context(tmp_path, env, mode="direct"), builtins=True))
    assert not [key for key in configs(codex.argv) if key.startswith(("features.shell", "web_search", "tools."))]
    assert value(codex.argv, "-s") == "read-only"
    gemini = GeminiAgent().command(replace(context(tmp_path, env, mode="default"), builtins=True))
    [settings] = [json.loads(text) for path, text in gemini.files.items() if path.name == "settings.json"]
    assert "tools" not in settings and settings["mcpServers"]["stub"]["trust"] is True
    assert value(gemini.argv, "--approval-mode") == "default"


def test_a_scripted_endpoint_gives_claude_its_url_and_a_dummy_key_and_no_real_one(
    tmp_path: Path, cli_path: str
) -> None:
    endpoint = AgentEndpoint("http://127.0.0.1:9", EndpointKind.SCRIPTED)
    env = ClaudeAgent().command(context(tmp_path, bare_env(tmp_path, PATH=cli_path, **PLANTED), endpoint=endpoint)).env
    assert env["ANTHROPIC_BASE_URL"] == endpoint.url and env["ANTHROPIC_API_KEY"] == DUMMY_KEY
    assert "CLAUDE_CODE_OAUTH_TOKEN" not in env


def test_codex_command_passes_the_stub_as_toml_read_only_approved_and_required(tmp_path: Path, cli_path: str) -> None:
    endpoint = AgentEndpoint("http://127.0.0.1:9", EndpointKind.SCRIPTED)
    env = bare_env(tmp_path, PATH=cli_path, **PLANTED)
    ctx = context(tmp_path / AWKWARD, env, model="gpt-5-codex", endpoint=endpoint)
    invocation = CodexAgent().command(ctx)
    argv = invocation.argv
    assert argv[1:3] == ("exec", "--json") and value(argv, "-s") == "read-only"
    assert value(argv, "-C") == str(ctx.workdir) and value(argv, "-m") == "gpt-5-codex"
    assert argv[-2:] == ("--", PROMPT)
    overrides = configs(argv)
    stub = toml(overrides["mcp_servers.stub"])
    # /bin/sh changes to the stub's directory and stays, taking the SIGKILL codex sends the process it started
    # as it exits; the stub, in the shell's process group, ends on codex's SIGTERM with its state written.
    assert stub["command"] == "/bin/sh" and "exec" not in stub["args"][1]
    assert stub["args"][-len(ctx.server.args) - 2 :] == [ctx.server.cwd, sys.executable, *ctx.server.args]
    assert stub["default_tools_approval_mode"] == "approve" and stub["required"] is True
    assert toml(overrides["features.code_mode"]) == {"enabled": True, "direct_only_tool_namespaces": ["mcp__stub"]}
    assert toml(overrides["features.shell_tool"]) is False and toml(overrides["web_search"]) == "disabled"
    # codex ignores OPENAI_BASE_URL; the endpoint goes in as a -c option, the key as CODEX_API_KEY.
    assert toml(overrides["openai_base_url"]) == "http://127.0.0.1:9/v1"
    assert invocation.env["CODEX_API_KEY"] == DUMMY_KEY and "OPENAI_API_KEY" not in invocation.env
    assert invocation.env["CODEX_HOME"] == str(ctx.run_dir / "codex-home")
    # Its analytics, account and plugin-marketplace requests (git ls-remote) go to a closed loopback port.
    assert invocation.env["HTTPS_PROXY"] == NOWHERE_PROXY == invocation.env["https_proxy"]
    assert "127.0.0.1" in invocation.env["NO_PROXY"]


def test_codex_takes_a_base_url_like_the_openai_agent(tmp_path: Path, cli_path: str) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path, **PLANTED))
    argv = CodexAgent(base_url="http://localhost:8000/v1").command(ctx).argv
    assert toml(configs(argv)["openai_base_url"]) == "http://localhost:8000/v1"


def test_gemini_settings_allow_only_the_stubs_tools_and_choose_the_key_login_with_a_base_url(
    tmp_path: Path, cli_path: str
) -> None:
    endpoint = AgentEndpoint("http://127.0.0.1:9", EndpointKind.SCRIPTED)
    ctx = context(tmp_path / AWKWARD, bare_env(tmp_path, PATH=cli_path, **PLANTED), max_turns=9, endpoint=endpoint)
    invocation = GeminiAgent().command(ctx)
    argv = invocation.argv
    assert argv[1:3] == ("-p", PROMPT) and value(argv, "-o") == "stream-json"
    assert value(argv, "--approval-mode") == "yolo" and value(argv, "--allowed-mcp-server-names") == "stub"
    gemini_home = Path(invocation.env["GEMINI_CLI_HOME"])
    assert gemini_home == ctx.run_dir / GEMINI_HOME
    settings = json.loads(invocation.files[gemini_home / ".gemini" / "settings.json"])
    assert list(settings["mcpServers"]) == ["stub"]
    stub = settings["mcpServers"]["stub"]
    assert stub["trust"] is True and stub["command"] == sys.executable and stub["cwd"] == ctx.server.cwd
    # Any core list is an allowlist: [] would hide the stub's tools too. No exclusion: gemini-cli would apply one
    # to a server's tool of the same name.
    assert settings["tools"] == {"core": ["mcp_stub_*"]}
    assert settings["model"]["maxSessionTurns"] == 9
    assert settings["privacy"] == {"usageStatisticsEnabled": False}
    assert settings["security"]["auth"]["selectedType"] == "gemini-api-key" and not invocation.links
    assert invocation.env["GOOGLE_GEMINI_BASE_URL"] == endpoint.url and invocation.env["GEMINI_API_KEY"] == DUMMY_KEY
    assert invocation.env["GEMINI_CLI_NO_RELAUNCH"] == "true"  # one process, not a second in a child


def test_a_google_login_is_linked_in_for_a_run_in_the_users_home_only(tmp_path: Path, cli_path: str) -> None:
    env = bare_env(tmp_path, PATH=cli_path)
    creds = Path(env["HOME"]) / ".gemini" / "oauth_creds.json"
    creds.parent.mkdir()
    creds.write_text('{"refresh_token": "PLANTED-refresh-token"}', encoding="utf-8")
    ctx = context(tmp_path / "g", env)
    assert not GeminiAgent().command(ctx).links  # a home of the run's own (--agent-home run) reads no login
    ctx = replace(ctx, agent_home="user")
    invocation = GeminiAgent().command(ctx)
    link = ctx.run_dir / GEMINI_HOME / ".gemini" / "oauth_creds.json"
    assert dict(invocation.links) == {link: creds}
    settings = json.loads(invocation.files[link.with_name("settings.json")])
    assert settings["security"]["auth"]["selectedType"] == "oauth-personal"
    assert "PLANTED-refresh-token" not in " ".join([*invocation.files.values(), *invocation.argv])


def full_list_or_own(name: str) -> str:
    """The full-list mode, or the client's own where it has none (droid runs on demand only)."""
    card = ADAPTERS[name].card
    return "full-list" if card.takes_mode("full-list") else card.modes[0]


@pytest.mark.parametrize("name", NAMES)
def test_no_file_or_argument_of_a_command_holds_a_key_from_the_env(tmp_path: Path, cli_path: str, name: str) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path, **PLANTED), mode=full_list_or_own(name))
    invocation = ADAPTERS[name]().command(ctx)
    written = " ".join([*invocation.files.values(), *invocation.argv])
    assert not [key for key, secret in PLANTED.items() if secret in written]


@pytest.mark.parametrize("name", [name for name, cls in ADAPTERS.items() if "on-demand" not in cls.card.modes])
def test_an_agent_without_tool_search_refuses_the_on_demand_mode(tmp_path: Path, cli_path: str, name: str) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path), mode="on-demand")
    with pytest.raises(ToolsurfaceError, match="no mode 'on-demand'"):
        ADAPTERS[name]().command(ctx)


@pytest.mark.parametrize(
    "data",
    [
        '/home/a user/it\'s "quoted"/py',
        "back\\slash and C:\\path\\",
        "tab\tnew\nline\rcarriage \x01 \x7f é ☃ \U0001f600",
        "",
        ["-m", "toolsurface", "--log", '/tmp/x "y"/calls.jsonl'],
        {"command": "/opt/my python/bin/python", "args": ["a b", 'c"d'], "env": {"A_B-1": "v", "needs quote": "w"}},
        {"nested": {"ok": True, "off": False, "n": 30, "list": [1, "two", [3]]}},
    ],
)
def test_toml_values_round_trip_through_a_toml_parser(data: object) -> None:
    assert toml(toml_value(data)) == data


# Whole runs of the real CLIs with the scripted model


def scripted(tmp_path: Path, steps: list[dict[str, Any]]) -> ModelEndpoint:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    return ModelEndpoint(tmp_path / "model-requests.jsonl", steps=load_script(script), prompt=PROMPT)


TWO_CALLS_THEN_SILENCE = [
    {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}},
    {"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop", "filter": {"status": "open"}}},
    {"wait": 120},
    {"say": "never said"},
]


# Every client hangs at once, each against its own endpoint and stub: the run's deadline is the subject, long
# enough for all of them to start together on two cores and make their two calls (in CI, with empty caches,
# opencode 1.18.33 alone once took over 12 s to its first call).
HUNG_TIMEOUT_S = 75


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds the stub's process through /proc")
@pytest.mark.whole_core  # every CLI at once, against one deadline
async def test_a_hung_agent_times_out_with_its_calls_kept_and_no_process_left(tmp_path: Path, cli_path: str) -> None:
    import anyio

    reports: dict[str, AgentReport] = {}

    async def hang(name: str) -> None:
        base = tmp_path / name / "t"
        (tmp_path / name).mkdir()
        with scripted(tmp_path / name, TWO_CALLS_THEN_SILENCE) as endpoint:
            ctx = context(
                base,
                bare_env(tmp_path / name, PATH=cli_path),
                mode=full_list_or_own(name),
                timeout=HUNG_TIMEOUT_S,
                endpoint=AgentEndpoint(endpoint.url, EndpointKind.SCRIPTED),
            )
            reports[name] = await ADAPTERS[name]().run(ctx)

    with within(HUNG_TIMEOUT_S + 90, "every client's run to end at its timeout"):
        async with anyio.create_task_group() as group:
            for name in NAMES:
                group.start_soon(hang, name)
    for name in NAMES:
        report = reports[name]
        assert report.status == "timeout" and f"within {HUNG_TIMEOUT_S} s" in str(report.error), (name, report)
        assert [c.name for c in calls(report)][-2:] == ["item_get", "item_list"], name
        log = tmp_path / name / "t" / "calls.jsonl"
        requests = (tmp_path / name / "model-requests.jsonl").read_text(encoding="utf-8").splitlines()
        offered = [(json.loads(line).get("reply") or {}).get("offered") for line in requests]
        logged = [r.tool for r in read_log(log) if r.method == "tools/call"]
        stderr = (tmp_path / name / "t" / "run" / "agent.stderr").read_text(encoding="utf-8", errors="replace")
        if offered and not any(offered):
            # The client began its turns before its MCP server was connected (Copilot CLI does so when the
            # machine is loaded): the tools were never offered, so the calls reached no stub, and the report
            # still keeps both, each marked as not delivered.
            results = [e for e in report.events if e.kind == "tool_result"]
            assert logged == [] and [e.undelivered for e in results][-2:] == ["unknown tool"] * 2, (
                name,
                stderr[-2000:],
            )
        else:
            assert logged == ["item_get", "item_list"], (name, offered, report.events, stderr[-2000:])
    for name in NAMES:
        base = tmp_path / name / "t"
        await wait_until_async(
            lambda base=base: not processes_with(str(base / "calls.jsonl")) and (base / "state.json").exists(),
            15,
            f"{name}'s stub to write its state and leave no process",
        )


async def test_claude_with_a_stub_that_cannot_start_is_an_agent_error(tmp_path: Path, cli_path: str) -> None:
    broken = ServerCommand(command=sys.executable, args=["-c", "import sys; sys.exit(3)"], cwd=str(tmp_path))
    with scripted(tmp_path, [{"call": "item_get", "arguments": {"number": 14}}, {"say": "done"}]) as endpoint:
        ctx = context(
            tmp_path / "b",
            bare_env(tmp_path, PATH=cli_path),
            endpoint=AgentEndpoint(endpoint.url, EndpointKind.SCRIPTED),
            server=broken,
        )
        with within(60, "claude's run with a broken stub"):
            report = await ClaudeAgent().run(ctx)
    assert report.status == "agent-error" and "the stub MCP server is failed" in str(report.error)


async def test_a_cli_failing_before_its_first_event_reports_its_last_stderr_line(tmp_path: Path) -> None:
    """A stand-in, not a real CLI: no real CLI can be made here to fail before its first event with a message of
    its own on stderr (they fall back, retry or print an event first), and the reading of stderr is the subject."""
    failing = tmp_path / "claude-broken"
    failing.write_text(
        '#!/bin/sh\necho "starting" >&2\necho "Invalid API key · Please run /login" >&2\nexit 1\n', encoding="utf-8"
    )
    failing.chmod(0o755)
    ctx = context(tmp_path / "run", bare_env(tmp_path, **PLANTED))
    with within(30, "the failing CLI's run"):
        report = await ClaudeAgent(executable=str(failing)).run(ctx)
    assert report.status == "agent-error"
    assert report.error == "claude exited with code 1; stderr: Invalid API key · Please run /login"


# Availability


@pytest.mark.parametrize("name", NAMES)
def test_a_cli_missing_from_path_is_unavailable_in_one_line(tmp_path: Path, name: str) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(AgentUnavailable) as raised:
        ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=str(tmp_path / "empty"), **PLANTED))
    message = str(raised.value)
    assert "\n" not in message and message.startswith(
        f"{name}: CLI '{name}' not found on PATH or in toolsurface's cache; install it with `toolsurface agents"
        f" --install {name}` (or `npm install -g "
    )


def test_a_named_executable_that_does_not_exist_is_unavailable(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "claude")
    with pytest.raises(AgentUnavailable, match=r"^claude: CLI '.*nowhere/claude' not found; install"):
        ClaudeAgent(executable=missing).check_available(bare_env(tmp_path, **PLANTED))


@pytest.mark.parametrize(
    ("name", "key", "fix"),
    [
        ("claude", "ANTHROPIC_API_KEY", "claude"),
        ("codex", "OPENAI_API_KEY", "codex login"),
        ("gemini", "GEMINI_API_KEY", "gemini"),
        ("opencode", "ANTHROPIC_API_KEY", "opencode auth login"),
        ("copilot", "COPILOT_GITHUB_TOKEN", "copilot login"),
        ("cline", "CLINE_API_KEY", "cline auth"),
    ],
)
def test_a_missing_key_is_unavailable_naming_the_key_and_the_login(
    tmp_path: Path, cli_path: str, name: str, key: str, fix: str
) -> None:
    with pytest.raises(AgentUnavailable) as raised:
        ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=cli_path))
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{name}: no credentials: set {key}") and f"`{fix}" in message
    ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=cli_path, **{key: PLANTED[key]}))
    # The scripted model needs no key at all.
    ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=cli_path), "scripted")


@pytest.mark.parametrize(
    ("name", "login"),
    [
        ("claude", ".claude/.credentials.json"),
        ("codex", ".codex/auth.json"),
        ("gemini", ".gemini/oauth_creds.json"),
        ("opencode", ".local/share/opencode/auth.json"),
        ("cline", ".cline/data/settings/providers.json"),
    ],
)
def test_a_login_file_in_the_home_counts_as_credentials_for_a_run_in_the_users_home(
    tmp_path: Path, cli_path: str, name: str, login: str
) -> None:
    env = bare_env(tmp_path, PATH=cli_path)
    agent = ADAPTERS[name]()
    assert agent.missing_credentials(env) is not None
    (Path(env["HOME"]) / login).parent.mkdir(parents=True)
    (Path(env["HOME"]) / login).write_text("{}", encoding="utf-8")
    # A run in a home of its own (--agent-home run, the default) reads no login of the user's, and says how to.
    with pytest.raises(AgentUnavailable, match=r"^[a-z]+: no credentials: set .*, or use your login \(/.*\) with"):
        agent.check_available(env)
    agent.check_available(env, home="user")
    assert agent.missing_credentials(env) is None and agent.version


def test_a_cli_is_asked_its_version_once_until_its_file_changes(tmp_path: Path) -> None:
    asked = tmp_path / "asked"
    cli = tmp_path / "claude"

    def write(version: str) -> None:
        cli.write_text(f'#!/bin/sh\necho x >> "{asked}"\necho "{version} (Claude Code)"\n', encoding="utf-8")
        cli.chmod(0o755)

    write("2.1.300")
    agent = ClaudeAgent()
    assert agent.read_version(str(cli), dict(os.environ)) == (2, 1, 300)
    assert agent.read_version(str(cli), dict(os.environ)) == (2, 1, 300)
    assert asked.read_text(encoding="utf-8").count("x") == 1
    write("2.1.4000")  # another length, so the file differs whatever the clock's resolution
    assert agent.read_version(str(cli), dict(os.environ)) == (2, 1, 4000)
    assert asked.read_text(encoding="utf-8").count("x") == 2
