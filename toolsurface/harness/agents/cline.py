"""cline (`cline --json`), with a data folder of its own where the stub is the only MCP server, read from its
JSON Lines events.

cline reaches another model endpoint through its `openai-compatible` provider (Chat Completions), set in the
run's own provider settings. `--data-dir` keeps its sessions, databases and logs in the run's folder and its
sessions local (no hub daemon left running), and its settings switch off telemetry, the update check and every
tool of its own. Two requests cline 3.0.65 makes have no switch (an OpenTelemetry export and a feature-flag
poll): with an endpoint they are sent to a closed loopback port, so a run reaches the endpoint and the stub only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from toolsurface.harness.agents._card import CarriedText, ClientCard, ClientSetting, SessionFiles, WireQuirks
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
    server_launch,
)
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionCall, SessionRead, SessionTurn, document_items, known
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)

__all__ = ["CLINE_DATA", "ClineAgent"]

CLINE_DATA = "cline-data"
SETTINGS = ("cline_mcp_settings.json", "providers.json", "global-settings.json")
PROVIDER = "openai-compatible"
SCRIPTED_MODEL = "scripted"
KEYS = ("CLINE_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY")
# cline's own tools in 3.0.65, switched off with builtins off (its settings' `disabledTools`).
OWN_TOOLS = (
    "read_files",
    "search_codebase",
    "run_commands",
    "fetch_web_content",
    "editor",
    "ask_question",
    "ask_followup_question",
    "skills",
    "submit_and_exit",
    "spawn_agent",
    *(
        f"team_{tool}"
        for tool in (
            "spawn_teammate",
            "shutdown_teammate",
            "status",
            "task",
            "run_task",
            "cancel_run",
            "list_runs",
            "await_runs",
            "send_message",
            "broadcast",
            "read_mailbox",
            "mission_log",
            "cleanup",
            "create_outcome",
            "attach_outcome_fragment",
            "review_outcome_fragment",
            "finalize_outcome",
            "list_outcomes",
        )
    ),
)
# How cline answers a call of a tool it has not got, and one the user would have to approve.
_UNKNOWN = re.compile(r"NoSuchToolError|unavailable tool", re.I)
_DENIED = re.compile(r"denied|not approved|rejected by the user|requires approval", re.I)


_RESULT_KEYS = {"content", "isError", "structuredContent", "_meta"}


def _mcp_result(parts: Sequence[str]) -> CarriedText | None:
    """A tool message's text as the tool gave it: cline sends an MCP tool's whole result as JSON (`{"content":
    [{"type": "text", "text": ...}], "isError": false}`), whose text blocks are the tool's text."""
    text = "\n".join(parts)
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    blocks = value.get("content") if isinstance(value, dict) else None
    if not value or not set(value) <= _RESULT_KEYS or not isinstance(blocks, list):
        return None
    if not all(isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in blocks):
        return None
    return CarriedText("\n".join(b["text"] for b in blocks), value.get("isError") is True)


def read_session(path: Path) -> SessionRead:
    """A session's messages.json of cline's, one JSON document read message by message: each tool_use of an
    assistant message (its usage in `metrics`, its model in `modelInfo`) with the tool_result a user message
    answers it with, whose text is the MCP result cline passed on as JSON."""
    from datetime import UTC, datetime

    read = SessionRead("cline")
    head, messages = document_items(path, "messages", read)
    read.session = as_str(head.get("sessionId"))
    read.version = as_str(as_dict(head.get("origin")).get("version"))
    asked: dict[str, tuple[str, dict[str, Any], str | None]] = {}
    for message in messages:
        read.known_lines += 1
        stamp = message.get("ts")
        time = (
            datetime.fromtimestamp(stamp / 1000, UTC).isoformat(timespec="milliseconds")
            if isinstance(stamp, int)
            else None
        )
        read.seen(time)
        blocks = [b for b in message.get("content") or [] if isinstance(b, dict)]
        if message.get("role") == "assistant":
            read.model = as_str(as_dict(message.get("modelInfo")).get("id")) or read.model
            if isinstance(message.get("metrics"), dict):
                read.turns.append(SessionTurn(_usage(message["metrics"]), time))
            for block in blocks:
                if block.get("type") == "tool_use":
                    asked[str(block.get("id"))] = (str(block.get("name")), as_dict(block.get("input")), time)
            continue
        for block in blocks:
            if block.get("type") == "tool_result" and (call := asked.pop(str(block.get("tool_use_id")), None)):
                answer, error = _passed_on(block.get("content"))
                read.calls.append(_session_call(*call, answer, error or block.get("is_error") is True))
    read.calls += [_session_call(*call, None, False) for call in asked.values()]
    return known(read, "cline")


def _passed_on(content: object) -> tuple[str, bool]:
    """A tool_result's text: the MCP result cline passed on as JSON (its text blocks, its isError), else as it is."""
    text = content if isinstance(content, str) else block_text(content)
    try:
        result = json.loads(text)
    except ValueError:
        return text, False
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        return block_text(result["content"]), result.get("isError") is True
    return text, False


def _session_call(
    name: str, arguments: dict[str, Any], time: str | None, answer: str | None, error: bool
) -> SessionCall:
    """`SERVER__TOOL` as the server (as cline cleaned its name) and the tool; any other name as cline's own tool."""
    server, _, tool = name.partition("__")
    return (
        SessionCall(server, tool, arguments, answer, error, time)
        if tool
        else SessionCall(None, name, arguments, answer, error, time)
    )


class ClineAgent(CliAgent):
    card = ClientCard(
        name="cline",
        order=6,
        title="cline",
        package="cline",
        executable="cline",
        pinned="3.0.65",
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # Its `defaultMcpToolNameTransform` (3.0.65): `SERVER__TOOL` as it is when it fits `[A-Za-z0-9_-]` and 64
        # characters; else every run of other characters a `_`, cut to 55, `_` and the first 8 hex digits of the
        # SHA-1 of `SERVER__TOOL`. Sent in the server's order, descriptions whole.
        naming=ToolNaming(
            "cline",
            "{server}__{tool}",
            units="codepoint",
            runs=True,
            max_length=64,
            cut="hash",
            hash_digits=8,
            digest="sha1",
            hash_cleaned=True,
        ),
        api="openai-chat",
        settings=(
            ClientSetting(
                "--data-dir", "config", "where its settings, sessions, databases and logs are (~/.cline/data)"
            ),
            ClientSetting("disabledTools", "config", "its own tools it leaves out (global-settings.json)"),
            ClientSetting("CLINE_SESSION_BACKEND_MODE", "env", "local: its sessions in its data folder, no hub daemon"),
        ),
        quirks=WireQuirks(tool_result=_mcp_result),
        leaves="its sessions, databases, logs and caches, in the run's own data folder (removed after it); with"
        " --keep-agent-files its session folder, in ~/.cline/data/sessions",
        builtin_tools=(
            "ask_question",
            "editor",
            "fetch_web_content",
            "read_files",
            "run_commands",
            "search_codebase",
            "spawn_agent",
            "team_attach_outcome_fragment",
            "team_await_runs",
            "team_broadcast",
            "team_cancel_run",
            "team_cleanup",
            "team_create_outcome",
            "team_finalize_outcome",
            "team_list_outcomes",
            "team_list_runs",
            "team_mission_log",
            "team_read_mailbox",
            "team_review_outcome_fragment",
            "team_run_task",
            "team_send_message",
            "team_shutdown_teammate",
            "team_spawn_teammate",
            "team_status",
            "team_task",
        ),
        builtins_seen="3.0.65",
        sessions=SessionFiles(
            "~/.cline/data/sessions/<session-id>/<session-id>.messages.json",
            ("CLINE_DATA_DIR", "CLINE_DIR"),
            "the session's messages as one JSON document (its record beside it, <session-id>.json; databases in db/)",
            "3.0.65",
            folder=".cline/data",
            files="sessions/*/*.messages.json",
            moved_to=MappingProxyType({"CLINE_DIR": "data"}),
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        found = _providers(env).is_file()
        if any(env.get(key) for key in KEYS) or (found and logins):
            return None
        return "no credentials: set CLINE_API_KEY (or a provider's key), " + login_advice(
            "sign in once with `cline auth`", _providers(env), found, logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        data = ctx.run_dir / CLINE_DATA
        settings = data / "settings"
        env = agent_env(ctx, CLINE_SESSION_BACKEND_MODE="local", NO_COLOR="1")
        user_providers = _providers(agent_env(ctx))
        for variable in ("CLINE_DIR", "CLINE_DATA_DIR", "CLINE_MCP_SETTINGS_PATH", "CLINE_GLOBAL_SETTINGS_PATH"):
            env.pop(variable, None)
        preferences: dict[str, Any] = {"telemetryOptOut": True, "autoUpdateEnabled": False}
        if not ctx.builtins:
            preferences["disabledTools"] = list(OWN_TOOLS)
        # cline approves every tool call by itself unless told not to, and 3.0.65 approves all or none (no flag or
        # setting per tool): with builtins on it is told not to, so each call asks and, with no one to answer, is
        # denied, the stub's too.
        files = {
            settings / "cline_mcp_settings.json": json.dumps({"mcpServers": self.mcp_servers(ctx)}, indent=2) + "\n",
            settings / "global-settings.json": json.dumps(preferences, indent=2) + "\n",
        }
        argv = [self.program(ctx), "--json", "--data-dir", str(data), "--cwd", str(ctx.workdir)]
        if ctx.builtins:
            argv += ["--auto-approve", "false"]
        # Every refused call counts as a mistake, and cline stops after a few in a row.
        argv += ["--retries", str(ctx.max_turns)]
        links: dict[Path, Path] = {}
        if ctx.endpoint is not None:
            model = ctx.model or SCRIPTED_MODEL
            provider = {
                "provider": PROVIDER,
                "apiKey": DUMMY_KEY if ctx.endpoint.scripted else env.get("OPENAI_API_KEY", ""),
                "model": model,
                "baseUrl": ctx.endpoint.url + "/v1",
            }
            # cline drops an entry without `updatedAt`.
            entry = {"settings": provider, "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}
            providers = {"version": 1, "lastUsedProvider": PROVIDER, "modes": {}, "providers": {PROVIDER: entry}}
            files[settings / "providers.json"] = json.dumps(providers, indent=2) + "\n"
            if ctx.endpoint.scripted:
                for key in KEYS:
                    env.pop(key, None)
            argv += ["-P", PROVIDER, "-m", model]
            # OpenTelemetry's own switch; cline 3.0.65 still looks its exporter's host up (a DNS query, no more).
            env["OTEL_SDK_DISABLED"] = "true"
            loopback_only(env)
        else:
            if ctx.agent_home == "user" and user_providers.is_file():
                # The user's provider logins: with --agent-home user linked in for the run only.
                links[settings / "providers.json"] = user_providers
            if ctx.model:
                argv += ["-m", ctx.model]
        argv += ["--", ctx.prompt]
        dirs: tuple[Path, ...] = ()
        if ctx.keep_agent_files:
            # A kept run's session folder lands in the user's own data folder's sessions, where `session import`
            # finds the user's sessions; linked in for the run only.
            assert self.card.sessions is not None
            dirs = (self.card.sessions.root(agent_env(ctx)) / "sessions",)
            links[data / "sessions"] = dirs[0]
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, Any]]:
        """Its `mcpServers`: each of the run's servers under its own name, over stdio in its folder."""
        servers: dict[str, dict[str, Any]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command)
            servers[server.name] = {
                "transport": {"type": "stdio", "command": command, "args": args, "env": dict(server.command.env)},
                # Seconds per MCP request, the stub's start included; cline's default (3 s) is missed under load.
                "timeout": int(ctx.timeout),
            }
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        return {**env, "CLINE_DATA_DIR": str(scratch), "CLINE_SESSION_BACKEND_MODE": "local"}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """Everything cline wrote into the run's data folder (sessions, databases, logs, caches) but the
        settings it was given, and those too where they hold a real key."""
        data = ctx.run_dir / CLINE_DATA
        found = [path for path in data.iterdir() if path.name != "settings"] if data.is_dir() else []
        settings = data / "settings"
        if settings.is_dir():
            found += [path for path in settings.iterdir() if path.name not in SETTINGS]
        if ctx.endpoint is not None and not ctx.endpoint.scripted:
            # A recorded run's provider settings hold the user's key, which cline reads from no other place.
            found.append(settings / "providers.json")
        return found

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        turns = 0
        result: dict[str, Any] | None = None
        final: str | None = None
        errors: list[str] = []
        for record in records:
            kind = record.get("type")
            event = as_dict(record.get("event"))
            inner = event.get("type")
            if kind == "agent_event" and inner == "iteration_start":
                turns += 1
            elif kind == "agent_event" and inner == "content_start" and event.get("contentType") == "tool":
                call_id = str(event.get("toolCallId"))
                if call_id not in calls:
                    calls[call_id] = Event(
                        "tool_call",
                        name=self.own_name(str(event.get("toolName"))),
                        arguments=as_dict(event.get("input")),
                        id=call_id,
                    )
                    events.append(calls[call_id])
            elif kind == "agent_event" and inner == "content_end" and event.get("contentType") == "tool":
                events.append(_tool_result(event, calls))
            elif kind == "agent_event" and inner == "content_end" and event.get("contentType") == "text":
                if isinstance(event.get("text"), str) and event["text"]:
                    events.append(Event("message", text=event["text"]))
            elif kind == "agent_event" and inner == "done":
                final = as_str(event.get("text")) or final
            elif kind == "error":
                message = as_str(record.get("message")) or "error"
                errors.append(message)
                events.append(Event("error", text=message))
            elif kind == "run_result":
                result = record
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(
            status="ok", events=events, final_answer=final or (messages[-1] if messages else None), turns=turns
        )
        if result is None:
            report.status, report.error = "agent-error", errors[-1] if errors else NO_RESULT
            return report
        report.usage = _usage(as_dict(result.get("usage")))
        reason = result.get("finishReason")
        if reason != "completed":
            detail = as_str(result.get("text")) or (errors[-1] if errors else None)
            report.status = "agent-error"
            report.error = f"cline ended with {reason!r}" + (f": {detail}" if detail else "")
        return report


def _providers(env: Mapping[str, str]) -> Path:
    root = Path(env["CLINE_DIR"]) if env.get("CLINE_DIR") else home(env) / ".cline"
    return root / "data" / "settings" / "providers.json"


def _tool_result(event: dict[str, Any], calls: Mapping[str, Event]) -> Event:
    call_id = str(event.get("toolCallId"))
    output = event.get("output")
    if isinstance(output, dict) and isinstance(output.get("content"), list):
        return Event(
            "tool_result", id=call_id, text=block_text(output["content"]), is_error=output.get("isError") is True
        )
    error = as_str(as_dict(output).get("error")) if isinstance(output, dict) else None
    if error is None:
        text = output if isinstance(output, str) else json.dumps(output)
        return Event("tool_result", id=call_id, text=text)
    if _UNKNOWN.search(error):
        return Event("tool_result", id=call_id, text=error, is_error=True, undelivered=UNKNOWN_TOOL)
    if _DENIED.search(error):
        return denied_call(call_id, calls.get(call_id), error)
    return Event("tool_result", id=call_id, text=error, is_error=True)


def _usage(usage: dict[str, Any]) -> Usage:
    return Usage(
        input_tokens=as_int(usage.get("inputTokens")),
        output_tokens=as_int(usage.get("outputTokens")),
        cache_read_tokens=as_int(usage.get("cacheReadTokens")),
        cache_write_tokens=as_int(usage.get("cacheWriteTokens")),
    )
