"""The stdio transport of the stub, with one guard: a request nested too deeply for the SDK's JSON
parser would be dropped without an answer, so it is rewritten into a call the gate refuses and logs."""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import re
import sys
import threading
from collections.abc import AsyncIterator, Iterator

__all__ = ["DEPTH_LIMIT", "TOO_DEEP", "guard_line", "nesting_depth", "serve_stdio"]

# The SDK parses a message nested about 250 levels deep no more; refuse well before that.
DEPTH_LIMIT = 64
TOO_DEEP = "__toolsurface_nested_too_deeply__"
_ID = re.compile(r'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
_METHOD = re.compile(r'"method"\s*:\s*"((?:[^"\\]|\\.)*)"')
_NAME = re.compile(r'"name"\s*:\s*"((?:[^"\\]|\\.)*)"')


def nesting_depth(text: str) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}]":
            depth -= 1
    return deepest


def guard_line(line: str) -> str:
    """The line itself, or for a too deeply nested tools/call, a call the gate will refuse."""
    if line.count("{") + line.count("[") <= DEPTH_LIMIT:
        return line
    depth = nesting_depth(line)
    if depth <= DEPTH_LIMIT:
        return line
    found_id, method, name = _ID.search(line), _METHOD.search(line), _NAME.search(line)
    if found_id is None or method is None or method.group(1) != "tools/call":
        return line
    tool = json.loads(f'"{name.group(1)}"') if name else ""
    call = {
        "jsonrpc": "2.0",
        "id": json.loads(found_id.group(1)),
        "method": "tools/call",
        "params": {"name": tool, "arguments": {TOO_DEEP: depth}},
    }
    return json.dumps(call) + "\n"


def _lines(fd: int) -> Iterator[str]:
    """The fd's lines, read with os.read: a buffered file's lock, held by a blocked daemon thread, would
    abort the interpreter at exit."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    parts: list[str] = []
    while chunk := os.read(fd, 1 << 16):
        text = decoder.decode(chunk)
        while (end := text.find("\n")) >= 0:
            parts.append(text[: end + 1])
            yield "".join(parts)
            parts.clear()
            text = text[end + 1 :]
        if text:
            parts.append(text)
    parts.append(decoder.decode(b"", final=True))
    if rest := "".join(parts):
        yield rest


class _GuardedLines:
    """stdin's lines, read by a daemon thread of our own.

    A stub stopped by SIGTERM while its client keeps stdin open and quiet must still end: a read in one of
    anyio's worker threads cannot be cancelled, and at exit the interpreter waits for that thread, that is
    until the client writes or closes. A daemon thread's blocked read holds up neither.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def __aiter__(self) -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()

        def pump() -> None:
            try:
                for line in _lines(self.fd):
                    loop.call_soon_threadsafe(lines.put_nowait, line)
                loop.call_soon_threadsafe(lines.put_nowait, None)
            except (RuntimeError, OSError):
                pass  # the loop has closed or stdin went away: the server is ending anyway

        threading.Thread(target=pump, name="stub stdin", daemon=True).start()
        while (line := await lines.get()) is not None:
            yield guard_line(line)


async def serve_stdio(server: object) -> None:
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    assert isinstance(server, Server)
    async with stdio_server(stdin=_GuardedLines(sys.stdin.fileno())) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())
