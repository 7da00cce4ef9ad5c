"""Kilo CLI: its adapter on its own (its recorded six-tasks transcript, 7.7.7; what a run gives it), and the real CLI
from npm (tests.helpers.npm_packages) on the scripted model: a call of a tool it has not got, the names and the
instructions it shows its model, and its session database, kept, read by `session import`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.agent_runs import PLANTED, V2_TOOLS, bare_env, cli_env, context, run_dir, turns
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents import kilo
from toolsurface.harness.agents._cli import NOWHERE_PROXY
from toolsurface.harness.agents.base import DUMMY_KEY, AgentEndpoint, EndpointKind
from toolsurface.harness.agents.kilo import KILO_CONFIG, KILO_HOME, KiloAgent

VERSION = KiloAgent.card.pinned
TRANSCRIPT = FIXTURES / "transcripts" / f"kilo-{VERSION}-v2-default.jsonl"
ENDPOINT = AgentEndpoint("http://127.0.0.1:8123", EndpointKind.SCRIPTED)


def test_its_six_tasks_transcript_reads_as_its_fourteen_calls_the_refusal_and_the_answer() -> None:
    report = KiloAgent().parse(TRANSCRIPT.read_text(encoding="utf-8"), exit_code=0)
    assert (report.status, report.error) == ("ok", None)
    calls = [e for e in report.events if e.kind == "tool_call"]
    results = {e.id: e for e in report.events if e.kind == "tool_result"}
    assert len(calls) == 14 and {c.name for c in calls} <= set(V2_TOOLS) and set(results) == {c.id for c in calls}
    [refused] = [r for r in results.values() if r.is_error]
    assert refused.text is not None and "allowed filters" in refused.text and refused.undelivered is None
    assert report.final_answer is not None and report.final_answer.startswith("Open tasks:")
    assert report.turns == 15


def test_a_transcript_cut_before_its_end_is_an_agent_error() -> None:
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    report = KiloAgent().parse("\n".join(lines[: len(lines) // 2]), exit_code=None)
    assert report.status == "agent-error" and report.error


def test_a_scripted_endpoint_is_its_provider_with_a_dummy_key_its_own_tools_denied_and_nothing_else_reachable(
    tmp_path: Path,
) -> None:
    env = bare_env(tmp_path, KILO_API_KEY="PLANTED-kilo-4b5c", **PLANTED)
    ctx = context(tmp_path, env, mode="default", endpoint=ENDPOINT)
    invocation = KiloAgent(executable="/bin/true").command(ctx)
    config = json.loads(invocation.files[ctx.run_dir / KILO_CONFIG])
    provider = config["provider"]["toolsurface"]["options"]
    assert (provider["baseURL"], provider["apiKey"]) == (f"{ENDPOINT.url}/v1", DUMMY_KEY)
    assert config["permission"] == {"*": "deny", "stub_*": "allow"} and list(config["mcp"]) == ["stub"]
    assert not [key for key in kilo.KEYS if key in invocation.env]
    given = " ".join([*invocation.files.values(), *invocation.argv])
    assert "PLANTED" not in given
    assert invocation.env["KILO_CONFIG"] == str(ctx.run_dir / KILO_CONFIG)
    assert invocation.env["XDG_DATA_HOME"] == str(ctx.run_dir / KILO_HOME / "data")
    assert invocation.env["KILO_TELEMETRY_LEVEL"] == "off" and invocation.env["KILO_DISABLE_SESSION_INGEST"] == "1"
    assert invocation.env["HTTPS_PROXY"] == NOWHERE_PROXY and "127.0.0.1" in invocation.env["NO_PROXY"]
    with_builtins = KiloAgent(executable="/bin/true").command(replace(ctx, builtins=True))
    assert json.loads(with_builtins.files[ctx.run_dir / KILO_CONFIG])["permission"]["*"] == "ask"


def test_a_mode_it_has_not_got_is_refused_and_full_list_runs_its_default(tmp_path: Path) -> None:
    agent = KiloAgent()
    assert agent.mode_named("full-list") == "default"
    with pytest.raises(Exception, match="no mode 'on-demand'"):
        agent.check_mode("on-demand")


# The real CLI


@pytest.fixture(scope="module")
def clis() -> Path:
    return agent_clis_dir()


def test_a_call_of_a_tool_it_has_not_got_is_undelivered_and_its_kept_database_is_imported(
    clis: Path, tmp_path: Path
) -> None:
    script = tmp_path / "script.json"
    steps = [
        {"call": "task_list", "arguments": {"projectId": "acme-shop"}},
        {"call": "item_list", "arguments": {"kind": "task", "projectId": "acme-shop"}},
        {"say": "done"},
    ]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    out, home = tmp_path / "study", tmp_path / "home"
    done = run_cli(
        "session", "run", "--agent", "kilo", "--model-endpoint", "scripted", "--surface", "v2", "--script",
        str(script), "--out", str(out), "--keep-agent-files", "--timeout", "240",
        env=cli_env(clis, home), cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = run_dir(out, "v2", "kilo")
    result = json.loads((run / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "ok", result["error"]
    [undelivered] = result["undelivered"]
    assert (undelivered["tool"], undelivered["reason"]) == ("task_list", "unknown tool")
    assert result["calls"] == 1 and result["tools_called"] == ["item_list"]
    # Every tool of the server in full, named by its rule, and the server's instructions with them.
    first = turns(run)[0]
    assert first["stub_shown"]["tools"] == sorted(f"stub_{tool}" for tool in V2_TOOLS)
    assert first["instructions_chars"] > 0
    database = run / KILO_HOME / "data" / "kilo" / "kilo.db"
    imported = run_cli(
        "session", "import", str(database), "--server", "stub", "--out", str(tmp_path / "imported"), "--format",
        "json", env=cli_env(clis, home), cwd=tmp_path,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    [row] = imported.json()["files"]
    assert row["client"] == "kilo" and row["version"] == VERSION and "#ses_" in row["path"]
