"""What the CLIs of one lineage share (a run started as `run --format json`, on the AI SDK's step loop): the JSON
events they write (step_start, text, tool_use, step_finish, error), the `mcp` table of their config (local servers
as one command list, remote ones by URL), and the SQLite database they keep their sessions in (session, message and
part tables). Each such client's own module says its names, folders and switches."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from toolsurface.harness.agents._cli import NO_RESULT, as_dict, as_int, as_str
from toolsurface.harness.agents._config_format import string_table
from toolsurface.harness.agents._session_file import SessionCall, SessionFormatError, SessionRead, SessionTurn
from toolsurface.harness.agents.base import UNKNOWN_TOOL, AgentReport, Event, Usage, denied_call

__all__ = ["mcp_table_entry", "read_session_database", "read_step_events"]

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
