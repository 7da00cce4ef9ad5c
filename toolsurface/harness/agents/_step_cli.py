"""What the CLIs of one lineage share (a run started as `run --format json`, on the AI SDK's step loop): the JSON
events they write (step_start, text, tool_use, step_finish, error), the `mcp` table of their config (local servers
as one command list, remote ones by URL), and the SQLite database they keep their sessions in (session, message and
part tables). Each such client's own module says its names, folders and switches."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

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
from toolsurface.harness.agents._config_format import string_table
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

__all__ = [
    "StepCli",
    "StepCliAgent",
    "mcp_servers",
    "mcp_table_entry",
    "read_session_database",
    "read_step_events",
    "step_invocation",
]

# The provider a run's config gives the endpoint, and the model id it is told it runs (it picks its system prompt
# by it: no known family, its generic one).
PROVIDER = "toolsurface"
SCRIPTED_MODEL = "scripted"

# With its own tools denied, the client's `invalid` tool is gone too, and a call of a tool it has not got fails in
# the AI SDK, which names `invalid` (the tool the client would have sent it to) as the one it lacks.
_UNAVAILABLE = re.compile(r"Model tried to call unavailable tool|NoSuchToolError")
# How the client words a call whose permission its `run` rejected.
_REJECTED = re.compile(r"rejected permission|permission .{0,40}(denied|rejected)", re.I)


def mcp_table_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An `mcp` entry in the common shape: `command` is the program and its arguments in one list, `type: remote`
    a URL, `environment` its variables."""
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


def _stamp(millis: object) -> str | None:
    from datetime import UTC, datetime

    return (
        datetime.fromtimestamp(millis / 1000, UTC).isoformat(timespec="milliseconds")
        if isinstance(millis, int)
        else None
    )


def read_session_database(path: Path, client: str) -> Iterator[SessionRead]:
    """The client `client`'s database (read only, its session, message and part tables alone; never its
    accounts): each session with its version and model, each assistant message's tokens, and each tool part (the
    tool by the full name the client gave it, `SERVER_TOOL`, its input, its output or error). Read a session at a
    time."""
    import sqlite3

    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.DatabaseError as error:
        connection.close()
        raise SessionFormatError(f"not an {client} database ({error})") from None
    if not {"session", "message", "part"} <= tables:
        connection.close()
        raise SessionFormatError(f"not an {client} database (no session, message and part tables)")
    with contextlib.closing(connection):
        sessions = connection.execute("select id, version, model, time_created from session order by time_created, id")
        for session, version, model, created in sessions.fetchall():
            read = SessionRead(client, session=str(session), version=as_str(version), known_lines=1)
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


def read_step_events(records: list[dict[str, Any]], own_name: Callable[[str], str]) -> AgentReport:
    """The report a run's JSON events give (`own_name`: a tool's name without the server's prefix): status ok only
    where no error came and its last step did not end asking for tools."""
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
            events += _tool_events(part, own_name)
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


def _tool_events(part: dict[str, Any], own_name: Callable[[str], str]) -> list[Event]:
    """A tool part as a call and its result. The client answers a call of a tool it has not got through its own
    `invalid` tool, which names the tool the model asked for."""
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


@dataclass(frozen=True)
class StepCli:
    """One CLI of the lineage, as a run sets it up: `folder`, the name of its folders (`~/.config/FOLDER`,
    `~/.local/share/FOLDER`); `home`, the run's folder holding its XDG folders; `config`, the run's config file,
    named to it by the variable `config_env`; `dropped`, variables of the user's a run leaves out (other config
    sources); `switches`, what keeps it from what no run needs; `plugin_api`, the npm package it would install into
    its config folder; `keys`, the keys its providers read from the environment."""

    folder: str
    home: str
    config: str
    config_env: str
    dropped: tuple[str, ...]
    switches: Mapping[str, str]
    plugin_api: str
    keys: tuple[str, ...]

    def auth_file(self, env: Mapping[str, str]) -> Path:
        """Where it keeps the user's provider logins."""
        data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home(env) / ".local" / "share"
        return data / self.folder / "auth.json"

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        """Even `--version` makes its folders (a log, a database): ones in `scratch`, thrown away."""
        return {
            **env,
            **{f"XDG_{kind}_HOME": str(scratch / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
            **self.switches,
        }


def mcp_servers(ctx: RunContext) -> dict[str, dict[str, object]]:
    """A config's `mcp`: each of the run's servers under its own name, a local one started in its folder."""
    servers: dict[str, dict[str, object]] = {}
    for server in ctx.servers:
        command, args = server_launch(server.command)
        servers[server.name] = {
            "type": "local",
            "command": [command, *args],
            "environment": dict(server.command.env),
            "enabled": True,
            # Per MCP request (listing and each call); the lineage's default is 5 s.
            "timeout": int(ctx.timeout * 1000),
        }
    return servers


def step_invocation(
    cli: StepCli, ctx: RunContext, program: str, prefix: Callable[[str], str], version: str
) -> Invocation:
    """The run of `cli` (`program`, at `version`) in folders of the run's own, with the run's servers as its only MCP
    servers (`prefix`: what it puts before a server's tools), its own tools denied unless builtins are on, and the
    endpoint, where there is one, as its only provider: `toolsurface`, OpenAI-compatible (Chat Completions)."""
    own = ctx.run_dir / cli.home
    user_env = agent_env(ctx)
    env = agent_env(
        ctx,
        XDG_CONFIG_HOME=str(own / "config"),
        XDG_DATA_HOME=str(own / "data"),
        XDG_STATE_HOME=str(own / "state"),
        XDG_CACHE_HOME=str(own / "cache"),
        NO_COLOR="1",
        **{cli.config_env: str(ctx.run_dir / cli.config)},
        **cli.switches,
    )
    for name in cli.dropped:
        env.pop(name, None)
    # "deny" takes a tool out of the model's request; "ask" keeps it there, and `run` rejects every permission it
    # is asked for.
    own_tools = "ask" if ctx.builtins else "deny"
    config: dict[str, Any] = {
        "autoupdate": False,
        "share": "disabled",
        "mcp": mcp_servers(ctx),
        "permission": {"*": own_tools, **{f"{prefix(server.name)}*": "allow" for server in ctx.servers}},
    }
    model = ctx.model
    if ctx.endpoint is not None:
        model_id = ctx.model or SCRIPTED_MODEL
        key = DUMMY_KEY if ctx.endpoint.scripted else "{env:OPENAI_API_KEY}"
        if ctx.endpoint.scripted:
            for name in cli.keys:
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
    # A title given is one model request fewer: it asks its model for one otherwise.
    argv = [program, "run", "--format", "json", "--pure", "--title", "toolsurface run"]
    if model:
        argv += ["-m", model]
    argv += ["--", ctx.prompt]
    # It installs its plugin API from npm into every config folder whose lock file lacks it; a folder whose
    # package.json and lock file already name it is left alone, so the run's is seeded so.
    seed = json.dumps({"dependencies": {cli.plugin_api: version}}) + "\n"
    lock = json.dumps({"packages": {"": {"dependencies": {cli.plugin_api: version}}}}) + "\n"
    config_dir = own / "config" / cli.folder
    files = {
        ctx.run_dir / cli.config: json.dumps(config, indent=2) + "\n",
        config_dir / "package.json": seed,
        config_dir / "package-lock.json": lock,
    }
    links: dict[Path, Path] = {}
    login = cli.auth_file(user_env)
    if ctx.agent_home == "user" and ctx.endpoint is None and login.is_file():
        # The user's provider logins live in their data folder, which the run moves away from: with --agent-home
        # user linked in for the run only.
        links[own / "data" / cli.folder / "auth.json"] = login
    return Invocation(tuple(argv), env, files, links, dirs=(config_dir / "node_modules",))


class StepCliAgent(CliAgent):
    """An adapter of a CLI of the lineage: its card, and its `cli`, say all of it."""

    cli: ClassVar[StepCli]

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        found = self.cli.auth_file(env).is_file()
        if any(env.get(key) for key in self.cli.keys) or (found and logins):
            return None
        return f"no credentials: set {' or '.join(self.cli.keys[:2])} (or another provider's key), " + login_advice(
            f"sign in once with `{self.card.executable} auth login`", self.cli.auth_file(env), found, logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        version = self.version or self.tested_versions[0]
        return step_invocation(self.cli, ctx, self.program(ctx), self.naming.prefix, version)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its config's `mcp`: each of the run's servers under its own name, a local one started in its folder."""
        return mcp_servers(ctx)

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        return self.cli.version_env(env, scratch)

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """The run's own folders: its database, logs, state and caches."""
        return [ctx.run_dir / self.cli.home]

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        return read_step_events(records, self.own_name)
