"""Claude Code in print mode (`claude -p`), limited to the stub's tools, read from its stream-json."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from toolsurface.harness.agents._card import (
    AnswerCap,
    ClientCard,
    ClientSetting,
    SearchMade,
    SearchReading,
    SessionFiles,
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
    home,
    login_advice,
    server_launch,
    stub_failure,
    user_cache,
)
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
    PERMISSION_DENIED,
    UNKNOWN_TOOL,
    AgentReport,
    Event,
    RunContext,
    Usage,
    denied_call,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.jsonl import transcript_objects
from toolsurface.harness.output import counted
from toolsurface.harness.run_folder import TRANSCRIPT

__all__ = ["CLAUDE_HOME", "MCP_CONFIG", "ClaudeAgent"]

MCP_CONFIG = "mcp-config.json"
# The run's own home for Claude Code (`--agent-home run`): HOME itself, as no setting moves all it writes there (2.1.197
# and 2.1.332 write ~/.claude.json, a backup of it and ~/.claude/{projects,sessions,plugins}, which CLAUDE_CONFIG_DIR
# moves, and MCP logs in ~/.cache/claude-cli-nodejs, which it does not).
CLAUDE_HOME = "claude-home"
# The folders a user's XDG variables may move out of the home (its cache among them): in its own home, where a
# home without them has them.
_XDG = {
    "XDG_CACHE_HOME": ".cache",
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
}
# Claude Code holds an MCP tool's answer to this many tokens (25,000 unset), read from its own bundle in 2.1.197 (a
# JavaScript bundle) and 2.1.332 (a native binary with the same functions): its rough estimate of an answer is each
# text block's length / 4, rounded, plus 1,600 per image; one estimated above 10,000 is shown to the user as "Large
# MCP response (~N tokens), this can fill up context quickly"; one above half the cap is counted exactly (the
# Messages API's token count) and, above the cap, cut to 4 characters per token of it with "[OUTPUT TRUNCATED -
# exceeded 25000 token limit]" appended (2.1.332 cuts without counting when the text alone is estimated above four
# times the cap).
ANSWER_SETTING = "MAX_MCP_OUTPUT_TOKENS"
KEYS = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN")
# How Claude Code words a tool call that needed a permission nobody gave.
_DENIED = re.compile(r"haven'?t granted|not been granted|was not granted|permission[^.]{0,40}denied", re.I)
# How it answers a call that never left it: a tool it does not have, or arguments its own check rejected.
_UNKNOWN = re.compile(r"No such tool available", re.I)
_INVALID = re.compile(r"InputValidationError|input validation", re.I)
# A server still connecting is not a failure: with tool search on, init reports it pending and it connects after.
_STUB_FAILED = ("failed", "needs-auth", "disabled")


# Claude Code's own tool search, as its model calls it (2.1.197 and 2.1.332).
SEARCH_TOOL = "ToolSearch"
# Behind a gateway (`gateway`): its debug log (`--debug-file`, in the run's folder), and the lines of it that say how
# it decided its tool search, kept in the run's folder when the log goes with the run's other leftovers.
DEBUG_LOG = "claude-debug.txt"
SEARCH_SAID = "claude-tool-search.txt"
# 2.1.197 and 2.1.332 say so once, before the first request: `[ToolSearch:optimistic] mode=tst,
# ENABLE_TOOL_SEARCH=undefined, result=true`, or (2.1.197, settings unset, a base URL that is not api.anthropic.com)
# `[ToolSearch:optimistic] disabled: ANTHROPIC_BASE_URL=URL is not a first-party Anthropic host. ...`.
_SEARCH_LINE = re.compile(r"\[ToolSearch:optimistic\] (.*)")
_NOT_FIRST_PARTY = re.compile(r"disabled: ANTHROPIC_BASE_URL=(\S+) is not a first-party Anthropic host")
# The Anthropic API's beta for deferred tools, their tool_reference blocks and its tool search.
TOOL_SEARCH_BETA = "advanced-tool-use-"
# Its own switch that counts ANTHROPIC_BASE_URL as Anthropic's own host (first party), in 2.1.197 and 2.1.332.
FIRST_PARTY = "_CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL"
# The lines of a session file that carry no call or usage, by type (2.1.197 and 2.1.332).
_SESSION_OTHER = frozenset(
    {"queue-operation", "last-prompt", "attachment", "summary", "system", "file-history-snapshot"}
)


def read_session(path: Path) -> SessionRead:
    """A session file of Claude Code's: each tool_use of an assistant message with the tool_result a user
    message answers it with (the text its model was given), and each assistant message's usage once."""
    read = SessionRead("claude")
    asked: dict[str, tuple[str, dict[str, Any], str | None]] = {}
    messages: set[str] = set()
    for record in session_lines(path, read):
        kind = record.get("type")
        if kind in _SESSION_OTHER:
            read.known_lines += 1
            continue
        if kind not in ("user", "assistant") or not isinstance(record.get("message"), dict):
            continue
        read.known_lines += 1
        read.session = read.session or as_str(record.get("sessionId"))
        read.version = as_str(record.get("version")) or read.version
        time = as_str(record.get("timestamp"))
        read.seen(time)
        message = record["message"]
        if kind == "assistant":
            read.model = as_str(message.get("model")) or read.model
            message_id = str(message.get("id"))
            if isinstance(message.get("usage"), dict) and message_id not in messages:
                messages.add(message_id)
                read.turns.append(SessionTurn(_usage(message["usage"]), time))
            for block in content_blocks(message):
                if block.get("type") == "tool_use":
                    asked[str(block.get("id"))] = (str(block.get("name")), as_dict(block.get("input")), time)
            continue
        for block in content_blocks(message):
            if block.get("type") == "tool_result" and (call := asked.pop(str(block.get("tool_use_id")), None)):
                if call[0] == SEARCH_TOOL:
                    read.searches.append(SessionSearch(as_str(call[1].get("query")), _references(block), call[2]))
                    continue
                read.calls.append(_session_call(*call, block_text(block.get("content")), block.get("is_error") is True))
    read.calls += [_session_call(*call, None, False) for call in asked.values()]
    return known(read, "Claude Code")


def read_searches(transcript: Path, search_tool: str) -> list[SearchMade]:
    """Each call of `search_tool` in a run's stream-json transcript, in order, with its tool_result's answer: the
    tools its `tool_reference` blocks name, else its text."""
    calls: list[tuple[str, dict[str, Any]]] = []
    results: dict[str, object] = {}
    for record in transcript_objects(transcript):
        message = record.get("message")
        for block in content_blocks(message) if isinstance(message, dict) else []:
            if record.get("type") == "assistant" and block.get("type") == "tool_use":
                if block.get("name") == search_tool and all(str(block.get("id")) != c for c, _ in calls):
                    calls.append((str(block.get("id")), as_dict(block.get("input"))))
            elif record.get("type") == "user" and block.get("type") == "tool_result":
                results[str(block.get("tool_use_id"))] = block.get("content")
    return [_search_made(arguments, results.get(call_id)) for call_id, arguments in calls]


def _search_made(arguments: dict[str, Any], content: object) -> SearchMade:
    if isinstance(content, str):
        return SearchMade(arguments, (), content)
    blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    names = tuple(str(b.get("tool_name")) for b in blocks if b.get("type") == "tool_reference")
    if names or content is None:
        return SearchMade(arguments, names, None)
    return SearchMade(arguments, (), "\n".join(str(b["text"]) for b in blocks if isinstance(b.get("text"), str)))


def _references(block: dict[str, Any]) -> list[str]:
    """The tools a ToolSearch result names (its tool_reference blocks)."""
    content = block.get("content")
    blocks = content if isinstance(content, list) else []
    return [str(b.get("tool_name")) for b in blocks if isinstance(b, dict) and b.get("type") == "tool_reference"]


def _session_call(
    name: str, arguments: dict[str, Any], time: str | None, answer: str | None, error: bool
) -> SessionCall:
    """`mcp__SERVER__TOOL` as the server and tool (the server's name as Claude Code cleaned it), any other name
    as one of Claude Code's own tools."""
    server, _, tool = name.removeprefix("mcp__").partition("__") if name.startswith("mcp__") else (None, "", name)
    return SessionCall(server, tool, arguments, answer, error, time)


class ClaudeAgent(CliAgent):
    card = ClientCard(
        name="claude",
        order=1,
        title="Claude Code",
        package="@anthropic-ai/claude-code",
        executable="claude",
        pinned="2.1.197",
        newer=("2.1.332",),
        modes=("on-demand", "full-list"),
        search_modes=("on-demand",),
        # default: ENABLE_TOOL_SEARCH unset, as a user's settings leave it, the endpoint counted as Anthropic's own
        # API (what a user with no ANTHROPIC_BASE_URL gets); gateway: the same settings behind a gateway, the
        # endpoint a host that is not Anthropic's (ANTHROPIC_BASE_URL not api.anthropic.com); auto[:N]: MCP tools in
        # full when they fit within N % (10 unset) of the model's window by the provider's count_tokens, else
        # deferred.
        named_modes=("default", "gateway", "auto"),
        percent_modes=("auto",),
        # Both versions show the MCP tools at a count of 20,499 against 10 % of 200,000 and defer them at 20,500
        # (100,499 and 100,500 of 1,000,000 in 2.1.332): 500 of the count are not the tools'.
        count_allowance=500,
        # The window 2.1.332 gives each model (seen 2026-12-03 deciding `auto` on count_tokens' answer).
        windows=MappingProxyType({200_000: "claude-sonnet-4-5", 1_000_000: "claude-opus-5-5"}),
        search_tool=SEARCH_TOOL,
        # Its answer to a search made while the server was still connecting; a `select:` search of a tool the
        # server has not got waits (up to 5 s) for a server still connecting; a search returns 5 tools at most
        # unless its model asks for another number (2.1.197 and 2.1.332).
        search_reading=SearchReading(read_searches, "still connecting", "select:{tool}", 5),
        # Both the server's and the tool's name cleaned (`[^a-zA-Z0-9_-]` -> `_`, per UTF-16 unit), never cut; of
        # two tools whose names clean alike the first is sent (2.1.197 and 2.1.332).
        naming=ToolNaming("Claude Code", "mcp__{server}__{tool}"),
        api="anthropic",
        answer_caps=tuple(AnswerCap(version, 25_000, 10_000, ANSWER_SETTING) for version in ("2.1.197", "2.1.332")),
        settings=(
            ClientSetting(ANSWER_SETTING, "env", "the tokens of one tool answer it passes on whole", answers=True),
            ClientSetting("ENABLE_TOOL_SEARCH", "env", "whether MCP tools wait behind ToolSearch (true, auto, false)"),
            ClientSetting("MCP_CONNECTION_NONBLOCKING", "env", "whether its first request waits for the MCP servers"),
            ClientSetting("MCP_CONNECT_TIMEOUT_MS", "env", "how long that first request waits"),
            ClientSetting("ANTHROPIC_BASE_URL", "env", "where it sends its model requests"),
            ClientSetting("CLAUDE_CONFIG_DIR", "env", "where its settings, logins and projects are (~/.claude)"),
        ),
        leaves="its settings file, projects, sessions and MCP logs, in the run's own home (removed after it); with"
        " --keep-agent-files its session file, in ~/.claude/projects; with --agent-home user, a project folder per"
        " working folder in ~/.claude/projects, an MCP log folder per working folder in ~/.cache/claude-cli-nodejs and"
        " telemetry files per session, all named after the run (removed after it), and ~/.claude.json rewritten",
        builtin_tools=(
            "Agent",
            "Bash",
            "CronCreate",
            "CronDelete",
            "CronList",
            "DeferredToolPlaceholder",
            "Edit",
            "EnterWorktree",
            "ExitWorktree",
            "ListAgents",
            "Monitor",
            "NotebookEdit",
            "Read",
            "ReportFindings",
            "ScheduleWakeup",
            "SendMessage",
            "Skill",
            "TaskCreate",
            "TaskGet",
            "TaskList",
            "TaskOutput",
            "TaskStop",
            "TaskUpdate",
            "ToolSearch",
            "WebFetch",
            "WebSearch",
            "Workflow",
            "Write",
        ),
        builtins_seen="2.1.197 and 2.1.332",
        sessions=SessionFiles(
            "~/.claude/projects/<folder-slug>/<session-id>.jsonl",
            ("CLAUDE_CONFIG_DIR",),
            "a line per event: assistant messages with usage and tool_use, user messages with tool_result",
            "2.1.197 and 2.1.332",
            folder=".claude",
            files="projects/*/*.jsonl",
            read=read_session,
        ),
    )

    def missing_credentials(self, env: Mapping[str, str], logins: bool = True) -> str | None:
        if any(env.get(key) for key in KEYS):
            return None
        config_dir = _config_dir(env)
        # On macOS a login lives in the keychain, where no file shows it.
        found = (config_dir / ".credentials.json").is_file() or sys.platform == "darwin"
        if found and logins:
            return None
        return (
            "no credentials: set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`), "
            + login_advice("log in once with `claude`", config_dir, found, logins)
        )

    def run_home(self, run_dir: Path, agent_home: str) -> Path | None:
        return run_dir / CLAUDE_HOME if agent_home == "run" else None

    def command(self, ctx: RunContext) -> Invocation:
        self.check_mode(ctx.mode)
        env = agent_env(ctx)
        config = ctx.run_dir / MCP_CONFIG
        own = self.run_home(ctx.run_dir, ctx.agent_home)
        links: dict[Path, Path] = {}
        dirs: tuple[Path, ...] = ()
        if own is not None:
            # A home of the run's own: Claude Code's settings file, its projects and logs stay out of the user's.
            env.pop("CLAUDE_CONFIG_DIR", None)
            env.update(HOME=str(own), **{name: str(own / folder) for name, folder in _XDG.items()})
            if ctx.keep_agent_files:
                # A kept run's session file lands where the user's are, for `session import`; linked in for the run.
                dirs = (_config_dir(agent_env(ctx)) / "projects",)
                links[own / ".claude" / "projects"] = dirs[0]
        # In the user's home (--agent-home user) isolation is without a temporary CLAUDE_CONFIG_DIR, which would
        # lose a subscription login kept there. Either way --strict-mcp-config drops every other MCP server,
        # --setting-sources "" drops user, project and local settings (their hooks, permissions, plugins), and
        # --settings turns off any hook left (managed ones excepted). --tools keeps no built-in tool; in
        # on-demand mode it keeps ToolSearch, without which the deferred MCP tools could not be loaded at all.
        # With builtins on, --tools is left out: Claude Code keeps its default set (Bash, Read, ...), and the
        # permission mode still denies every call that would ask.
        builtin = "" if ctx.mode == "full-list" else "ToolSearch"
        tools = [] if ctx.builtins else ["--tools", builtin]
        argv = [
            self.program(ctx),
            "-p",
            ctx.prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--mcp-config",
            str(config),
            "--strict-mcp-config",
            *tools,
            "--allowedTools",
            ",".join(f"{self.naming.prefix(server.name)}*" for server in ctx.servers),
            "--permission-mode",
            "default",
            "--setting-sources",
            "",
            "--settings",
            json.dumps({"disableAllHooks": True}),
            # A kept run leaves its session file where the user's are (~/.claude/projects/...), for `session import`.
            *(() if ctx.keep_agent_files else ("--no-session-persistence",)),
            "--max-turns",
            str(ctx.max_turns),
        ]
        model = ctx.model or self._window_model(ctx.context_window)
        if model:
            argv += ["--model", model]
        if ctx.mode in ("default", "gateway"):
            env.pop("ENABLE_TOOL_SEARCH", None)
            env.pop(FIRST_PARTY, None)
            if ctx.mode == "default" and ctx.endpoint is not None:
                # The endpoint stands in for api.anthropic.com: Claude Code applies to it what it applies there.
                env[FIRST_PARTY] = "1"
            if ctx.mode == "gateway":
                argv += ["--debug-file", str(ctx.run_dir / DEBUG_LOG)]
        else:
            searching = {"on-demand": "true", "full-list": "false"}
            env["ENABLE_TOOL_SEARCH"] = searching.get(ctx.mode, ctx.mode)
        # Connect the stub before the first model request: else, with tool search on, that request may leave
        # before the stub is there, naming none of its deferred tools (so what the model is shown varies by run).
        env["MCP_CONNECTION_NONBLOCKING"] = "false"
        # Blocking, it waits MCP_CONNECT_TIMEOUT_MS (5 s unset, in 2.1.197 and 2.1.332) and then sends anyway: a
        # stub slow to start on a loaded machine would be "still connecting". Wait as long as the session may.
        env["MCP_CONNECT_TIMEOUT_MS"] = str(int(ctx.timeout * 1000))
        # No telemetry, error reports or update checks: a run talks to its model endpoint and the stub only.
        env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"
        if ctx.endpoint is not None:
            env["ANTHROPIC_BASE_URL"] = ctx.endpoint.url
            if ctx.endpoint.scripted:
                for key in KEYS:
                    env.pop(key, None)
                env["ANTHROPIC_API_KEY"] = DUMMY_KEY
        files = {config: json.dumps({"mcpServers": self.mcp_servers(ctx)}, indent=2) + "\n"}
        return Invocation(tuple(argv), env, files, links, dirs=dirs)

    def _window_model(self, window: int | None) -> str | None:
        """The model Claude Code gives a context window of `window` tokens; a window it gives none is refused."""
        if window is None:
            return None
        model = self.card.model_for_window(window)
        if model is None:
            known = ", ".join(f"{w:,} ({m})" for w, m in sorted(self.card.windows.items()))
            raise ToolsurfaceError(f"claude: no model of a {window:,}-token window it knows; its windows: {known}")
        return model

    def mcp_servers(self, ctx: RunContext) -> dict[str, dict[str, object]]:
        """Its `mcpServers`: each of the run's servers under its own name, started over stdio in its folder."""
        servers: dict[str, dict[str, object]] = {}
        for server in ctx.servers:
            command, args = server_launch(server.command)
            entry: dict[str, object] = {
                "type": "stdio",
                "command": command,
                "args": args,
                "env": dict(server.command.env),
            }
            if ctx.agent_home == "run":
                # The servers start in the user's HOME, as Claude Code's own is the run's: Python finds the user's
                # site-packages there.
                entry["env"] = {"HOME": str(home(agent_env(ctx))), **server.command.env}
            if ctx.mode == "full-list":
                # Else the first request may leave before a server connects, with none of its tools (seen under
                # load). On demand, ToolSearch waits for a server still connecting, and alwaysLoad would undo the
                # deferral.
                entry["alwaysLoad"] = True
            servers[server.name] = entry
        return servers

    def leftovers(self, ctx: RunContext, report: AgentReport) -> list[Path]:
        """The run's own home; in the user's, what it keeps there of this run: a project folder per working
        directory (even with --no-session-persistence), an MCP log folder per working directory, and telemetry
        files per session, all named after this run."""
        debug = _debug_kept(ctx.run_dir)
        own = self.run_home(ctx.run_dir, ctx.agent_home)
        if own is not None:
            return [own, *debug]
        env = agent_env(ctx)
        config_dir = _config_dir(env)
        cache = user_cache(env)
        slugs = {re.sub(r"[^A-Za-z0-9]", "-", str(p)) for p in (ctx.workdir, ctx.workdir.resolve())}
        found = [d / slug for slug in slugs for d in (config_dir / "projects", cache / "claude-cli-nodejs")]
        sessions = {
            str(r.get("session_id"))
            for r in transcript_objects(ctx.run_dir / TRANSCRIPT)
            if r.get("type") == "system" and r.get("subtype") == "init" and r.get("session_id")
        }
        telemetry = config_dir / "telemetry"
        if sessions and telemetry.is_dir():
            found += [f for f in telemetry.iterdir() if any(s in f.name for s in sessions)]
        return [*(p for p in found if p.exists() or p.is_symlink()), *debug]

    def search_decision(self, run_dir: Path, betas: Sequence[str], references: Sequence[str]) -> str | None:
        """Behind a gateway (the debug log it wrote): the host rule it applied before its first request, whether
        that request asked for the tool search beta, and whether a search's tool_reference blocks reached the
        endpoint."""
        kept, log = run_dir / SEARCH_SAID, run_dir / DEBUG_LOG
        if kept.is_file():
            lines = kept.read_text(encoding="utf-8", errors="replace").splitlines()
        else:
            lines = _search_lines(log) if log.is_file() else []
        if not lines:
            return None
        off = _NOT_FIRST_PARTY.search(lines[0])
        if off is not None:
            host = urlsplit(off.group(1)).hostname or off.group(1)
            rule = f"its host rule: ANTHROPIC_BASE_URL's host {host} is not api.anthropic.com, tool search off"
        elif "result=true" in lines[0]:
            rule = "no host rule: tool search on behind a base URL that is not Anthropic's"
        else:
            rule = f"tool search off ({lines[0]})"
        beta = next((b for b in betas if b.startswith(TOOL_SEARCH_BETA)), None)
        sent = f"the {beta} beta reached the endpoint" if beta else f"no {TOOL_SEARCH_BETA}* beta reached the endpoint"
        found = (
            f"tool_reference blocks naming {counted(len(references), 'tool')}"
            if references
            else "no tool_reference block"
        )
        return f"{rule}; {sent}; {found}"

    def read(self, records: list[dict[str, Any]]) -> AgentReport:
        events: list[Event] = []
        calls: dict[str, Event] = {}
        usage_by_message: dict[str, Usage] = {}
        model: str | None = None
        result: dict[str, Any] | None = None
        stub_failed: str | None = None
        last_error: str | None = None
        for record in records:
            kind = record.get("type")
            if kind == "system" and record.get("subtype") == "init":
                model = as_str(record.get("model")) or model
                stub_failed = stub_failure(record, self.server_name, _STUB_FAILED) or stub_failed
            elif kind == "system" and record.get("subtype") == "api_retry":
                last_error = _retry_error(record)
                events.append(Event("error", text=last_error))
            elif kind == "assistant":
                message = as_dict(record.get("message"))
                model = model or as_str(message.get("model"))
                if isinstance(message.get("usage"), dict):
                    usage_by_message[str(message.get("id"))] = _usage(message["usage"])
                for block in content_blocks(message):
                    if block.get("type") == "text" and isinstance(block.get("text"), str):
                        events.append(Event("message", text=block["text"]))
                    elif block.get("type") == "tool_use" and str(block.get("id")) not in calls:
                        call = Event(
                            "tool_call",
                            name=self.own_name(str(block.get("name"))),
                            arguments=as_dict(block.get("input")),
                            id=str(block.get("id")),
                        )
                        calls[str(call.id)] = call
                        events.append(call)
            elif kind == "user":
                for block in content_blocks(as_dict(record.get("message"))):
                    if block.get("type") == "tool_result":
                        events.append(_tool_result(block, calls))
            elif kind == "result":
                result = record
        if result is not None:
            denied = {e.id for e in events if e.kind == "permission_denied"}
            for denial in result.get("permission_denials") or []:
                if isinstance(denial, dict) and str(denial.get("tool_use_id")) not in denied:
                    events.append(
                        Event(
                            "permission_denied",
                            name=self.own_name(str(denial.get("tool_name"))),
                            arguments=as_dict(denial.get("tool_input")),
                            id=str(denial.get("tool_use_id")),
                            is_error=True,
                            undelivered=PERMISSION_DENIED,
                        )
                    )
        messages = [e.text for e in events if e.kind == "message" and e.text]
        report = AgentReport(
            status="ok",
            events=events,
            final_answer=messages[-1] if messages else None,
            usage=sum(usage_by_message.values(), Usage()) if usage_by_message else None,
            model=model,
        )
        if result is None:
            report.status, report.error = "agent-error", stub_failed or last_error or NO_RESULT
            return report
        if isinstance(result.get("result"), str):
            report.final_answer = result["result"]
        if isinstance(result.get("usage"), dict):
            report.usage = _usage(result["usage"])
        report.cost_usd = as_float(result.get("total_cost_usd"))
        report.turns = result.get("num_turns") if isinstance(result.get("num_turns"), int) else None
        error = _result_error(result) or stub_failed
        if error is not None:
            report.status, report.error = "agent-error", error
        return report


def _search_lines(log: Path) -> list[str]:
    """What a debug log says of its tool search decision, in order."""
    with log.open(encoding="utf-8", errors="replace") as text:
        return [found.group(1).strip() for line in text if (found := _SEARCH_LINE.search(line))]


def _debug_kept(run_dir: Path) -> list[Path]:
    """The run's debug log, its tool search lines kept beside it (SEARCH_SAID) before it goes."""
    log = run_dir / DEBUG_LOG
    if not log.is_file():
        return []
    (run_dir / SEARCH_SAID).write_text("".join(f"{line}\n" for line in _search_lines(log)), encoding="utf-8")
    return [log]


def _config_dir(env: Mapping[str, str]) -> Path:
    """The user's Claude Code folder (settings, logins, projects): $CLAUDE_CONFIG_DIR, else ~/.claude."""
    return Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home(env) / ".claude"


def _tool_result(block: dict[str, Any], calls: Mapping[str, Event]) -> Event:
    tool_use_id = str(block.get("tool_use_id"))
    text = block_text(block.get("content"))
    is_error = block.get("is_error") is True
    if is_error and _DENIED.search(text):
        return denied_call(tool_use_id, calls.get(tool_use_id), text)
    undelivered = None
    if is_error and _UNKNOWN.search(text):
        undelivered = UNKNOWN_TOOL
    elif is_error and _INVALID.search(text):
        undelivered = INVALID_ARGUMENTS
    return Event("tool_result", id=tool_use_id, text=text, is_error=is_error, undelivered=undelivered)


def _result_error(result: dict[str, Any]) -> str | None:
    subtype = result.get("subtype")
    if subtype == "success" and result.get("is_error") is not True:
        return None
    if subtype == "error_max_turns":
        return "max turns reached"
    details = [str(e) for e in result.get("errors") or []] or [str(result.get("result") or "")]
    detail = "; ".join(d for d in details if d)
    return f"{subtype}: {detail}" if detail else str(subtype)


def _retry_error(record: dict[str, Any]) -> str:
    status = record.get("error_status")
    error = record.get("error")
    detail = error if isinstance(error, str) else json.dumps(error) if error is not None else "no detail"
    attempt, most = record.get("attempt"), record.get("max_retries")
    where = f" (attempt {attempt} of {most})" if attempt is not None and most is not None else ""
    return f"API request failed{where}: " + (f"HTTP {status}: " if status else "") + str(detail)[:300]


def _usage(usage: dict[str, Any]) -> Usage:
    return Usage(
        input_tokens=as_int(usage.get("input_tokens")),
        output_tokens=as_int(usage.get("output_tokens")),
        cache_read_tokens=as_int(usage.get("cache_read_input_tokens")),
        cache_write_tokens=as_int(usage.get("cache_creation_input_tokens")),
    )
