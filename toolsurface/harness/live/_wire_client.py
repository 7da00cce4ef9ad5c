"""The client side of a stdio MCP conversation, on the SDK's wire types alone (mcp_types).

What listing needs of the SDK's ClientSession: the handshake (`initialize`, then `notifications/initialized`)
or `server/discover` with each request in its 2026-07-28 envelope, requests matched to their answers, and
the answers a client owes the server's own requests (ping; roots, sampling and elicitation as declared). The
SDK's client package imports its server, HTTP and auth modules too, about 0.4 s of CPU against 0.1 s for
the wire types; without them the client is ready before a Python server has started, so a snapshot waits
for the server only. The messages it sends are those ClientSession sends, built from the same types.
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
    "ConnectionClosed",
    "RpcError",
    "Unreadable",
    "UnreadableAnswer",
    "WireClient",
    "client_capabilities",
    "read_message",
    "unreadable",
]


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


def read_message(data: bytes | bytearray | str) -> Any:
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


def client_capabilities(declared: tuple[str, ...]) -> dict[str, Any]:
    """The capabilities ClientSession declares for these callbacks (roots, sampling, elicitation)."""
    import mcp_types as types

    capabilities = types.ClientCapabilities(
        sampling=types.SamplingCapability() if "sampling" in declared else None,
        elicitation=(
            types.ElicitationCapability(form=types.FormElicitationCapability(), url=types.UrlElicitationCapability())
            if "elicitation" in declared
            else None
        ),
        roots=types.RootsCapability(list_changed=True) if "roots" in declared else None,
    )
    dumped: dict[str, Any] = capabilities.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


@dataclass
class _Waiting:
    method: str
    done: Any  # an anyio.Event
    answer: mcp_types.JSONRPCResponse | mcp_types.JSONRPCError | None = None
    unreadable: str | None = None


class WireClient:
    """Requests and notifications out through `send` (one JSON-RPC message as a dict), answers in through
    `serve`, which also answers the server's requests; ends every waiting request when the server's
    output ends."""

    def __init__(
        self, send: Callable[[dict[str, Any]], Awaitable[None]], declared: tuple[str, ...], client_info: dict[str, Any]
    ) -> None:
        self._send = send
        self._declared = declared
        self._capabilities = client_capabilities(declared)
        self._client_info = client_info
        self._waiting: dict[int, _Waiting] = {}
        self._next_id = 0
        self._closed = False
        self._envelope: dict[str, Any] | None = None
        self.protocol_version: str | None = None
        self.server_info: mcp_types.Implementation | None = None
        self.server_capabilities: mcp_types.ServerCapabilities | None = None
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
        import mcp_types as types

        answer = waiting.answer
        if waiting.unreadable is not None:
            raise UnreadableAnswer(method, waiting.unreadable)
        if answer is None:
            raise ConnectionClosed(method)
        if isinstance(answer, types.JSONRPCError):
            raise RpcError(method, answer.error.code, answer.error.message, answer.error.data)
        result: dict[str, Any] = answer.result
        return result

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
        import mcp_types as types
        from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

        params = {
            "protocolVersion": LATEST_HANDSHAKE_VERSION,
            "capabilities": self._capabilities,
            "clientInfo": self._client_info,
        }
        raw = await self.request("initialize", params)
        result = types.InitializeResult.model_validate(raw, by_name=False)
        if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
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
        return await self.request("server/discover", {"_meta": self._envelope_at(version)})

    def adopt(self, result: mcp_types.DiscoverResult) -> None:
        """Speak the newest version both sides know (the caller pins it by narrowing the result's list)."""
        import mcp_types as types
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in result.supported_versions]
        if not mutual:
            raise ToolsurfaceError(f"server/discover names no version this client speaks: {result.supported_versions}")
        self.protocol_version = mutual[-1]
        self._envelope = self._envelope_at(self.protocol_version)
        self.server_capabilities = result.capabilities
        self.instructions = result.instructions
        stamp = (result.meta or {}).get(types.SERVER_INFO_META_KEY)
        try:
            self.server_info = types.Implementation.model_validate(stamp) if stamp is not None else None
        except ValueError:
            self.server_info = None  # display-only: a malformed stamp reads as none, as in ClientSession

    # -- what comes in ---------------------------------------------------------------------------------------

    async def serve(self, incoming: MemoryObjectReceiveStream[Any]) -> None:
        """Until the server's output ends: answers to their requests, the server's requests answered."""
        import mcp_types as types

        try:
            async with incoming:
                async for message in incoming:
                    if isinstance(message, Unreadable):
                        waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                        if waiting is not None and waiting.answer is None:
                            waiting.unreadable = message.problem
                            waiting.done.set()
                    elif isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                        waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                        if waiting is not None and waiting.answer is None:
                            waiting.answer = message
                            waiting.done.set()
                    elif isinstance(message, types.JSONRPCRequest):
                        await self._send(self._answer(message))
        finally:
            self._closed = True
            for waiting in self._waiting.values():
                waiting.done.set()

    def _answer(self, request: mcp_types.JSONRPCRequest) -> dict[str, Any]:
        """What ClientSession answers: ping; an empty root list, a declined elicitation and a refused sampling
        when declared; "not supported" when not; an unknown method is not found."""
        import mcp_types as types

        method, declared = request.method, self._declared
        result: dict[str, Any] | None = None
        error: tuple[int, str] | None = None
        if method == "ping":
            result = {}
        elif method == "roots/list":
            result, error = (
                ({"roots": []}, None)
                if "roots" in declared
                else (None, (types.INVALID_REQUEST, "List roots not supported"))
            )
        elif method == "sampling/createMessage":
            text = (
                "toolsurface only lists tools; it does not sample"
                if "sampling" in declared
                else "Sampling not supported"
            )
            error = (types.INVALID_REQUEST, text)
        elif method == "elicitation/create":
            result, error = (
                ({"action": "decline"}, None)
                if "elicitation" in declared
                else (None, (types.INVALID_REQUEST, "Elicitation not supported"))
            )
        else:
            return {
                "jsonrpc": "2.0",
                "id": request.id,
                "error": {"code": types.METHOD_NOT_FOUND, "message": "Method not found", "data": method},
            }
        if error is not None:
            return {"jsonrpc": "2.0", "id": request.id, "error": {"code": error[0], "message": error[1]}}
        return {"jsonrpc": "2.0", "id": request.id, "result": result}
