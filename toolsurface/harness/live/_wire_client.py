"""The client side of a stdio MCP conversation, on plain JSON, with the SDK's wire types (mcp_types) for what
plain JSON cannot vouch for.

What listing needs of the SDK's ClientSession: the handshake (`initialize`, then `notifications/initialized`)
or `server/discover` with each request in its 2026-07-28 envelope, requests matched to their answers, and
the answers a client owes the server's own requests (ping; roots, sampling and elicitation as declared). The
SDK's client package imports its server, HTTP and auth modules too, and its wire types alone take a third of
a second of CPU to import (pydantic's models): a server that answers in the shapes every server sends is
read with json alone, and each message or handshake answer of any other shape goes to the wire types, which
take or refuse it exactly as ClientSession would. The messages it sends are those ClientSession sends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    import mcp_types
    from anyio.streams.memory import MemoryObjectReceiveStream

__all__ = [
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "Answer",
    "ConnectionClosed",
    "ErrorAnswer",
    "RpcError",
    "ServerInfo",
    "ServerRequest",
    "Unreadable",
    "UnreadableAnswer",
    "WireClient",
    "client_capabilities",
    "handshake_answer",
    "read_message",
    "typed_message",
    "unreadable",
]

# JSON-RPC's own codes, as mcp_types names them (a test holds them equal).
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601


class RpcError(ToolsurfaceError):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, method: str, code: int, message: str, data: Any = None) -> None:
        self.method, self.code, self.message, self.data = method, code, message, data
        super().__init__(f"answered {method} with error {code}: {message}")


class ConnectionClosed(ToolsurfaceError):
    """The server's stdout ended with a request unanswered."""

    def __init__(self, method: str) -> None:
        super().__init__(f"closed the connection before answering {method}")


class UnreadableAnswer(ToolsurfaceError):
    """The server answered a request with JSON the client cannot take (nested too deep, a lone surrogate)."""

    def __init__(self, method: str, problem: str) -> None:
        super().__init__(f"its answer to {method} {problem}")


@dataclass(frozen=True)
class Unreadable:
    """An answer line the wire types refused that is still an answer to request `id`: what is wrong with it."""

    id: int | str
    problem: str


def typed_message(data: bytes | bytearray | str) -> Any:
    """The JSON-RPC message of the wire types `data` holds, parsed and then validated: the same message and the same
    ValueError as the adapter's validate_json, which holds about four copies of a long string while it reads
    (a 50 MB answer, 240 MB); parsed first, the string is made once."""
    import mcp_types
    import pydantic_core

    return mcp_types.jsonrpc_message_adapter.validate_python(pydantic_core.from_json(data), by_name=False)


def unreadable(line: bytes) -> Unreadable | None:
    """The answer a line the wire types refused was meant to be, and why it cannot be taken: nested deeper than
    harness.bounded_json's bound, or holding a lone surrogate (which JSON may escape and UTF-8 cannot carry);
    None when the line is no JSON-RPC answer at all (a server's noise)."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads, lone_surrogate, nesting_depth

    text = line.decode("utf-8", "replace")
    try:
        message = loads(text, MAX_DEPTH, deep="mark")
    except JSONProblem:
        return None
    if (
        not isinstance(message, dict)
        or message.get("jsonrpc") != "2.0"
        or not ("result" in message or "error" in message)
    ):
        return None
    ident = message.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    reached = nesting_depth(text)
    if reached > MAX_DEPTH:
        return Unreadable(ident, f"nests {reached} levels deep, more than {MAX_DEPTH}")
    found = lone_surrogate(message)
    if found is not None:
        path = ".".join(str(part) for part in found[0])
        return Unreadable(ident, f"holds a lone surrogate ({found[1]}) at {path}, which is not Unicode text")
    return Unreadable(ident, "is not a JSON-RPC answer of MCP's types")


@dataclass(frozen=True)
class Answer:
    """A server's result for request `id`, exactly as received."""

    id: int | str
    result: dict[str, Any]


@dataclass(frozen=True)
class ErrorAnswer:
    """A server's JSON-RPC error for request `id` (None: it could not tell which)."""

    id: int | str | None
    code: int
    message: str
    data: Any = None


@dataclass(frozen=True)
class ServerRequest:
    """A request of the server's own (ping, roots/list, ...), which the client answers."""

    id: int | str
    method: str


class _Notice:
    """A notification from the server: nothing to answer."""


_NOTICE = _Notice()
Message = Answer | ErrorAnswer | ServerRequest | _Notice | Unreadable


def _request_id(value: Any) -> bool:
    return type(value) is int or type(value) is str


def _plain(message: Any) -> Message | None:
    """The message in the shapes every server sends, read as the wire types would read it; None when only
    the wire types can say what it is (or that it is none)."""
    if type(message) is not dict or message.get("jsonrpc") != "2.0":
        return None
    if "method" in message:
        params = message.get("params")
        if type(message["method"]) is not str or "result" in message or "error" in message:
            return None
        if params is not None and type(params) is not dict:
            return None
        if "id" not in message:
            return _NOTICE
        return ServerRequest(message["id"], message["method"]) if _request_id(message["id"]) else None
    if "result" in message and "error" not in message:
        result = message["result"]
        return Answer(message["id"], result) if type(result) is dict and _request_id(message.get("id")) else None
    error = message.get("error")
    if "error" in message and "result" not in message and type(error) is dict and "id" in message:
        code, text = error.get("code"), error.get("message")
        if (message["id"] is None or _request_id(message["id"])) and type(code) is int and type(text) is str:
            return ErrorAnswer(message["id"], code, text, error.get("data"))
    return None


_PLAIN_BYTES = 1 << 20


def read_message(line: bytes | bytearray) -> Message | None:
    """One line of the server's stdout as a message: an answer, an error answer, a request or notification
    of the server's, an answer that cannot be taken (Unreadable), or None for a line that is no JSON-RPC
    message (a server's noise). Plain JSON of the usual shapes is read with json (harness.bounded_json); a
    line it cannot vouch for (a lone surrogate escaped, a deep or odd message) is read by the wire types."""
    import re

    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads

    found: Message | None = None
    # An escaped surrogate may be half a pair, which the wire types refuse and json would take; a long line (a
    # large answer) is read by the wire types' parser in one pass, without a decoded copy beside it.
    if len(line) <= _PLAIN_BYTES and not re.search(rb"\\[uU][dD][89a-fA-F]", line):
        try:
            found = _plain(loads(line.decode("utf-8"), MAX_DEPTH))
        except (UnicodeDecodeError, JSONProblem):
            found = None
    return found if found is not None else _typed(line)


def _typed(line: bytes | bytearray) -> Message | None:
    """The message as the wire types read it (what ClientSession takes), or why an answer cannot be taken."""
    import mcp_types as types

    try:
        message = typed_message(line)
    except ValueError:
        return unreadable(bytes(line))
    if isinstance(message, types.JSONRPCResponse):
        return Answer(message.id, message.result)
    if isinstance(message, types.JSONRPCError):
        return ErrorAnswer(message.id, message.error.code, message.error.message, message.error.data)
    if isinstance(message, types.JSONRPCRequest):
        return ServerRequest(message.id, message.method)
    return _NOTICE


@dataclass(frozen=True)
class ServerInfo:
    """The server's name and version as its handshake answer gave them."""

    name: str
    version: str


@dataclass(frozen=True)
class Handshake:
    """What the client keeps of a handshake answer: the version, the server, its capabilities as the wire types
    dump them (by alias, only what was sent), and its instructions."""

    protocol_version: str
    server_info: ServerInfo
    capabilities: dict[str, Any]
    instructions: str | None


# The capabilities read without the wire types, each with the keys its model has, in the order the model
# dumps them (a test holds them to mcp_types' models); any other key or value goes to the wire types.
_FLAGS = {"prompts": ("listChanged",), "resources": ("subscribe", "listChanged"), "tools": ("listChanged",)}
_CAPABILITIES = ("experimental", "logging", "prompts", "resources", "tools", "completions", "extensions")


def _plain_capabilities(raw: Any) -> dict[str, Any] | None:
    if type(raw) is not dict or not set(raw) <= set(_CAPABILITIES):
        return None
    dumped: dict[str, Any] = {}
    for key in _CAPABILITIES:
        if key not in raw:
            continue
        value = raw[key]
        if value is None:
            dumped[key] = None
        elif key in ("experimental", "extensions"):
            if type(value) is not dict or any(type(v) is not dict for v in value.values()):
                return None
            dumped[key] = value
        elif key in _FLAGS:
            flags = _FLAGS[key]
            if (
                type(value) is not dict
                or not set(value) <= set(flags)
                or any(type(v) is not bool for v in value.values())
            ):
                return None
            dumped[key] = {flag: value[flag] for flag in flags if flag in value}
        elif value != {}:
            return None
        else:
            dumped[key] = {}
    return dumped


def handshake_answer(raw: dict[str, Any]) -> Handshake:
    """An initialize result checked as ClientSession checks it: read as plain JSON where it has the usual
    shape, else by the wire types (which raise for an answer ClientSession would refuse)."""
    info, capabilities = raw.get("serverInfo"), _plain_capabilities(raw.get("capabilities"))
    version, instructions, meta = raw.get("protocolVersion"), raw.get("instructions"), raw.get("_meta")
    if (
        type(version) is str
        and capabilities is not None
        and type(info) is dict
        and set(info) <= {"name", "version", "title"}
        and type(info.get("name")) is str
        and type(info.get("version")) is str
        and (info.get("title") is None or type(info["title"]) is str)
        and (instructions is None or type(instructions) is str)
        and (meta is None or type(meta) is dict)
    ):
        return Handshake(version, ServerInfo(info["name"], info["version"]), capabilities, instructions)
    import mcp_types as types

    result = types.InitializeResult.model_validate(raw, by_name=False)
    return Handshake(
        result.protocol_version,
        ServerInfo(result.server_info.name, result.server_info.version),
        result.capabilities.model_dump(by_alias=True, exclude_unset=True, mode="json"),
        result.instructions,
    )


def client_capabilities(
    declared: tuple[str, ...], extensions: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The capabilities ClientSession declares for these callbacks (roots, sampling, elicitation), and the extensions
    it is given."""
    if not declared:
        return {"extensions": extensions} if extensions else {}  # what the wire types dump, without importing them
    import mcp_types as types

    capabilities = types.ClientCapabilities(
        sampling=types.SamplingCapability() if "sampling" in declared else None,
        elicitation=(
            types.ElicitationCapability(form=types.FormElicitationCapability(), url=types.UrlElicitationCapability())
            if "elicitation" in declared
            else None
        ),
        roots=types.RootsCapability(list_changed=True) if "roots" in declared else None,
        extensions=extensions or None,
    )
    dumped: dict[str, Any] = capabilities.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


@dataclass
class _Waiting:
    method: str
    done: Any  # an anyio.Event
    answer: Answer | ErrorAnswer | None = None
    unreadable: str | None = None


class WireClient:
    """Requests and notifications out through `send` (one JSON-RPC message as a dict), answers in through
    `serve`, which also answers the server's requests; ends every waiting request when the server's
    output ends."""

    def __init__(
        self,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        declared: tuple[str, ...],
        client_info: dict[str, Any],
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self._send = send
        self._declared = declared
        self._capabilities = client_capabilities(declared, extensions)
        self._client_info = client_info
        self._waiting: dict[int, _Waiting] = {}
        self._next_id = 0
        self._closed = False
        self._envelope: dict[str, Any] | None = None
        self.protocol_version: str | None = None
        self.server_info: ServerInfo | None = None
        # As the wire types dump them: by alias, only what the server sent; and exactly as it sent them (with what
        # the wire types leave out, as a draft's `tools.manifest`).
        self.server_capabilities: dict[str, Any] | None = None
        self.sent_capabilities: dict[str, Any] | None = None
        self.instructions: str | None = None

    # -- the conversation ----------------------------------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """The result of one request, exactly as received; RpcError for an error answer."""
        import anyio

        if self._closed:
            raise ConnectionClosed(method)
        self._next_id += 1
        request_id = self._next_id
        waiting = _Waiting(method, done=anyio.Event())
        self._waiting[request_id] = waiting
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        params = self._enveloped(params)
        if params is not None:
            message["params"] = params
        try:
            await self._send(message)
            await waiting.done.wait()
        finally:
            self._waiting.pop(request_id, None)
        answer = waiting.answer
        if waiting.unreadable is not None:
            raise UnreadableAnswer(method, waiting.unreadable)
        if answer is None:
            raise ConnectionClosed(method)
        if isinstance(answer, ErrorAnswer):
            raise RpcError(method, answer.code, answer.message, answer.data)
        return answer.result

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)

    def _enveloped(self, params: dict[str, Any] | None) -> dict[str, Any] | None:
        """At 2026-07-28 every request carries the client's version, identity and capabilities in `_meta`."""
        if self._envelope is None:
            return params
        enveloped = dict(params or {})
        enveloped["_meta"] = {**enveloped.get("_meta", {}), **self._envelope}
        return enveloped

    def _envelope_at(self, version: str) -> dict[str, Any]:
        import mcp_types as types

        return {
            types.PROTOCOL_VERSION_META_KEY: version,
            types.CLIENT_INFO_META_KEY: self._client_info,
            types.CLIENT_CAPABILITIES_META_KEY: self._capabilities,
        }

    async def initialize(self) -> None:
        """The handshake at the newest handshake version; the server's answer checked as ClientSession does."""
        from toolsurface.harness.protocol import HANDSHAKE_PROTOCOLS, LATEST_HANDSHAKE

        params = {
            "protocolVersion": LATEST_HANDSHAKE,
            "capabilities": self._capabilities,
            "clientInfo": self._client_info,
        }
        raw = await self.request("initialize", params)
        result = handshake_answer(raw)
        self.sent_capabilities = raw.get("capabilities") if isinstance(raw.get("capabilities"), dict) else None
        if result.protocol_version not in HANDSHAKE_PROTOCOLS:
            raise ToolsurfaceError(
                f"answered initialize with protocol version {result.protocol_version!r}, not a handshake version"
            )
        self.protocol_version = result.protocol_version
        self.server_info = result.server_info
        self.server_capabilities = result.capabilities
        self.instructions = result.instructions
        await self.notify("notifications/initialized")

    async def send_discover(self, version: str) -> dict[str, Any]:
        """One `server/discover` in the envelope of `version`; the raw result."""
        raw = await self.request("server/discover", {"_meta": self._envelope_at(version)})
        self.sent_capabilities = raw.get("capabilities") if isinstance(raw.get("capabilities"), dict) else None
        return raw

    def adopt(self, result: mcp_types.DiscoverResult) -> None:
        """Speak the newest version both sides know (the caller pins it by narrowing the result's list)."""
        import mcp_types as types
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in result.supported_versions]
        if not mutual:
            raise ToolsurfaceError(f"server/discover names no version this client speaks: {result.supported_versions}")
        self.protocol_version = mutual[-1]
        self._envelope = self._envelope_at(self.protocol_version)
        self.server_capabilities = result.capabilities.model_dump(by_alias=True, exclude_unset=True, mode="json")
        self.instructions = result.instructions
        stamp = (result.meta or {}).get(types.SERVER_INFO_META_KEY)
        try:
            info = types.Implementation.model_validate(stamp) if stamp is not None else None
        except ValueError:
            info = None  # display-only: a malformed stamp reads as none, as in ClientSession
        self.server_info = ServerInfo(info.name, info.version) if info is not None else None

    # -- what comes in ---------------------------------------------------------------------------------------

    async def serve(self, incoming: MemoryObjectReceiveStream[Message]) -> None:
        """Until the server's output ends: answers to their requests, the server's requests answered."""
        try:
            async with incoming:
                async for message in incoming:
                    if isinstance(message, Unreadable):
                        waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                        if waiting is not None and waiting.answer is None:
                            waiting.unreadable = message.problem
                            waiting.done.set()
                    elif isinstance(message, Answer | ErrorAnswer):
                        waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                        if waiting is not None and waiting.answer is None:
                            waiting.answer = message
                            waiting.done.set()
                    elif isinstance(message, ServerRequest):
                        await self._send(self._answer(message))
        finally:
            self._closed = True
            for waiting in self._waiting.values():
                waiting.done.set()

    def _answer(self, request: ServerRequest) -> dict[str, Any]:
        """What ClientSession answers: ping; an empty root list, a declined elicitation and a refused sampling
        when declared; "not supported" when not; an unknown method is not found."""
        method, declared = request.method, self._declared
        result: dict[str, Any] | None = None
        error: tuple[int, str] | None = None
        if method == "ping":
            result = {}
        elif method == "roots/list":
            result, error = (
                ({"roots": []}, None) if "roots" in declared else (None, (INVALID_REQUEST, "List roots not supported"))
            )
        elif method == "sampling/createMessage":
            text = (
                "toolsurface only lists tools; it does not sample"
                if "sampling" in declared
                else "Sampling not supported"
            )
            error = (INVALID_REQUEST, text)
        elif method == "elicitation/create":
            result, error = (
                ({"action": "decline"}, None)
                if "elicitation" in declared
                else (None, (INVALID_REQUEST, "Elicitation not supported"))
            )
        else:
            return {
                "jsonrpc": "2.0",
                "id": request.id,
                "error": {"code": METHOD_NOT_FOUND, "message": "Method not found", "data": method},
            }
        if error is not None:
            return {"jsonrpc": "2.0", "id": request.id, "error": {"code": error[0], "message": error[1]}}
        return {"jsonrpc": "2.0", "id": request.id, "result": result}
