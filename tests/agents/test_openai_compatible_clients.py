"""The opencode, Copilot CLI and cline adapters with the real CLIs from npm (tests.helpers.npm_packages): each is given
the stub as its only MCP server in its own config format and the scripted endpoint as its OpenAI-compatible
provider, with no key of the user's and every other request sent to a closed loopback port; their real
transcripts (six-tasks on v2, recorded with the pinned versions) read back; and real runs that call a tool the
client has not got, or that name a mode or a version the adapter does not have."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.agent_runs import (
    PLANTED,
    SECRET,
    V2_TOOLS,
    assert_refused,
    bare_env,
    cli_env,
    context,
    files_holding,
    records,
    run_dir,
    turns,
    value,
)
from tests.helpers.npm_packages import AGENT_CLIS, agent_clis_dir, newer_than_pinned
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents import cline, copilot, opencode
from toolsurface.harness.agents._cli import NOWHERE_PROXY, CliAgent
from toolsurface.harness.agents.base import DUMMY_KEY, AgentEndpoint, EndpointKind
from toolsurface.harness.agents.cline import OWN_TOOLS, ClineAgent
from toolsurface.harness.agents.copilot import COPILOT_HOME, MCP_CONFIG, CopilotAgent
from toolsurface.harness.agents.opencode import OPENCODE_CONFIG, OpencodeAgent

TRANSCRIPTS = FIXTURES / "transcripts"
ADAPTERS: dict[str, type[CliAgent]] = {"opencode": OpencodeAgent, "copilot": CopilotAgent, "cline": ClineAgent}
# The keys each client reads from its environment.
OWN_KEYS = {
    "opencode": opencode.KEYS,
    "copilot": (*copilot.KEYS, *copilot.PROVIDER_KEYS, "OPENAI_API_KEY"),
    "cline": cline.KEYS,
}
ENDPOINT = AgentEndpoint("http://127.0.0.1:8123", EndpointKind.SCRIPTED)


@pytest.fixture(scope="session")
def cli_path() -> str:
    """A PATH whose first directory holds the real, pinned CLIs."""
    return f"{agent_clis_dir()}{os.pathsep}{os.environ.get('PATH', os.defpath)}"


def transcript(name: str) -> str:
    version = AGENT_CLIS[name].rsplit("@", 1)[1]
    return (TRANSCRIPTS / f"{name}-{version}-v2-default.jsonl").read_text(encoding="utf-8")


# Reading a recorded real transcript


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_real_six_tasks_transcript_reads_as_its_fourteen_calls_the_refusal_and_the_answer(name: str) -> None:
    report = ADAPTERS[name]().parse(transcript(name), exit_code=0)
    assert (report.status, report.error) == ("ok", None)
    calls = [e for e in report.events if e.kind == "tool_call"]
    results = {e.id: e for e in report.events if e.kind == "tool_result"}
    assert len(calls) == 14 and {c.name for c in calls} <= set(V2_TOOLS)
    assert set(results) == {c.id for c in calls}
    [refused] = [r for r in results.values() if r.is_error]
    assert refused.text is not None and "allowed filters" in refused.text and refused.undelivered is None
    assert report.final_answer is not None and report.final_answer.startswith("Open tasks:")
    assert report.turns == 15


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_real_transcript_cut_before_its_end_is_an_agent_error(name: str) -> None:
    lines = transcript(name).splitlines()
    report = ADAPTERS[name]().parse("\n".join(lines[: len(lines) // 2]), exit_code=None)
    assert report.status == "agent-error" and report.error


# What each client is given


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_scripted_endpoint_is_the_clients_provider_with_a_dummy_key_and_nothing_else_reachable(
    tmp_path: Path, cli_path: str, name: str
) -> None:
    env = bare_env(tmp_path, PATH=cli_path, **PLANTED)
    invocation = ADAPTERS[name]().command(context(tmp_path, env, mode="default", endpoint=ENDPOINT))
    given = " ".join([*invocation.files.values(), *invocation.argv])
    assert not [key for key, secret in PLANTED.items() if secret in given]
    # The keys the client reads are gone from its environment; what it is given instead is the dummy key.
    assert not [key for key in OWN_KEYS[name] if invocation.env.get(key, DUMMY_KEY) != DUMMY_KEY]
    everything = " ".join([given, *invocation.env.values()])
    assert DUMMY_KEY in everything and f"{ENDPOINT.url}/v1" in everything
    assert invocation.env["HTTPS_PROXY"] == NOWHERE_PROXY == invocation.env["HTTP_PROXY"]
    assert "127.0.0.1" in invocation.env["NO_PROXY"]
    assert Path(invocation.argv[0]).name == name


def test_opencode_gets_the_stub_as_a_local_server_and_denies_its_own_tools_unless_builtins_are_on(
    tmp_path: Path, cli_path: str
) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path), mode="default", endpoint=ENDPOINT)
    invocation = OpencodeAgent().command(ctx)
    config = json.loads(invocation.files[ctx.run_dir / OPENCODE_CONFIG])
    assert list(config["mcp"]) == ["stub"] and config["mcp"]["stub"]["type"] == "local"
    assert sys.executable in config["mcp"]["stub"]["command"]
    assert config["permission"] == {"*": "deny", "stub_*": "allow"}
    provider = config["provider"]["toolsurface"]
    assert provider["npm"] == "@ai-sdk/openai-compatible" and provider["options"]["baseURL"] == f"{ENDPOINT.url}/v1"
    assert value(invocation.argv, "--format") == "json" and value(invocation.argv, "-m") == "toolsurface/scripted"
    assert invocation.env["OPENCODE_CONFIG"] == str(ctx.run_dir / OPENCODE_CONFIG)
    on = OpencodeAgent().command(replace(ctx, builtins=True))
    assert json.loads(on.files[ctx.run_dir / OPENCODE_CONFIG])["permission"]["*"] == "ask"


def test_copilot_gets_its_byok_provider_offline_and_only_the_stubs_tools_unless_builtins_are_on(
    tmp_path: Path, cli_path: str
) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path), mode="default", endpoint=ENDPOINT)
    invocation = CopilotAgent().command(ctx)
    env = invocation.env
    assert env["COPILOT_PROVIDER_BASE_URL"] == f"{ENDPOINT.url}/v1" and env["COPILOT_PROVIDER_TYPE"] == "openai"
    assert env["COPILOT_OFFLINE"] == "true" and env["COPILOT_PROVIDER_API_KEY"] == DUMMY_KEY
    assert env["COPILOT_HOME"] == str(ctx.run_dir / COPILOT_HOME)
    config = json.loads(invocation.files[ctx.run_dir / COPILOT_HOME / MCP_CONFIG])
    assert list(config["mcpServers"]) == ["stub"] and config["mcpServers"]["stub"]["tools"] == ["*"]
    assert value(invocation.argv, "--available-tools") == "stub" and "--allow-all-tools" in invocation.argv
    assert value(invocation.argv, "--output-format") == "json" and "--disable-builtin-mcps" in invocation.argv
    on = CopilotAgent().command(replace(ctx, builtins=True)).argv
    assert "--available-tools" not in on and "--allow-all-tools" not in on and value(on, "--allow-tool") == "stub"


def test_cline_gets_its_openai_compatible_provider_and_its_own_tools_switched_off_unless_builtins_are_on(
    tmp_path: Path, cli_path: str
) -> None:
    ctx = context(tmp_path, bare_env(tmp_path, PATH=cli_path), mode="default", endpoint=ENDPOINT)
    invocation = ClineAgent().command(ctx)
    files = {path.name: json.loads(text) for path, text in invocation.files.items()}
    assert list(files["cline_mcp_settings.json"]["mcpServers"]) == ["stub"]
    provider = files["providers.json"]["providers"]["openai-compatible"]["settings"]
    assert provider["baseUrl"] == f"{ENDPOINT.url}/v1" and provider["apiKey"] == DUMMY_KEY
    assert files["global-settings.json"]["disabledTools"] == list(OWN_TOOLS)
    assert files["global-settings.json"]["telemetryOptOut"] is True
    assert value(invocation.argv, "-P") == "openai-compatible" and "--json" in invocation.argv
    assert value(invocation.argv, "--data-dir") == str(ctx.run_dir / "cline-data")
    on = ClineAgent().command(replace(ctx, builtins=True))
    settings = [json.loads(t) for p, t in on.files.items() if p.name == "global-settings.json"]
    assert "disabledTools" not in settings[0] and value(on.argv, "--auto-approve") == "false"


# Real runs


def test_a_call_of_a_tool_the_client_has_not_got_is_undelivered_in_each_client(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    steps = [
        {"call": "task_list", "arguments": {"projectId": "acme-shop"}},
        {"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}},
        {"say": "done"},
    ]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    out = tmp_path / "study"
    chosen = [arg for name in ADAPTERS for arg in ("--agent", name)]
    done = run_cli(
        "session", "run", *chosen, "--model-endpoint", "scripted", "--surface", "v2", "--script", str(script),
        "--out", str(out), "--jobs", "2", "--timeout", "240",
        env=cli_env(agent_clis_dir(), tmp_path / "home"), cwd=tmp_path, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for name in ADAPTERS:
        result = json.loads((run_dir(out, "v2", name) / "result.json").read_text(encoding="utf-8"))
        assert result["status"] == "ok", (name, result["error"])
        [undelivered] = result["undelivered"]
        assert (undelivered["tool"], undelivered["reason"]) == ("task_list", "unknown tool"), name
        assert result["calls"] == 1 and result["tools_called"] == ["item_list"], name


@pytest.mark.parametrize("name", ADAPTERS)
def test_a_mode_the_client_has_not_got_is_one_line(tmp_path: Path, name: str) -> None:
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", f"{name}:on-demand", "--model-endpoint", "scripted", "--surface", "v2",
        "--out", str(out), env=cli_env(agent_clis_dir(), tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, f"agent {name} has no mode 'on-demand'", "modes: default")


@pytest.mark.parametrize("name", ADAPTERS)
def test_the_pinned_cli_older_than_the_version_needed_is_one_line_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    needed = newer_than_pinned(name)
    monkeypatch.setattr(ADAPTERS[name], "min_version", needed)
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", name, "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        env=cli_env(agent_clis_dir(), tmp_path / "home"), cwd=tmp_path,
    )  # fmt: skip
    pinned = AGENT_CLIS[name].rsplit("@", 1)[1]
    wanted = ".".join(map(str, needed))
    assert_refused(done, out, f"{name}: version {pinned} is too old; {name} {wanted} or newer is needed", "npm install")


def test_a_recorded_run_of_each_client_passes_through_with_the_users_key_and_no_file_keeps_it(
    tmp_path: Path, scripted_upstream: tuple[str, Path]
) -> None:
    url, upstream_log = scripted_upstream
    out = tmp_path / "study"
    chosen = [arg for name in ADAPTERS for arg in ("--agent", name)]
    done = run_cli(
        "session", "run", *chosen, "--model-endpoint", f"record:{url}", "--surface", "v2", "--out", str(out),
        "--jobs", "2", "--timeout", "240", env=cli_env(agent_clis_dir(), tmp_path / "home"), cwd=tmp_path,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    recorded = 0
    for name in ADAPTERS:
        directory = run_dir(out, "v2", name)
        result = json.loads((directory / "result.json").read_text(encoding="utf-8"))
        assert result["status"] == "ok" and result["calls"] == 14, (name, result["error"])
        assert all(r["endpoint"] == "record" for r in turns(directory)), name
        recorded += len(turns(directory))
    # Every turn the clients sent reached the upstream, and was recorded on the way.
    upstream = [r for r in records(upstream_log) if r["purpose"] == "turn"]
    assert recorded == len(upstream) > 0
    assert files_holding(out, SECRET) == [] and files_holding(tmp_path / "home", SECRET) == []
