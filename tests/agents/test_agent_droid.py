"""Factory's droid: its adapter on its own (its recorded six-tasks transcript and session file, 0.215.0 on demand; what a
run gives it), and the real CLI from npm (tests.helpers.npm_packages) on the scripted model: a call of a tool it has
not got, a run whose session it keeps for `session import`, and the names it gives a server's tools."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.agent_runs import (
    PLANTED,
    V2_TOOLS,
    assert_refused,
    bare_env,
    cli_env,
    context,
    run_dir,
    turns,
    value,
)
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents import client_card
from toolsurface.harness.agents._cli import NOWHERE_PROXY
from toolsurface.harness.agents.base import DUMMY_KEY, AgentEndpoint, EndpointKind
from toolsurface.harness.agents.droid import DROID_HOME, DroidAgent, read_session

VERSION = DroidAgent.card.pinned
TRANSCRIPT = FIXTURES / "transcripts" / f"droid-{VERSION}-v2-on-demand.jsonl"
SESSION = FIXTURES / "sessions" / f"droid-{VERSION}-v2.jsonl"
ENDPOINT = AgentEndpoint("http://127.0.0.1:8123", EndpointKind.SCRIPTED)


def test_its_six_tasks_transcript_reads_as_its_search_the_fourteen_calls_the_refusal_and_the_answer() -> None:
    report = DroidAgent().parse(TRANSCRIPT.read_text(encoding="utf-8"), exit_code=0)
    assert (report.status, report.error) == ("ok", None)
    calls = [e for e in report.events if e.kind == "tool_call"]
    results = {e.id: e for e in report.events if e.kind == "tool_result"}
    assert [c.name for c in calls if c.name not in V2_TOOLS] == ["ToolSearch"]
    assert len([c for c in calls if c.name in V2_TOOLS]) == 14 and set(results) == {c.id for c in calls}
    [refused] = [r for r in results.values() if r.is_error]
    assert refused.text is not None and "allowed filters" in refused.text and refused.undelivered is None
    assert report.final_answer is not None and report.final_answer.startswith("Open tasks:")
    assert report.turns == 16 and report.usage is not None and report.usage.input_tokens > 0


def test_a_transcript_cut_before_its_completion_is_an_agent_error() -> None:
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    report = DroidAgent().parse("\n".join(lines[: len(lines) // 2]), exit_code=None)
    assert report.status == "agent-error" and report.error == "the transcript ended without a result event"


def test_its_session_file_reads_as_each_call_of_the_servers_tools_its_search_and_the_sessions_usage() -> None:
    read = read_session(SESSION)
    assert read.client == "droid" and read.model == "custom:scripted-0" and read.session
    assert (
        len(read.calls) == 14
        and {c.server for c in read.calls} == {"stub"}
        and {c.tool for c in read.calls} <= set(V2_TOOLS)
    )
    assert sum(c.error for c in read.calls) == 1 and all(c.answer for c in read.calls)
    [search] = read.searches
    assert search.query == "item list" and search.found[0] == "stub___item_list" and len(search.found) == 5
    [turn] = read.turns
    assert turn.usage.input_tokens > 0 and turn.usage.output_tokens > 0


def test_a_scripted_endpoint_is_a_custom_model_of_its_own_home_with_a_dummy_key_and_nothing_else_reachable(
    tmp_path: Path,
) -> None:
    env = bare_env(tmp_path, FACTORY_API_KEY="fk-PLANTED-factory-9d8c", **PLANTED)
    ctx = context(tmp_path, env, mode="on-demand", endpoint=ENDPOINT)
    invocation = DroidAgent(executable="/bin/true").command(ctx)
    factory = ctx.run_dir / DROID_HOME / ".factory"
    settings = json.loads(invocation.files[factory / "settings.json"])
    [model] = settings["customModels"]
    assert (model["baseUrl"], model["apiKey"], model["provider"]) == (
        f"{ENDPOINT.url}/v1",
        DUMMY_KEY,
        "generic-chat-completion-api",
    )
    servers = json.loads(invocation.files[factory / "mcp.json"])["mcpServers"]
    assert list(servers) == ["stub"] and servers["stub"]["type"] == "stdio"
    assert value(invocation.argv, "--model") == "custom:scripted"
    # Builtins off: the servers' tools alone, nothing else to allow.
    assert value(invocation.argv, "--only-tools") == "MCP:stub" and "--skip-permissions-unsafe" in invocation.argv
    assert invocation.env["FACTORY_HOME_OVERRIDE"] == str(ctx.run_dir / DROID_HOME)
    assert "FACTORY_API_KEY" not in invocation.env
    given = " ".join([*invocation.files.values(), *invocation.argv])
    assert not [key for key, secret in PLANTED.items() if secret in given]
    assert invocation.env["HTTPS_PROXY"] == NOWHERE_PROXY and "127.0.0.1" in invocation.env["NO_PROXY"]


def test_with_builtins_on_its_own_tools_stay_at_its_default_autonomy(tmp_path: Path) -> None:
    ctx = context(tmp_path, bare_env(tmp_path), mode="on-demand", endpoint=ENDPOINT)
    invocation = DroidAgent(executable="/bin/true").command(replace(ctx, builtins=True))
    assert value(invocation.argv, "--add-tools") == "MCP:stub"
    assert "--only-tools" not in invocation.argv and "--skip-permissions-unsafe" not in invocation.argv


def test_its_naming_rule_cuts_a_long_name_to_64_with_eight_hex_digits_of_its_sha256() -> None:
    naming = client_card("droid").naming
    assert naming is not None
    assert naming.full_name("item.get", "stub") == "stub___item_get"
    # As droid 0.215.0 named a tool of 70 characters of a server called `long` (seen in its request).
    long = naming.full_name("name_70_" + "x" * 62, "long")
    assert long == "long___name_70_" + "x" * 40 + "_4a7c5239" and len(long) == 64


def test_without_a_model_endpoint_a_missing_factory_key_is_one_line(tmp_path: Path) -> None:
    said = DroidAgent().missing_credentials(bare_env(tmp_path))
    assert said is not None and "FACTORY_API_KEY" in said and "\n" not in said


# The real CLI


@pytest.fixture(scope="module")
def clis() -> Path:
    return agent_clis_dir()


def test_a_call_of_a_tool_it_has_not_got_is_undelivered_and_a_kept_session_is_imported(
    clis: Path, tmp_path: Path
) -> None:
    script = tmp_path / "script.json"
    steps = [
        {"search": "item list"},
        {"call": "task_list", "arguments": {"projectId": "acme-shop"}},
        {"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}},
        {"say": "done"},
    ]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    out, home = tmp_path / "study", tmp_path / "home"
    done = run_cli(
        "session", "run", "--agent", "droid", "--model-endpoint", "scripted", "--surface", "v2", "--script",
        str(script), "--out", str(out), "--keep-agent-files", "--timeout", "240",
        env=cli_env(clis, home), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = run_dir(out, "v2", "droid")
    result = json.loads((run / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok", result["error"]
    [undelivered] = result["undelivered"]
    assert (undelivered["tool"], undelivered["reason"]) == ("task_list", "unknown tool")
    assert result["calls"] == 1 and result["tools_called"] == ["item_list"]
    # Its first request defers every tool of the server, named by its rule.
    first = turns(run)[0]
    assert first["stub_shown"]["tools"] == [] and sorted(first["stub_deferred"]["tools"]) == sorted(
        f"stub___{tool}" for tool in V2_TOOLS
    )
    imported = run_cli(
        "session", "import", "--server", "stub", "--client", "droid", "--out", str(tmp_path / "imported"),
        "--format", "json", env=cli_env(clis, home), cwd=tmp_path,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    [row] = imported.json()["files"]
    # The session file keeps the call droid refused (by the name the model gave it) beside the one it made.
    assert row["client"] == "droid" and row["calls"] == 2 and row["path"].startswith("~/.factory/sessions/")


# droid's newest version on npm (`@factory/cli`, its newer name), whose Linux binary npm does not have.
NEWEST_UNRUNNABLE = "@factory/cli@0.225.1"


def test_a_droid_that_prints_no_version_is_a_row_of_agents_and_one_line_for_session_run(tmp_path: Path) -> None:
    bin_dir = agent_clis_dir({"droid": NEWEST_UNRUNNABLE}, "droid-factory-cli-0.225.1")
    env = cli_env(bin_dir, tmp_path / "home")
    listed = run_cli("agents", "--format", "json", env=env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = listed.json()
    # The one on PATH; the pinned one in toolsurface's cache is a row of its own.
    [row] = [r for r in rows if r["name"] == "droid" and Path(r["path"]).parent == bin_dir]
    assert row["version"] is None and row["supported"] is False
    assert row["problem"].endswith("--version printed no version; droid 0.215.0 or newer is needed")
    out = tmp_path / "study"
    done = run_cli(
        "session", "run", "--agent", "droid", "--model-endpoint", "scripted", "--surface", "v2", "--out", str(out),
        env=env, cwd=tmp_path,
    )  # fmt: skip
    assert_refused(done, out, "droid", "--version printed no version")
