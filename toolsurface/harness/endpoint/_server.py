"""The model endpoint on 127.0.0.1: the scripted model, or a recording pass-through to a real API.

It speaks Anthropic Messages, OpenAI Chat Completions, OpenAI Responses and Gemini generateContent, each as
JSON or as server-sent events, answers the three counting endpoints (harness.endpoint._counting), and writes
one record per request to model-requests.jsonl. A WebSocket
upgrade is refused at once, so an agent that tries one first falls back to plain HTTP.

Every request it accepts is answered: a body it cannot take (a length that is no number or too large, a
broken chunked body, text that is not UTF-8, JSON nested too deeply, a request no API reader understands)
with a 4xx naming the problem, a failure of its own (a log it cannot write) with a 500 naming it, never a
dropped connection. What it reads is bounded: MAX_BODY_BYTES a body, REQUEST_READ_S for a request to
arrive whole (a client sending a byte at a time is let go), BACKLOG connections waiting to be accepted.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from toolsurface.harness.agents import ClientCard, WireQuirks, client_cards, strip_server_prefix
from toolsurface.harness.agents.base import SERVER_NAME, EndpointKind, Usage
from toolsurface.harness.endpoint._answers import Answer, render_answer
from toolsurface.harness.endpoint._carried import CarriedResult, carried_results
from toolsurface.harness.endpoint._conversation import Api, Conversation, api_for_path, read_conversation
from toolsurface.harness.endpoint._counting import RECORDED_API, CountingRules, counting_answer, counting_family
from toolsurface.harness.endpoint._record import ModelRequest, RequestLog
from toolsurface.harness.endpoint._rules import Refusal, check_request
from toolsurface.harness.endpoint._sample import sample_value
from toolsurface.harness.endpoint._scripted import ScriptedModel, ScriptedTurn, search_tools
from toolsurface.harness.endpoint._sent import Sizes, mark_refused
from toolsurface.harness.endpoint._split import Naming, ServerPart, split_request
from toolsurface.harness.endpoint._usage import usage_from_body
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import compact_json
from toolsurface.harness.scenario import Step

# Headers that belong to one connection, never forwarded.
_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "accept-encoding",
}
_SIDE_ANSWER = "OK."
# For a whole pass-through request, from connecting upstream to the last byte of its answer.
_UPSTREAM_TIMEOUT_S = 600.0
# Far beyond any agent's request (a long conversation with a large tool list is a few MB).
MAX_BODY_BYTES = 64 * 1024 * 1024
# From the moment a connection waits for a request until its body is read; an idle keep-alive connection
# is closed after it too (agents' HTTP clients drop theirs sooner).
REQUEST_READ_S = 30.0
# Connections the kernel holds before they are accepted: an agent CLI fans out many requests at once, and
# socketserver's 5 left most of 200 concurrent ones unanswered.
BACKLOG = 256
_REAP_EVERY_S = 0.25
_CHUNK_LINE = 1024


class _BadRequest(Exception):
    """A request answered with a 4xx: `status` and what was wrong; `close` when the rest of it is unread."""

    def __init__(self, status: int, message: str, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.close = close


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _tokens(text: str) -> int:
    from toolsurface.harness.measure import count_tokens

    return count_tokens(text)


@dataclass(frozen=True)
class Neighbour:
    """A server beside the run's in the client's config: its name there, its tools as listed, its instructions."""

    name: str
    wire: Sequence[Mapping[str, Any]]
    instructions: str | None = None


class ModelEndpoint:
    """One endpoint, for one run: `scripted` plays `steps`; `upstream` passes through to a real API.

    `prompt` tells the run's own conversation from an agent's side requests (titles, quota checks), which
    get a short text answer and are recorded as `side`. `client` is the card of the client that sends the
    requests: its naming rule, its tool search and what it does to a tool's answer (without one, every client's
    that speaks the request's API); with `wire_tools` (the server's tools as listed) and `server_name` (the
    server's name in the client's config) each of the server's tools is recorded as each request carried it. `paths` (placeholder -> a path of this machine: `$HOME`, the
    run's folder) are counted as their placeholders in the system prompt's chars, so a figure is the same on
    any machine. The scripted model refuses a request its API would refuse, as that API does. `keep_results`
    keeps each turn's tool results as carried (`results`). `neighbours` are the other servers of the client's
    config, each recorded as each request carried it (`neighbours`), apart from the run's and the client's own.
    `count_answer` answers every token count with that many tokens.
    """

    def __init__(
        self,
        log_path: Path,
        *,
        steps: Sequence[Step] | None = None,
        prompt: str | None = None,
        upstream: str | None = None,
        stub_tools: Sequence[str] = (),
        port: int = 0,
        instructions: str | None = None,
        count_rate_limits: int = 0,
        wire_tools: Sequence[Mapping[str, Any]] | None = None,
        client: ClientCard | None = None,
        server_name: str = SERVER_NAME,
        paths: Mapping[str, str] | None = None,
        keep_results: bool = False,
        neighbours: Sequence[Neighbour] = (),
        count_answer: int | None = None,
    ) -> None:
        if (steps is None) == (upstream is None):
            raise ValueError("a model endpoint is either scripted (steps) or a pass-through (upstream)")
        self.client = client
        naming = client.naming if client is not None else None
        # The client's own tool search by name, every client's where the client is not known.
        self.searches: tuple[str, ...] = search_tools()
        if client is not None:
            self.searches = (client.search_tool,) if client.search_tool is not None else ()
        self.bridge = client.quirks.bridge if client is not None else None
        self.model = (
            ScriptedModel(steps, server_name, naming, self.searches, self.bridge) if steps is not None else None
        )
        self.server_name = server_name
        self.upstream = upstream
        self.stub_tools = set(stub_tools) or {str(t.get("name")) for t in wire_tools or ()}
        self.naming = Naming(naming, server_name, list(wire_tools)) if naming is not None and wire_tools else None
        if neighbours and naming is None:
            raise ValueError("the servers beside the run's are told apart by the client's naming rule")
        self.neighbours = [(n, Naming(naming, n.name, list(n.wire))) for n in neighbours if naming is not None]
        self.sizes = Sizes(_tokens)
        self.paths = _path_forms(paths or {})
        # The server's instructions, looked for in what the model reads.
        self.instructions = instructions
        self.port = port
        self.counting = CountingRules(rate_limited=count_rate_limits, answer=count_answer)
        lines = [line.strip() for line in (prompt or "").splitlines() if line.strip()]
        self.probe = lines[0][:80] if lines else None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # With `keep_results`, each turn's tool results as carried, block by block (what model-requests.jsonl
        # does not keep), in the order the turns came.
        self.keep_results = keep_results
        self.results: list[list[CarriedResult]] = []
        # Opened last: an endpoint its arguments refuse leaves no log open.
        self.log = RequestLog(log_path)

    @property
    def kind(self) -> EndpointKind:
        return EndpointKind.SCRIPTED if self.model is not None else EndpointKind.RECORD

    @property
    def url(self) -> str:
        assert self._server is not None, "the endpoint is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> ModelEndpoint:
        """Serve, on a thread of its own, with everything answering loads on first use loaded first (the
        tokenizer, the JSON reader): the endpoint is ready when its URL is known, and its first requests, all
        at once, wait for nothing."""
        from toolsurface.harness import bounded_json  # noqa: F401

        _tokens("")
        endpoint = self

        class Handler(_Handler):
            owner = endpoint

        try:
            self._server = _Server(("127.0.0.1", self.port), Handler, self)
        except OSError as error:
            self.log.close()
            raise ToolsurfaceError(
                f"cannot serve the model endpoint on 127.0.0.1:{self.port}: {error.strerror or error}"
            ) from None
        # A short poll: shutdown() waits for the loop to notice, and a run waits for shutdown().
        serve = functools.partial(self._server.serve_forever, poll_interval=0.02)
        self._thread = threading.Thread(target=serve, name="model-endpoint", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        self.log.close()

    def __enter__(self) -> ModelEndpoint:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def is_turn(self, conversation: Conversation) -> bool:
        """A request of the run's own conversation: it carries the scenario's prompt and asks for no structured
        answer (a title, a router's choice). Without a prompt to look for, any request that offers tools."""
        if conversation.answer_schema is not None:
            return False
        if self.probe is None:
            return bool(conversation.tool_names)
        return self.probe in conversation.text

    def quirks(self, api: str) -> tuple[WireQuirks, ...]:
        """What the client does to a tool's answer in its requests: its card's, or without a card, every
        client's that speaks `api`."""
        if self.client is not None:
            return (self.client.quirks,)
        return tuple(card.quirks for card in client_cards() if card.api == api)

    def is_stub_tool(self, name: str) -> bool:
        """A tool the agent offers as one of the stub's: by its own name once the agent's prefix is off."""
        own = strip_server_prefix(name, self.server_name)
        return own in self.stub_tools if self.stub_tools else name != own

    def record(self, conversation: Conversation | None, seq: int | None = None, **fields: Any) -> None:
        if conversation is not None:
            fields.setdefault("model", conversation.model)
            fields["stream"] = conversation.stream
            fields["tools"] = conversation.tool_names
            text = compact_json(conversation.tools) if conversation.tools else ""
            fields["tools_chars"] = len(text)
            fields["tools_tokens"] = _tokens(text) if text else 0
            fields["system_chars"] = conversation.system_chars - self._local_chars(conversation.system_text)
            fields["messages"] = conversation.messages
            split = self._split(conversation)
            sent = split["stub_sent"]
            if sent is None:
                fields["stub_tools"] = [n for n in conversation.tool_names if self.is_stub_tool(n)]
            else:
                carried = {t.sent_as for t in sent if t.how in ("shown", "deferred", "unmatched")}
                fields["stub_tools"] = [n for n in conversation.tool_names if n in carried]
                if fields.get("refused_tool"):
                    named = fields.get("refused_tools") or [fields["refused_tool"]]
                    unjudged = fields.get("refused_unjudged", [])
                    split["stub_sent"] = mark_refused(sent, named, fields["refused"], unjudged)
            fields.update(split)
        seq = seq if seq is not None else self.log.next_seq()
        self.log.write(ModelRequest(seq=seq, time=_now(), endpoint=self.kind, **fields))

    def _neighbours(self, conversation: Conversation) -> tuple[list[ServerPart], set[str]]:
        """What the request carried of each neighbour, and every neighbour's tool by the name it was sent as."""
        parts, names = [], set()
        for neighbour, naming in self.neighbours:
            split = split_request(
                conversation,
                lambda _name: False,
                [str(t.get("name")) for t in neighbour.wire],
                neighbour.instructions,
                _tokens,
                naming,
                self.sizes,
                server=neighbour.name,
            )
            sent = split.stub_sent or []
            names |= {t.sent_as for t in sent if t.sent_as is not None and t.how != "dropped"}
            parts.append(
                ServerPart(neighbour.name, split.stub_shown, split.stub_deferred, split.instructions_chars, sent)
            )
        return parts, names

    def _split(self, conversation: Conversation) -> dict[str, Any]:
        neighbours, others = self._neighbours(conversation) if self.neighbours else ([], set())
        split = split_request(
            conversation,
            self.is_stub_tool,
            sorted(self.stub_tools),
            self.instructions,
            _tokens,
            self.naming,
            self.sizes,
            server=self.server_name,
            search_tools=self.searches,
            others=others,
        )
        found = {f.name: getattr(split, f.name) for f in dataclass_fields(split)}
        if self.neighbours:
            found["neighbours"] = neighbours
        return found

    def _local_chars(self, text: str) -> int:
        """How many chars longer `text` is with this machine's paths than with their placeholders."""
        if not self.paths or not text:
            return 0
        shorter = text
        for path, placeholder in self.paths:
            shorter = shorter.replace(path, placeholder)
        return len(text) - len(shorter)


WORK = "$WORK"
# A folder named after a path: every character but a letter or a digit as `-` (`/tmp/x_1` as `-tmp-x-1`), as a
# client names the folder it keeps a project's memory in after the project's path.
_NOT_IN_FOLDER_NAME = re.compile(r"[^A-Za-z0-9]")


def machine_paths(home: str, run_dir: str | os.PathLike[str], workdir: str | os.PathLike[str]) -> dict[str, str]:
    """This machine's paths a client may write into its system prompt, by placeholder: `$HOME`, the run's
    folder (`$RUN`) and the client's working folder (`$WORK`, also where a folder is named after it)."""
    return {"$HOME": home, "$RUN": os.fspath(run_dir), WORK: os.fspath(workdir)}


def _path_forms(paths: Mapping[str, str]) -> list[tuple[str, str]]:
    """(path, placeholder) for each path as given and as resolved, the working folder's also as a folder's name,
    the longest first (a run folder inside $HOME is its own placeholder)."""
    forms: dict[str, str] = {}
    for placeholder, path in paths.items():
        if not path or path == os.sep:
            continue
        given = [path.rstrip(os.sep), os.path.realpath(path)]
        if placeholder == WORK:
            given += [_NOT_IN_FOLDER_NAME.sub("-", form) for form in given]
        for form in given:
            forms.setdefault(form, placeholder)
    return sorted(forms.items(), key=lambda item: -len(item[0]))


class _Server(ThreadingHTTPServer):
    """Serves each request on a thread of its own; what goes wrong in one is the run's record, never a
    traceback on the terminal (socketserver's default). A connection still reading its request after
    REQUEST_READ_S is shut by one reaper thread, which ends the read in its handler's thread."""

    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[_Handler], owner: ModelEndpoint) -> None:
        self.owner = owner
        self._reading: dict[socket.socket, float] = {}
        self._reading_lock = threading.Lock()
        self._closed = threading.Event()
        super().__init__(address, handler)
        threading.Thread(target=self._reap, name="model-endpoint reaper", daemon=True).start()

    def reading(self, connection: socket.socket, until: float | None) -> None:
        """`connection` is reading a request until the monotonic time `until` (None: it has read it)."""
        with self._reading_lock:
            if until is None:
                self._reading.pop(connection, None)
            else:
                self._reading[connection] = until

    def _reap(self) -> None:
        while not self._closed.wait(_REAP_EVERY_S):
            now = time.monotonic()
            with self._reading_lock:
                late = [connection for connection, until in self._reading.items() if until <= now]
                for connection in late:
                    del self._reading[connection]
            for connection in late:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)

    def server_close(self) -> None:
        self._closed.set()
        super().server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        failure = sys.exc_info()[1]
        if isinstance(failure, ConnectionError | TimeoutError):
            return  # the agent hung up before its answer (an aborted side request); the request is recorded
        with contextlib.suppress(Exception):  # a log that cannot be written already said so
            self.owner.record(
                None, api=None, path="", purpose="failed", status=500, error=f"{type(failure).__name__}: {failure}"
            )


class _Handler(BaseHTTPRequestHandler):
    owner: ModelEndpoint
    protocol_version = "HTTP/1.1"
    server_version = "toolsurface-model-endpoint"

    def log_message(self, format: str, *args: Any) -> None:
        return None  # the record is model-requests.jsonl

    server: _Server
    raw_requestline: bytes  # set by BaseHTTPRequestHandler as each request is read
    _answer_started = False

    @property
    def route(self) -> str:
        return urlsplit(self.path).path

    def handle_one_request(self) -> None:
        self._answer_started = False
        self.server.reading(self.connection, time.monotonic() + REQUEST_READ_S)
        try:
            super().handle_one_request()
        except OSError:
            self.close_connection = True  # the connection was shut (too slow) or the agent went away
        finally:
            self.server.reading(self.connection, None)

    def parse_request(self) -> bool:
        words = self.raw_requestline.decode("latin-1").split()
        if len(words) != 2:
            return super().parse_request()
        # HTTP/0.9 (a request line with no version): http.server would wait for headers none will send.
        self.command, self.path = words
        self.request_version = self.protocol_version
        self.requestline = " ".join(words)
        self.close_connection = True

        def refuse() -> None:
            raise _BadRequest(505, "HTTP/0.9 is not served (the request line names no version); use HTTP/1.1", True)

        self._answering(refuse)
        return False

    def send_response(self, code: int, message: str | None = None) -> None:
        self._answer_started = True
        super().send_response(code, message)

    def _read(self, size: int) -> bytes:
        data = self.rfile.read(size)
        if len(data) < size:
            raise _BadRequest(400, f"the body ended after {len(data)} of {size} bytes", close=True)
        return data

    def _body(self) -> bytes:
        """The request's body, whole, within MAX_BODY_BYTES: by its Content-Length, or chunk by chunk."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._chunked()
        raw = self.headers.get("Content-Length")
        if raw is None or not raw.strip():
            return b""
        if not raw.strip().isdigit():
            raise _BadRequest(400, f"Content-Length {raw[:40]!r} is not a number of bytes", close=True)
        length = int(raw)
        if length > MAX_BODY_BYTES:
            raise _BadRequest(413, f"the body is {length:,} bytes; at most {MAX_BODY_BYTES:,} are read", close=True)
        return self._read(length) if length else b""

    def _chunked(self) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(_CHUNK_LINE)
            size_text = line.split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise _BadRequest(400, f"a chunk size {size_text[:20]!r} is not hexadecimal", close=True) from None
            if size < 0:
                raise _BadRequest(400, "a chunk size is negative", close=True)
            if size == 0:
                break
            total += size
            if total > MAX_BODY_BYTES:
                raise _BadRequest(413, f"the body is more than {MAX_BODY_BYTES:,} bytes", close=True)
            parts.append(self._read(size))
            if self.rfile.readline(_CHUNK_LINE).strip():
                raise _BadRequest(400, "a chunk does not end where its size says", close=True)
        while self.rfile.readline(_CHUNK_LINE).strip():
            pass  # trailer fields, which say nothing the endpoint uses
        return b"".join(parts)

    def _json_body(self, body: bytes) -> dict[str, Any]:
        """The body as a JSON object, or a 400 saying why it is not one (any depth refused past MAX_DEPTH)."""
        from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, TooDeep, loads

        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _BadRequest(400, f"the body is not UTF-8 (byte {body[error.start]:#04x} at {error.start})") from None
        try:
            data = loads(text, MAX_DEPTH) if text.strip() else {}
        except TooDeep as problem:
            raise _BadRequest(400, f"the body nests {problem.depth} levels deep, more than {MAX_DEPTH}") from None
        except JSONProblem as problem:
            raise _BadRequest(400, f"the body is not JSON ({problem})") from None
        if not isinstance(data, dict):
            raise _BadRequest(400, "the body is not a JSON object")
        return data

    def _answering(self, work: Any) -> None:
        """Run `work`; whatever goes wrong, the request still gets an HTTP answer and a record."""
        api, what = api_for_path(self.route)
        try:
            work()
        except _BadRequest as bad:
            if bad.close:
                self.close_connection = True
            if not self._answer_started:
                with contextlib.suppress(OSError):
                    self._error(bad.status, str(bad), close=bad.close)
            with contextlib.suppress(Exception):
                self.owner.record(None, api=api, path=self.route, purpose=what, status=bad.status, error=str(bad))
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the agent went away; nothing is left to answer
        except Exception as failure:
            self.close_connection = True
            problem = f"{type(failure).__name__}: {failure}"
            if not self._answer_started:
                with contextlib.suppress(OSError):
                    self._error(500, f"the model endpoint could not answer: {problem}", close=True)
            with contextlib.suppress(Exception):  # a log that cannot be written is the failure itself
                self.owner.record(None, api=api, path=self.route, purpose="failed", status=500, error=problem)

    def _send(self, status: int, content_type: str, body: bytes, close: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _error(self, status: int, message: str, close: bool = False) -> None:
        kind = "invalid_request_error" if status < 500 else "api_error"
        body = {"type": "error", "error": {"type": kind, "message": message, "code": status}}
        self._send(status, "application/json", json.dumps(body).encode("utf-8"), close=close)

    def _betas(self) -> list[str]:
        """The features the request asks the API for by header (`anthropic-beta`, comma-separated)."""
        said = ",".join(self.headers.get_all("anthropic-beta") or [])
        return [beta.strip() for beta in said.split(",") if beta.strip()]

    def _refuse_upgrade(self) -> bool:
        if self.headers.get("Upgrade", "").lower() != "websocket":
            return False
        # Recorded before the answer: a client that reads the log once answered finds the record there.
        self.owner.record(None, api=api_for_path(self.route)[0], path=self.route, purpose="websocket", status=426)
        self._send(426, "text/plain", b"WebSockets are not served here; use HTTP\n", close=True)
        return True

    def do_GET(self) -> None:
        self.server.reading(self.connection, None)
        self._answering(self._get)

    def do_POST(self) -> None:
        self._answering(self._post)

    def _get(self) -> None:
        if self._refuse_upgrade():
            return
        if self.owner.upstream is not None:
            self._forward(b"")
            return
        api, what = api_for_path(self.route)
        self.owner.record(None, api=api, path=self.route, purpose=what, status=200 if what == "models" else 404)
        if what == "models":
            self._send(200, "application/json", json.dumps({"object": "list", "data": [], "models": []}).encode())
        else:
            self._error(404, f"no such route: GET {self.route}")

    def _post(self) -> None:
        if self._refuse_upgrade():
            return
        body = self._body()
        self.server.reading(self.connection, None)
        if self.owner.upstream is not None:
            self._forward(body)
            return
        started = time.monotonic()
        family = counting_family(self.route)
        if family is not None:
            self._count(family, body, started)
            return
        api, _ = api_for_path(self.route)
        if api is None:
            raise _BadRequest(404, f"no such route: POST {self.route}")
        data = self._json_body(body)
        tokens = _tokens(compact_json(data))
        try:
            conversation = read_conversation(api, data, self.route, self.owner.quirks(api))
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as failure:
            raise _BadRequest(400, f"not a request of the {api} API: {type(failure).__name__}: {failure}") from None
        if self.owner.keep_results and self.owner.is_turn(conversation):
            self.owner.results.append(carried_results(api, data, self.owner.bridge))
        refusal = check_request(api, data)
        if refusal is not None:
            self._refuse(api, conversation, refusal, started)
            return
        self._scripted(api, conversation, tokens, started)

    def _refuse(self, api: Api, conversation: Conversation, refusal: Refusal, started: float) -> None:
        """Answer as the real API answers a request it refuses, and record the request with why."""
        is_turn = self.owner.is_turn(conversation)
        self.owner.record(
            conversation,
            api=api,
            path=self.route,
            purpose="turn" if is_turn else "side",
            status=refusal.status,
            turn=len(conversation.calls) + 1 if is_turn else None,
            error=refusal.said,
            refused=refusal.message,
            refused_tool=refusal.tool,
            refused_tools=list(refusal.tools),
            refused_unjudged=list(refusal.unjudged),
            betas=self._betas(),
            duration_ms=round((time.monotonic() - started) * 1000, 3),
        )
        self._send(refusal.status, "application/json", refusal.body)

    def _count(self, family: Any, body: bytes, started: float) -> None:
        answer = counting_answer(family, self.route, body, self.owner.counting)
        # Recorded before the answer goes out, as every answer is: a client that reads the log once answered
        # finds the record there.
        self.owner.record(
            None,
            api=RECORDED_API[family],
            path=self.route,
            purpose="count",
            status=answer.status,
            model=answer.model,
            error=answer.error,
            counted=answer.tokens,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
        )
        self.send_response(answer.status)
        for key, value in answer.headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)
        self.wfile.flush()

    def _scripted(self, api: Api, conversation: Conversation, tokens: int, started: float) -> None:
        assert self.owner.model is not None
        model = conversation.model or "scripted"
        turn: ScriptedTurn | None = None
        if self.owner.is_turn(conversation):
            turn = self.owner.model.next_turn(conversation)
            answer = turn.answer
            if turn.wait_s > 0:
                time.sleep(turn.wait_s)
        elif conversation.answer_schema is not None:
            answer = Answer(text=compact_json(sample_value(conversation.answer_schema)))
        else:
            answer = Answer(text=_SIDE_ANSWER)
        output = _tokens(answer.text or "" if answer.call is None else compact_json(answer.call.arguments)) + 1
        usage = Usage(input_tokens=tokens, output_tokens=output)
        content_type, payload = render_answer(api, answer, model, usage, conversation.stream)
        reply: dict[str, Any] | None = None
        if turn is not None:
            reply = {"kind": turn.kind, "step": turn.step, "tool": turn.tool, "offered": turn.offered}
            if answer.call is not None:
                reply["name"] = answer.call.name
            if turn.skipped:
                reply["skipped_steps"] = turn.skipped
        self.owner.record(
            conversation,
            api=api,
            path=self.route,
            purpose="turn" if turn is not None else "side",
            status=200,
            turn=len(conversation.calls) + 1 if turn is not None else None,
            usage={"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens},
            usage_source="scripted",
            reply=reply,
            betas=self._betas(),
            error=turn.error if turn is not None else None,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
        )
        # Recorded before the answer goes out, so the records keep the order of the conversation.
        self._send(200, content_type, payload)

    def _forward(self, body: bytes) -> None:
        """Pass the request to the real API with the agent's own headers (its key among them), through
        harness.keyed_http (no redirect followed, each header checked, one deadline), stream the answer back
        unchanged, and record what the request offered and the usage the API answered."""
        from toolsurface.harness.keyed_http import BadHeader, Header, KeyedRequestError, open_request

        assert self.owner.upstream is not None
        started = time.monotonic()
        seq = self.owner.log.next_seq()  # the request's place, though its record is written once the answer is in
        upstream = urlsplit(self.owner.upstream)
        url = f"{upstream.scheme}://{upstream.netloc}{upstream.path.rstrip('/')}{self.path}"
        headers = [
            Header(key, value, f"the agent's {key} header")
            for key, value in self.headers.items()
            if key.lower() not in _HOP
        ]
        headers.append(Header("Accept-Encoding", "identity"))
        api, what = api_for_path(self.route)
        captured: list[bytes] = []
        kept = 0  # bytes of the answer kept to read its usage from: up to MAX_BODY_BYTES, else none
        status = 502
        error: str | None = None
        try:
            with open_request(url, self.command, headers, body or None, timeout=_UPSTREAM_TIMEOUT_S) as answer:
                status = answer.status
                self.send_response(status)
                for key, value in answer.headers:
                    if key not in _HOP:
                        self.send_header(key, value)
                self.send_header("Connection", "close")
                self.close_connection = True
                self.end_headers()
                for chunk in answer.chunks():
                    if kept >= 0:
                        kept += len(chunk)
                        captured.append(chunk)
                    if kept > MAX_BODY_BYTES:
                        captured, kept = [], -1
                    self.wfile.write(chunk)
                    self.wfile.flush()
        except BadHeader as bad:
            status, error = 400, str(bad)
            with contextlib.suppress(OSError):
                self._error(400, error)
        except KeyedRequestError as failure:
            error = f"upstream {upstream.scheme}://{upstream.hostname}: {failure}"
            if not self._answer_started:
                with contextlib.suppress(OSError):
                    self._error(502, error)
        except OSError as failure:  # the agent went away while its answer was coming
            error = f"the agent's connection: {type(failure).__name__}: {failure}"
        conversation: Conversation | None = None
        fields: dict[str, Any] = {}
        if api is not None and what == "generate" and body:
            try:
                conversation = read_conversation(api, self._json_body(body), self.route, self.owner.quirks(api))
            except (_BadRequest, TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
                conversation = None  # the API answered what it made of it; the record keeps the route
            if conversation is not None:
                is_turn = self.owner.is_turn(conversation)
                fields["purpose"] = "turn" if is_turn else "side"
                fields["turn"] = len(conversation.calls) + 1 if is_turn else None
        if conversation is not None:
            fields["betas"] = self._betas()
        usage = usage_from_body(b"".join(captured)) if api is not None else None
        if usage is not None:
            fields["usage"] = {k: v for k, v in vars(usage).items()}
            fields["usage_source"] = "api"
        self.owner.record(
            conversation,
            seq,
            api=api,
            path=self.route,
            status=status,
            error=error,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
            **{"purpose": what, **fields},
        )
