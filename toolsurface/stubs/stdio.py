"""The stdio transport of the stub: each line read is parsed once, with a bound on nesting, and answered.

A line the server cannot take (not UTF-8, not JSON, not one JSON-RPC message, a lone surrogate, an id
that is neither a string nor an integer, a tools/call without a tool name or with arguments that are not
an object) gets a JSON-RPC error saying what was wrong, and a line in the call log with the outcome
`invalid`. A tools/call whose arguments nest deeper than DEPTH_LIMIT reaches the gate with its arguments
replaced by their depth, and is refused there like any call that does not fit its tool. Blank lines
carry no message and are skipped.

Every request read is answered: when stdin ends, the stub waits (up to ANSWER_WAIT_S) for the answers to
the requests already read before it ends the session, as the SDK's own transport would not.

stdin and stdout are read and written by daemon threads of our own: a stub stopped while its client
keeps stdin open and quiet, or stops reading stdout, must still end, and a read or a write blocked in
one of anyio's worker threads cannot be cancelled and holds up the interpreter's exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import signal
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from toolsurface.harness.bounded_json import Deep, JSONProblem, loads, lone_surrogate, walk
from toolsurface.harness.files import WriteFailed

if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.shared.message import SessionMessage

    from toolsurface.stubs.calllog import CallLog

__all__ = [
    "DEPTH_LIMIT",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "MAX_LINE_BYTES",
    "TOO_DEEP",
    "Rejected",
    "TooLong",
    "examine",
    "serve_stdio",
]

# The SDK parses a message nested about 250 levels deep no more; refuse well before that.
DEPTH_LIMIT = 64
TOO_DEEP = "__toolsurface_nested_too_deeply__"
# A tools/call's arguments are the third level of its line: the message, params, arguments.
_ARGUMENTS_LEVEL = 3
_DRAIN_S = 5.0
ANSWER_WAIT_S = 10.0
# Longer than any call a client makes (a tool's arguments with a whole file in them); what is beyond is
# skipped to the line's end, never held in memory, and the line answered with a parse error.
MAX_LINE_BYTES = 64 * 1024 * 1024
_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


@dataclass(frozen=True)
class Rejected:
    """A line answered with a JSON-RPC error: what was wrong, and what of the line could be read."""

    code: int
    message: str
    id: str | int | None = None
    method: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    allowed: list[str] | None = None


def _where(path: Sequence[str | int]) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "the message"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _shown(value: Any) -> str:
    text = ascii(value) if not isinstance(value, Deep) else "[...]"
    return text if len(text) <= 40 else text[:39] + "…"


def _deep_places(value: Any) -> list[tuple[tuple[str | int, ...], Deep]]:
    return [(path, item) for path, item in walk(value) if isinstance(item, Deep)]


def _request_id(message: dict[str, Any]) -> str | int | None:
    found = message.get("id")
    if isinstance(found, bool) or not isinstance(found, int | str) or lone_surrogate(found) is not None:
        return None
    return found


def _check_envelope(message: Any) -> Rejected | None:
    if isinstance(message, list):
        return Rejected(
            INVALID_REQUEST, "Invalid request: a JSON array (a batch) is not taken; send one message a line"
        )
    if not isinstance(message, dict):
        return Rejected(INVALID_REQUEST, f"Invalid request: a message is a JSON object, not {_kind(message)}")
    request_id = _request_id(message)
    method = message.get("method") if isinstance(message.get("method"), str) else None
    if message.get("jsonrpc") != "2.0":
        got = _shown(message["jsonrpc"]) if "jsonrpc" in message else "nothing"
        return Rejected(INVALID_REQUEST, f'Invalid request: "jsonrpc" must be "2.0", got {got}', request_id, method)
    if "id" in message and request_id is None:
        return Rejected(
            INVALID_REQUEST,
            f"Invalid request: id must be a string or an integer, got {_shown(message['id'])}",
            None,
            method,
        )
    if "method" in message and method is None:
        return Rejected(
            INVALID_REQUEST, f"Invalid request: method must be a string, got {_shown(message['method'])}", request_id
        )
    if message.get("params") is not None and not isinstance(message["params"], dict):
        return Rejected(
            INVALID_PARAMS,
            f"Invalid params: params must be an object, not {_kind(message['params'])}",
            request_id,
            method,
        )
    return None


def _check_call(message: dict[str, Any], tools: Sequence[str]) -> Rejected | None:
    """A tools/call names a tool by a string and gives its arguments as an object."""
    request_id, params = _request_id(message), message.get("params") or {}
    name, arguments = params.get("name"), params.get("arguments")
    tool = name if isinstance(name, str) else None
    if tool is None:
        got = "no name" if "name" not in params else f"name {_shown(name)}"
        return Rejected(
            INVALID_PARAMS,
            f"Invalid params: tools/call needs params.name, the tool's name as a string, got {got}; "
            f"tools: {', '.join(tools) or '(none)'}",
            request_id,
            "tools/call",
            allowed=list(tools) or ["(none)"],
        )
    if arguments is not None and not isinstance(arguments, dict):
        return Rejected(
            INVALID_PARAMS,
            f"Invalid params: params.arguments must be an object of the tool's parameters, not {_kind(arguments)}",
            request_id,
            "tools/call",
            tool,
            allowed=["{}"],
        )
    return None


def _check_surrogates(message: dict[str, Any], request_id: str | int | None, method: str | None) -> Rejected | None:
    found = lone_surrogate(message)
    if found is None:
        return None
    path, surrogate = found
    code = INVALID_PARAMS if path[:1] == ("params",) else INVALID_REQUEST
    label = "Invalid params" if code == INVALID_PARAMS else "Invalid request"
    return Rejected(
        code,
        f"{label}: {_where(path)} holds a lone surrogate ({surrogate}), which is not Unicode text; "
        "send text as UTF-8, a surrogate only as half of a pair",
        request_id,
        method,
    )


def _check_depth(message: dict[str, Any], request_id: str | int | None, method: str | None) -> Rejected | None:
    """Nesting beyond the bound is refused here, except inside a tools/call's arguments (the gate's)."""
    for path, deep in _deep_places(message):
        if method == "tools/call" and path[:2] == ("params", "arguments") and len(path) > 2:
            continue
        return Rejected(
            INVALID_REQUEST,
            f"Invalid request: {_where(path[:-1] or path)} nests {deep.depth} levels deep, "
            f"more than {DEPTH_LIMIT + _ARGUMENTS_LEVEL - 1}",
            request_id,
            method,
        )
    return None


def _check_params(message: dict[str, Any], method: str) -> Rejected | None:
    """The logged methods' params as the SDK will read them, so a refusal is logged here, not only answered."""
    import mcp.types as types
    from pydantic import ValidationError

    model = types.CallToolRequestParams if method == "tools/call" else types.PaginatedRequestParams
    params = message.get("params")
    try:
        model.model_validate(params if params is not None or method == "tools/call" else {})
    except ValidationError as error:
        problem = error.errors()[0]
        return Rejected(
            INVALID_PARAMS,
            f"Invalid params: {_where(('params', *problem['loc']))}: {problem['msg']}",
            _request_id(message),
            method,
        )
    return None


def _with_call(rejected: Rejected, params: Any) -> Rejected:
    """A refused tools/call, logged with its tool and arguments where they can be written down."""
    if not isinstance(params, dict):
        return rejected
    name, arguments = params.get("name"), params.get("arguments")
    tool = name if isinstance(name, str) else None
    if not isinstance(arguments, dict) or _deep_places(arguments):
        arguments = None
    return replace(rejected, tool=tool, arguments=arguments)


def _check_shape(message: dict[str, Any]) -> Any:
    """The message as the SDK's JSON-RPC type, or why it is not one."""
    import mcp.types as types
    from pydantic import ValidationError

    if "method" not in message and not ("result" in message or "error" in message):
        return Rejected(
            INVALID_REQUEST,
            "Invalid request: a message needs a method (a request or notification), or a result or an error (a response)",
            _request_id(message),
        )
    try:
        return types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValidationError as error:
        problem = error.errors()[0]
        where = _where([str(p) for p in problem["loc"] if not str(p).startswith("JSONRPC")])
        return Rejected(
            INVALID_REQUEST,
            f"Invalid request: not a JSON-RPC request, notification or response ({where}: {problem['msg']})",
            _request_id(message),
            message.get("method"),
        )


def examine(line: bytes, tools: Sequence[str]) -> Any:
    """What a line holds: a JSON-RPC message the SDK takes, a Rejected saying why not, or None (blank)."""
    line = line.strip(b" \t\r\n")
    if not line:
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return Rejected(
            PARSE_ERROR, f"Parse error: the line is not UTF-8 (byte {line[error.start]:#04x} at {error.start})"
        )
    try:
        message = loads(text, DEPTH_LIMIT + _ARGUMENTS_LEVEL - 1, deep="mark")
    except JSONProblem as problem:
        return Rejected(PARSE_ERROR, f"Parse error: not JSON: {problem}")
    rejected = _check_envelope(message) or _check_message(message, tools)
    if rejected is None:
        return _check_shape(message)
    if isinstance(message, dict) and message.get("method") == "tools/call":
        rejected = _with_call(rejected, message.get("params"))
    return rejected


def _check_message(message: dict[str, Any], tools: Sequence[str]) -> Rejected | None:
    """A JSON-RPC envelope's contents; a tools/call's arguments nested too deeply are replaced by their depth."""
    request_id, method = _request_id(message), message.get("method")
    rejected = _check_surrogates(message, request_id, method) or _check_depth(message, request_id, method)
    if rejected is None and method == "tools/call":
        rejected = _check_call(message, tools)
    if rejected is not None or method not in ("tools/call", "tools/list"):
        return rejected
    arguments = (message.get("params") or {}).get("arguments")
    if method == "tools/call" and (places := _deep_places(arguments)):
        message["params"]["arguments"] = {TOO_DEEP: max(deep.depth for _, deep in places) - _ARGUMENTS_LEVEL + 1}
    return _check_params(message, method)


@dataclass(frozen=True)
class TooLong:
    """A line longer than MAX_LINE_BYTES, skipped: how long it was."""

    size: int


def _lines(fd: int, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | TooLong]:
    """The fd's lines as bytes, read with os.read: a buffered file's lock, held by a blocked daemon thread,
    would abort the interpreter at exit. A line beyond `limit` bytes is given as TooLong once it ends."""
    parts: list[bytes] = []
    size = 0  # of the line so far
    skipping = False
    while chunk := os.read(fd, 1 << 16):
        while (end := chunk.find(b"\n")) >= 0:
            piece, chunk = chunk[: end + 1], chunk[end + 1 :]
            size += len(piece)
            if skipping or size > limit:
                yield TooLong(size)
            else:
                parts.append(piece)
                yield b"".join(parts)
            parts.clear()
            size, skipping = 0, False
        if chunk:
            size += len(chunk)
            skipping = skipping or size > limit
            if skipping:
                parts.clear()
            else:
                parts.append(chunk)
    if size:
        yield TooLong(size) if skipping else b"".join(parts)


def _quiet_thread() -> None:
    """Stop signals go to the main thread, where the loop listens, never to a pump thread."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)


class _Reader:
    """stdin's lines, pumped by a daemon thread into the loop.

    The thread wakes the loop once for whatever has piled up, never once a line: each wake-up is a write to
    the loop's self-pipe, which the signal handler shares, and a burst of lines that filled it would make
    the loop miss a SIGTERM.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.pending: list[bytes | TooLong | None] = []
        self.woken = False

    async def __aiter__(self) -> AsyncIterator[bytes | TooLong]:
        loop = asyncio.get_running_loop()
        arrived = asyncio.Event()

        def put(line: bytes | TooLong | None) -> None:
            with self.lock:
                self.pending.append(line)
                wake, self.woken = not self.woken, True
            if wake:
                loop.call_soon_threadsafe(arrived.set)

        def pump() -> None:
            _quiet_thread()
            try:
                for line in _lines(self.fd):
                    put(line)
                put(None)
            except (RuntimeError, OSError):
                pass  # the loop has closed or stdin went away: the server is ending anyway

        threading.Thread(target=pump, name="stub stdin", daemon=True).start()
        while True:
            arrived.clear()
            with self.lock:
                batch, self.pending, self.woken = self.pending, [], False
            if not batch:
                await arrived.wait()
            for line in batch:
                if line is None:
                    return
                yield line


class _Writer:
    """Whole lines to stdout, written in order by a daemon thread."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self.pump, name="stub stdout", daemon=True)
        self.thread.start()

    def pump(self) -> None:
        _quiet_thread()
        with contextlib.suppress(OSError):
            while (data := self.pending.get()) is not None:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.fd, view) :]

    def send(self, message: SessionMessage) -> None:
        text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
        self.pending.put(text.encode("utf-8") + b"\n")

    async def drain(self) -> None:
        """Until every line is written (or the client has stopped reading for a while)."""
        import anyio

        self.pending.put(None)
        deadline = time.monotonic() + _DRAIN_S
        while self.thread.is_alive() and time.monotonic() < deadline:
            await anyio.sleep(0.005)


def _answer(rejected: Rejected) -> SessionMessage:
    import mcp.types as types
    from mcp.shared.message import SessionMessage

    error = types.ErrorData(code=rejected.code, message=rejected.message)
    if rejected.allowed:
        error.data = {"allowed": rejected.allowed}
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rejected.id, error=error))


def _claim_stdio() -> tuple[int, int]:
    """Private copies of stdin and stdout for the wire; fd 0 then reads nothing and fd 1 writes to
    stderr, so a handler's stray print cannot corrupt the stream."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    try:
        os.dup2(2, 1)
    except OSError:
        os.dup2(null, 1)
    os.close(null)
    return wire_in, wire_out


def _restore_stdio(wire_in: int, wire_out: int) -> None:
    # The copies stay open: a pump thread may still be blocked on one.
    with contextlib.suppress(OSError):
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


async def serve_stdio(server: Server, log: CallLog, tools: Sequence[str]) -> None:
    """Serve on stdin and stdout until stdin ends (or the task is cancelled)."""
    import anyio
    import mcp.types as types
    from mcp.shared.message import SessionMessage

    wire_in, wire_out = _claim_stdio()
    writer = _Writer(wire_out)
    to_server, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    unanswered: set[str | int] = set()
    answered = anyio.Event()

    async def answers_written() -> None:
        with anyio.move_on_after(ANSWER_WAIT_S):
            while unanswered:
                await answered.wait()

    async def read_lines() -> None:
        async with to_server:
            async for line in _Reader(wire_in):
                started = time.perf_counter()
                found = (
                    examine(line, tools)
                    if not isinstance(line, TooLong)
                    else Rejected(
                        PARSE_ERROR, f"Parse error: the line is {line.size:,} bytes, more than {MAX_LINE_BYTES:,}"
                    )
                )
                if isinstance(found, Rejected):
                    answer = _answer(found)
                    with contextlib.suppress(WriteFailed):  # kept in log.failed; the line is answered anyway
                        log.write(found.method, found.tool, found.arguments, "invalid", found.message,
                                  len(found.message), started, found.allowed)  # fmt: skip
                    writer.send(answer)
                elif found is not None:
                    if isinstance(found, types.JSONRPCRequest):
                        unanswered.add(found.id)
                    elif isinstance(found, types.JSONRPCNotification) and found.method == "notifications/cancelled":
                        unanswered.discard((found.params or {}).get("requestId"))  # a cancelled request: no answer
                    await to_server.send(SessionMessage(found))
            # stdin ended: the session closes once the requests read so far are answered
            await answers_written()

    async def write_lines() -> None:
        nonlocal answered
        async with from_server:
            async for message in from_server:
                writer.send(message)
                if isinstance(message.message, types.JSONRPCResponse | types.JSONRPCError):
                    unanswered.discard(message.message.id)
                    answered.set()
                    answered = anyio.Event()

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_lines)
            tasks.start_soon(write_lines)
            await server.run(read, write, server.create_initialization_options())
            write.close()
        await writer.drain()
    finally:
        _restore_stdio(wire_in, wire_out)
