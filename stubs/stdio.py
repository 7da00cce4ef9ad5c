"""The stdio transport of the stub, with one guard: a request nested too deeply for the SDK's JSON
parser would be dropped without an answer, so it is rewritten into a call the gate refuses and logs."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper

import anyio

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


class _GuardedLines:
    def __init__(self, source: anyio.AsyncFile[str]) -> None:
        self.source = source

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self.source:
            yield guard_line(line)


async def serve_stdio(server: object) -> None:
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    assert isinstance(server, Server)
    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    async with stdio_server(stdin=_GuardedLines(stdin)) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())
