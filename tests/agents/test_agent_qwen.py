"""Qwen Code's adapter on its own: its recorded six-tasks transcript (0.24.4, on demand, every call of the
server's tools made through its `tool_call` bridge), its config for one or more servers, and its settings. The
real CLI's sessions are in the tests of every client (six-tasks, `clients`, `compat`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from toolsurface.harness.agents import NamedServer, RunContext, ServerCommand
from toolsurface.harness.agents.base import AgentEndpoint, EndpointKind
from toolsurface.harness.agents.qwen import MCP_CONFIG, OWN_TOOLS, QWEN_HOME, QwenAgent
from toolsurface.harness.errors import ToolsurfaceError

TRANSCRIPT = FIXTURES / "transcripts" / "qwen-0.24.4-v2-on-demand.jsonl"
V2_TOOLS = {
    "item_get",
    "item_list",
    "item_store",
    "item_action",
    "item_delete",
    "project_get",
    "project_store",
    "recall",
}
ENDPOINT = AgentEndpoint("http://127.0.0.1:8123", EndpointKind.SCRIPTED)


def context(tmp_path: Path, mode: str = "on-demand", **options: object) -> RunContext:
    stub = ServerCommand(command=sys.executable, args=["-m", "toolsurface", "serve", "v2"], cwd=str(tmp_path))
    return RunContext(
        prompt="Do the six tasks.",
        server=stub,
        workdir=tmp_path / "work",
        run_dir=tmp_path / "run",
        timeout=60,
        mode=mode,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        endpoint=ENDPOINT,
        **options,  # type: ignore[arg-type]
    )


def test_its_six_tasks_transcript_reads_each_bridged_call_as_the_servers_tool_it_called() -> None:
    report = QwenAgent().parse(TRANSCRIPT.read_text(encoding="utf-8"), exit_code=0)
    assert (report.status, report.error, report.model) == ("ok", None, "scripted")
    calls = [e for e in report.events if e.kind == "tool_call"]
    results = {e.id: e for e in report.events if e.kind == "tool_result"}
    # The search is its own; the 14 calls of the server's tools went through tool_call, and read as theirs.
    assert [c.name for c in calls if c.name not in V2_TOOLS] == ["tool_search"]
    server_calls = [c for c in calls if c.name in V2_TOOLS]
    assert len(server_calls) == 14 and all("name" not in c.arguments for c in server_calls)
    assert server_calls[0].name == "item_list" and server_calls[0].arguments["kind"] == "task"
    assert set(results) == {c.id for c in calls}
    [refused] = [r for r in results.values() if r.is_error]
    assert refused.text is not None and "allowed filters" in refused.text and refused.undelivered is None
    assert report.final_answer is not None and report.final_answer.startswith("Open tasks:")
    assert report.usage is not None and report.usage.input_tokens > 0


def test_a_transcript_cut_before_its_result_is_an_agent_error() -> None:
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    report = QwenAgent().parse("\n".join(lines[: len(lines) // 2]), exit_code=None)
    assert report.status == "agent-error" and report.error is not None


def test_each_server_is_configured_under_its_own_name_and_full_list_drops_the_search_and_the_bridge(
    tmp_path: Path,
) -> None:
    neighbour = NamedServer("docs", ServerCommand(command="node", args=["docs.js"], cwd=str(tmp_path)))
    invocation = QwenAgent(executable="/bin/true").command(
        context(tmp_path, "full-list", server_name="acme", neighbours=(neighbour,))
    )
    argv = list(invocation.argv)
    config = json.loads(invocation.files[tmp_path / "run" / QWEN_HOME / MCP_CONFIG])
    assert list(config["mcpServers"]) == ["acme", "docs"]
    assert config["mcpServers"]["docs"]["args"] == ["docs.js"] and config["mcpServers"]["acme"]["trust"] is True
    named = argv.index("--allowed-mcp-server-names")
    assert argv[named + 1 : named + 3] == ["acme", "docs"]
    excluded = argv[argv.index("--exclude-tools") + 1 :]
    assert {"tool_search", "tool_call", *OWN_TOOLS} <= set(excluded)
    assert invocation.env["OPENAI_BASE_URL"] == ENDPOINT.url + "/v1" and invocation.env["OPENAI_MODEL"] == "scripted"
    on_demand = list(QwenAgent(executable="/bin/true").command(context(tmp_path)).argv)
    assert "tool_search" not in on_demand and "tool_call" not in on_demand


def test_a_setting_goes_to_its_dotted_path_and_one_that_is_not_json_is_one_line(tmp_path: Path) -> None:
    given = {"tools.truncateToolOutputThreshold": "2000", "tools.toolSearch.threshold": "10"}
    invocation = QwenAgent(executable="/bin/true").command(context(tmp_path, config=given))
    settings = json.loads(invocation.files[tmp_path / "run" / QWEN_HOME / "settings.json"])
    assert settings["tools"] == {"truncateToolOutputThreshold": 2000, "toolSearch": {"threshold": 10}}
    assert settings["memory"] == {"enableManagedAutoMemory": False}
    with pytest.raises(ToolsurfaceError, match=r"^qwen: setting tools\.x='lots': its value is not JSON"):
        QwenAgent(executable="/bin/true").command(context(tmp_path, config={"tools.x": "lots"}))


def test_without_an_openai_key_it_is_told_in_one_line_to_set_one() -> None:
    said = QwenAgent().missing_credentials({"HOME": "/nowhere"})
    assert said is not None and said.startswith("no credentials: set OPENAI_API_KEY") and "\n" not in said
    assert QwenAgent().missing_credentials({"OPENAI_API_KEY": "sk-planted"}) is None
