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
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from toolsurface.harness.agents._card import ClientCard, ClientSetting, SessionFiles
from toolsurface.harness.agents._cli import (
    NO_RESULT,
    CliAgent,
    Invocation,
    agent_env,
    as_dict,
    as_int,
    as_str,
    block_text,
    home,
    login_advice,
    loopback_only,
    own_cache,
    server_launch,
)
from toolsurface.harness.agents._config_format import ConfigFormat
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionCall, SessionRead, SessionTurn, known, session_lines
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
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


CONFIG_FORMAT = ConfigFormat("copilot", "Copilot CLI's mcp-config.json", ("mcp-config.json",))


def read_session(path: Path) -> SessionRead:
    """A session's events.jsonl of Copilot CLI's: session.start (its version, model and session), each MCP tool's
    tool.execution_start (server and tool by their config names, arguments) with its tool.execution_complete
    (the answer, or the error it passed on), and a session.usage_record per model response."""
    read = SessionRead("copilot")
    calls: dict[str, dict[str, Any]] = {}
    for record in session_lines(path, read):
        kind = record.get("type")
        if not isinstance(kind, str) or "." not in kind or not isinstance(record.get("data"), dict):
            continue
        read.known_lines += 1
        data = record["data"]
        time = as_str(record.get("timestamp"))
        read.seen(time)
        if kind == "session.start":
            read.session = as_str(data.get("sessionId"))
            read.version = as_str(data.get("copilotVersion"))
            read.model = as_str(data.get("selectedModel")) or read.model
        elif kind == "session.usage_record":
            usage = as_dict(data.get("usage"))
            read.model = as_str(usage.get("model")) or read.model
            read.turns.append(
                SessionTurn(
                    Usage(
                        input_tokens=as_int(usage.get("inputTokens")),
                        output_tokens=as_int(usage.get("outputTokens")),
                        cache_read_tokens=as_int(usage.get("cacheReadTokens")),
                        cache_write_tokens=as_int(usage.get("cacheWriteTokens")),
                    ),
                    time,
                )
            )
        elif kind == "tool.execution_start":
            server = as_str(data.get("mcpConfigServerName")) or as_str(data.get("mcpServerName"))
            tool = as_str(data.get("mcpToolName")) or str(data.get("toolName"))
            calls[str(data.get("toolCallId"))] = {
                "server": server,
                "tool": tool,
                "arguments": as_dict(data.get("arguments")),
                "time": time,
            }
        elif kind == "tool.execution_complete" and (call := calls.get(str(data.get("toolCallId")))) is not None:
            answer = _tool_result(data, {})
            call.update(answer=answer.text, error=answer.is_error)
    read.calls = [
        SessionCall(c["server"], c["tool"], c["arguments"], c.get("answer"), bool(c.get("error")), c["time"])
        for c in calls.values()
    ]
    return known(read, "Copilot CLI")


class CopilotAgent(CliAgent):
    card = ClientCard(
        name="copilot",
        order=5,
        title="Copilot CLI",
        package="@github/copilot",
        executable="copilot",
        pinned="1.0.102",
        # Its npm-loader.js only starts its native program (Node 24.20 inside): on Node 24 with the compile cache a
        # six-tasks run took 3.93 CPU-s against 3.99 on Node 20 (medians of 5, 1.0.102), within their spread.
        node_compile_cache=False,
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # `SERVER-TOOL`, a tool name with letters outside ASCII written as punycode (`xn--...`), every character
        # outside `[A-Za-z0-9_-]` a `-`, the whole cut at 64 characters; sent sorted by name, descriptions whole
        # (1.0.102).
        naming=ToolNaming(
            "Copilot CLI",
            "{server}-{tool}",
            replacement="-",
            units="codepoint",
            max_length=64,
            cut="head",
            punycode=True,
        ),
        api="openai-chat",
        settings=(
            ClientSetting("COPILOT_PROVIDER_BASE_URL", "env", "the model endpoint of its own provider (BYOK)"),
            ClientSetting(
                "COPILOT_OFFLINE", "env", "no GitHub login, telemetry, built-in GitHub MCP server or update check"
            ),
            ClientSetting("COPILOT_HOME", "env", "where its config, logins, sessions and logs are (~/.copilot)"),
            ClientSetting("COPILOT_PKG_CACHE_HOME", "env", "where it unpacks its program (about 235 MB a version)"),
        ),
        leaves="its sessions, logs, a database and caches, in the run's own home (removed after it), and its unpacked"
        " program, in toolsurface's cache (kept); with --keep-agent-files its session folder, in"
        " ~/.copilot/session-state",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=(
            "apply_patch",
            "bash",
            "fetch_copilot_cli_documentation",
            "glob",
            "list_agents",
            "list_bash",
            "read_agent",
            "read_bash",
            "rg",
            "session_store_sql",
            "skill",
            "sql",
            "stop_bash",
            "task",
            "view",
            "write_agent",
        ),
        builtins_seen="1.0.102",
        sessions=SessionFiles(
            "~/.copilot/session-state/<session-id>/events.jsonl",
            ("COPILOT_HOME",),
            "a line per event (session.start first), as `--output-format json` prints them; beside it"
            " ~/.copilot/session-store.db",
            "1.0.102",
            folder=".copilot",
            files="session-state/*/events.jsonl",
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        if any(env.get(key) for key in (*KEYS, *PROVIDER_KEYS, "OPENAI_API_KEY")):
            return None
        config = _user_home(env) / "config.json"
        found = config.is_file() and "copilotTokens" in config.read_text(encoding="utf-8", errors="replace")
        if found and logins:
            return None
        return (
            "no credentials: set COPILOT_GITHUB_TOKEN (or GH_TOKEN; for a recorded run through an OpenAI-compatible"
            " API, OPENAI_API_KEY), " + login_advice("sign in once with `copilot login`", config, found, logins)
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / COPILOT_HOME
        env = agent_env(ctx)
        # The extracted program (about 235 MB per version) stays in toolsurface's cache, made once; the run's own
        # caches (a device id, the MCP tool lists it saw) go to its home.
        env["COPILOT_PKG_CACHE_HOME"] = _program_cache(env)
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
        argv = [
            self.program(ctx),
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
        names = ",".join(server.name for server in ctx.servers)
        if ctx.builtins:
            # Copilot's own tools stay; only the servers' go without asking, and in prompt mode asking is denial.
            argv += ["--allow-tool", names]
        else:
            argv += ["--available-tools", names, "--allow-all-tools"]
        if ctx.model and ctx.endpoint is None:
            argv += ["--model", ctx.model]
        files = {own / MCP_CONFIG: json.dumps({"mcpServers": self.mcp_servers(ctx)}, indent=2) + "\n"}
        links: dict[Path, Path] = {}
        login = _user_home(agent_env(ctx)) / "config.json"
        if ctx.agent_home == "user" and ctx.endpoint is None and not any(env.get(k) for k in KEYS) and login.is_file():
            # The GitHub login lives in the user's ~/.copilot, which COPILOT_HOME moves away from: with --agent-home
            # user linked in for the run only.
            links[own / "config.json"] = login
        dirs: tuple[Path, ...] = ()
        if ctx.keep_agent_files:
            # A kept run's session folder lands in the user's own ~/.copilot/session-state, where `session import`
            # finds the user's sessions; linked in for the run only.
            dirs = (_user_home(agent_env(ctx)) / "session-state",)
            links[own / "session-state"] = dirs[0]
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its `mcpServers`: each of the run's servers under its own name, every tool of it allowed. Copilot ends
        its MCP servers with SIGTERM and SIGKILL at once, before a stub has written its state: each starts under a
        shell that takes the signals."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command, shielded=True)
            servers[server.name] = {
                "type": "local",
                "command": command,
                "args": args,
                "env": dict(server.command.env),
                "tools": ["*"],
                "timeout": int(ctx.timeout * 1000),
            }
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # `--version` writes a home of its own; the extracted program stays in toolsurface's cache.
        return {
            **env,
            "COPILOT_HOME": str(scratch),
            "COPILOT_PKG_CACHE_HOME": _program_cache(env),
            "COPILOT_AUTO_UPDATE": "false",
        }

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


def _program_cache(env: Mapping[str, str]) -> str:
    """Where Copilot unpacks its program: the user's COPILOT_PKG_CACHE_HOME where set, else toolsurface's cache."""
    return env.get("COPILOT_PKG_CACHE_HOME") or str(own_cache(env) / "copilot")


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
