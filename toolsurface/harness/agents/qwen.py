"""Qwen Code (`qwen -p -o stream-json`), in a home of its own (`QWEN_HOME`) where the run's servers are its only MCP
servers, read from its stream-json events.

What Qwen Code 0.24.4 shows its model (checked against its requests): it speaks OpenAI Chat Completions to
`OPENAI_BASE_URL` with `OPENAI_API_KEY` and `OPENAI_MODEL`, and by default (`on-demand`) defers every MCP tool:
the tools array carries its own `tool_search` and `tool_call`, and a system reminder names each deferred tool with
the start of its description. `tool_search` answers with the matched tools' declarations inside a `<functions>`
block, and the model calls a deferred tool through `tool_call` (`{"name": "mcp__SERVER__TOOL", "arguments":
{...}}`), as Qwen Code tells it to. `full-list` leaves `tool_search` and `tool_call` out, which makes Qwen Code
declare every MCP tool in the tools array. With builtins off every other tool of its own is left out too, and its
memory agent (which would run after the session with a shell and file tools) is off. With an endpoint every other
request it makes is sent to a closed loopback port.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolsurface.harness.agents._card import (
    CarriedText,
    ClientCard,
    ClientSetting,
    SessionFiles,
    ToolBridge,
    WireQuirks,
)
from toolsurface.harness.agents._cli import (
    NO_RESULT,
    CliAgent,
    Invocation,
    agent_env,
    as_dict,
    as_float,
    as_int,
    as_str,
    block_text,
    content_blocks,
    loopback_only,
    stub_failure,
    trusted_servers,
)
from toolsurface.harness.agents._config_format import ConfigFormat, dot_folder_workspace, http_url_entry
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import (
    SessionCall,
    SessionRead,
    SessionSearch,
    SessionTurn,
    known,
    session_lines,
)
from toolsurface.harness.agents._usage import cached_within
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["MCP_CONFIG", "QWEN_HOME", "QwenAgent"]

QWEN_HOME = "qwen-home"
MCP_CONFIG = "mcp-config.json"
KEYS = ("OPENAI_API_KEY",)
# The model id Qwen Code is told it runs where the run names none.
SCRIPTED_MODEL = "scripted"
SEARCH_TOOL = "tool_search"
BRIDGE = ToolBridge("tool_call")
# Its own tools in 0.24.4 (as its init event lists them), left out with builtins off: all of them in full-list
# mode, all but its tool search and its bridge on demand.
OWN_TOOLS = (
    "agent",
    "cron_create",
    "cron_delete",
    "cron_list",
    "edit",
    "enter_worktree",
    "exit_worktree",
    "get_goal",
    "glob",
    "grep_search",
    "list_agents",
    "loop_wakeup",
    "monitor",
    "notebook_edit",
    "read_file",
    "read_mcp_resource",
    "record_artifact",
    "report_findings",
    "run_shell_command",
    "send_message",
    "skill",
    "task_stop",
    "update_goal",
    "web_fetch",
    "write_file",
    "zoom_image",
)
# Its settings for a run (QWEN_HOME/settings.json): no update check, no usage statistics, no memory agent.
_SETTINGS: dict[str, Any] = {
    "general": {"enableAutoUpdate": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "memory": {"enableManagedAutoMemory": False},
}
# How Qwen Code answers a call of a tool it has not got, directly or through its bridge, and one it would have to
# ask for.
_UNKNOWN = re.compile(r"not found in registry|\[tool_call bridge refused\]", re.I)
_DENIED = re.compile(r"permission|denied|not allowed|requires approval|rejected", re.I)
_EXITS = {42: "qwen rejected its input (exit code 42)", 53: "max turns reached", 55: "qwen's budget ran out"}
_STUB_FAILED = ("failed", "disconnected", "error")
# A tool_search answer: the declarations of the tools it matched, one <function> each.
_FUNCTIONS = re.compile(r"\A\s*<functions>(.*)</functions>\s*\Z", re.S)
_FUNCTION = re.compile(r"<function>(.*?)</function>", re.S)


def _search_answer(parts: Sequence[str]) -> CarriedText | None:
    """A tool_search answer as the tools it shows the model in full, by the names of their declarations."""
    text = "\n".join(parts)
    block = _FUNCTIONS.match(text)
    if block is None:
        return None
    names = []
    for found in _FUNCTION.findall(block.group(1)):
        try:
            declared = json.loads(found)
        except json.JSONDecodeError:
            continue
        if isinstance(declared, dict) and isinstance(declared.get("name"), str):
            names.append(declared["name"])
    return CarriedText(text, references=tuple(names))


# The kinds of line a chat file of Qwen Code's holds (0.24.4).
_CHAT_LINES = ("user", "assistant", "tool_result", "system")


def read_session(path: Path) -> SessionRead:
    """A chat file of Qwen Code's (QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen, then
    projects/<folder>/chats/<session>.jsonl): a line per message, each with the session's id, its time and Qwen
    Code's version. Each call of an `assistant` line (one through its bridge as the deferred tool's, by its full
    name) with the `tool_result` line that answers it, as the model was given it; each `assistant` line's
    usageMetadata as a turn; each tool_search with the tools its answer declared."""
    read = SessionRead("qwen")
    asked: dict[str, tuple[str, dict[str, Any], str | None]] = {}
    answered: dict[str, tuple[str | None, bool]] = {}
    searches: dict[str, SessionSearch] = {}
    for record in session_lines(path, read):
        kind = record.get("type")
        if kind not in _CHAT_LINES or not isinstance(record.get("sessionId"), str):
            continue
        read.known_lines += 1
        read.session = read.session or record["sessionId"]
        read.version = as_str(record.get("version")) or read.version
        time = as_str(record.get("timestamp"))
        read.seen(time)
        parts = as_dict(record.get("message")).get("parts")
        parts = [as_dict(part) for part in parts] if isinstance(parts, list) else []
        if kind == "assistant":
            read.model = as_str(record.get("model")) or read.model
            if isinstance(record.get("usageMetadata"), dict):
                read.turns.append(SessionTurn(_chat_usage(record["usageMetadata"]), time))
            for part in parts:
                call = as_dict(part.get("functionCall"))
                if call:
                    asked[str(call.get("id"))] = (str(call.get("name")), as_dict(call.get("args")), time)
        elif kind == "tool_result":
            failed = as_dict(record.get("toolCallResult")).get("status") == "error"
            for part in parts:
                response = as_dict(part.get("functionResponse"))
                if response:
                    said = as_dict(response.get("response"))
                    text = said.get("output", said.get("error"))
                    answered[str(response.get("id"))] = (text if isinstance(text, str) else None, failed)
    for call_id, (name, arguments, time) in asked.items():
        answer, failed = answered.get(call_id, (None, False))
        if name == SEARCH_TOOL:
            found = _search_answer([answer]) if answer is not None else None
            searches[call_id] = SessionSearch(
                as_str(arguments.get("query")), list(found.references) if found else [], time
            )
            continue
        if name == BRIDGE.tool and isinstance(arguments.get(BRIDGE.name), str):
            name, arguments = arguments[BRIDGE.name], as_dict(arguments.get(BRIDGE.arguments))
        if name.startswith("mcp__"):
            read.calls.append(SessionCall(None, name, arguments, answer, failed, time))
    read.searches = list(searches.values())
    return known(read, "Qwen Code (0.24 or later)")


_USAGE_KEYS = ("promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount")


def _chat_usage(tokens: dict[str, Any]) -> Usage:
    return cached_within(*(as_int(tokens.get(key)) for key in _USAGE_KEYS))


class QwenAgent(CliAgent):
    card = ClientCard(
        name="qwen",
        order=7,
        title="Qwen Code",
        package="@qwen-code/qwen-code",
        executable="qwen",
        pinned="0.24.4",
        modes=("on-demand", "full-list"),
        search_modes=("on-demand",),
        search_tool=SEARCH_TOOL,
        # generateValidName(`mcp__SERVER__TOOL`): kept when it is 63 characters at most and `^[A-Za-z][A-Za-z0-9_-]*$`;
        # else every character outside `[A-Za-z0-9_-]` a `_` (per UTF-16 unit), cut to 55 and `_` and 7 base-36
        # digits of the 32-bit FNV-1a hash of the name as given (0.24.4, its tool-name-utils).
        naming=ToolNaming(
            "Qwen Code",
            "mcp__{server}__{tool}",
            max_length=63,
            cut="hash",
            hash_digits=7,
            digest="fnv1a",
            hash_cleaned=True,
        ),
        api="openai-chat",
        settings=(
            ClientSetting("OPENAI_BASE_URL", "env", "where it sends its model requests (Chat Completions)"),
            ClientSetting("OPENAI_MODEL", "env", "the model it asks for"),
            ClientSetting("QWEN_HOME", "env", "where its settings, memories, projects and chats are (~/.qwen)"),
            ClientSetting(
                "tools.truncateToolOutputThreshold",
                "config",
                "the characters of one tool answer it passes on whole (25,000 unset)",
                answers=True,
            ),
            ClientSetting(
                "tools.toolSearch.threshold",
                "config",
                "the share of the context window MCP tools are shown in full within (0: never)",
            ),
        ),
        quirks=WireQuirks(tool_result=_search_answer, bridge=BRIDGE),
        leaves="everything it writes into the run's own home but the settings it was given (removed after it)",
        builtin_tools=(
            "agent",
            "cron_create",
            "cron_delete",
            "cron_list",
            "enter_worktree",
            "exit_worktree",
            "get_goal",
            "glob",
            "grep_search",
            "list_agents",
            "loop_wakeup",
            "read_file",
            "read_mcp_resource",
            "record_artifact",
            "report_findings",
            "send_message",
            "skill",
            "task_stop",
            "tool_call",
            "tool_search",
            "update_goal",
            "web_fetch",
            "zoom_image",
        ),
        builtins_seen="0.24.4",
        config_formats=(
            ConfigFormat(
                "qwen",
                "Qwen Code's settings.json",
                ("settings.json",),
                ".qwen",
                placeholders=("dollar-braces", "dollar"),
                entry=http_url_entry,
                workspace=dot_folder_workspace,
            ),
        ),
        sessions=SessionFiles(
            "~/.qwen/projects/<folder-slug>/chats/<session-id>.jsonl",
            ("QWEN_RUNTIME_DIR", "QWEN_HOME"),
            "a line per message of the session (user, assistant, tool_result, system), each with the session's id",
            "0.24.4",
            folder=".qwen",
            files="projects/*/chats/*.jsonl",
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        if any(env.get(key) for key in KEYS):
            return None
        return "no credentials: set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL for a provider other than OpenAI)"

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / QWEN_HOME
        env = agent_env(ctx, QWEN_HOME=str(own), QWEN_CODE_SUPPRESS_YOLO_WARNING="1", NO_COLOR="1")
        env.pop("QWEN_RUNTIME_DIR", None)
        # Every MCP server connected before the first model request, so that request names every server's tools.
        env["QWEN_CODE_LEGACY_MCP_BLOCKING"] = "1"
        if ctx.endpoint is not None:
            env["OPENAI_BASE_URL"] = ctx.endpoint.url + "/v1"
            env["OPENAI_MODEL"] = ctx.model or env.get("OPENAI_MODEL") or SCRIPTED_MODEL
            if ctx.endpoint.scripted:
                env["OPENAI_API_KEY"] = DUMMY_KEY
            loopback_only(env)
        config = own / MCP_CONFIG
        on_demand = self.mode_named(ctx.mode) == "on-demand"
        left_out = [] if ctx.builtins else [t for t in OWN_TOOLS]
        if not on_demand:
            left_out += [SEARCH_TOOL, BRIDGE.tool]
        argv = [
            self.program(ctx),
            "-p",
            ctx.prompt,
            "-o",
            "stream-json",
            "--mcp-config",
            str(config),
            "--allowed-mcp-server-names",
            *(server.name for server in ctx.servers),
            "--max-session-turns",
            str(ctx.max_turns),
        ]
        if left_out:
            argv += ["--exclude-tools", *left_out]
        if ctx.builtins:
            # Its own tools stay; only the servers' go without asking, and headless asking is denial.
            argv += ["--approval-mode", "default", "--allowed-tools", *(f"mcp__{s.name}__*" for s in ctx.servers)]
        else:
            argv += ["--approval-mode", "yolo"]
        if ctx.model and ctx.endpoint is None:
            argv += ["-m", ctx.model]
        files = {
            config: json.dumps({"mcpServers": self.mcp_servers(ctx)}, indent=2) + "\n",
            own / "settings.json": json.dumps(_settings(ctx.config), indent=2) + "\n",
        }
        links: dict[Path, Path] = {}
        dirs: tuple[Path, ...] = ()
        if ctx.keep_agent_files and self.card.sessions is not None:
            # A kept run's chats land in the user's own projects folder (under the run's folder's name), where
            # `session import` finds the user's sessions; linked in for the run only.
            projects = self.card.sessions.root(agent_env(ctx)) / "projects"
            dirs, links = (projects,), {own / "projects": projects}
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its `mcpServers`: each of the run's servers under its own name, trusted (a call that would ask is
        denied headless), started in its own folder."""
        return trusted_servers(ctx)

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # Even `--version` makes its home's folders: give it one that is thrown away.
        return {**env, "QWEN_HOME": str(scratch)}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """Everything Qwen Code wrote into the run's own home (its projects, chats, usage records, extension
        store) but the settings and MCP config it was given."""
        own = ctx.run_dir / QWEN_HOME
        kept = ("settings.json", MCP_CONFIG)
        return [path for path in own.iterdir() if path.name not in kept] if own.is_dir() else []

    def exit_error(self, code: int) -> str | None:
        return _EXITS.get(code)

    def _call(self, block: dict[str, Any]) -> Event:
        """A tool_use block as the call of the tool it calls: one through the bridge as the deferred tool's."""
        name, arguments = str(block.get("name")), as_dict(block.get("input"))
        if name == BRIDGE.tool and isinstance(arguments.get(BRIDGE.name), str):
            name, arguments = arguments[BRIDGE.name], as_dict(arguments.get(BRIDGE.arguments))
        return Event("tool_call", name=self.own_name(name), arguments=arguments, id=str(block.get("id")))

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        model: str | None = None
        result: dict[str, Any] | None = None
        stub_failed: str | None = None
        for record in records:
            kind = record.get("type")
            message = as_dict(record.get("message"))
            if kind == "system" and record.get("subtype") == "init":
                model = as_str(record.get("model")) or model
                stub_failed = stub_failure(record, self.server_name, _STUB_FAILED) or stub_failed
            elif kind == "assistant":
                model = model or as_str(message.get("model"))
                for block in content_blocks(message):
                    if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"]:
                        events.append(Event("message", text=block["text"]))
                    elif block.get("type") == "tool_use" and str(block.get("id")) not in calls:
                        call = self._call(block)
                        calls[str(call.id)] = call
                        events.append(call)
            elif kind == "user":
                for block in content_blocks(message):
                    if block.get("type") == "tool_result":
                        events.append(_tool_result(block, calls))
            elif kind == "result":
                result = record
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(status="ok", events=events, final_answer=messages[-1] if messages else None, model=model)
        if result is None:
            report.status, report.error = "agent-error", stub_failed or NO_RESULT
            return report
        if isinstance(result.get("result"), str) and result["result"]:
            report.final_answer = result["result"]
        usage = as_dict(result.get("usage"))
        if usage:
            # Chat Completions counts cached input inside input_tokens; Usage keeps it apart.
            cached = as_int(usage.get("cache_read_input_tokens"))
            report.usage = Usage(
                input_tokens=max(as_int(usage.get("input_tokens")) - cached, 0),
                output_tokens=as_int(usage.get("output_tokens")),
                cache_read_tokens=cached,
            )
        report.cost_usd = as_float(result.get("total_cost_usd"))
        report.turns = result.get("num_turns") if isinstance(result.get("num_turns"), int) else None
        if result.get("subtype") != "success" or result.get("is_error") is True or stub_failed:
            said = as_str(as_dict(result.get("error")).get("message")) or as_str(result.get("subtype"))
            report.status, report.error = "agent-error", stub_failed or said or "qwen ended with an error"
        return report


def _settings(config: Mapping[str, str]) -> dict[str, Any]:
    """The run's settings, and each of the run's config options (`tools.truncateToolOutputThreshold` =
    `50000`, its value JSON) set at its dotted path."""
    settings: dict[str, Any] = json.loads(json.dumps(_SETTINGS))
    for key, raw in config.items():
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            raise ToolsurfaceError(
                f'qwen: setting {key}={raw!r}: its value is not JSON (a number, true, "text")'
            ) from None
        *path, last = key.split(".")
        node = settings
        for part in path:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ToolsurfaceError(f"qwen: setting {key}: {part} is not a group of settings")
        node[last] = value
    return settings


def _tool_result(block: dict[str, Any], calls: Mapping[str, Event]) -> Event:
    call_id = str(block.get("tool_use_id"))
    text = block_text(block.get("content"))
    is_error = block.get("is_error") is True
    if is_error and _UNKNOWN.search(text):
        return Event("tool_result", id=call_id, text=text, is_error=True, undelivered=UNKNOWN_TOOL)
    if is_error and _DENIED.search(text) and "reported tool error" not in text:
        return denied_call(call_id, calls.get(call_id), text)
    return Event("tool_result", id=call_id, text=text, is_error=is_error)
