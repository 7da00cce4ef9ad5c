"""Listing the tools of a running MCP server: a stdio command or a URL (Streamable HTTP, or HTTP+SSE by the
specification's fallback or when asked: harness.protocol), through a real client.

The conversation is in the version asked for (harness.protocol): the handshake (`initialize`) by default, so
the list is comparable with what `measure` reads from bundled surfaces, falling back to 2026-07-28
(`server/discover`) for a server that refuses the handshake as one that speaks only that; with a version
asked, only that one. The version used and the server's are recorded.
A stdio server runs in its own session (process group) with a marker in its environment; whatever happens,
its whole tree is ended before this returns (harness.process_tree), so a server that forks, or a daemon it
started with setsid, leaves nothing running. `list_live` on the main thread also ends the tree when the
command is stopped by SIGTERM, SIGHUP or SIGINT. Every failure is one ToolsurfaceError line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.protocol import (
    AUTO,
    DEFAULT_PROTOCOL,
    MODERN_PROTOCOL,
    SSE,
    STREAMABLE_HTTP,
    TRANSPORTS,
    is_modern,
    parse_protocol,
)
from toolsurface.harness.redact import public_url
from toolsurface.harness.surface import SurfaceParts, safe_server_name

if TYPE_CHECKING:
    from anyio.abc import Process
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.client._transport import ReadStream, WriteStream
    from mcp.client.session import ClientRequestContext
    from mcp.shared.message import SessionMessage
    from mcp.types import ElicitRequestParams, ElicitResult, ErrorData, ListRootsResult

    from toolsurface.harness.live._connection import Connection

CAPABILITIES = ("roots", "sampling", "elicitation")
DEFAULT_TIMEOUT_S = 30.0
# After the list arrived: how long a server has to exit once its stdin is closed (the spec's shutdown)
# before its group gets SIGTERM, and how long then until SIGKILL. Listing has no effect a server must
# save, and a Python server takes a third of a second to tear down its interpreter on its own against a
# few milliseconds for SIGTERM, so the group gets SIGTERM as soon as stdin is closed.
EXIT_GRACE_S = 0.0
KILL_GRACE_S = 1.0
_POLL_S = 0.01
_NOISE_KEPT = 3
# One JSON-RPC message a line: far beyond any list a server sends, and bounded.
MAX_LINE_BYTES = 64 * 1024 * 1024


class LiveServerError(ToolsurfaceError):
    """A live server that cannot be listed: it did not start, answered wrongly, or not in time."""

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))


def _one_line(text: str) -> str:
    """Errors are one line: line breaks from a command line or a server's message are shown escaped."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _redacted(argv: Sequence[str]) -> list[str]:
    from toolsurface.harness.redact import redacted_argv

    return redacted_argv(argv)


@dataclass(frozen=True)
class StdioServer:
    """A command that serves MCP on its stdin/stdout; `env` is added to this process's environment."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    # What the user named it (`--name`, already made safe); None: its own serverInfo.name decides.
    name: str | None = None
    # The environment `env` is added to; None: this process's. A client's configuration gives its servers a
    # minimal one unless the user says otherwise (harness.mcp_config).
    base_env: Mapping[str, str] | None = None

    @property
    def label(self) -> str:
        text = _one_line(shlex.join(_redacted(self.argv)))
        return text if len(text) <= 80 else text[:77] + "..."

    def describe(self) -> dict[str, Any]:
        """For the sidecar: the command with secret-looking values redacted, and the names (never the values)
        of added variables."""
        return {
            "kind": "command",
            "argv": _redacted(self.argv),
            "cwd": str(self.cwd) if self.cwd is not None else None,
            "env": sorted(self.env),
        }


@dataclass(frozen=True)
class HttpServer:
    """An MCP server at a URL; `headers` go with every request (e.g. Authorization), `transport` is how it is
    spoken to (harness.protocol: Streamable HTTP, HTTP+SSE, or either by the specification's rule)."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    transport: str = AUTO
    # What the user named it (`--name`, already made safe); None: its own serverInfo.name decides.
    name: str | None = None

    @property
    def label(self) -> str:
        return public_url(self.url)

    def describe(self) -> dict[str, Any]:
        """For the sidecar: the URL without credentials or query, and the header names only."""
        return {"kind": "url", "url": public_url(self.url), "headers": sorted(self.headers)}


LiveServer = StdioServer | HttpServer
# What a caller does with a connection once its tools are listed: given the tools and the open connection.
Use = Callable[[list[dict[str, Any]], "Connection"], Awaitable[Any]]


@dataclass(frozen=True)
class LiveListing:
    """Every tool a live server listed, each exactly as received, and how it was listed."""

    tools: list[dict[str, Any]]
    # What every command, file and table calls it (harness.surface.safe_server_name, or the user's --name);
    # `server_name` is the name it gave itself, as received.
    name: str
    server_name: str
    # None: a 2026-07-28 server that did not identify itself (its name is then the command's or the host's).
    server_version: str | None
    protocol_version: str
    client_capabilities: tuple[str, ...]
    listed_at: str
    duration_s: float
    pages: int
    source: dict[str, Any]
    stdout_noise: tuple[str, ...] = ()
    # Its instructions, prompts, resources, templates and skills, and the capabilities it declared, as received.
    parts: SurfaceParts = field(default_factory=SurfaceParts)
    # ttlMs and cacheScope of its tools/list result, where it sent them (2026-07-28 list results carry both).
    cache: dict[str, Any] = field(default_factory=dict)


def parse_capabilities(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`roots,sampling` -> ('roots', 'sampling'), in CAPABILITIES order; unknown names are refused."""
    if text is None:
        return ()
    items = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    names = {item.strip().lower() for item in items if item.strip() and item.strip().lower() != "none"}
    unknown = sorted(names - set(CAPABILITIES))
    if unknown:
        raise ToolsurfaceError(
            f"unknown client capability {', '.join(map(repr, unknown))}; choose from {', '.join(CAPABILITIES)}"
        )
    return tuple(name for name in CAPABILITIES if name in names)


def parse_header(text: str) -> tuple[str, str]:
    """`Name: value` (or `Name:value`) -> ('Name', 'value')."""
    name, sep, value = text.partition(":")
    name = name.strip()
    if not sep or not name or any(c.isspace() for c in name):
        raise ToolsurfaceError(f"--header {text!r}: expected NAME:VALUE, e.g. 'Authorization: Bearer ...'")
    return name, value.strip()


def parse_env(text: str) -> tuple[str, str]:
    """`NAME=value` -> ('NAME', 'value')."""
    name, sep, value = text.partition("=")
    if not sep or not name or "\0" in text:
        raise ToolsurfaceError(f"--env {text!r}: expected NAME=VALUE")
    return name, value


def list_live(
    server: LiveServer,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    drafts: bool = False,
) -> LiveListing:
    """List every tool of a live server, in `protocol` (None: the handshake, or 2026-07-28 for a server that
    speaks only that); one LiveServerError line for anything that goes wrong. A stop signal ends the
    server's tree and raises Interrupted. `drafts`: also read the drafts it advertises (harness.surface._drafts),
    the client declaring the groups extension."""
    import anyio

    return anyio.run(_list_live_kw, server, tuple(capabilities), timeout, protocol, drafts)


async def _list_live_kw(
    server: LiveServer, capabilities: tuple[str, ...], timeout: float, protocol: str | None, drafts: bool
) -> LiveListing:
    listing, _ = await _used_kw(server, None, capabilities, timeout, protocol, None, drafts)
    return listing


def use_live(
    server: LiveServer,
    use: Use,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    answer_limit: int | None = None,
) -> tuple[LiveListing, Any]:
    """`use_live_async` in its own event loop, a stop signal ending the server's tree as `list_live` does."""
    import anyio

    return anyio.run(_used_kw, server, use, tuple(capabilities), timeout, protocol, answer_limit)


async def _used_kw(
    server: LiveServer,
    use: Use | None,
    capabilities: tuple[str, ...],
    timeout: float,
    protocol: str | None,
    answer_limit: int | None,
    drafts: bool = False,
) -> tuple[LiveListing, Any]:
    from toolsurface.harness.signals import Interrupted, cancel_on_signals

    done: tuple[LiveListing, Any] | None = None
    async with cancel_on_signals() as stop:
        done = await use_live_async(
            server,
            use,
            capabilities=capabilities,
            timeout=timeout,
            protocol=protocol,
            answer_limit=answer_limit,
            drafts=drafts,
        )
    if done is None:
        assert stop.signum is not None
        ended = "the server's processes were ended" if isinstance(server, StdioServer) else ""
        raise Interrupted(stop.signum, ended)
    return done


async def list_live_async(
    server: LiveServer,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
) -> LiveListing:
    listing, _ = await use_live_async(server, None, capabilities=capabilities, timeout=timeout, protocol=protocol)
    return listing


async def use_live_async(
    server: LiveServer,
    use: Use | None,
    *,
    capabilities: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    protocol: str | None = None,
    answer_limit: int | None = None,
    drafts: bool = False,
) -> tuple[LiveListing, Any]:
    """List a live server as `list_live_async` does, then, on the same connection, `use(tools, connection)`
    (the listing's timeout bounds the listing only; the use bounds its own requests); its result beside the
    listing. `answer_limit`: the most bytes an answer to the use's requests may have."""
    caps = parse_capabilities(list(capabilities))
    if not timeout > 0:
        raise ToolsurfaceError(f"--timeout {timeout!r}: must be more than 0 seconds")
    state = _State(
        timeout=timeout, protocol=parse_protocol(protocol), use=use, answer_limit=answer_limit, drafts=drafts
    )
    # Run inside the listing, whose failure names the server once: the check's own line does not.
    state.check = lambda tools: _validate(tools, None)
    with _quiet_sdk_logs(state):
        if isinstance(server, StdioServer):
            init, tools, pages = await _list_stdio(server, caps, state)
        else:
            init, tools, pages = await _list_http(server, caps, state)
    duration = (state.listed or time.monotonic()) - state.started
    source = server.describe()
    if isinstance(server, HttpServer):
        _validate(tools, server)
        source["transport"] = state.transport
    return (
        LiveListing(
            tools=tools,
            name=server.name or safe_server_name(init.server_name, _anonymous_name(server)),
            server_name=init.server_name or _anonymous_name(server),
            server_version=init.server_version,
            protocol_version=init.protocol_version,
            client_capabilities=caps,
            listed_at=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            duration_s=round(duration, 3),
            pages=pages,
            source=source,
            stdout_noise=tuple(state.noise[:_NOISE_KEPT]),
            parts=state.parts,
            cache=dict(state.cache),
        ),
        state.used,
    )


@dataclass
class _State:
    """What happened so far, so a failure can say where it stopped and why."""

    timeout: float
    phase: str = "initialize"
    noise: list[str] = field(default_factory=list)
    eof: bool = False
    exit_code: int | None = None
    http_status: str | None = None
    logged: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    listed: float | None = None
    marker: str | None = None
    parts: SurfaceParts = field(default_factory=SurfaceParts)
    protocol: str | None = None  # the version asked for; None: the handshake, or 2026-07-28 if refused
    # What the connection is used for once listed (harness.live._connection), and what that gave.
    use: Use | None = None
    used: Any = None
    deadline: Any = None  # the listing's cancel scope, lifted once listed: each use has its own bounds
    # The longest line a server may send: any list; once listed, an answer within the use's limit.
    line_limit: int = MAX_LINE_BYTES
    answer_limit: int | None = None
    cut: str | None = None  # why the HTTP transport ended an answer (larger than the answer limit)
    # ttlMs and cacheScope of the first tools/list page, where the server sent them (2026-07-28).
    cache: dict[str, Any] = field(default_factory=dict)
    # The list's check (as a surface), run before any use of the connection.
    check: Callable[[list[dict[str, Any]]], None] | None = None
    # Over HTTP: the transport spoken (harness.protocol), and how the URL answered Streamable HTTP's first
    # request before HTTP+SSE was tried (the specification's fallback).
    transport: str | None = None
    refused: str | None = None
    # Whether the drafts a server advertises are read too (`--drafts`).
    drafts: bool = False


@dataclass(frozen=True)
class _Opened:
    """What the first exchange (initialize or server/discover) settled."""

    protocol_version: str
    server_name: str | None
    server_version: str | None
    has_tools: bool


def _anonymous_name(server: LiveServer) -> str:
    """A name for a server that did not give one (allowed at 2026-07-28): its command's, or its host."""
    if isinstance(server, StdioServer):
        return Path(server.argv[0]).name
    from urllib.parse import urlsplit

    return urlsplit(server.url).hostname or server.label


class _Collect(logging.Handler):
    def __init__(self, state: _State) -> None:
        super().__init__(logging.WARNING)
        self.state = state

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.state.logged.append(record.getMessage())


@contextlib.contextmanager
def _quiet_sdk_logs(state: _State) -> Iterator[None]:
    """The SDK logs transport faults with tracebacks; keep them for the error message instead of stderr."""
    root = logging.getLogger()
    handler = _Collect(state)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


# -- the conversation, the same over either transport -------------------------------------------------


def _client_callbacks(capabilities: tuple[str, ...]) -> dict[str, Any]:
    """Declaring a capability means answering its requests: no roots, no sampling, declined elicitation."""
    import mcp.types as types

    async def list_roots(context: ClientRequestContext) -> ListRootsResult | ErrorData:
        return types.ListRootsResult(roots=[])

    async def sample(context: ClientRequestContext, params: Any) -> ErrorData:
        return types.ErrorData(code=types.INVALID_REQUEST, message="toolsurface only lists tools; it does not sample")

    async def elicit(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        return types.ElicitResult(action="decline")

    callbacks: dict[str, Any] = {}
    if "roots" in capabilities:
        callbacks["list_roots_callback"] = list_roots
    if "sampling" in capabilities:
        callbacks["sampling_callback"] = sample
    if "elicitation" in capabilities:
        callbacks["elicitation_callback"] = elicit
    return callbacks


async def _discover(session: Any, version: str) -> None:
    """`server/discover` at `version`, adopted pinned to it (the SDK would adopt the newest both know)."""
    import mcp_types as types

    raw = await session.send_discover(version)
    result = types.DiscoverResult.model_validate(raw, by_name=False)
    if version not in result.supported_versions:
        offered = ", ".join(result.supported_versions) or "none"
        raise LiveServerError(f"does not serve MCP {version} (server/discover names {offered})")
    session.adopt(result.model_copy(update={"supported_versions": [version]}))


def _rpc_errors(error: BaseException) -> list[tuple[int, Any]]:
    """The (code, data) of each JSON-RPC error answer in `error`, from our stdio client or the SDK's."""
    from toolsurface.harness.live._wire_client import RpcError

    # The SDK's error type exists only once its package is imported; the stdio path does not import it.
    sdk = sys.modules.get("mcp.shared.exceptions")
    found: list[tuple[int, Any]] = []
    for leaf in _leaves(error):
        if isinstance(leaf, RpcError):
            found.append((leaf.code, leaf.data))
        elif sdk is not None and isinstance(leaf, sdk.MCPError):
            found.append((leaf.code, leaf.error.data))
    return found


def refuses_handshake(error: BaseException, http_status: str | None = None) -> bool:
    """Whether a failed initialize says the server speaks only the stateless era: -32022 naming 2026-07-28
    among its versions, or (over HTTP, where such a server may answer the handshake with no JSON-RPC) 400."""
    from mcp_types import UNSUPPORTED_PROTOCOL_VERSION

    for code, data in _rpc_errors(error)[:1]:
        if code == UNSUPPORTED_PROTOCOL_VERSION:
            supported = data.get("supported") if isinstance(data, dict) else None
            return isinstance(supported, list) and MODERN_PROTOCOL in supported
        return http_status is not None and http_status.startswith("HTTP 400")
    return False


async def _open(session: Any, state: _State) -> _Opened:
    """The handshake, or server/discover, as the version asked for says (see the module's docstring)."""
    asked = state.protocol
    if asked is not None and is_modern(asked):
        state.phase = "server/discover"
        await _discover(session, asked)
    else:
        state.phase = "initialize"
        try:
            await session.initialize()
        except Exception as error:
            if asked is not None or not refuses_handshake(error, state.http_status):
                raise
            refused_status, state.http_status = state.http_status, None
            state.phase = "server/discover"
            try:
                await _discover(session, MODERN_PROTOCOL)
            except Exception:
                if refused_status is None:
                    raise  # a -32022 server is one of 2026-07-28: why its discover failed is the news
                state.phase, state.http_status = "initialize", refused_status
                raise error from None
        else:
            if asked is not None and session.protocol_version != asked:
                # Only the version asked for is spoken: a list taken in another is not the one asked for (and
                # measuring it in the version asked would be refused).
                raise LiveServerError(
                    f"answered initialize with protocol version {session.protocol_version}, not {asked} as asked;"
                    " list it without --protocol to take the version it speaks"
                )
    info, capabilities = session.server_info, session.server_capabilities
    # The stdio client keeps the capabilities as dumped (a dict), the SDK's session as its model.
    tools = capabilities.get("tools") if isinstance(capabilities, dict) else capabilities.tools
    return _Opened(
        protocol_version=session.protocol_version,
        server_name=info.name if info is not None else None,
        server_version=info.version if info is not None else None,
        has_tools=tools is not None,
    )


def _protocol_hint(failure: BaseException | None, state: _State) -> str:
    """When the version asked for is the one the server does not speak, say which to ask for."""
    from mcp_types import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION

    if state.protocol is None or failure is None:
        return ""
    codes = {code for code, _ in _rpc_errors(failure)}
    if state.phase == "initialize" and UNSUPPORTED_PROTOCOL_VERSION in codes:
        return f"; it refuses the handshake: list it with --protocol {MODERN_PROTOCOL}, or without --protocol"
    if state.phase == "server/discover" and codes & {METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION}:
        return (
            f"; it may speak only the handshake era: list it with --protocol {DEFAULT_PROTOCOL}, or without --protocol"
        )
    return ""


async def _list_opened(
    session: Any,
    state: _State,
    pages: Callable[[], Awaitable[tuple[list[dict[str, Any]], int]]],
    parts: Callable[[list[dict[str, Any]]], Awaitable[SurfaceParts]],
    connection: Callable[[_State], Connection],
) -> tuple[_Opened, list[dict[str, Any]], int]:
    """Open the conversation, then every page of tools/list (none when the server has no tools), then the
    parts beside the tools it declares; then the state's use of the connection, if any."""
    init = await _open(session, state)
    tools: list[dict[str, Any]] = []
    count = 0
    if init.has_tools:
        state.phase = "tools/list"
        tools, count = await pages()
    state.parts = await parts(tools)
    state.listed = time.monotonic()
    if state.use is not None:
        if state.check is not None:
            state.check(tools)
        _lift_deadline(state)
        state.used = await state.use(tools, connection(state))
    state.phase = "done"
    return init, tools, count


def _lift_deadline(state: _State) -> None:
    """Once listed, the listing's timeout no longer applies: each of the use's requests has its own bound, and
    an answer may be as large as its limit allows."""
    import math

    if state.deadline is not None:
        state.deadline.deadline = math.inf
    if state.answer_limit is not None:
        state.line_limit = state.answer_limit


def _phase_setter(state: _State) -> Callable[[str], None]:
    def set_phase(method: str) -> None:
        state.phase = method

    return set_phase


# What a list result may carry beside the tools about how long it holds (2026-07-28).
CACHE_KEYS = ("ttlMs", "cacheScope")


def _cache_keeper(state: _State) -> Callable[[dict[str, Any]], None]:
    """Keeps ttlMs and cacheScope of the first page of tools/list, where the server sends them."""

    def keep(page: dict[str, Any]) -> None:
        if not state.cache:
            state.cache.update({key: page[key] for key in CACHE_KEYS if key in page})

    return keep


async def _converse(
    read: ReadStream[SessionMessage | Exception],
    write: WriteStream[SessionMessage],
    capabilities: tuple[str, ...],
    state: _State,
) -> tuple[_Opened, list[dict[str, Any]], int]:
    """Over HTTP, through the SDK's ClientSession."""
    import mcp.types as types
    from mcp.client.session import ClientSession

    from toolsurface import __version__
    from toolsurface.harness.live._connection import SessionConnection
    from toolsurface.harness.measure import list_parts_raw, list_tools_raw

    session = ClientSession(
        read,
        write,
        client_info=types.Implementation(name="toolsurface", version=__version__),
        extensions=_extensions(state),
        **_client_callbacks(capabilities),
    )
    async with session:
        return await _list_opened(
            session,
            state,
            lambda: list_tools_raw(session, on_page=_cache_keeper(state)),
            lambda tools: list_parts_raw(
                session, on_method=_phase_setter(state), drafts_for=tools if state.drafts else None
            ),
            lambda state: SessionConnection(session, _phase_setter(state), lambda: state.cut),
        )


def _extensions(state: _State) -> dict[str, dict[str, Any]] | None:
    """The extensions the client declares: the groups draft's, when the drafts are read (a server of it scopes
    tools into groups only for a client that declares it)."""
    from toolsurface.harness.surface import GROUPS_EXTENSION

    return {GROUPS_EXTENSION: {}} if state.drafts else None


def _validate(tools: list[dict[str, Any]], server: LiveServer | None) -> None:
    """Refuse a list that cannot be read at all; a tool a client would refuse or repair is kept as the server
    published it, and marked where it is measured and linted. The message names the server, unless `server` is
    None (said inside the listing, whose failure names it)."""
    from toolsurface.harness.surface import validate_wire_tools

    where = f"{server.label}: tools/list" if server is not None else "tools/list"
    validate_wire_tools(tools, where, published=True)


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


_SDK_CLOSED = "Connection closed"


def _explain(error: BaseException | None, timed_out: bool, server: LiveServer, state: _State) -> str:
    """One line: who, what step, what went wrong, and the best hint we have."""
    return f"{server.label}: {_failure(error, timed_out, state)}"


def _failure(error: BaseException | None, timed_out: bool, state: _State) -> str:
    """What step went wrong and how, said of the server."""
    from mcp.shared.exceptions import MCPError
    from mcp.types import CONNECTION_CLOSED
    from pydantic import ValidationError

    from toolsurface.harness.live._connection import unparsed_answer
    from toolsurface.harness.live._sse import CONNECTING, WAITING_FOR_ENDPOINT

    step = state.phase
    if timed_out:
        if step == CONNECTING:
            return f"did not answer the GET of its SSE stream within {state.timeout:g} s"
        if step == WAITING_FOR_ENDPOINT:
            return (
                f"sent no endpoint event on its SSE stream within {state.timeout:g} s (an HTTP+SSE server sends it"
                " first)"
            )
        return f"no answer to {step} within {state.timeout:g} s"
    leaves = _leaves(error) if error is not None else []
    for leaf in leaves:
        if isinstance(leaf, ToolsurfaceError):
            return str(leaf)
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            if state.http_status is not None:
                return f"answered {step} with {state.http_status}"
            # The SDK's own -32000 when the transport ends; a server may answer -32000 itself (the
            # JSON-RPC range for server errors), which is its answer, with its own message.
            if leaf.code == CONNECTION_CLOSED and leaf.message == _SDK_CLOSED:
                return f"closed the connection before answering {step}"
            unparsed = unparsed_answer(leaf.code, leaf.message)
            if unparsed is not None:
                return f"answered {step} with {unparsed}; is the URL an MCP server's endpoint?"
            return f"answered {step} with error {leaf.code}: {leaf.message}"
        if isinstance(leaf, ValidationError):
            problem = leaf.errors()[0]
            where = ".".join(str(p) for p in problem["loc"]) or "(root)"
            return f"its {step} answer is not valid MCP: {where}: {problem['msg']}"
    for leaf in leaves:
        if leaf.__class__.__module__.startswith("httpx"):
            reason = str(leaf) or type(leaf).__name__
            return f"cannot reach the server: {reason}"
    logged = f"; the client logged: {state.logged[-1]}" if state.logged else ""
    if leaves:
        leaf = leaves[0]
        return f"{step} failed: {type(leaf).__name__}: {leaf}{logged}"
    return f"{step} failed{logged}"


# -- stdio ----------------------------------------------------------------------------------------------


async def _spawn(server: StdioServer, stderr: IO[bytes], state: _State) -> Process:
    import anyio

    from toolsurface.harness.process_tree import marked_env

    if not server.argv or not server.argv[0]:
        raise LiveServerError("no server command given after --")
    if server.cwd is not None and not server.cwd.is_dir():
        raise LiveServerError(f"--cwd {server.cwd}: no such directory")
    base = os.environ if server.base_env is None else server.base_env
    env, state.marker = marked_env({**base, **server.env})
    try:
        return await anyio.open_process(
            list(server.argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=server.cwd,
            env=env,
            start_new_session=True,
        )
    except FileNotFoundError:
        raise LiveServerError(f"cannot start {server.argv[0]!r}: no such command") from None
    except PermissionError:
        raise LiveServerError(f"cannot start {server.argv[0]!r}: permission denied") from None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise LiveServerError(f"cannot start {server.argv[0]!r}: {reason}") from None


async def _pump_stdout(process: Process, sink: MemoryObjectSendStream[Any], state: _State) -> None:
    """Server stdout -> client, one JSON-RPC message a line; other lines are noted, as clients skip them. A line
    longer than one read is gathered in one buffer, read in place and let go before the next line: an answer is
    held once as bytes, and only while it is read."""
    import anyio

    assert process.stdout is not None
    partial = bytearray()  # the line still coming
    try:
        async with sink:
            async for chunk in process.stdout:
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    if partial:
                        partial += memoryview(chunk)[start:end]
                        line: bytes | bytearray = partial
                        partial = bytearray()
                    else:
                        line = chunk[start:end]
                    start = end + 1
                    _check_line(len(line), state)
                    message = _message(line, state)
                    del line
                    if message is not None:
                        await sink.send(message)
                    del message
                partial += memoryview(chunk)[start:]
                _check_line(len(partial), state)
            state.eof = True
            # A server that closed its stdout is usually exiting: note its own exit code before ours.
            with anyio.move_on_after(0.3):
                while process.returncode is None:
                    await anyio.sleep(_POLL_S)
            state.exit_code = process.returncode
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        pass


def _check_line(size: int, state: _State) -> None:
    if size <= state.line_limit:
        return
    if state.line_limit != MAX_LINE_BYTES:
        raise LiveServerError(
            f"its answer to {state.phase} is larger than the answer limit, {state.line_limit:,} bytes"
            " (--max-answer-bytes)"
        )
    raise LiveServerError(f"its stdout sent a line of more than {MAX_LINE_BYTES // 2**20} MB")


def _message(line: bytes | bytearray, state: _State) -> Any:
    """The JSON-RPC message a line holds, read in place; None for a blank line or a server's noise (noted)."""
    from toolsurface.harness.live._wire_client import read_message

    if not line or line.isspace():
        return None
    # An answer that cannot be taken (too deep, a lone surrogate) is still its request's answer, said at once; a
    # line that is no message is the server's noise, which clients skip.
    found = read_message(line)
    if found is None:
        state.noise.append(bytes(line).strip()[:120].decode("utf-8", "replace"))
    return found


async def _pump_stdin(process: Process, source: MemoryObjectReceiveStream[dict[str, Any]]) -> None:
    import anyio

    from toolsurface.harness.output import compact_json

    assert process.stdin is not None
    with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        async with source:
            async for message in source:
                text = compact_json(message) + "\n"
                await process.stdin.send(text.encode("utf-8"))


async def _stdio_conversation(
    process: Process, capabilities: tuple[str, ...], state: _State
) -> tuple[_Opened, list[dict[str, Any]], int]:
    """Over stdio, through the client on the SDK's wire types (harness.live._wire_client)."""
    import anyio

    from toolsurface import __version__
    from toolsurface.harness.live._connection import WireConnection
    from toolsurface.harness.live._wire_client import WireClient
    from toolsurface.harness.measure import list_pages, list_parts

    to_client, incoming = anyio.create_memory_object_stream[Any](0)
    outgoing, to_server = anyio.create_memory_object_stream[dict[str, Any]](0)
    client = WireClient(
        outgoing.send, capabilities, {"name": "toolsurface", "version": __version__}, _extensions(state)
    )

    async def part(method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        return await client.request(method, params)

    keep = _cache_keeper(state)

    async def page(cursor: str | None) -> dict[str, Any]:
        raw = await part("tools/list", {"cursor": cursor} if cursor is not None else None)
        keep(raw)
        return raw

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_pump_stdout, process, to_client, state)
            tasks.start_soon(_pump_stdin, process, to_server)
            tasks.start_soon(client.serve, incoming)
            try:
                result = await _list_opened(
                    client,
                    state,
                    lambda: list_pages(page),
                    lambda tools: list_parts(
                        client.server_capabilities,
                        client.instructions,
                        part,
                        _phase_setter(state),
                        drafts_for=tools if state.drafts else None,
                        sent_capabilities=client.sent_capabilities,
                    ),
                    lambda state: WireConnection(client, _phase_setter(state)),
                )
            finally:
                tasks.cancel_scope.cancel()
    finally:
        for stream in (to_client, incoming, outgoing, to_server):
            stream.close()
    return result


async def _close_stdin(process: Process) -> None:
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()


async def _end_process(process: Process, graceful: bool, marker: str | None) -> None:
    """Close stdin (the spec's shutdown), give a listed server a moment, then end its whole tree."""
    import anyio

    from toolsurface.harness.process_tree import end_process_tree

    await _close_stdin(process)
    if graceful:
        with anyio.move_on_after(EXIT_GRACE_S):
            while process.returncode is None:
                await anyio.sleep(_POLL_S)
    # Always, even when the leader has exited: children it started may still run.
    await anyio.to_thread.run_sync(end_process_tree, process.pid, marker, KILL_GRACE_S)
    with anyio.move_on_after(KILL_GRACE_S):
        # Closes the pipes and reaps the leader, before the loop that owns them closes.
        await process.aclose()


def _tail(stderr: IO[bytes]) -> str | None:
    """The server's last line on stderr, usually the reason it stopped."""
    with contextlib.suppress(OSError, ValueError):
        stderr.seek(0, os.SEEK_END)
        size = stderr.tell()
        stderr.seek(max(0, size - 4096))
        lines = [line.strip() for line in stderr.read().decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        if lines:
            return lines[-1][:200]
    return None


async def _list_stdio(
    server: StdioServer, capabilities: tuple[str, ...], state: _State
) -> tuple[_Opened, list[dict[str, Any]], int]:
    import anyio

    with tempfile.TemporaryFile() as stderr:
        # Started before the client's wire types are imported, so the server's start-up overlaps ours.
        # Shielded: a cancelled spawn could lose the handle of a started process.
        with anyio.CancelScope(shield=True):
            process = await _spawn(server, stderr, state)
        from toolsurface.harness.surface import prepare_check

        prepare_check()  # while the server starts: its answer is checked as soon as it comes
        result: tuple[_Opened, list[dict[str, Any]], int] | None = None
        failure: BaseException | None = None
        try:
            with anyio.move_on_after(state.timeout) as deadline:
                state.deadline = deadline
                try:
                    result = await _stdio_conversation(process, capabilities, state)
                except Exception as error:
                    failure = error
            if result is not None:
                # The server starts shutting down while the list is checked.
                await _close_stdin(process)
                _validate(result[1], server)
        finally:
            with anyio.CancelScope(shield=True):
                await _end_process(process, result is not None, state.marker)
        if result is not None:
            return result
        message = _explain(failure, deadline.cancelled_caught, server, state) + _protocol_hint(failure, state)
        if state.eof and not deadline.cancelled_caught:
            ended = "closed its stdout" if state.exit_code is None else f"exited with code {state.exit_code}"
            message = message.replace("closed the connection", ended, 1)
        if state.noise:
            message += f"; its stdout had a line that is not JSON-RPC: {state.noise[0]!r}"
        tail = _tail(stderr)
        if tail is not None:
            message += f"; stderr: {tail}"
            if ("ModuleNotFoundError" in tail or "ImportError" in tail) and _in_pre_commit_environment():
                message += (
                    "; pre-commit runs the toolsurface-budget hook in a Python of its own, without the project's"
                    " packages: use the toolsurface-budget-system hook, which runs in the project's environment"
                )
        raise LiveServerError(message)


def _in_pre_commit_environment() -> bool:
    """Whether this runs as a pre-commit hook in the environment pre-commit made for it (under its store),
    where a server command's `python` is pre-commit's."""
    if os.environ.get("PRE_COMMIT") != "1":
        return False
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    store = Path(os.environ.get("PRE_COMMIT_HOME") or os.path.join(cache, "pre-commit"))
    return Path(sys.prefix).resolve().is_relative_to(store.resolve())


# -- HTTP: Streamable HTTP, HTTP+SSE ---------------------------------------------------------------------

# How a URL answers Streamable HTTP's first POST when it serves HTTP+SSE instead (the specification's rule).
_SSE_STATUSES = ("HTTP 400", "HTTP 404", "HTTP 405")


async def _list_http(
    server: HttpServer, capabilities: tuple[str, ...], state: _State
) -> tuple[_Opened, list[dict[str, Any]], int]:
    """Streamable HTTP, HTTP+SSE, or (`auto`) the first, then the second when the URL answers the first request
    with HTTP 400, 404 or 405; one deadline for all of it."""
    import anyio
    import httpx2

    if server.transport not in TRANSPORTS:
        raise LiveServerError(f"--transport {server.transport!r}: choose from {', '.join(TRANSPORTS)}")
    try:
        url = httpx2.URL(server.url)
    except Exception as error:
        raise LiveServerError(f"--url {server.url!r}: not a URL ({error})") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise LiveServerError(f"--url {server.label!r}: expected an http:// or https:// URL")

    result: tuple[_Opened, list[dict[str, Any]], int] | None = None
    failure: BaseException | None = None
    first = ""  # why Streamable HTTP failed, when HTTP+SSE was tried after it
    with anyio.move_on_after(state.timeout) as deadline:
        state.deadline = deadline
        if server.transport != SSE:
            state.transport = STREAMABLE_HTTP
            try:
                result = await _over_http(server, capabilities, state, sse=False)
            except Exception as error:
                failure = error
        if result is None and (server.transport == SSE or (server.transport == AUTO and _serves_sse(state))):
            if state.transport is not None:
                first = _failure(failure, False, state)
                state.refused, state.http_status, state.logged = state.http_status, None, []
            state.transport, failure = SSE, None
            try:
                result = await _over_http(server, capabilities, state, sse=True)
            except Exception as error:
                failure = error
    if result is not None:
        return result
    raise LiveServerError(_http_failure(server, failure, deadline.cancelled_caught, first, state))


def _serves_sse(state: _State) -> bool:
    """Whether Streamable HTTP failed as the specification says a server of HTTP+SSE makes it fail: its first
    request (initialize, or server/discover) answered with HTTP 400, 404 or 405."""
    status = state.http_status or ""
    return (
        state.listed is None and state.phase in ("initialize", "server/discover") and status.startswith(_SSE_STATUSES)
    )


async def _over_http(
    server: HttpServer, capabilities: tuple[str, ...], state: _State, sse: bool
) -> tuple[_Opened, list[dict[str, Any]], int]:
    import httpx2

    from toolsurface.harness.live._connection import bounded_transport

    async def on_response(response: httpx2.Response) -> None:
        if response.status_code >= 400 and state.phase != "done" and state.http_status is None:
            state.http_status = f"HTTP {response.status_code} {response.reason_phrase}".rstrip()

    async with httpx2.AsyncClient(
        headers=dict(server.headers),
        # Reads wait as long as a use's request may take; the use bounds each request itself.
        timeout=httpx2.Timeout(None if state.use is not None else state.timeout),
        event_hooks={"response": [on_response]},
        transport=bounded_transport(state) if state.use is not None else None,
    ) as http:
        if sse:
            from toolsurface.harness.live._sse import sse_streams

            async with sse_streams(http, server.url, state) as (received, sent):
                return await _converse(received, sent, capabilities, state)
        from toolsurface.harness.live._streamable import lean_streamable_http_client

        # An answer sent as one SSE event may be as large as a stdio line, or the answer limit (the SDK holds an
        # event to 1 MiB, and would call a larger one the server's error).
        events = max(MAX_LINE_BYTES, state.answer_limit or 0)
        async with lean_streamable_http_client(server.url, http, events) as (read, write):
            return await _converse(read, write, capabilities, state)


def _http_failure(server: HttpServer, failure: BaseException | None, timed_out: bool, first: str, state: _State) -> str:
    """One line: why the URL could not be listed, over each transport tried, with the hint that fits."""
    from toolsurface.harness.live._sse import CONNECTING

    failed = _failure(failure, timed_out, state) + _protocol_hint(failure, state)
    if state.http_status is not None and state.http_status not in failed:
        failed += f" ({state.http_status})"
    # How Streamable HTTP failed is news only while HTTP+SSE has not listed the server either.
    told = first and state.listed is None
    message = f"{server.label}: {first}; over HTTP+SSE, {failed}" if told else f"{server.label}: {failed}"
    status = state.http_status or ""
    # The GET of an SSE stream refused as a server refuses a method or a path it does not serve.
    get_refused = state.transport == SSE and state.phase == CONNECTING and status.startswith(_SSE_STATUSES)
    if status.startswith(("HTTP 401", "HTTP 403")):
        message += "; pass credentials with --header 'Authorization: Bearer ...'"
    elif told and get_refused and (state.refused or "").startswith(("HTTP 404", "HTTP 405")):
        message += "; is the URL's path right? Streamable HTTP is usually served at /mcp, HTTP+SSE at /sse"
    elif server.transport == STREAMABLE_HTTP and _serves_sse(state):
        message += f"; if it serves HTTP+SSE (MCP 2024-11-05), list it with --transport {SSE}, or without --transport"
    elif server.transport == SSE and get_refused:
        message += f"; if it serves Streamable HTTP, list it with --transport {STREAMABLE_HTTP}, or without --transport"
    return message
