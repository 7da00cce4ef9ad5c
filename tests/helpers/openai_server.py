"""A stand-in for a paid OpenAI-compatible chat-completions API on 127.0.0.1, kept for what toolsurface's own
scripted model endpoint does not do: answer with HTTP errors, arguments that are not JSON, a model slower than
the run's timeout, tool calls without end; and hand back each request's headers (the key in Authorization).

It answers POST /v1/chat/completions in the documented shape (choices[0].message with content or tool_calls whose
arguments are JSON strings, finish_reason, usage), one scripted step per request, and records every request.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Call", "Fail", "FakeOpenAI", "Received", "Sleep", "Text", "ToolCalls", "fake_openai"]

PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Call:
    """One tool call; `arguments` is sent as JSON text, or as given when it is already a string."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)


@dataclass(frozen=True)
class ToolCalls:
    calls: Sequence[Call]
    content: str | None = None
    prompt_tokens: int = 100
    completion_tokens: int = 10


@dataclass(frozen=True)
class Text:
    content: str
    prompt_tokens: int = 100
    completion_tokens: int = 10


@dataclass(frozen=True)
class Fail:
    status: int
    body: dict[str, Any] = field(
        default_factory=lambda: {"error": {"message": "scripted failure", "type": "server_error"}}
    )


@dataclass(frozen=True)
class Sleep:
    """Answer nothing for `seconds` (or until the server stops), then close the connection."""

    seconds: float


Step = ToolCalls | Text | Fail | Sleep


@dataclass(frozen=True)
class Received:
    body: dict[str, Any]
    headers: dict[str, str]


class FakeOpenAI:
    """Serves `script` in order; with `repeat_last` the last step answers every request after it."""

    def __init__(self, script: Sequence[Step], *, repeat_last: bool = False, model: str = "fake-model") -> None:
        self.script = list(script)
        self.repeat_last = repeat_last
        self.model = model
        self.received: list[Received] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.received]

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()  # joins the handler threads
        self._thread.join(timeout=10)

    def next_step(self, body: dict[str, Any], headers: dict[str, str]) -> Step:
        with self._lock:
            index = len(self.received)
            self.received.append(Received(body, headers))
            if index < len(self.script):
                return self.script[index]
            if self.repeat_last and self.script:
                return self.script[-1]
            return Fail(
                500, {"error": {"message": f"the script has {len(self.script)} steps, this is request {index + 1}"}}
            )

    def completion(self, step: ToolCalls | Text) -> dict[str, Any]:
        with self._lock:
            number = next(self._ids)
            calls = [
                {
                    "id": f"call_{number}_{i}",
                    "type": "function",
                    "function": {
                        "name": c.name,
                        "arguments": c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments),
                    },
                }
                for i, c in enumerate(step.calls if isinstance(step, ToolCalls) else ())
            ]
        message: dict[str, Any] = {"role": "assistant", "content": step.content}
        if calls:
            message["tool_calls"] = calls
        return {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": 1_780_000_000,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {
                "prompt_tokens": step.prompt_tokens,
                "completion_tokens": step.completion_tokens,
                "total_tokens": step.prompt_tokens + step.completion_tokens,
            },
        }


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            if self.path != PATH:
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length))
            except ValueError:
                self._send(400, {"error": {"message": "the body is not JSON"}})
                return
            step = fake.next_step(body, {k.lower(): v for k, v in self.headers.items()})
            if isinstance(step, Sleep):
                fake.stopping.wait(step.seconds)
                self.close_connection = True
                return
            if isinstance(step, Fail):
                self._send(step.status, step.body)
                return
            self._send(200, fake.completion(step))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up (a timed-out run); nothing to answer
                pass

    return Handler


@contextmanager
def fake_openai(script: Sequence[Step], *, repeat_last: bool = False) -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI(script, repeat_last=repeat_last)
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()
