"""OpenAI Codex (`codex exec --json`), with the stub as its only MCP server, read from its JSONL events.

What codex 0.171 shows its model (checked against its requests): its default model runs in "code mode",
where tools sit inside one JavaScript `exec` tool and MCP tools are deferred, named only by their namespace
(`default` mode, codex as shipped); the model calls one by writing `await tools.mcp__stub__TOOL({...})` in
`exec`, and codex's --json reports each such call as an `mcp_tool_call` item, as it does a direct one.
`direct` sets `features.code_mode.direct_only_tool_namespaces`, which puts the stub's tools back in front of
the model as plain function tools, in one namespace `mcp__stub`, beside `exec` and codex's collaboration
tools. With builtins off, the features that add more tools are off. The model requests record exactly what
remains.
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
from toolsurface.harness.agents._config_format import ConfigFormat, string_list, string_table
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionCall, SessionRead, SessionTurn, known, session_lines
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    SANDBOX_BLOCKED,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)

__all__ = ["CodexAgent", "toml_key", "toml_value"]

KEYS = ("OPENAI_API_KEY", "CODEX_API_KEY")
CODEX_HOME = "codex-home"
# Codex gates MCP tools without readOnlyHint behind an approval that exec mode cannot give.
_APPROVAL = re.compile(r"user (cancell?ed|rejected) MCP tool call|requires approval", re.I)
# A call of a tool codex does not have never shows in --json; codex logs it on stderr only.
_UNSUPPORTED = re.compile(r"unsupported call: (\S+)")
# Tools codex adds by default that reach past the stub or the task, switched off for a run.
_FEATURES_OFF = (
    "features.shell_tool=false",
    "features.multi_agent=false",
    "features.multi_agent_v2=false",
    "features.goals=false",
    "features.view_image=false",
    "features.sleep_tool=false",
    "tools.experimental_request_user_input.enabled=false",
    'web_search="disabled"',
)
# What codex puts before a tool's text in the request it sends its model, as an item of its own: "Wall time ...
# Output:" for a direct call; in code mode the cell's status first ("Script completed", "Script failed", "Script
# running with cell ID N", ...).
_HEADER = re.compile(
    r"\A\s*(?:Script (?P<status>completed|failed|terminated|running with cell ID (?P<cell>\S+))\s*\n)?"
    r"Wall time[^\n]*\n\s*(?:Final )?Output:\s*\Z"
)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _without_header(parts: Sequence[str]) -> CarriedText | None:
    """A tool output without codex's header: its text, whether a code-mode script failed (or was ended), and the
    cell still running when it yielded; None where the output has no header."""
    header = _HEADER.match(parts[0]) if parts else None
    if header is None or (len(parts) == 1 and header.group("status") is None):
        return None
    return CarriedText("\n".join(parts[1:]), header.group("status") in ("failed", "terminated"), header.group("cell"))


def _env_var_names(value: Any) -> list[str]:
    """`env_vars`: each a variable's name, or a table with its `name` (and a `source`) (codex's McpServerEnvVar)."""
    if value is None:
        return []
    names = [item.get("name") if isinstance(item, dict) else item for item in value] if isinstance(value, list) else []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in names):
        raise ValueError("env_vars must be a list of variable names (or tables with a name)")
    return [str(name) for name in names]


def _config_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A `[mcp_servers.NAME]` table in the common shape. codex expands nothing in its values: a variable reaches
    a server only where it names one to read (`env_vars`, `bearer_token_env_var`, `env_http_headers`)."""
    get = entry.get
    header_vars: dict[str, tuple[str, str, str]] = {}
    bearer = get("bearer_token_env_var")
    if bearer is not None:
        if not isinstance(bearer, str):
            raise ValueError("bearer_token_env_var must be a variable's name")
        header_vars["Authorization"] = ("Bearer ", bearer, "bearer_token_env_var")
    for header, variable in string_table(get("env_http_headers"), "env_http_headers").items():
        header_vars[header] = ("", variable, "env_http_headers")
    command = get("command")
    return {
        "transport": "http" if get("url") else "stdio",
        "command": [str(command), *string_list(get("args"))] if command else None,
        "env": string_table(get("env"), "env"),
        "forward": _env_var_names(get("env_vars")),
        "forward_key": "env_vars",
        "cwd": get("cwd"),
        "url": get("url"),
        "headers": dict(string_table(get("http_headers"), "http_headers")),
        "header_vars": header_vars,
        "disabled": get("enabled") is False,
    }


CONFIG_FORMAT = ConfigFormat(
    "codex",
    "codex's config.toml",
    table="mcp_servers",
    toml=True,
    # codex expands nothing in its values (a `${VAR}` is sent as written); _config_entry names the variables it reads.
    placeholders=(),
    entry=_config_entry,
)


# The lines of a rollout file, by type (0.171.0).
_ROLLOUT_LINES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "token_usage_record", "world_state", "compacted"}
)


def read_session(path: Path) -> SessionRead:
    """A rollout file of codex's: each MCP call as its `item_completed` event reports it (the server by its
    config name, the tool, the arguments, failed or not), the answer as its `function_call_output` gave it to the
    model (codex's header taken off; for a call made inside code mode's `exec`, the MCP result), and the usage
    of each model response (`token_usage_record`; where a version writes none, each `token_count`'s last)."""
    read = SessionRead("codex")
    calls: dict[str, dict[str, Any]] = {}
    counted: list[SessionTurn] = []
    for record in session_lines(path, read):
        kind = record.get("type")
        if kind not in _ROLLOUT_LINES:
            continue
        read.known_lines += 1
        time = as_str(record.get("timestamp"))
        read.seen(time)
        payload = as_dict(record.get("payload"))
        what = payload.get("type")
        if kind == "session_meta":
            read.session = read.session or as_str(payload.get("id"))
            read.version = as_str(payload.get("cli_version")) or read.version
        elif kind == "turn_context":
            read.model = as_str(payload.get("model")) or read.model
        elif kind == "token_usage_record":
            read.turns.append(SessionTurn(_usage(as_dict(payload.get("usage"))), time))
        elif what == "token_count" and isinstance(as_dict(payload.get("info")).get("last_token_usage"), dict):
            counted.append(SessionTurn(_usage(payload["info"]["last_token_usage"]), time))
        elif what == "function_call" and str(payload.get("namespace") or payload.get("name")).startswith("mcp__"):
            # A version that reports no McpToolCall item: the namespace (or the name) as codex cleaned it.
            namespace = str(payload.get("namespace") or "")
            name = str(payload.get("name"))
            server, _, tool = (namespace[5:], "", name) if namespace else name[5:].partition("__")
            calls[str(payload.get("call_id"))] = {
                "server": server,
                "tool": tool,
                "arguments": _arguments(payload),
                "error": False,
                "time": time,
            }
        elif what == "item_completed" and as_dict(payload.get("item")).get("type") == "McpToolCall":
            item = payload["item"]
            result = as_dict(item.get("result"))
            call = calls.setdefault(str(item.get("id")), {"time": time})
            call.update(
                server=as_str(item.get("server")),
                tool=str(item.get("tool")),
                arguments=_arguments(item),
                error=item.get("status") == "failed" or result.get("isError") is True,
                result=block_text(result.get("content"))
                if result
                else as_str(as_dict(item.get("error")).get("message")),
            )
        elif what == "function_call_output" and (answered := calls.get(str(payload.get("call_id")))) is not None:
            output = payload.get("output")
            parts = (
                [as_str(p.get("text")) or "" for p in output if isinstance(p, dict)]
                if isinstance(output, list)
                else [str(output)]
            )
            unwrapped = _without_header(parts)
            answered["answer"] = unwrapped.text if unwrapped is not None else "\n".join(parts)
    read.turns = read.turns or counted
    read.calls = [
        SessionCall(
            c.get("server"),
            str(c.get("tool")),
            c.get("arguments"),
            c.get("answer", c.get("result")),
            bool(c.get("error")),
            c.get("time"),
        )
        for c in calls.values()
        if "tool" in c
    ]
    return known(read, "codex")


class CodexAgent(CliAgent):
    card = ClientCard(
        name="codex",
        order=2,
        title="codex",
        package="@openai/codex",
        executable="codex",
        pinned="0.171.0",
        modes=("default", "direct"),
        aliases=MappingProxyType({"full-list": "direct"}),
        code_modes=("default",),
        # In one namespace `mcp__SERVER`, each tool by its name with `[^A-Za-z0-9_]` -> `_` (per character); a full
        # name over 128 is cut to fit `_` and 12 hex digits, and names that clean alike all get such a suffix
        # (0.171.0, as sent).
        naming=ToolNaming(
            "codex",
            "mcp__{server}__{tool}",
            allowed="A-Za-z0-9_",
            units="codepoint",
            namespace="mcp__{server}",
            max_length=128,
            cut="hash",
            collisions="hash",
        ),
        api="openai-responses",
        settings=(
            ClientSetting(
                "tool_output_token_limit", "config", "the tokens of one tool answer it passes on whole", answers=True
            ),
            ClientSetting(
                "openai_base_url", "config", "where it sends its model requests (OPENAI_BASE_URL is not read)"
            ),
            ClientSetting("features.code_mode", "config", "whether MCP tools are reached through code (`exec`)"),
            ClientSetting("CODEX_HOME", "env", "where its config, logins, state and sessions are (~/.codex)"),
        ),
        quirks=WireQuirks(tool_result=_without_header),
        leaves="its state databases, logs and about 1 MB of bundled skills, in the run's own codex home (removed"
        " after it); with --keep-agent-files its rollout file, in ~/.codex/sessions",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=(
            "exec",
            "followup_task",
            "interrupt_agent",
            "list_agents",
            "request_user_input",
            "request_user_input_async",
            "send_message",
            "send_message_to_user_async",
            "sleep",
            "spawn_agent",
            "wait",
            "wait_agent",
        ),
        builtins_seen="0.171.0",
        sessions=SessionFiles(
            "~/.codex/sessions/<YYYY>/<MM>/<DD>/rollout-<time>-<session-id>.jsonl",
            ("CODEX_HOME",),
            "a session_meta line, then response_item lines (messages, tool calls and their outputs) and event_msg"
            " lines, token_count among them (a run of toolsurface's writes one only with --keep-agent-files)",
            "0.171.0",
            folder=".codex",
            files="sessions/*/*/*/rollout-*.jsonl",
            read=read_session,
        ),
    )

    def __init__(self, executable: str | None = None, base_url: str | None = None) -> None:
        super().__init__(executable)
        self.base_url = base_url

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        if any(env.get(key) for key in KEYS):
            return None
        login = _user_home(env) / "auth.json"
        if login.is_file() and logins:
            return None
        return "no credentials: set OPENAI_API_KEY (or CODEX_API_KEY), " + login_advice(
            "run `codex login`", login, login.is_file(), logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        env = agent_env(ctx)
        user_home = _user_home(env)
        scripted = ctx.endpoint is not None and ctx.endpoint.scripted
        if scripted:
            for key in KEYS:
                env.pop(key, None)
            env["CODEX_API_KEY"] = DUMMY_KEY
        elif env.get("OPENAI_API_KEY") and not env.get("CODEX_API_KEY"):
            env["CODEX_API_KEY"] = env["OPENAI_API_KEY"]  # codex sends CODEX_API_KEY, never OPENAI_API_KEY
        if ctx.endpoint is not None:
            loopback_only(env)  # its analytics, plugin marketplace (git ls-remote) and account requests
        if ctx.agent_home == "run" or env.get("CODEX_API_KEY") or not (user_home / "auth.json").is_file():
            # A home of the run's own: codex's state, logs and skills stay out of the user's ~/.codex (which a run
            # uses, with --agent-home user, for the login in it).
            env["CODEX_HOME"] = str(ctx.run_dir / CODEX_HOME)
        # --ignore-user-config keeps the login ($CODEX_HOME/auth.json) but not config.toml, so no MCP
        # server or hook of the user's joins the run; codex exec has no turn limit to pass.
        argv = [
            self.program(ctx),
            "exec",
            "--json",
            "--skip-git-repo-check",
            # A kept run writes its rollout file, where the user's are (below), for `session import`.
            *(() if ctx.keep_agent_files else ("--ephemeral",)),
            "--ignore-user-config",
            "-s",
            "read-only",
            "-C",
            str(ctx.workdir),
        ]
        for name, entry in self.mcp_servers(ctx).items():
            argv += ["-c", f"mcp_servers.{toml_key(name)}={toml_value(entry)}"]
        if self.mode_named(ctx.mode) == "direct":
            namespaces = [self.naming.namespace_name(server.name) for server in ctx.servers]
            direct = {"enabled": True, "direct_only_tool_namespaces": namespaces}
            argv += ["-c", f"features.code_mode={toml_value(direct)}"]
        for option in () if ctx.builtins else _FEATURES_OFF:
            argv += ["-c", option]
        for key, value in ctx.config.items():
            argv += ["-c", f"{key}={value}"]
        base_url = ctx.endpoint.url + "/v1" if ctx.endpoint is not None else self.base_url
        if base_url:
            # codex ignores OPENAI_BASE_URL; a -c option survives --ignore-user-config.
            argv += ["-c", f"openai_base_url={toml_value(base_url)}"]
        if ctx.model:
            argv += ["-m", ctx.model]
        argv += ["--", ctx.prompt]
        own_home: tuple[Path, ...] = (
            (ctx.run_dir / CODEX_HOME,) if env.get("CODEX_HOME") == str(ctx.run_dir / CODEX_HOME) else ()
        )
        links: dict[Path, Path] = {}
        if own_home and ctx.keep_agent_files:
            # The run's own home keeps codex's state out of the user's; its sessions folder is the user's, linked
            # in for the run only, so the rollout file lands where the user's sessions are.
            links[ctx.run_dir / CODEX_HOME / "sessions"] = user_home / "sessions"
            own_home += (user_home / "sessions",)
        return Invocation(tuple(argv), env, links=links, dirs=own_home)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Each of the run's servers under its own name, as `-c mcp_servers.NAME={...}` gives it. `required`: codex
        waits for it before its first model request (else the first has none of its tools). codex ends a server
        by SIGTERM to its process group and SIGKILL to the process it started, at once as it exits: each starts
        under a shell that takes the SIGKILL, so the stub ends on the SIGTERM with its state written."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command, shielded=True)
            entry: dict[str, object] = {
                "command": command,
                "args": args,
                "startup_timeout_sec": 30,
                "required": True,
                "default_tools_approval_mode": "approve",
            }
            if server.command.env:
                entry["env"] = dict(server.command.env)
            servers[server.name] = entry
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # `--version` writes its helpers into its home's tmp folder (0.171.0): give it one that is thrown away.
        return {**env, "CODEX_HOME": str(scratch)}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """The run's own codex home (state databases, logs, about 1 MB of bundled skills)."""
        return [ctx.run_dir / CODEX_HOME]

    def own_name(self, name: str) -> str:
        """`mcp__stub__item_x` or `mcp__stubitem_x` (namespace and name joined) as the tool's own name."""
        namespace = self.naming.namespace_name(self.server_name) or ""
        for prefix in (self.naming.prefix(self.server_name), namespace):
            if prefix and name.startswith(prefix):
                return name[len(prefix) :]
        return name

    def _tool(self, item: dict[str, Any]) -> str:
        """A call's tool by its own name, a tool of another server than the run's as SERVER/TOOL."""
        tool = str(item.get("tool"))
        server = item.get("server")
        return tool if server in (None, self.server_name) else f"{server}/{tool}"

    def read_stderr(self, text: str, report: AgentReport) -> None:
        for n, match in enumerate(_UNSUPPORTED.finditer(text)):
            name = match.group(1).rstrip(".,;")
            call_id = f"unsupported-{n}"
            report.events.append(Event("tool_call", name=self.own_name(name), arguments={}, id=call_id))
            report.events.append(
                Event(
                    "tool_result", id=call_id, text=f"unsupported call: {name}", is_error=True, undelivered=UNKNOWN_TOOL
                )
            )

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        usage: Usage | None = None
        completed = False
        failure: str | None = None
        approval: str | None = None
        final: str | None = None
        for record in records:
            kind = record.get("type")
            if kind in ("item.started", "item.updated", "item.completed"):
                item = as_dict(record.get("item"))
                item_id = str(item.get("id"))
                item_type = item.get("type")
                if item_type == "mcp_tool_call":
                    if item_id not in calls:
                        calls[item_id] = Event(
                            "tool_call", name=self._tool(item), arguments=_arguments(item), id=item_id
                        )
                        events.append(calls[item_id])
                    if kind == "item.completed":
                        result = _tool_result(item, calls[item_id])
                        if result.kind == "permission_denied":
                            approval = approval or f"codex cancelled its call to {result.name}: {result.text}"
                        events.append(result)
                elif kind != "item.completed":
                    continue
                elif item_type == "agent_message" and isinstance(item.get("text"), str):
                    final = item["text"]
                    events.append(Event("message", text=final))
                elif item_type == "error":
                    events.append(Event("error", text=str(item.get("message"))))
                elif item_type in ("command_execution", "file_change", "web_search"):
                    # Switched off for the run; recorded so that a leak shows.
                    fields = {k: v for k, v in item.items() if k not in ("id", "type")}
                    events.append(Event("tool_call", name=str(item_type), arguments=fields, id=item_id))
                    if item.get("status") in ("failed", "declined"):
                        events.append(
                            Event(
                                "tool_result",
                                id=item_id,
                                text=json.dumps(fields)[:300],
                                is_error=True,
                                undelivered=SANDBOX_BLOCKED,
                            )
                        )
            elif kind == "turn.completed":
                completed = True
                turn = _usage(as_dict(record.get("usage")))
                usage = turn if usage is None else usage + turn
            elif kind == "turn.failed":
                failure = str(as_dict(record.get("error")).get("message") or "turn failed")
                events.append(Event("error", text=failure))
            elif kind == "error":
                # Also sent for retried stream errors ("Reconnecting... 1/5"): not fatal by itself.
                events.append(Event("error", text=str(record.get("message"))))
        report = AgentReport(status="ok", events=events, final_answer=final, usage=usage)
        error = approval or failure or (None if completed else NO_RESULT)
        if error is not None:
            report.status, report.error = "agent-error", error
        return report


def _arguments(item: dict[str, Any]) -> dict[str, Any]:
    arguments = item.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return {}
    return as_dict(arguments)


def _tool_result(item: dict[str, Any], call: Event) -> Event:
    error = as_str(as_dict(item.get("error")).get("message"))
    if error is not None and _APPROVAL.search(error):
        return denied_call(str(call.id), call, f"{error} (the call waited for an approval that exec mode cannot give)")
    text = error if error is not None else block_text(as_dict(item.get("result")).get("content"))
    return Event("tool_result", id=call.id, text=text, is_error=error is not None or item.get("status") == "failed")


def _usage(usage: dict[str, Any]) -> Usage:
    # OpenAI counts cached input inside input_tokens; Usage keeps Claude's split (input not from cache).
    cached = as_int(usage.get("cached_input_tokens"))
    return Usage(
        input_tokens=max(as_int(usage.get("input_tokens")) - cached, 0),
        output_tokens=as_int(usage.get("output_tokens")),
        cache_read_tokens=cached,
    )


def toml_value(value: object) -> str:
    """`value` as a one-line TOML value (inline tables, arrays, basic strings), as `codex -c` parses it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(_escape(char) for char in value) + '"'
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def _user_home(env: Mapping[str, str]) -> Path:
    """The user's codex folder (config, login, sessions): $CODEX_HOME, else ~/.codex."""
    return Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home(env) / ".codex"


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_value(key)


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\u{ord(char):04X}"
    return char
