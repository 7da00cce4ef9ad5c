"""Factory's droid (`droid exec -o stream-json`), in a Factory home of its own (`FACTORY_HOME_OVERRIDE`) where the
run's servers are its only MCP servers and the run's endpoint its only model, read from its stream-json events.

What droid 0.215.0 shows its model (checked against its requests): it speaks OpenAI Chat Completions to a custom
model of its settings (`customModels`, provider `generic-chat-completion-api`, `--model custom:ID`), which needs
no Factory account or login. Every MCP tool is deferred: the tools array carries its own `ToolSearch`, and a
system reminder names each deferred tool; a search loads the tools it matched into later requests' tools array,
where the model calls them by name. No setting shows them at once (a server whose cleaned name holds `github` or
`agentbrowser` is the only one it never defers), so it has one mode. `--only-tools MCP:SERVER` keeps its own tools
out (but ToolSearch, which it keeps whatever it is given) and connects every MCP server before its first request.
With an endpoint every other request it makes (its telemetry, feature flags, update check) is sent to a closed
loopback port.
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
    content_blocks,
    loopback_only,
    server_launch,
)
from toolsurface.harness.agents._config_format import ConfigFormat, dot_folder_workspace
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import (
    SessionCall,
    SessionRead,
    SessionSearch,
    SessionTurn,
    known,
    session_lines,
)
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    INVALID_ARGUMENTS,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)

__all__ = ["DROID_HOME", "DroidAgent"]

# The run's own Factory home: droid keeps its settings, MCP config, sessions and logs in `.factory` under it.
DROID_HOME = "droid-home"
KEYS = ("FACTORY_API_KEY",)
# The custom model the run's settings declare, as `--model custom:ID` names it.
SCRIPTED_MODEL = "scripted"
SEARCH_TOOL = "ToolSearch"
# droid's own tools in 0.215.0 that its first request carried beside an MCP server's with every tool of its own left
# in (WebSearch and FetchUrl it names as deferred, in a system reminder).
OWN_TOOLS = ("Execute", "Glob", "Grep", "LS", "Read", "Skill", "ToolSearch")
# Switches for a run: no update check.
_SWITCHES = {"FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"}
# How droid answers a call of a tool it has not got (a name it does not know, or a deferred tool not loaded yet), one
# whose arguments its own check rejected, and one that would have asked for a permission.
_UNKNOWN = re.compile(r"Error: Not found: |not (currently )?available", re.I)
_INVALID = re.compile(r"InputValidationError|invalid (input|arguments)", re.I)
_DENIED = re.compile(r"requires higher autonomy|insufficient permission", re.I)
# A ToolSearch answer: the tools it loaded, by the names the model calls them.
_LOADED = re.compile(r"\ALoaded \d+ tool\(s\)[^:]*: (.*?)\. These are in your tool list")


def _config_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An `mcpServers` entry of droid's mcp.json in the common shape: `type` stdio (the default) or http."""
    get = entry.get
    command = get("command")
    args = get("args") or []
    if not isinstance(args, list):
        raise ValueError("args must be a list of strings")
    env = get("env") or {}
    headers = get("headers") or {}
    if not isinstance(env, dict) or not isinstance(headers, dict):
        raise ValueError("env and headers must be tables of strings")
    kind = str(get("type") or ("http" if get("url") else "stdio")).lower()
    return {
        "transport": "http" if kind in ("http", "streamable-http") else "sse" if kind == "sse" else "stdio",
        "command": [str(command), *(str(a) for a in args)] if command else None,
        "env": {str(k): str(v) for k, v in env.items()},
        "cwd": get("cwd"),
        "url": get("url"),
        "headers": {str(k): str(v) for k, v in headers.items()},
        "disabled": get("disabled") is True,
    }


CONFIG_FORMAT = ConfigFormat(
    "droid",
    "Factory droid's mcp.json",
    ("mcp.json",),
    ".factory",
    placeholders=("dollar-braces",),
    entry=_config_entry,
    workspace=dot_folder_workspace,
)


def _loaded(text: str) -> list[str]:
    """The tools a ToolSearch answer says it loaded."""
    found = _LOADED.match(text)
    return [name.strip() for name in found.group(1).split(",") if name.strip()] if found else []


def read_session(path: Path) -> SessionRead:
    """A session file of droid's (`~/.factory/sessions/<folder-slug>/<session-id>.jsonl`, FACTORY_HOME_OVERRIDE
    moving `~`): a `session_start` line, then a `message` line per message, the assistant's `tool_use` blocks
    answered by the user's `tool_result` blocks. Each MCP call (`SERVER___TOOL`) with its answer, each ToolSearch
    with the tools it loaded; the usage is the session's whole (its `.settings.json` beside it, `tokenUsage`), as
    one turn, and so is its model."""
    read = SessionRead("droid")
    asked: dict[str, tuple[str, dict[str, Any], str | None]] = {}
    for record in session_lines(path, read):
        kind = record.get("type")
        if kind == "session_start":
            read.known_lines += 1
            read.session = as_str(record.get("id")) or read.session
            continue
        if kind != "message" or not isinstance(record.get("message"), dict):
            if kind in ("agent_turn_outcome", "compaction", "session_title"):
                read.known_lines += 1
            continue
        read.known_lines += 1
        time = as_str(record.get("timestamp"))
        read.seen(time)
        message = record["message"]
        for block in content_blocks(message):
            if block.get("type") == "tool_use":
                asked[str(block.get("id"))] = (str(block.get("name")), as_dict(block.get("input")), time)
            elif block.get("type") == "tool_result" and (call := asked.pop(str(block.get("tool_use_id")), None)):
                answer, failed = block_text(block.get("content")), block.get("is_error") is True
                if call[0] == SEARCH_TOOL:
                    read.searches.append(SessionSearch(as_str(call[1].get("query")), _loaded(answer), call[2]))
                elif "___" in call[0]:
                    server, _, tool = call[0].partition("___")
                    read.calls.append(SessionCall(server, tool, call[1], answer, failed, call[2]))
    for name, arguments, time in asked.values():
        if "___" in name:
            server, _, tool = name.partition("___")
            read.calls.append(SessionCall(server, tool, arguments, None, False, time))
    settings = path.with_name(path.stem + ".settings.json")
    try:
        kept = json.loads(settings.read_text(encoding="utf-8")) if settings.is_file() else {}
    except (OSError, ValueError):
        kept = {}
    kept = as_dict(kept)
    read.model = as_str(kept.get("model"))
    tokens = as_dict(kept.get("tokenUsage"))
    if tokens:
        read.turns.append(SessionTurn(_usage(tokens, "inputTokens", "outputTokens"), read.ended))
    return known(read, "droid")


def _usage(tokens: Mapping[str, Any], given: str, made: str) -> Usage:
    """droid's token counts (input with cached input inside, as Chat Completions counts it) as Usage."""
    cached = as_int(tokens.get("cacheReadTokens", tokens.get("cache_read_input_tokens")))
    written = as_int(tokens.get("cacheCreationTokens", tokens.get("cache_creation_input_tokens")))
    return Usage(
        input_tokens=max(as_int(tokens.get(given)) - cached, 0),
        output_tokens=as_int(tokens.get(made)),
        cache_read_tokens=cached,
        cache_write_tokens=written,
    )


class DroidAgent(CliAgent):
    card = ClientCard(
        name="droid",
        order=8,
        title="Factory droid",
        package="droid",
        executable="droid",
        # The newest version whose linux-x64 package is on npm: @factory/cli 0.225.1 (the package's newer name)
        # needs @factory/cli-linux-x64 0.225.1, which npm does not have (0.225.2 is there), and prints no version.
        pinned="0.215.0",
        modes=("on-demand",),
        search_modes=("on-demand",),
        search_tool=SEARCH_TOOL,
        # `SERVER___TOOL`, every character outside `[a-zA-Z0-9_-]` a `_` (per UTF-16 unit); over 64 characters
        # cut to 55 and `_` and the first 8 hex digits of SHA-256 of the cleaned name; two tools that clean alike
        # each get 8 digits of SHA-256 of their name as given (0.215.0, its tool-name code).
        naming=ToolNaming(
            "Factory droid",
            "{server}___{tool}",
            max_length=64,
            cut="hash",
            hash_digits=8,
            collisions="hash",
            digest="sha256",
            digest_cleaned=True,
        ),
        api="openai-chat",
        settings=(
            ClientSetting(
                "FACTORY_HOME_OVERRIDE", "env", "the folder it keeps .factory in (settings, MCP servers, sessions)"
            ),
            ClientSetting("FACTORY_API_KEY", "env", "its Factory key, for Factory's own models"),
            ClientSetting(
                "customModels", "config", "the models of its settings.json at a base URL of the user's (BYOK)"
            ),
            ClientSetting("FACTORY_DROID_AUTO_UPDATE_ENABLED", "env", "whether it updates itself"),
        ),
        leaves="everything it writes into the run's own Factory home but the settings and MCP servers it was given"
        " (removed after it)",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=OWN_TOOLS,
        builtins_seen="0.215.0",
        sessions=SessionFiles(
            "~/.factory/sessions/<folder-slug>/<session-id>.jsonl",
            ("FACTORY_HOME_OVERRIDE",),
            "a session_start line, then a line per message (tool_use and tool_result blocks); its usage and model"
            " in <session-id>.settings.json beside it",
            "0.215.0",
            folder=".factory",
            files="sessions/*/*.jsonl",
            moved_to=MappingProxyType({"FACTORY_HOME_OVERRIDE": ".factory"}),
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        if any(env.get(key) for key in KEYS):
            return None
        return "no credentials: set FACTORY_API_KEY (a key from app.factory.ai), or give a model endpoint"

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / DROID_HOME
        factory = own / ".factory"
        env = agent_env(ctx, FACTORY_HOME_OVERRIDE=str(own), NO_COLOR="1", **_SWITCHES)
        settings: dict[str, Any] = {}
        model = ctx.model
        if ctx.endpoint is not None:
            model_id = ctx.model or SCRIPTED_MODEL
            key = DUMMY_KEY if ctx.endpoint.scripted else "${OPENAI_API_KEY}"
            if ctx.endpoint.scripted:
                for name in KEYS:
                    env.pop(name, None)
            settings["customModels"] = [
                {
                    "model": model_id,
                    "displayName": model_id,
                    "baseUrl": ctx.endpoint.url + "/v1",
                    "apiKey": key,
                    "provider": "generic-chat-completion-api",
                    "maxOutputTokens": 8192,
                }
            ]
            model = f"custom:{model_id}"
            loopback_only(env)
        argv = [self.program(ctx), "exec", "--output-format", "stream-json", "--cwd", str(ctx.workdir)]
        if model:
            argv += ["--model", model]
        # Tools named by either flag make it connect every MCP server before its first request, which else may
        # leave before the servers have listed their tools.
        selectors = ",".join(f"MCP:{server.name}" for server in ctx.servers)
        if ctx.builtins:
            # Its own tools stay, at its default autonomy: a call that would need more ends `droid exec`.
            argv += ["--add-tools", selectors]
        else:
            # Only the servers' tools (and ToolSearch, which it keeps), so nothing but them is left to allow.
            argv += ["--only-tools", selectors, "--skip-permissions-unsafe"]
        argv.append(ctx.prompt)
        files = {
            factory / "settings.json": json.dumps(settings, indent=2) + "\n",
            factory / "mcp.json": json.dumps({"mcpServers": self.mcp_servers(ctx)}, indent=2) + "\n",
        }
        links: dict[Path, Path] = {}
        dirs: tuple[Path, ...] = ()
        if ctx.keep_agent_files and self.card.sessions is not None:
            # A kept run's session lands in the user's own sessions folder, where `session import` finds it.
            sessions = self.card.sessions.root(agent_env(ctx)) / "sessions"
            dirs, links = (sessions,), {factory / "sessions": sessions}
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its `mcpServers`: each of the run's servers under its own name, started over stdio in its folder."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command)
            servers[server.name] = {"type": "stdio", "command": command, "args": args, "env": dict(server.command.env)}
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        return {**env, "FACTORY_HOME_OVERRIDE": str(scratch), **_SWITCHES}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """Everything droid wrote into the run's own Factory home (its sessions, logs, caches, telemetry id) but the
        settings and MCP servers it was given."""
        factory = ctx.run_dir / DROID_HOME / ".factory"
        kept = ("settings.json", "mcp.json")
        return [path for path in factory.iterdir() if path.name not in kept] if factory.is_dir() else []

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        model: str | None = None
        done: dict[str, Any] | None = None
        errors: list[str] = []
        for record in records:
            kind = record.get("type")
            if kind == "system" and record.get("subtype") == "init":
                model = as_str(record.get("model")) or model
            elif kind == "message" and record.get("role") == "assistant" and as_str(record.get("text")):
                events.append(Event("message", text=record["text"]))
            elif kind == "tool_call" and str(record.get("id")) not in calls:
                name = self.own_name(str(record.get("toolName") or record.get("toolId")))
                call = Event(
                    "tool_call", name=name, arguments=as_dict(record.get("parameters")), id=str(record.get("id"))
                )
                calls[str(call.id)] = call
                events.append(call)
            elif kind == "tool_result":
                events.append(_tool_result(record, calls))
            elif kind == "completion":
                done = record
            elif kind == "error":
                said = as_str(record.get("message")) or as_str(as_dict(record.get("error")).get("message")) or "error"
                errors.append(said)
                events.append(Event("error", text=said))
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(status="ok", events=events, final_answer=messages[-1] if messages else None, model=model)
        if done is None:
            report.status, report.error = "agent-error", errors[-1] if errors else NO_RESULT
            return report
        report.final_answer = as_str(done.get("finalText")) or report.final_answer
        report.turns = done.get("numTurns") if isinstance(done.get("numTurns"), int) else None
        usage = as_dict(done.get("usage"))
        if usage:
            report.usage = _usage(usage, "input_tokens", "output_tokens")
        if errors:
            report.status, report.error = "agent-error", errors[-1]
        return report


def _tool_result(record: dict[str, Any], calls: Mapping[str, Event]) -> Event:
    call_id = str(record.get("id"))
    failed = record.get("isError") is True
    value = record.get("value")
    text = as_str(as_dict(record.get("error")).get("message")) if failed else None
    if text is None:
        text = value if isinstance(value, str) else json.dumps(value) if value is not None else ""
    if failed and _UNKNOWN.search(text):
        return Event("tool_result", id=call_id, text=text, is_error=True, undelivered=UNKNOWN_TOOL)
    if failed and _INVALID.search(text):
        return Event("tool_result", id=call_id, text=text, is_error=True, undelivered=INVALID_ARGUMENTS)
    if failed and _DENIED.search(text):
        return denied_call(call_id, calls.get(call_id), text)
    return Event("tool_result", id=call_id, text=text, is_error=failed)
