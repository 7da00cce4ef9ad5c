"""The claude, codex and gemini adapters: their transcripts read in the documented formats, the command
lines that keep each agent to the stub, and whole runs against the real stub with fake CLIs that play
the documented contract (tests/fakes/claude, codex, gemini), started from a wrapper on PATH that runs
them with this interpreter."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from harness.agents._cli import NO_RESULT, CliAgent
from harness.agents.base import AgentReport, AgentUnavailable, Event, RunContext, ServerCommand, Usage
from harness.agents.claude import MCP_CONFIG, ClaudeAgent
from harness.agents.codex import CodexAgent, toml_value
from harness.agents.gemini import GEMINI_HOME, GeminiAgent
from harness.errors import ToolsurfaceError
from stubs.calllog import read_log

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parent.parent
FAKES = Path(__file__).resolve().parent / "fakes"
TRANSCRIPTS = FAKES / "transcripts"
PROMPT = "What is the status of task 14 in project acme-shop?"
NAMES = ["claude", "codex", "gemini"]
ADAPTERS: dict[str, type[CliAgent]] = {"claude": ClaudeAgent, "codex": CodexAgent, "gemini": GeminiAgent}
PLANTED = {
    "ANTHROPIC_API_KEY": "sk-ant-PLANTED-anthropic-1f2e",
    "CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat-PLANTED-oauth-3c4d",
    "OPENAI_API_KEY": "sk-PLANTED-openai-5e6f",
    "CODEX_API_KEY": "sk-PLANTED-codex-7a8b",
    "GEMINI_API_KEY": "PLANTED-gemini-9c0d",
    "GOOGLE_API_KEY": "PLANTED-google-1a2b",
}
RELOCATORS = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "ANTHROPIC_AUTH_TOKEN", "ENABLE_TOOL_SEARCH")
# Run directories with spaces and quotes in their names: every path goes through JSON, TOML and a shell.
AWKWARD = "a dir with \"quotes\" and 'apostrophes'"
P = "acme-shop"


def read(name: str, transcript: str, exit_code: int | None = None) -> AgentReport:
    text = (TRANSCRIPTS / transcript).read_text(encoding="utf-8")
    return ADAPTERS[name]().parse(text, exit_code=exit_code)


def kinds(report: AgentReport) -> list[str]:
    return [e.kind for e in report.events]


def calls(report: AgentReport) -> list[Event]:
    return [e for e in report.events if e.kind == "tool_call"]


def bare_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This process's environment without any credential or relocated home, and an empty HOME."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in PLANTED and k not in RELOCATORS}
    return {**env, "HOME": str(home), **extra}


@pytest.fixture
def fake_path(tmp_path: Path) -> str:
    """A PATH whose first directory holds `claude`, `codex` and `gemini` wrappers around the fakes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in NAMES:
        wrapper = bin_dir / name
        wrapper.write_text(
            f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(FAKES / name))} "$@"\n', encoding="utf-8"
        )
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"


def context(
    base: Path,
    env: Mapping[str, str],
    *,
    mode: str = "full-list",
    timeout: float = 60,
    model: str | None = None,
    max_turns: int = 7,
) -> RunContext:
    base.mkdir(parents=True, exist_ok=True)
    server = ServerCommand(
        command=sys.executable,
        args=["-m", "harness", "serve", "v2", "--log", str(base / "calls.jsonl"), "--state", str(base / "state.json")],
        cwd=str(ROOT),
    )
    return RunContext(
        prompt=PROMPT,
        server=server,
        workdir=base / "work",
        run_dir=base / "run",
        timeout=timeout,
        mode=mode,
        model=model,
        max_turns=max_turns,
        env=env,
    )


def value(argv: tuple[str, ...], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def configs(argv: tuple[str, ...]) -> dict[str, str]:
    pairs = [argv[i + 1] for i, arg in enumerate(argv) if arg == "-c"]
    return dict(pair.split("=", 1) for pair in pairs)


def toml(raw: str) -> Any:
    return tomllib.loads(f"v = {raw}")["v"]


def planted_in(paths: list[Path], secrets: Mapping[str, str] = PLANTED) -> list[str]:
    """The files among `paths` that hold one of the secrets (links are not files written)."""
    found = []
    for path in paths:
        if path.is_file() and not path.is_symlink():
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path}: {name}" for name, secret in secrets.items() if secret in text]
    return found


# Parsing the documented formats


def test_claude_transcript_gives_calls_results_denials_usage_and_cost() -> None:
    report = read("claude", "claude-session.jsonl")
    assert kinds(report) == [
        "message",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "tool_call",
        "permission_denied",
        "message",
    ]
    first, refused, corrected, store = calls(report)
    assert (first.name, first.arguments, first.id) == ("item_get", {"projectId": P, "number": 14}, "toolu_01")
    assert refused.arguments == {"kind": "task", "projectId": P, "filter": {"status": "open"}}
    assert (corrected.name, corrected.arguments) == ("item_list", {"kind": "task", "projectId": P})
    results = [e for e in report.events if e.kind == "tool_result"]
    assert [(r.id, r.is_error) for r in results] == [("toolu_01", False), ("toolu_02", True), ("toolu_03", False)]
    assert "allowed filters: priority" in str(results[1].text)
    denial = report.events[8]
    assert (denial.name, denial.id, denial.arguments) == ("item_store", "toolu_04", store.arguments)
    assert report.status == "ok" and report.error is None
    assert (
        report.final_answer == "Task 14 (Deploy checkout to staging) is blocked; I could not create the follow-up task."
    )
    assert report.usage == Usage(input_tokens=44, output_tokens=205, cache_read_tokens=17550, cache_write_tokens=4850)
    assert report.cost_usd == pytest.approx(0.04821)
    assert (report.turns, report.model) == (5, "claude-sonnet-4-5")


def test_claude_max_turns_is_an_agent_error_that_keeps_the_calls() -> None:
    report = read("claude", "claude-max-turns.jsonl")
    assert (report.status, report.error) == ("agent-error", "max turns reached")
    assert [c.name for c in calls(report)] == ["item_list"]
    assert (report.turns, report.cost_usd, report.final_answer) == (2, pytest.approx(0.0031), None)


def test_claude_with_a_stub_that_failed_to_connect_is_an_agent_error() -> None:
    report = read("claude", "claude-stub-failed.jsonl")
    assert report.status == "agent-error"
    assert "failed" in str(report.error) and "Connection closed" in str(report.error)


def test_codex_transcript_gives_calls_results_and_usage_summed_per_turn() -> None:
    report = read("codex", "codex-session.jsonl")
    assert [(c.name, c.arguments) for c in calls(report)] == [
        ("item_get", {"projectId": P, "number": 14}),
        ("item_list", {"kind": "task", "projectId": P, "filter": {"status": "open"}}),
        ("item_list", {"kind": "task", "projectId": P}),
    ]
    results = [e for e in report.events if e.kind == "tool_result"]
    assert [(r.id, r.is_error) for r in results] == [("item_1", False), ("item_2", True), ("item_3", False)]
    assert "allowed filters" in str(results[1].text)
    assert Event("error", text="Reconnecting... 1/5") in report.events
    assert report.status == "ok"
    assert report.final_answer == "Task 14 is blocked; nothing else is open for it."
    # Cached input is counted apart from input, as Claude counts it.
    assert report.usage == Usage(input_tokens=(24763 - 24448) + 1000, output_tokens=152, cache_read_tokens=24448)
    assert report.cost_usd is None


def test_codex_cancelling_an_mcp_call_for_approval_is_an_agent_error_not_a_refusal() -> None:
    report = read("codex", "codex-approval.jsonl")
    assert report.status == "agent-error"
    assert "approval" in str(report.error) and "item_get" in str(report.error)
    assert kinds(report) == ["tool_call", "permission_denied", "message"]
    assert report.events[1].name == "item_get"
    assert not any(e.kind == "tool_result" for e in report.events)


def test_gemini_transcript_gives_calls_results_joined_messages_and_stats() -> None:
    report = read("gemini", "gemini-session.jsonl")
    assert kinds(report) == ["message", "tool_call", "tool_result", "tool_call", "tool_result", "error", "message"]
    assert report.events[0].text == "Let me check."
    first, refused = calls(report)
    assert (first.name, first.arguments, first.id) == (
        "item_get",
        {"projectId": P, "number": 14},
        "mcp_stub_item_get-1-a",
    )
    assert refused.name == "item_list"
    result = report.events[4]
    assert result.is_error and "allowed filters" in str(result.text)
    assert (report.status, report.final_answer, report.model) == ("ok", "Task 14 is blocked.", "gemini-2.5-flash")
    assert report.usage == Usage(input_tokens=8800 - 2000, output_tokens=300, cache_read_tokens=2000)
    assert report.turns == 3 and report.cost_usd is None


def test_gemini_exit_53_is_max_turns_and_keeps_the_calls() -> None:
    report = read("gemini", "gemini-max-turns.jsonl", exit_code=53)
    assert (report.status, report.error) == ("agent-error", "max turns reached")
    assert len(calls(report)) == 2
    assert read("gemini", "gemini-max-turns.jsonl").error == NO_RESULT


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("junk", ["", "not json\n{", '[]\n42\nnull\n"text"\n{"type": 7}\n{"type": "result"'])
def test_malformed_lines_are_skipped_and_a_missing_result_is_an_agent_error(name: str, junk: str) -> None:
    report = ADAPTERS[name]().parse(junk)
    assert (report.status, report.error) == ("agent-error", NO_RESULT)


def test_a_failing_exit_code_turns_a_success_into_an_agent_error() -> None:
    report = read("claude", "claude-session.jsonl", exit_code=1)
    assert (report.status, report.error) == ("agent-error", "claude exited with code 1")
    assert len(calls(report)) == 4


# Command lines


@pytest.mark.parametrize("mode", ["on-demand", "full-list"])
def test_claude_command_keeps_the_agent_to_the_stubs_tools(tmp_path: Path, fake_path: str, mode: str) -> None:
    env = bare_env(tmp_path, PATH=fake_path, **PLANTED)
    ctx = context(tmp_path / AWKWARD, env, mode=mode, model="claude-haiku-4-5")
    invocation = ClaudeAgent().command(ctx)
    argv = invocation.argv
    assert argv[0] == str(tmp_path / "bin" / "claude") and argv[1:3] == ("-p", PROMPT)
    assert value(argv, "--output-format") == "stream-json" and "--verbose" in argv
    assert "--strict-mcp-config" in argv
    assert value(argv, "--tools") == ("ToolSearch" if mode == "on-demand" else "")
    assert value(argv, "--allowedTools") == "mcp__stub__*"
    assert value(argv, "--setting-sources") == ""
    assert value(argv, "--max-turns") == "7" and value(argv, "--model") == "claude-haiku-4-5"
    assert invocation.env["ENABLE_TOOL_SEARCH"] == ("true" if mode == "on-demand" else "false")
    config_path = Path(value(argv, "--mcp-config"))
    assert config_path == ctx.run_dir / MCP_CONFIG
    servers = json.loads(invocation.files[config_path])["mcpServers"]
    assert list(servers) == ["stub"] and servers["stub"]["type"] == "stdio"
    assert sys.executable in servers["stub"]["args"] and ctx.server.cwd in servers["stub"]["args"]


def test_codex_command_passes_the_stub_as_toml_read_only_and_approved(tmp_path: Path, fake_path: str) -> None:
    ctx = context(tmp_path / AWKWARD, bare_env(tmp_path, PATH=fake_path, **PLANTED), model="gpt-5-codex")
    argv = CodexAgent().command(ctx).argv
    assert argv[1:3] == ("exec", "--json") and value(argv, "-s") == "read-only"
    assert value(argv, "-C") == str(ctx.workdir) and value(argv, "-m") == "gpt-5-codex"
    assert argv[-2:] == ("--", PROMPT)
    overrides = configs(argv)
    stub = toml(overrides["mcp_servers.stub"])
    # /bin/sh changes to the stub's directory, then execs the stub's own command line.
    assert stub["command"] == "/bin/sh"
    assert stub["args"][-len(ctx.server.args) - 2 :] == [ctx.server.cwd, sys.executable, *ctx.server.args]
    assert toml(overrides["mcp_servers.stub.default_tools_approval_mode"]) == "approve"
    assert toml(overrides["features.shell_tool"]) is False


def test_gemini_settings_name_only_the_stub_trusted_and_no_builtin_tools(tmp_path: Path, fake_path: str) -> None:
    ctx = context(tmp_path / AWKWARD, bare_env(tmp_path, PATH=fake_path, **PLANTED), max_turns=9)
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
    assert settings["tools"]["core"] == [] and "run_shell_command" in settings["tools"]["exclude"]
    assert settings["model"]["maxSessionTurns"] == 9
    assert "security" not in settings and not invocation.links


@pytest.mark.parametrize("name", NAMES)
def test_no_file_or_argument_of_a_command_holds_a_key_from_the_env(tmp_path: Path, fake_path: str, name: str) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=fake_path, **PLANTED))
    invocation = ADAPTERS[name]().command(ctx)
    written = " ".join([*invocation.files.values(), *invocation.argv])
    assert not [key for key, secret in PLANTED.items() if secret in written]


@pytest.mark.parametrize("name", ["codex", "gemini"])
def test_an_agent_without_tool_search_refuses_the_on_demand_mode(tmp_path: Path, fake_path: str, name: str) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=fake_path), mode="on-demand")
    with pytest.raises(ToolsurfaceError, match="no mode 'on-demand'"):
        ADAPTERS[name]().command(ctx)


@pytest.mark.parametrize(
    "data",
    [
        '/home/a user/it\'s "quoted"/py',
        "back\\slash and C:\\path\\",
        "tab\tnew\nline\rcarriage \x01 \x7f é ☃ \U0001f600",
        "",
        ["-m", "harness", "--log", '/tmp/x "y"/calls.jsonl'],
        {"command": "/opt/my python/bin/python", "args": ["a b", 'c"d'], "env": {"A_B-1": "v", "needs quote": "w"}},
        {"nested": {"ok": True, "off": False, "n": 30, "list": [1, "two", [3]]}},
    ],
)
def test_toml_values_round_trip_through_a_toml_parser(data: object) -> None:
    assert toml(toml_value(data)) == data


# Whole runs with the fake CLIs against the real stub


async def run(agent: CliAgent, ctx: RunContext, bound: float = 60) -> AgentReport:
    with anyio.fail_after(bound):
        return await agent.run(ctx)


@pytest.mark.parametrize("name", NAMES)
async def test_each_adapter_reports_the_calls_the_stub_logged(tmp_path: Path, fake_path: str, name: str) -> None:
    base = tmp_path / AWKWARD
    ctx = context(base, bare_env(tmp_path, PATH=fake_path, **PLANTED))
    report = await run(ADAPTERS[name](), ctx)
    assert (report.status, report.error) == ("ok", None)
    records = [r for r in read_log(base / "calls.jsonl") if r["method"] == "tools/call"]
    results = {e.id: e for e in report.events if e.kind == "tool_result"}
    reported = [(c.name, c.arguments, results[c.id].is_error) for c in calls(report)]
    assert reported == [(r["tool"], r["arguments"], r["outcome"] != "ok") for r in records]
    assert [error for _, _, error in reported] == [False, True, False]
    assert report.final_answer == "Task 14 (Deploy checkout to staging) is blocked."
    assert report.usage is not None and report.duration_s is not None and report.transcript == "transcript.jsonl"
    assert (ctx.run_dir / "transcript.jsonl").is_file() and (ctx.run_dir / "agent.stderr").is_file()
    assert not planted_in([*base.rglob("*")])


async def test_a_google_login_is_linked_in_for_the_run_only(tmp_path: Path, fake_path: str) -> None:
    env = bare_env(tmp_path, PATH=fake_path)
    creds = Path(env["HOME"]) / ".gemini" / "oauth_creds.json"
    creds.parent.mkdir()
    creds.write_text('{"refresh_token": "PLANTED-refresh-token"}', encoding="utf-8")
    ctx = context(tmp_path / "g", env)
    agent = GeminiAgent()
    invocation = agent.command(ctx)
    link = ctx.run_dir / GEMINI_HOME / ".gemini" / "oauth_creds.json"
    assert dict(invocation.links) == {link: creds}
    settings = json.loads(invocation.files[link.with_name("settings.json")])
    assert settings["security"]["auth"]["selectedType"] == "oauth-personal"
    report = await run(agent, ctx)
    assert report.status == "ok"
    assert not link.exists() and not link.is_symlink()
    assert not planted_in([*(tmp_path / "g").rglob("*")], secrets={"refresh token": "PLANTED-refresh-token"})


async def test_a_cli_failing_before_its_first_event_reports_its_last_stderr_line(tmp_path: Path) -> None:
    failing = tmp_path / "claude-broken"
    failing.write_text(
        '#!/bin/sh\necho "starting" >&2\necho "Invalid API key · Please run /login" >&2\nexit 1\n', encoding="utf-8"
    )
    failing.chmod(0o755)
    ctx = context(tmp_path / "run", bare_env(tmp_path, **PLANTED))
    report = await run(ClaudeAgent(executable=str(failing)), ctx)
    assert report.status == "agent-error"
    assert report.error == "claude exited with code 1; stderr: Invalid API key · Please run /login"


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds the stub's process through /proc")
@pytest.mark.parametrize("name", NAMES)
async def test_a_hung_agent_times_out_with_its_calls_kept_and_no_process_left(
    tmp_path: Path, fake_path: str, name: str
) -> None:
    pidfile = tmp_path / "agent.pid"
    env = bare_env(tmp_path, PATH=fake_path, TOOLSURFACE_FAKE="hang", TOOLSURFACE_FAKE_PIDFILE=str(pidfile), **PLANTED)
    ctx = context(tmp_path / "t", env, timeout=4)
    report = await run(ADAPTERS[name](), ctx)
    assert report.status == "timeout" and "4 s" in str(report.error)
    assert [(c.name, c.arguments) for c in calls(report)] == [
        ("item_get", {"projectId": P, "number": 14}),
        ("item_list", {"kind": "task", "projectId": P, "filter": {"status": "open"}}),
    ]
    log = tmp_path / "t" / "calls.jsonl"
    assert [r["tool"] for r in read_log(log) if r["method"] == "tools/call"] == ["item_get", "item_list"]
    with pytest.raises(ProcessLookupError):
        os.killpg(int(pidfile.read_text(encoding="utf-8")), 0)
    # The fake starts the stub in a session of its own (the MCP SDK does); it ends when its stdin closes.
    with anyio.fail_after(15):
        while processes_mentioning(str(log)) or not (tmp_path / "t" / "state.json").exists():
            await anyio.sleep(0.05)


# Availability


@pytest.mark.parametrize("name", NAMES)
def test_a_cli_missing_from_path_is_unavailable_in_one_line(tmp_path: Path, name: str) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(AgentUnavailable) as raised:
        ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=str(tmp_path / "empty"), **PLANTED))
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{name}: CLI '{name}' not found on PATH; install it with")


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
    ],
)
def test_a_missing_key_is_unavailable_naming_the_key_and_the_login(
    tmp_path: Path, fake_path: str, name: str, key: str, fix: str
) -> None:
    with pytest.raises(AgentUnavailable) as raised:
        ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=fake_path))
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{name}: no credentials: set {key}") and f"`{fix}" in message
    ADAPTERS[name]().check_available(bare_env(tmp_path, PATH=fake_path, **{key: PLANTED[key]}))


@pytest.mark.parametrize(
    ("name", "login"),
    [("claude", ".claude/.credentials.json"), ("codex", ".codex/auth.json"), ("gemini", ".gemini/oauth_creds.json")],
)
def test_a_login_file_in_the_home_counts_as_credentials(tmp_path: Path, fake_path: str, name: str, login: str) -> None:
    env = bare_env(tmp_path, PATH=fake_path)
    (Path(env["HOME"]) / login).parent.mkdir(parents=True)
    (Path(env["HOME"]) / login).write_text("{}", encoding="utf-8")
    ADAPTERS[name]().check_available(env)
