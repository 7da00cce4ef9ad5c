"""A JSON-RPC client over a server's stdio, written by hand: nothing of the SDK stands between the test and
the bytes the server sent."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from tests.helpers.waiting import Deadline
from toolsurface.harness.measure import PROTOCOL_VERSION

__all__ = ["RawStdioClient", "raw_whole_surface", "serve_argv"]


def serve_argv(*serve_args: str) -> list[str]:
    return [sys.executable, "-m", "toolsurface", "serve", *serve_args]


class RawStdioClient:
    """Starts `argv` in a session of its own; requests from the server (roots/list) get a client's answer."""

    def __init__(self, argv: Sequence[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        self.selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.next_id = 0
        self.buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        self.send_line(json.dumps(message).encode())

    def send_line(self, line: bytes) -> None:
        """Any bytes as one line, however malformed."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def read_line(self, timeout: float = 30) -> bytes:
        """The next line the server wrote; its own buffer, so two lines that came in one read are both seen."""
        return self._read_line(Deadline(timeout, "a line from the server"))

    def _read_line(self, deadline: Deadline) -> bytes:
        assert self.proc.stdout is not None
        while b"\n" not in self.buffer:
            if not self.selector.select(deadline.remaining()):
                continue  # the deadline has passed: remaining() fails naming what was awaited
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("the server closed stdout")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"

    def request_line(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> bytes:
        """The answer's line exactly as received."""
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        deadline = Deadline(timeout, f"the server's answer to {method}")
        while True:
            line = self._read_line(deadline)
            answer = json.loads(line)
            if "method" in answer and "id" in answer:
                # A request from the server: roots/list gets the empty list a roots-declaring client gives.
                if answer["method"] == "roots/list":
                    self.send({"jsonrpc": "2.0", "id": answer["id"], "result": {"roots": []}})
                else:
                    self.send({"jsonrpc": "2.0", "id": answer["id"], "error": {"code": -32601, "message": "no"}})
                continue
            if answer.get("id") == self.next_id:
                return line

    def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.request_line(method, params, timeout))["result"]
        return result

    def initialize(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        init = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return init

    def close(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.selector.close()
        assert self.proc.stdout is not None
        self.proc.stdout.close()


def raw_whole_surface(
    argv: Sequence[str], capabilities: dict[str, Any] | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """What a client written by hand receives: the handshake's instructions and capabilities, and every page of
    each list the capabilities declare; `handshake` holds the whole initialize result."""
    client = RawStdioClient(argv, env)
    try:
        init = client.initialize(capabilities or {})
        found: dict[str, Any] = {"handshake": init, "capabilities": init["capabilities"]}
        if "instructions" in init:
            found["instructions"] = init["instructions"]
        lists = [("tools/list", "tools", "tools")]
        if "prompts" in init["capabilities"]:
            lists.append(("prompts/list", "prompts", "prompts"))
        if "resources" in init["capabilities"]:
            lists += [
                ("resources/list", "resources", "resources"),
                ("resources/templates/list", "resourceTemplates", "resourceTemplates"),
            ]
        for method, key, field in lists:
            entries: list[Any] = []
            cursor = None
            while True:
                page = client.request(method, {"cursor": cursor} if cursor else None)
                entries += page[field]
                cursor = page.get("nextCursor")
                if cursor is None:
                    break
            found[key] = entries
        return found
    finally:
        client.close()
