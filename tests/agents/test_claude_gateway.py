"""Claude Code behind a gateway (`claude:gateway`): its settings unset, its base URL a host that is not Anthropic's,
the scripted endpoint standing in for the gateway; and `claude:default`, the same settings with the endpoint counted
as Anthropic's own API, as a user with no ANTHROPIC_BASE_URL has it. The real Claude Code from npm at both tested
versions: the row says the host rule it applied, whether its first request asked for the tool search beta, and
whether a search's tool_reference blocks reached the endpoint."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.agent_runs import bare_env, context, value
from tests.helpers.npm_packages import agent_cli_dir
from toolsurface.harness.agents.base import AgentEndpoint, EndpointKind
from toolsurface.harness.agents.claude import DEBUG_LOG, FIRST_PARTY, ClaudeAgent

PINNED, NEWEST = ClaudeAgent.card.tested_versions[0], ClaudeAgent.card.tested_versions[-1]
ENDPOINT = AgentEndpoint("http://127.0.0.1:8123", EndpointKind.SCRIPTED)


def test_gateway_leaves_tool_search_and_the_first_party_switch_unset_and_keeps_its_debug_log(tmp_path: Path) -> None:
    env = bare_env(tmp_path, ENABLE_TOOL_SEARCH="true", **{FIRST_PARTY: "1"})
    ctx = context(tmp_path, env, mode="gateway", endpoint=ENDPOINT)
    invocation = ClaudeAgent(executable="/bin/true").command(ctx)
    assert "ENABLE_TOOL_SEARCH" not in invocation.env and FIRST_PARTY not in invocation.env
    assert invocation.env["ANTHROPIC_BASE_URL"] == ENDPOINT.url
    assert value(invocation.argv, "--debug-file") == str(ctx.run_dir / DEBUG_LOG)
    default = ClaudeAgent(executable="/bin/true").command(context(tmp_path, env, mode="default", endpoint=ENDPOINT))
    assert default.env[FIRST_PARTY] == "1" and "ENABLE_TOOL_SEARCH" not in default.env
    assert "--debug-file" not in default.argv
    # Without an endpoint, `default` is the user's own base URL as it is.
    mine = ClaudeAgent(executable="/bin/true").command(context(tmp_path, env, mode="default"))
    assert FIRST_PARTY not in mine.env


def _rows(home: Path, version: str, *clients: str) -> dict[str, dict[str, Any]]:
    home.mkdir(parents=True, exist_ok=True)
    system = [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
    path = os.pathsep.join([str(agent_cli_dir("claude", version)), *system])
    # Only that version: toolsurface's cache, where the tests install the others, is the home's own.
    env = {"PATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    chosen = [arg for client in clients for arg in ("--client", client)]
    done = run_cli("clients", "v2", *chosen, "--format", "json", env=env, cwd=home, timeout=600)
    assert done.returncode == 0, done.stderr
    return {row["mode"]: row for row in done.json()["rows"]}


def test_the_pinned_version_behind_a_gateway_turns_tool_search_off_by_its_host_rule(tmp_path: Path) -> None:
    found = _rows(tmp_path / "home", PINNED, "claude:gateway", "claude:default")
    gateway, default = found["gateway"], found["default"]
    assert gateway["status"] == "ok" and (gateway["shown"]["tools"], gateway["deferred"]["tools"]) == (8, 0)
    assert gateway["decision"] == (
        "shown: as Claude Code decides with its settings unset; its host rule: ANTHROPIC_BASE_URL's host 127.0.0.1 is"
        " not api.anthropic.com, tool search off; no advanced-tool-use-* beta reached the endpoint; no tool_reference"
        " block"
    )
    # Counted as Anthropic's own API, the same settings defer every tool.
    assert (default["shown"]["tools"], default["deferred"]["tools"]) == (0, 8) and default["searches"] == 1


@pytest.mark.parametrize("version", [NEWEST])
def test_the_newest_version_behind_a_gateway_keeps_tool_search_on_and_sends_its_beta_and_tool_references(
    tmp_path: Path, version: str
) -> None:
    gateway = _rows(tmp_path / "home", version, "claude:gateway")["gateway"]
    assert gateway["status"] == "ok" and (gateway["shown"]["tools"], gateway["deferred"]["tools"]) == (0, 8)
    assert gateway["searches"] == 1
    assert gateway["decision"] == (
        "deferred: as Claude Code decides with its settings unset; no host rule: tool search on behind a base URL"
        " that is not Anthropic's; the advanced-tool-use-2025-11-20 beta reached the endpoint; tool_reference blocks"
        " naming 1 tool"
    )
