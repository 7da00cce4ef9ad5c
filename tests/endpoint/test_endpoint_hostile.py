"""The model endpoint answers every request it accepts, bad ones with a 4xx naming the problem and its own
failures with a 500, never a dropped connection; it bounds what it reads (body size, nesting, time to send a
request) and takes a burst of 200 connections at once."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import toolsurface.harness.endpoint._server as endpoint_server
from tests.helpers.waiting import Deadline
from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests
from toolsurface.harness.scenario import Step

MESSAGES = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hello"}]}


def scripted(tmp_path: Path) -> ModelEndpoint:
    return ModelEndpoint(tmp_path / "model-requests.jsonl", steps=[Step(0, {"say": "done"})])


def port_of(endpoint: ModelEndpoint) -> int:
    return int(endpoint.url.rsplit(":", 1)[1])


def exchange(port: int, data: bytes, timeout: float = 30) -> bytes:
    """Send `data` on a fresh connection and read until the endpoint closes it."""
    deadline = Deadline(timeout, "the endpoint to answer and close the connection")
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(data)
        while True:
            conn.settimeout(deadline.remaining())
            chunk = conn.recv(65536)
            if not chunk:
                return received
            received += chunk


def post(path: str, body: bytes, *headers: str) -> bytes:
    head = [f"POST {path} HTTP/1.1", "Host: x", "Connection: close", *headers]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def status_and_body(answer: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


@pytest.mark.parametrize(
    ("request_bytes", "status", "problem"),
    [
        (post("/v1/messages", b'{"model": "\xff\xfe"}'), 400, "not UTF-8"),
        (post("/v1/messages", b"[" * 100_000 + b"]" * 100_000), 400, "nests 100000 levels deep"),
        (post("/v1/chat/completions", b'{"model": "m", "tools": [{"function": 5}], "messages": []}'), 400, "openai"),
        (post("/v1/messages", b"{}", "Content-Length: abc"), 400, "is not a number of bytes"),
        (post("/v1/messages", b"{}", "Content-Length: 99999999999999"), 413, "at most"),
        (post("/v1/messages", b"zz\r\n{}\r\n0\r\n\r\n", "Transfer-Encoding: chunked"), 400, "not hexadecimal"),
    ],
    ids=["not-utf8", "nested-100000", "function-5", "length-abc", "length-huge", "bad-chunk"],
)
def test_a_hostile_request_gets_a_4xx_naming_the_problem_and_a_record(
    tmp_path: Path, request_bytes: bytes, status: int, problem: str
) -> None:
    with scripted(tmp_path) as endpoint:
        answer = exchange(port_of(endpoint), request_bytes)
        got, body = status_and_body(answer)
        assert got == status and problem in json.dumps(body), answer[:500]
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.status == status and record.error is not None and problem in record.error


def test_a_chunked_body_is_read_whole_and_answered(tmp_path: Path) -> None:
    body = json.dumps({**MESSAGES, "tools": [{"name": "t1", "input_schema": {"type": "object"}}]}).encode()
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:])) + b"0\r\n\r\n"
    with scripted(tmp_path) as endpoint:
        answer = exchange(port_of(endpoint), post("/v1/messages", chunked, "Transfer-Encoding: chunked"))
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.status == 200 and record.tools == ["t1"]


def test_a_client_that_sends_its_request_too_slowly_is_let_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endpoint_server, "REQUEST_READ_S", 0.5)
    with scripted(tmp_path) as endpoint, socket.create_connection(("127.0.0.1", port_of(endpoint))) as slow:
        slow.sendall(b"POST /v1/messa")
        slow.settimeout(20)
        assert slow.recv(1024) == b""  # closed by the endpoint, the request never whole
        # the endpoint still serves everyone else
        assert exchange(port_of(endpoint), post("/v1/messages", json.dumps(MESSAGES).encode())).startswith(
            b"HTTP/1.1 200"
        )


def test_a_request_log_that_cannot_be_written_is_a_500_naming_it(tmp_path: Path) -> None:
    endpoint = ModelEndpoint(Path("/dev/full"), steps=[Step(0, {"say": "done"})])
    with endpoint:
        status, body = status_and_body(exchange(port_of(endpoint), post("/v1/messages", json.dumps(MESSAGES).encode())))
    assert status == 500 and "cannot write the model request log /dev/full: No space left on device" in str(body)
    assert endpoint.log.failed is not None


def test_200_clients_at_once_are_all_answered(tmp_path: Path) -> None:
    clients = 200
    answers: list[bytes] = []
    lock = threading.Lock()
    with scripted(tmp_path) as endpoint:
        port = port_of(endpoint)
        exchange(port, post("/v1/messages", json.dumps(MESSAGES).encode()))  # the tokenizer loaded first
        start = threading.Barrier(clients)

        def one() -> None:
            start.wait()
            try:
                answer = exchange(port, post("/v1/messages", json.dumps(MESSAGES).encode()), timeout=30)
            except OSError:
                return
            with lock:
                answers.append(answer)

        threads = [threading.Thread(target=one, daemon=True) for _ in range(clients)]
        for thread in threads:
            thread.start()
        deadline = Deadline(60, "200 clients to be answered")
        for thread in threads:
            thread.join(deadline.remaining())
    assert sum(1 for a in answers if a.startswith(b"HTTP/1.1 200")) == clients


def test_an_http_09_request_is_answered_at_once_not_left_waiting_for_headers(tmp_path: Path) -> None:
    """`GET /` with no version: no headers follow, and none are waited for (REQUEST_READ_S is 30 s)."""
    with scripted(tmp_path) as endpoint:
        answer = exchange(port_of(endpoint), b"GET /\r\n", timeout=15)
    status, body = status_and_body(answer)
    assert status == 505 and "HTTP/0.9 is not served" in str(body)
    [record] = read_model_requests(tmp_path / "model-requests.jsonl")
    assert record.status == 505 and record.path == "/"


READY = """
import sys, threading
from pathlib import Path
from toolsurface.harness.endpoint import ModelEndpoint
from toolsurface.harness.measure import _tokens
with ModelEndpoint(Path(sys.argv[1]), steps=[]) as endpoint:
    print(_tokens._made is not None, "toolsurface.harness.bounded_json" in sys.modules)
"""

AT_ONCE = """
import threading
from toolsurface.harness.measure import encoding
made, start = [], threading.Barrier(16)
def ask():
    start.wait()
    made.append(encoding())
threads = [threading.Thread(target=ask) for _ in range(16)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(len({id(m) for m in made}))
"""


def test_the_endpoint_has_loaded_what_answering_uses_before_it_serves(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", READY, str(tmp_path / "log.jsonl")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


def test_threads_that_ask_for_the_tokenizer_at_once_share_one_made_once() -> None:
    done = subprocess.run([sys.executable, "-c", AT_ONCE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_sigterm_stops_a_loaded_endpoint_and_leaves_a_readable_log(tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    with subprocess.Popen(
        [sys.executable, "-m", "toolsurface", "model-endpoint", "scripted", "--surface", "v2", "--log", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as process:  # fmt: skip
        assert process.stdout is not None
        port = int(process.stdout.readline().strip().rsplit(":", 1)[1])
        start = threading.Barrier(101)

        def one() -> None:
            start.wait()
            with contextlib.suppress(OSError):
                exchange(port, post("/v1/messages", json.dumps(MESSAGES).encode()), timeout=30)

        threads = [threading.Thread(target=one, daemon=True) for _ in range(100)]
        for thread in threads:
            thread.start()
        start.wait()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
        for thread in threads:
            thread.join(30)
    assert process.returncode == 0, stderr
    assert all(record.status == 200 for record in read_model_requests(log))
