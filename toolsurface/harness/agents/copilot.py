"""GitHub Copilot CLI (`copilot -p --output-format json`), in a home of its own where the stub is the only MCP
server, read from its JSON Lines events.

Copilot reaches another model endpoint through its own BYOK provider: `COPILOT_PROVIDER_BASE_URL` (OpenAI Chat
Completions here), and `COPILOT_OFFLINE=true` skips its GitHub login, telemetry, its built-in GitHub MCP server
and its update check (checked against 1.0.102's requests: a run reaches the endpoint and the stub only). Without
an endpoint it runs on the user's GitHub login or token, the only model route it has.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from toolsurface.harness.agents._cli import (
    NO_RESULT,
    CliAgent,
    Invocation,
    agent_env,
    as_dict,
    as_str,
    block_text,
    home,
    loopback_only,
    server_launch,
    user_cache,
)
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    denied_call,
)

__all__ = ["COPILOT_HOME", "CopilotAgent"]

COPILOT_HOME = "copilot-home"
MCP_CONFIG = "mcp-config.json"
KEYS = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")
# A BYOK provider's credentials (a recorded run passes the user's OpenAI key as one).
PROVIDER_KEYS = ("COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BEARER_TOKEN")
# The model id Copilot is told it runs (it picks its prompts and tools by it); one of its catalog's.
SCRIPTED_MODEL = "gpt-5.4"
# How Copilot answers a call of a tool it has not got, and a call it would have to ask for.
_UNKNOWN = re.compile(r"Tool '[^']*' does not exist")
_DENIED = re.compile(r"permission|denied|not allowed|rejected", re.I)


class CopilotAgent(CliAgent):
    name = "copilot"
    modes: Sequence[str] = ("default",)
    mode_aliases: ClassVar[Mapping[str, str]] = {"full-list": "default"}
    package = "@github/copilot"
    min_version = (1, 0, 102)
    tested_versions = ("1.0.102",)

    # `SERVER-TOOL`, a tool name with letters outside ASCII written as punycode (`xn--...`), every character
    # outside `[A-Za-z0-9_-]` a `-`, the whole cut at 64 characters; sent sorted by name, descriptions whole
    # (1.0.102).
    naming: ClassVar[ToolNaming] = ToolNaming(
        "Copilot CLI", "{server}-{tool}", replacement="-", units="codepoint", max_length=64, cut="head", punycode=True
    )
    api: ClassVar[str] = "openai-chat"

    def missing_credentials(self, env: Mapping[str, str]) -> str | None:
        if any(env.get(key) for key in (*KEYS, *PROVIDER_KEYS, "OPENAI_API_KEY")):
            return None
        config = _user_home(env) / "config.json"
        if config.is_file() and "copilotTokens" in config.read_text(encoding="utf-8", errors="replace"):
            return None
        return (
            "no credentials: set COPILOT_GITHUB_TOKEN (or GH_TOKEN), or sign in once with `copilot login` (for a"
            " recorded run through an OpenAI-compatible API: OPENAI_API_KEY)"
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / COPILOT_HOME
        env = agent_env(ctx)
        # The extracted program (about 235 MB per version) stays where Copilot keeps it for the user; the run's
        # own caches (a device id, the MCP tool lists it saw) go to its home.
        env["COPILOT_PKG_CACHE_HOME"] = env.get("COPILOT_PKG_CACHE_HOME") or str(user_cache(env) / "copilot")
        env.update(
            COPILOT_HOME=str(own),
            XDG_CACHE_HOME=str(own / "cache"),
            COPILOT_AUTO_UPDATE="false",
            NO_COLOR="1",
        )
        if ctx.endpoint is not None:
            env.update(
                COPILOT_PROVIDER_BASE_URL=ctx.endpoint.url + "/v1",
                COPILOT_PROVIDER_TYPE="openai",
                COPILOT_PROVIDER_WIRE_API="completions",
                COPILOT_MODEL=ctx.model or env.get("COPILOT_MODEL") or SCRIPTED_MODEL,
                COPILOT_OFFLINE="true",
            )
            if ctx.endpoint.scripted:
                for key in (*KEYS, *PROVIDER_KEYS, "COPILOT_PROVIDER_API_KEY_COMMAND", "OPENAI_API_KEY"):
                    env.pop(key, None)
                env["COPILOT_PROVIDER_API_KEY"] = DUMMY_KEY
            elif not any(env.get(key) for key in PROVIDER_KEYS) and env.get("OPENAI_API_KEY"):
                # Recorded: the API behind the endpoint takes the user's OpenAI key.
                env["COPILOT_PROVIDER_API_KEY"] = env["OPENAI_API_KEY"]
            loopback_only(env)
        # Copilot ends its MCP servers with SIGTERM and SIGKILL at once, before the stub has written its state.
        command, args = server_launch(ctx.server, shielded=True)
        stub: dict[str, object] = {
            "type": "local",
            "command": command,
            "args": args,
            "env": dict(ctx.server.env),
            "tools": ["*"],
            "timeout": int(ctx.timeout * 1000),
        }
        argv = [
            self.resolve(env),
            "-p",
            ctx.prompt,
            "--output-format",
            "json",
            "--no-auto-update",
            "--disable-builtin-mcps",
            "--no-custom-instructions",
            "--no-ask-user",
            "--disable-client-telemetry",
        ]
        if ctx.builtins:
            # Copilot's own tools stay; only the stub's go without asking, and in prompt mode asking is denial.
            argv += ["--allow-tool", ctx.server_name]
        else:
            argv += ["--available-tools", ctx.server_name, "--allow-all-tools"]
        if ctx.model and ctx.endpoint is None:
            argv += ["--model", ctx.model]
        files = {own / MCP_CONFIG: json.dumps({"mcpServers": {ctx.server_name: stub}}, indent=2) + "\n"}
        links: dict[Path, Path] = {}
        login = _user_home(agent_env(ctx)) / "config.json"
        if ctx.endpoint is None and not any(env.get(key) for key in KEYS) and login.is_file():
            # The GitHub login lives in the user's ~/.copilot, which COPILOT_HOME moves away from: linked in for
            # the run only.
            links[own / "config.json"] = login
        return Invocation(tuple(argv), env, files, links)

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # `--version` writes a home of its own; the extracted program stays in the user's cache.
        pkg = env.get("COPILOT_PKG_CACHE_HOME") or str(user_cache(env) / "copilot")
        return {**env, "COPILOT_HOME": str(scratch), "COPILOT_PKG_CACHE_HOME": pkg, "COPILOT_AUTO_UPDATE": "false"}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """Everything Copilot wrote into the run's own home (sessions, logs, a database, caches) but the MCP
        config it was given."""
        own = ctx.run_dir / COPILOT_HOME
        return [path for path in own.iterdir() if path.name != MCP_CONFIG] if own.is_dir() else []

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        model: str | None = None
        turns = 0
        result: dict[str, Any] | None = None
        stub_failed: str | None = None
        errors: list[str] = []
        for record in records:
            kind = record.get("type")
            data = as_dict(record.get("data"))
            if kind == "session.mcp_server_status_changed" and data.get("serverName") == self.server_name:
                status = data.get("status")
                stub_failed = f"the stub MCP server is {status}" if status in ("failed", "disabled") else None
            elif kind == "assistant.turn_start":
                turns += 1
            elif kind == "assistant.message":
                model = as_str(data.get("model")) or model
                if isinstance(data.get("content"), str) and data["content"]:
                    events.append(Event("message", text=data["content"]))
                for request in data.get("toolRequests") or []:
                    request = as_dict(request)
                    call_id = str(request.get("toolCallId"))
                    if call_id not in calls:
                        calls[call_id] = Event(
                            "tool_call",
                            name=self.own_name(str(request.get("name"))),
                            arguments=as_dict(request.get("arguments")),
                            id=call_id,
                        )
                        events.append(calls[call_id])
            elif kind == "tool.execution_complete":
                events.append(_tool_result(data, calls))
            elif kind in ("session.error", "model.call_failure"):
                message = as_str(data.get("message")) or as_str(as_dict(data.get("error")).get("message"))
                if message:
                    errors.append(message)
                    events.append(Event("error", text=message))
            elif kind == "result":
                result = record
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(
            status="ok", events=events, final_answer=messages[-1] if messages else None, model=model, turns=turns
        )
        if result is None:
            report.status, report.error = "agent-error", stub_failed or (errors[-1] if errors else NO_RESULT)
            return report
        code = result.get("exitCode")
        if code not in (0, None) or stub_failed:
            report.status = "agent-error"
            report.error = stub_failed or (errors[-1] if errors else f"copilot ended with exit code {code}")
        return report


def _user_home(env: Mapping[str, str]) -> Path:
    return Path(env["COPILOT_HOME"]) if env.get("COPILOT_HOME") else home(env) / ".copilot"


def _tool_result(data: dict[str, Any], calls: Mapping[str, Event]) -> Event:
    call_id = str(data.get("toolCallId"))
    if data.get("success") is True:
        result = as_dict(data.get("result"))
        text = as_str(result.get("content")) or block_text(result.get("contents")) or json.dumps(result)
        return Event("tool_result", id=call_id, text=text, is_error=False)
    error = as_dict(data.get("error"))
    text = str(error.get("message") or "")
    if _UNKNOWN.search(text):
        return Event("tool_result", id=call_id, text=text, is_error=True, undelivered=UNKNOWN_TOOL)
    if error.get("code") == "denied" or (error.get("code") != "failure" and _DENIED.search(text)):
        return denied_call(call_id, calls.get(call_id), text)
    return Event("tool_result", id=call_id, text=text, is_error=True)
