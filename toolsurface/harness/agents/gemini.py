"""Gemini CLI (`gemini -p -o stream-json`), in a home of its own where the stub is the only MCP server
and its tools the only ones allowed."""

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
    home,
    login_advice,
    trusted_servers,
)
from toolsurface.harness.agents._config_format import ConfigFormat, dot_folder_workspace, http_url_entry
from toolsurface.harness.agents._naming import ToolNaming
from toolsurface.harness.agents._session_file import SessionCall, SessionRead, SessionTurn, known, session_lines
from toolsurface.harness.agents._usage import cached_within
from toolsurface.harness.agents.base import (
    DUMMY_KEY,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
)

__all__ = ["GEMINI_HOME", "GeminiAgent"]

GEMINI_HOME = "gemini-home"
KEYS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
OAUTH_CREDS = "oauth_creds.json"
BASE_URL_ENV = "GOOGLE_GEMINI_BASE_URL"
# `tools.core` is an allowlist: any list, even [], denies every tool not on it (so [] hides the stub's tools
# too); the stub's tools are named mcp_stub_TOOL, so `mcp_stub_*` lets exactly them through. No `tools.exclude`:
# gemini-cli 0.61.0 matches an exclusion against an MCP tool's own name as well, so excluding the built-in
# `write_file` hid a server's `write_file` too.
# gemini-cli's answer to a call of a tool it does not have.
_UNKNOWN = ("not found in registry", "Tool not found", "is not available")
# What gemini-cli says of a tool's name it cuts to 64 chars; a cut name that no longer starts with the server's
# prefix is then left out of the model's requests.
_TOOL_SAID = re.compile(r'^.*\bMCP tool name "(?P<name>[^"]+)".*$', re.MULTILINE)
_EXITS = {42: "gemini rejected its input (exit code 42)", 53: "max turns reached"}


# gemini-cli frames an MCP tool's output in the request it sends its model as <untrusted_context>...</untrusted_context>;
# the tool's own text is inside.
_FRAME = re.compile(r"\A\s*<([A-Za-z_][\w-]*)>\n?(.*?)\n?</\1>\s*\Z", re.S)


def _unframed(parts: Sequence[str]) -> CarriedText | None:
    match = _FRAME.match("\n".join(parts))
    return CarriedText(match.group(2)) if match else None


CONFIG_FORMAT = ConfigFormat(
    "gemini",
    "gemini-cli's settings.json",
    ("settings.json",),
    ".gemini",
    placeholders=("dollar-braces", "dollar"),
    entry=http_url_entry,
    workspace=dot_folder_workspace,
)


# How a chat names an MCP tool for its user (0.61.0): "TOOL (SERVER MCP Server)".
_DISPLAY_NAME = re.compile(r"\A(?P<tool>.+) \((?P<server>.+) MCP Server\)\Z", re.S)


def read_session(path: Path) -> SessionRead:
    """A chat file of gemini-cli's: a header line (sessionId, startTime), then each message as a line, written
    again as it grows (the last line of a message is the whole of it), and `$set` lines. Each tool call of a
    `gemini` message with its answer as the model was given it (gemini-cli's frame taken off), and each
    message's tokens once. The file names no version of gemini-cli."""
    read = SessionRead("gemini")
    calls: dict[str, SessionCall] = {}
    turns: dict[str, SessionTurn] = {}
    for record in session_lines(path, read):
        if "$set" in record:
            read.known_lines += 1
        elif "sessionId" in record and "startTime" in record:
            read.known_lines += 1
            read.session = read.session or as_str(record.get("sessionId"))
            read.seen(record.get("startTime"))
        elif isinstance(record.get("id"), str) and record.get("type") in ("user", "gemini", "info", "error", "warning"):
            read.known_lines += 1
            time = as_str(record.get("timestamp"))
            read.seen(time)
            if record.get("type") != "gemini":
                continue
            read.model = as_str(record.get("model")) or read.model
            if isinstance(record.get("tokens"), dict):
                turns[record["id"]] = SessionTurn(_chat_usage(record["tokens"]), time)
            for call in record.get("toolCalls") or []:
                if isinstance(call, dict):
                    calls[str(call.get("id"))] = _chat_call(call, time)
    read.calls, read.turns = list(calls.values()), list(turns.values())
    return known(read, "gemini-cli (0.61 or later, JSONL)")


def _chat_call(call: dict[str, Any], time: str | None) -> SessionCall:
    shown = _DISPLAY_NAME.match(str(call.get("displayName") or ""))
    server, tool = (shown.group("server"), shown.group("tool")) if shown else (None, str(call.get("name")))
    answer: str | None = None
    for part in call.get("result") or []:
        response = as_dict(as_dict(as_dict(part).get("functionResponse")).get("response"))
        text = response.get("output", response.get("error"))
        if isinstance(text, str):
            unframed = _unframed([text])
            answer = unframed.text if unframed is not None else text
    error = call.get("status") == "error"
    return SessionCall(server, tool, as_dict(call.get("args")), answer, error, as_str(call.get("timestamp")) or time)


def _chat_usage(tokens: dict[str, Any]) -> Usage:
    return cached_within(*(as_int(tokens.get(key)) for key in ("input", "output", "thoughts", "cached")))


class GeminiAgent(CliAgent):
    card = ClientCard(
        name="gemini",
        order=3,
        title="gemini-cli",
        package="@google/gemini-cli",
        executable="gemini",
        pinned="0.61.0",
        modes=("default",),
        aliases=MappingProxyType({"full-list": "default"}),
        # generateValidName(SERVER + "_" + TOOL): `mcp_` in front unless there, `[^a-zA-Z0-9_.:-]` -> `_` (per UTF-16
        # unit), and over 63 the first and last 30 characters around `...` (0.61.0).
        naming=ToolNaming(
            "gemini-cli",
            "mcp_{server}_{tool}",
            allowed="A-Za-z0-9_.:-",
            max_length=63,
            cut="middle",
            keep=30,
            marker="...",
            prefix_once="mcp_",
        ),
        api="gemini",
        settings=(
            ClientSetting(BASE_URL_ENV, "env", "where it sends its model requests"),
            ClientSetting(
                "tools.core", "config", "an allowlist of tools: any list, even [], denies every tool not on it"
            ),
            ClientSetting("GEMINI_CLI_HOME", "env", "where its .gemini folder (settings, logins, chats) is"),
            ClientSetting("GEMINI_CLI_NO_RELAUNCH", "env", "runs in one process, not again in a child"),
        ),
        quirks=WireQuirks(tool_result=_unframed),
        leaves="everything it writes into the run's own home but the settings it was given (removed after it); with"
        " --keep-agent-files its chats, in ~/.gemini/tmp/<run's folder>",
        config_formats=(CONFIG_FORMAT,),
        builtin_tools=(
            "enter_plan_mode",
            "glob",
            "google_web_search",
            "grep_search",
            "invoke_agent",
            "list_directory",
            "read_file",
            "update_topic",
        ),
        builtins_seen="0.61.0",
        sessions=SessionFiles(
            "~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl",
            ("GEMINI_CLI_HOME",),
            "a header line (sessionId, projectHash, startTime), then `$set` lines of its messages",
            "0.61.0",
            folder=".gemini",
            files="tmp/*/chats/session-*.json*",
            moved_to=MappingProxyType({"GEMINI_CLI_HOME": ".gemini"}),
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        found = _login(env) is not None
        if any(env.get(key) for key in KEYS) or (found and logins):
            return None
        return "no credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY), " + login_advice(
            "sign in with Google once in `gemini`", _user_dir(env) / OAUTH_CREDS, found, logins
        )

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        gemini_home = ctx.run_dir / GEMINI_HOME
        # gemini-cli starts itself again in a child to raise Node's heap limit, loading its bundle twice (about 1 s
        # of CPU and of wall time a run, 0.61.0); a run's requests are the same either way.
        env = agent_env(
            ctx, GEMINI_CLI_HOME=str(gemini_home), GEMINI_CLI_TRUST_WORKSPACE="true", GEMINI_CLI_NO_RELAUNCH="true"
        )
        user_env = agent_env(ctx)
        if ctx.endpoint is not None:
            env[BASE_URL_ENV] = ctx.endpoint.url
            if ctx.endpoint.scripted:
                for key in KEYS:
                    env.pop(key, None)
                env["GEMINI_API_KEY"] = DUMMY_KEY
        # With builtins off, `core` lets the servers' tools alone through (gemini-cli enables every built-in only
        # when the list is absent).
        settings: dict[str, Any] = {
            "mcpServers": self.mcp_servers(ctx),
            "model": {"maxSessionTurns": ctx.max_turns},
            # Its usage statistics (Clearcut, play.googleapis.com): a run talks to its model endpoint and the stub.
            "privacy": {"usageStatisticsEnabled": False},
        }
        if not ctx.builtins:
            settings["tools"] = {"core": [f"{self.naming.prefix(server.name)}*" for server in ctx.servers]}
        links: dict[Path, Path] = {}
        login = None if any(env.get(key) for key in KEYS) or ctx.agent_home == "run" else _login(user_env)
        if env.get(BASE_URL_ENV):
            # With a base URL set, gemini-cli picks a gateway login and exits 41 unless the key login is chosen.
            settings["security"] = {"auth": {"selectedType": "gemini-api-key"}}
        elif login is not None:
            # The Google login lives in the user's ~/.gemini, which GEMINI_CLI_HOME moves away from: with
            # --agent-home user linked in for the run only, so no copy of it stays in the run directory.
            links[gemini_home / ".gemini" / OAUTH_CREDS] = login
            settings["security"] = {"auth": {"selectedType": "oauth-personal"}}
        dirs: tuple[Path, ...] = ()
        if ctx.keep_agent_files:
            # A kept run's chats land in the user's own ~/.gemini/tmp (under a project named after the run's
            # folder), where `session import` finds the user's sessions; linked in for the run only.
            dirs = (_user_dir(user_env) / "tmp",)
            links[gemini_home / ".gemini" / "tmp"] = dirs[0]
        argv = [
            self.program(ctx),
            "-p",
            ctx.prompt,
            "-o",
            "stream-json",
            "--approval-mode",
            # With its own tools there, only the trusted stub's calls go without asking, and asking is denial.
            "default" if ctx.builtins else "yolo",
            "--allowed-mcp-server-names",
            *(server.name for server in ctx.servers),
        ]
        if ctx.model:
            argv += ["-m", ctx.model]
        files = {gemini_home / ".gemini" / "settings.json": json.dumps(settings, indent=2) + "\n"}
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its settings' `mcpServers`: each of the run's servers under its own name, trusted (headless, a call
        that would ask is denied), in its own folder."""
        return trusted_servers(ctx)

    def said_of_tools(self, stderr: str) -> dict[str, str]:
        return {match["name"]: match.group().strip() for match in _TOOL_SAID.finditer(stderr)}

    def version_env(self, env: Mapping[str, str], scratch: Path) -> dict[str, str]:
        # Even `--version` writes a projects file into its home: give it one that is thrown away.
        return {**env, "GEMINI_CLI_HOME": str(scratch)}

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """Everything gemini-cli wrote into the run's own home but the settings it was given."""
        home_dir = ctx.run_dir / GEMINI_HOME / ".gemini"
        if not home_dir.is_dir():
            return []
        return [path for path in home_dir.iterdir() if path.name != "settings.json"]

    def exit_error(self, code: int) -> str | None:
        return _EXITS.get(code)

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        pending: list[str] = []
        model: str | None = None
        result: dict[str, Any] | None = None
        turns = 0
        awaiting_model = True

        def flush() -> None:
            if pending:
                events.append(Event("message", text="".join(pending)))
                pending.clear()

        for record in records:
            kind = record.get("type")
            if kind == "init":
                model = as_str(record.get("model")) or model
                continue
            if kind in ("message", "tool_use") and awaiting_model and record.get("role") != "user":
                # A model turn starts at its first output after the prompt or after tool results.
                turns += 1
                awaiting_model = False
            if kind == "message":
                if record.get("role") == "assistant" and isinstance(record.get("content"), str):
                    pending.append(record["content"])
                continue
            flush()
            if kind == "tool_use":
                events.append(
                    Event(
                        "tool_call",
                        name=self.own_name(str(record.get("tool_name"))),
                        arguments=as_dict(record.get("parameters")),
                        id=str(record.get("tool_id")),
                    )
                )
            elif kind == "tool_result":
                awaiting_model = True
                failed = record.get("status") != "success"
                text = record.get("output")
                if not isinstance(text, str) or (failed and not text):
                    text = str(as_dict(record.get("error")).get("message") or "")
                undelivered = UNKNOWN_TOOL if failed and any(u in text for u in _UNKNOWN) else None
                events.append(
                    Event(
                        "tool_result",
                        id=str(record.get("tool_id")),
                        text=text,
                        is_error=failed,
                        undelivered=undelivered,
                    )
                )
            elif kind == "error":
                events.append(Event("error", text=str(record.get("message"))))
            elif kind == "result":
                result = record
        flush()
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(
            status="ok", events=events, final_answer=messages[-1] if messages else None, model=model, turns=turns
        )
        if result is None:
            report.status, report.error = "agent-error", NO_RESULT
            return report
        stats = as_dict(result.get("stats"))
        if stats:
            # Gemini counts cached input inside input_tokens; Usage keeps Claude's split.
            cached = as_int(stats.get("cached"))
            report.usage = Usage(
                input_tokens=max(as_int(stats.get("input_tokens")) - cached, 0),
                output_tokens=as_int(stats.get("output_tokens")),
                cache_read_tokens=cached,
            )
        if result.get("status") != "success":
            message = as_str(as_dict(result.get("error")).get("message"))
            report.status = "agent-error"
            report.error = message or f"gemini ended with status {result.get('status')!r}"
        return report


def _user_dir(env: Mapping[str, str]) -> Path:
    return (Path(env["GEMINI_CLI_HOME"]) if env.get("GEMINI_CLI_HOME") else home(env)) / ".gemini"


def _login(env: Mapping[str, str]) -> Path | None:
    creds = _user_dir(env) / OAUTH_CREDS
    return creds if creds.is_file() else None
