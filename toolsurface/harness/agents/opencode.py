"""opencode (`opencode run --format json`), in config, data, state and cache folders of its own, with the stub as
its only MCP server, read from its JSON events.

opencode reaches another model endpoint through a provider of its config: the run's is `toolsurface`, an
OpenAI-compatible one (Chat Completions) at the endpoint. What it would fetch besides (its update check, the
models.dev catalog, LSP servers, the npm package of its plugin API for each config folder, share links) is
switched off, each by its own switch (checked against 1.18.33's requests: a run reaches the endpoint and the
stub only). Without an endpoint it uses the providers and keys the user set up for it.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
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
    home,
    login_advice,
    loopback_only,
    server_launch,
)
from toolsurface.harness.agents._config_format import ConfigFormat, string_table
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionCall, SessionFormatError, SessionRead, SessionTurn
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)

__all__ = ["OPENCODE_CONFIG", "OPENCODE_HOME", "OpencodeAgent"]

OPENCODE_HOME = "opencode-home"
OPENCODE_CONFIG = "opencode.json"
PROVIDER = "toolsurface"
# The model id opencode is told it runs (it picks its system prompt by it: no known family, its generic one).
SCRIPTED_MODEL = "scripted"
# Keys opencode's bundled providers read from the environment.
KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "OPENROUTER_API_KEY")
# With its own tools denied, opencode's `invalid` tool is gone too, and a call of a tool it has not got fails in
# the AI SDK, which names `invalid` (the tool opencode would have sent it to) as the one it lacks.
_UNAVAILABLE = re.compile(r"Model tried to call unavailable tool|NoSuchToolError")
# How opencode words a call whose permission `opencode run` rejected.
_REJECTED = re.compile(r"rejected permission|permission .{0,40}(denied|rejected)", re.I)
# Each switch keeps opencode from something that is no part of a run: its update check, the models.dev
# catalog, LSP downloads, its default plugins, Claude Code's files in the user's home (CLAUDE.md, skills),
# share links, a project's own config, skills from outside.
_SWITCHES = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_CLAUDE_CODE": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_PROJECT_CONFIG": "1",
    "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
}
# opencode installs its plugin API (`@opencode-ai/plugin`) from npm into every config folder whose lock file
# lacks it; a folder whose package.json and lock file already name it is left alone, so the run's is seeded so.
_PLUGIN_API = "@opencode-ai/plugin"


def _config_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An `mcp` entry of opencode.json in the common shape: `command` is the program and its arguments in one
    list, `type: remote` a URL, `environment` its variables."""
    get = entry.get
    command = get("command")
    if command is not None and (not isinstance(command, list) or not command):
        raise ValueError("command must be a list: the program, then its arguments")
    return {
        "transport": "http" if get("type") == "remote" or get("url") else "stdio",
        "command": [str(c) for c in command] if command else None,
        "env": string_table(get("environment"), "environment"),
        "url": get("url"),
        "headers": string_table(get("headers"), "headers"),
        "disabled": get("enabled") is False,
    }


def _config_workspace(path: Path, cwd: Path) -> Path:
    """A project's opencode.json starts its servers in the project; the user's global one, where it is run."""
    return path.parent if path.parent != Path.home() / ".config" / "opencode" else cwd


CONFIG_FORMAT = ConfigFormat(
    "opencode",
    "opencode's opencode.json",
    ("opencode.json", "opencode.jsonc"),
    table="mcp",
    guess=True,
    order=2,
    placeholders=("brace-env",),
    jsonc=True,
    entry=_config_entry,
    workspace=_config_workspace,
)


def _stamp(millis: object) -> str | None:
    from datetime import UTC, datetime

    return (
        datetime.fromtimestamp(millis / 1000, UTC).isoformat(timespec="milliseconds")
        if isinstance(millis, int)
        else None
    )


def read_sessions(path: Path) -> Iterator[SessionRead]:
    """opencode's database (read only, its session, message and part tables alone; never its accounts): each
    session with its version and model, each assistant message's tokens, and each tool part (the tool by the
    full name opencode gave it, `SERVER_TOOL`, its input, its output or error). Read a session at a time."""
    import sqlite3

    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.DatabaseError as error:
        connection.close()
        raise SessionFormatError(f"not an opencode database ({error})") from None
    if not {"session", "message", "part"} <= tables:
        connection.close()
        raise SessionFormatError("not an opencode database (no session, message and part tables)")
    with contextlib.closing(connection):
        sessions = connection.execute("select id, version, model, time_created from session order by time_created, id")
        for session, version, model, created in sessions.fetchall():
            read = SessionRead("opencode", session=str(session), version=as_str(version), known_lines=1)
            read.model = as_str(as_dict(_loaded(model)).get("id"))
            read.seen(_stamp(created))
            for data, at in connection.execute(
                "select data, time_created from message where session_id = ? order by time_created, id", (session,)
            ):
                message = as_dict(_loaded(data))
                tokens = as_dict(message.get("tokens"))
                if message.get("role") == "assistant" and tokens:
                    read.model = as_str(message.get("modelID")) or read.model
                    cache = as_dict(tokens.get("cache"))
                    usage = Usage(
                        input_tokens=as_int(tokens.get("input")),
                        output_tokens=as_int(tokens.get("output")) + as_int(tokens.get("reasoning")),
                        cache_read_tokens=as_int(cache.get("read")),
                        cache_write_tokens=as_int(cache.get("write")),
                    )
                    read.turns.append(SessionTurn(usage, _stamp(at)))
                read.seen(_stamp(at))
            for (data,) in connection.execute(
                "select data from part where session_id = ? order by time_created, id", (session,)
            ):
                part = as_dict(_loaded(data))
                if part.get("type") != "tool":
                    continue
                state = as_dict(part.get("state"))
                failed = state.get("status") == "error"
                answer = as_str(state.get("error") if failed else state.get("output"))
                time = _stamp(as_dict(state.get("time")).get("start"))
                read.calls.append(
                    SessionCall(None, str(part.get("tool")), as_dict(state.get("input")), answer, failed, time)
                )
            yield read


def _loaded(text: object) -> object:
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


class OpencodeAgent(CliAgent):
    card = ClientCard(
        name="opencode",
        order=4,
        title="opencode",
        package="opencode-ai",
        executable="opencode",
        pinned="1.18.33",
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # `SERVER_TOOL`, every character of either outside `[A-Za-z0-9_-]` a `_` (counted as JavaScript counts
        # them: a character beyond the BMP is two), no cut at any length; sent sorted by name, descriptions whole
        # (1.18.33).
        naming=ToolNaming("opencode", "{server}_{tool}"),
        api="openai-chat",
        settings=(
            ClientSetting("OPENCODE_CONFIG", "env", "the config file it reads (providers, MCP servers, permissions)"),
            ClientSetting("XDG_DATA_HOME", "env", "where its database, logs and logins are (~/.local/share/opencode)"),
            *(ClientSetting(name, "env", "switches off a request no run needs") for name in _SWITCHES),
        ),
        leaves="its database, logs, state and caches, in the run's own folders (removed after it)",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=("bash", "edit", "glob", "grep", "read", "skill", "task", "todowrite", "webfetch", "write"),
        builtins_seen="1.18.33",
        sessions=SessionFiles(
            "~/.local/share/opencode/opencode.db",
            ("XDG_DATA_HOME",),
            "one SQLite database of sessions, messages and parts",
            "1.18.33",
            folder=".local/share/opencode",
            files="opencode.db",
            moved_to=MappingProxyType({"XDG_DATA_HOME": "opencode"}),
            read_each=read_sessions,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        found = _auth_file(env).is_file()
        if any(env.get(key) for key in KEYS) or (found and logins):
            return None
        return f"no credentials: set {' or '.join(KEYS[:2])} (or another provider's key), " + login_advice(
            "sign in once with `opencode auth login`", _auth_file(env), found, logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        own = ctx.run_dir / OPENCODE_HOME
        user_env = agent_env(ctx)
        env = agent_env(
            ctx,
            XDG_CONFIG_HOME=str(own / "config"),
            XDG_DATA_HOME=str(own / "data"),
            XDG_STATE_HOME=str(own / "state"),
            XDG_CACHE_HOME=str(own / "cache"),
            OPENCODE_CONFIG=str(ctx.run_dir / OPENCODE_CONFIG),
            NO_COLOR="1",
            **_SWITCHES,
        )
        env.pop("OPENCODE_CONFIG_DIR", None)
        env.pop("OPENCODE_CONFIG_CONTENT", None)
        # "deny" takes a tool out of the model's request; "ask" keeps it there, and `opencode run` rejects
        # every permission it is asked for.
        own_tools = "ask" if ctx.builtins else "deny"
        config: dict[str, Any] = {
            "autoupdate": False,
            "share": "disabled",
            "mcp": self.mcp_servers(ctx),
            "permission": {
                "*": own_tools,
                **{f"{self.naming.prefix(server.name)}*": "allow" for server in ctx.servers},
            },
        }
        model = ctx.model
        if ctx.endpoint is not None:
            model_id = ctx.model or SCRIPTED_MODEL
            key = DUMMY_KEY if ctx.endpoint.scripted else "{env:OPENAI_API_KEY}"
            if ctx.endpoint.scripted:
                for name in KEYS:
                    env.pop(name, None)
            config["provider"] = {
                PROVIDER: {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": PROVIDER,
                    "options": {"baseURL": ctx.endpoint.url + "/v1", "apiKey": key},
                    "models": {model_id: {"name": model_id}},
                }
            }
            config["enabled_providers"] = [PROVIDER]
            model = f"{PROVIDER}/{model_id}"
            loopback_only(env)
        # A title given is one model request fewer: opencode asks its model for one otherwise.
        argv = [self.program(ctx), "run", "--format", "json", "--pure", "--title", "toolsurface run"]
        if model:
            argv += ["-m", model]
        argv += ["--", ctx.prompt]
        version = self.version or self.tested_versions[0]
        seed = json.dumps({"dependencies": {_PLUGIN_API: version}}) + "\n"
        lock = json.dumps({"packages": {"": {"dependencies": {_PLUGIN_API: version}}}}) + "\n"
        config_dir = own / "config" / "opencode"
        files = {
            ctx.run_dir / OPENCODE_CONFIG: json.dumps(config, indent=2) + "\n",
            config_dir / "package.json": seed,
            config_dir / "package-lock.json": lock,
        }
        links: dict[Path, Path] = {}
        login = _auth_file(user_env)
        if ctx.agent_home == "user" and ctx.endpoint is None and login.is_file():
            # The user's provider logins live in their data folder, which the run moves away from: with
            # --agent-home user linked in for the run only.
            links[own / "data" / "opencode" / "auth.json"] = login
        return Invocation(tuple(argv), env, files, links, dirs=(config_dir / "node_modules",))

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its config's `mcp`: each of the run's servers under its own name, a local one started in its folder."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command)
            servers[server.name] = {
                "type": "local",
                "command": [command, *args],
                "environment": dict(server.command.env),
                "enabled": True,
                # Per MCP request (listing and each call); opencode's default is 5 s.
                "timeout": int(ctx.timeout * 1000),
            }
        return servers

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # Even `--version` makes its folders (a log, a database): give it ones that are thrown away.
        return {
            **env,
            **{f"XDG_{kind}_HOME": str(scratch / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
            **_SWITCHES,
        }

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """The run's own folders: opencode's database, logs, state and caches."""
        return [ctx.run_dir / OPENCODE_HOME]

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        usage: Usage | None = None
        turns = 0
        finished: str | None = None
        errors: list[str] = []
        for record in records:
            kind = record.get("type")
            part = as_dict(record.get("part"))
            if kind == "step_start":
                turns += 1
            elif kind == "text" and isinstance(part.get("text"), str):
                events.append(Event("message", text=part["text"]))
            elif kind == "tool_use":
                events += _tool_events(part, self.own_name)
            elif kind == "step_finish":
                finished = as_str(part.get("reason")) or finished
                step = _usage(as_dict(part.get("tokens")))
                usage = step if usage is None else usage + step
            elif kind == "error":
                error = as_dict(record.get("error"))
                message = as_str(as_dict(error.get("data")).get("message")) or as_str(error.get("name")) or "error"
                errors.append(message)
                events.append(Event("error", text=message))
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(
            status="ok", events=events, final_answer=messages[-1] if messages else None, usage=usage, turns=turns
        )
        if errors:
            report.status, report.error = "agent-error", errors[-1]
        elif finished in (None, "tool-calls"):
            # Its last step asked for tools whose answers no later step read: the session was cut off.
            report.status, report.error = "agent-error", NO_RESULT
        return report


def _auth_file(env: Mapping[str, str]) -> Path:
    data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home(env) / ".local" / "share"
    return data / "opencode" / "auth.json"


def _tool_events(part: dict[str, Any], own_name: Callable[[str], str]) -> list[Event]:
    """A tool part as a call and its result (`own_name`: a tool's name without the server's prefix). opencode
    answers a call of a tool it has not got through its own `invalid` tool, which names the tool the model
    asked for."""
    state = as_dict(part.get("state"))
    call_id = str(part.get("callID"))
    arguments = as_dict(state.get("input"))
    tool = str(part.get("tool"))
    if tool == "invalid":
        asked = str(arguments.get("tool") or tool)
        text = str(state.get("output") or arguments.get("error") or "")
        return [
            Event("tool_call", name=own_name(asked), arguments={}, id=call_id),
            Event("tool_result", id=call_id, text=text, is_error=True, undelivered=UNKNOWN_TOOL),
        ]
    call = Event("tool_call", name=own_name(tool), arguments=arguments, id=call_id)
    if state.get("status") == "completed":
        return [call, Event("tool_result", id=call_id, text=str(state.get("output") or ""))]
    error = str(state.get("error") or "")
    if _UNAVAILABLE.search(error):
        return [call, Event("tool_result", id=call_id, text=error, is_error=True, undelivered=UNKNOWN_TOOL)]
    if _REJECTED.search(error):
        return [call, denied_call(call_id, call, error)]
    return [call, Event("tool_result", id=call_id, text=error, is_error=True)]


def _usage(tokens: dict[str, Any]) -> Usage:
    cache = as_dict(tokens.get("cache"))
    return Usage(
        input_tokens=as_int(tokens.get("input")),
        output_tokens=as_int(tokens.get("output")),
        cache_read_tokens=as_int(cache.get("read")),
        cache_write_tokens=as_int(cache.get("write")),
    )
