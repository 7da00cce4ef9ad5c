"""A key goes nowhere but where it was meant: every request that carries one (the keyed counters, the recording
model endpoint) follows no redirect, sends no header a key cannot be, waits one deadline for the whole answer
and reads a bounded answer, against servers on 127.0.0.1 that answer as no provider would."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.answering_http import Received, answering, reply
from tests.conftest import Run, run_cli
from tests.test_bad_input import assert_one_line_error
from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests
from toolsurface.harness.keyed_http import Header, TimedOut, send_request

KEYS = {
    "ANTHROPIC_API_KEY": "sk-ant-PLANTED-redirect-1a2b",
    "OPENAI_API_KEY": "sk-PLANTED-redirect-3c4d",
    "GEMINI_API_KEY": "PLANTED-redirect-gemini-5e6f",
}
FAMILIES = ["anthropic", "openai", "gemini"]
KEY_OF = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY", "gemini": "GEMINI_API_KEY"}


def _env(tmp_path: Path, **extra: str) -> dict[str, str | None]:
    return {**KEYS, "XDG_CACHE_HOME": str(tmp_path / "cache"), **extra}


def _measure(tmp_path: Path, family: str, url: str, **env: str) -> Run:
    return run_cli(
        "measure", "v2", "--no-growth", "--tokens", family, "--count-url", url, "--format", "json",
        env=_env(tmp_path, **env),
    )  # fmt: skip


def _no_key_in(text: str) -> None:
    for key in KEYS.values():
        assert key not in text


@pytest.mark.parametrize("family", FAMILIES)
def test_a_counting_redirect_to_another_host_is_one_line_and_the_key_never_reaches_it(
    tmp_path: Path, family: str
) -> None:
    with answering(lambda r, c: c.sendall(reply(200, b'{"input_tokens": 7, "totalTokens": 7}'))) as elsewhere:
        location = {"Location": elsewhere.url + "/v1/messages/count_tokens"}
        with answering(lambda r, c: c.sendall(reply(302, b"", location))) as first:
            run = _measure(tmp_path, family, first.url + "/redir")
        assert elsewhere.received == []
    port = elsewhere.url.rsplit(":", 1)[1]
    assert_one_line_error(run, "HTTP 302", f"a redirect to 127.0.0.1:{port}", "not followed")
    _no_key_in(run.stdout + run.stderr)


@pytest.mark.parametrize(
    ("key", "what"),
    [
        ("sk-x\r\nX: 1", "a line break"),
        ("sk-\u20ac", "a character outside Latin-1"),
        ("sk-\x1bx", "a control character"),
    ],
)
@pytest.mark.parametrize("family", FAMILIES)
def test_a_key_no_header_can_carry_is_named_by_its_variable_and_never_shown_or_sent(
    tmp_path: Path, family: str, key: str, what: str
) -> None:
    with answering(lambda r, c: c.sendall(reply(200, b"{}"))) as server:
        run = _measure(tmp_path, family, server.url, **{KEY_OF[family]: key})
    assert server.received == []
    assert_one_line_error(run, KEY_OF[family], what, "nothing was sent")
    assert key.strip() not in run.stderr and "sk-x" not in run.stderr and "\\u20ac" not in run.stderr


def test_a_server_that_drips_its_answer_is_let_go_at_the_requests_deadline() -> None:
    """Every byte comes within a read's timeout, but the whole answer would take 40 s: the deadline is the
    request's, so the answer is never taken whole."""

    def drip(request: Received, connection: socket.socket) -> None:
        for byte in reply(200, b'{"input_tokens": 5}' + b" " * 200):
            connection.sendall(bytes([byte]))
            time.sleep(0.2)

    with answering(drip) as server, pytest.raises(TimedOut, match="did not answer within 1 s"):
        send_request(server.url, "POST", [Header("x-api-key", "k")], b"{}", timeout=1.0, max_bytes=1024)


DEEP = b"[" * 200_000 + b"]" * 200_000


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("status", [200, 400])
def test_an_answer_nested_200000_deep_is_one_line_not_a_recursion_error(
    tmp_path: Path, family: str, status: int
) -> None:
    with answering(lambda r, c: c.sendall(reply(status, DEEP))) as server:
        run = _measure(tmp_path, family, server.url)
    said = "without a token count" if status == 200 else "HTTP 400"
    assert_one_line_error(run, said)
    assert "RecursionError" not in run.stderr


def test_an_endless_counting_answer_is_cut_at_its_bound(tmp_path: Path) -> None:
    def endless(request: Received, connection: socket.socket) -> None:
        connection.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        block = b" " * 65536
        for _ in range(300 * 16):  # 300 MB, had it all been read
            connection.sendall(block)

    with answering(endless) as server:
        run = _measure(tmp_path, "anthropic", server.url)
    assert_one_line_error(run, "answered more than 1,048,576 bytes")


def test_a_counting_answer_that_says_it_is_300_mb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    def claims(request: Received, connection: socket.socket) -> None:
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 314572800\r\n\r\n{")

    with answering(claims) as server:
        run = _measure(tmp_path, "openai", server.url)
    assert_one_line_error(run, "answered more than 1,048,576 bytes")


def _post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    body = json.dumps({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}).encode()
    request = urllib.request.Request(url + "/v1/messages", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def test_the_recording_endpoint_follows_no_redirect_of_its_upstream_and_says_so(tmp_path: Path) -> None:
    with answering(lambda r, c: c.sendall(reply(200, b"{}"))) as elsewhere:
        location = {"Location": elsewhere.url + "/v1/messages"}
        with (
            answering(lambda r, c: c.sendall(reply(307, b"", location))) as upstream,
            ModelEndpoint(tmp_path / "requests.jsonl", upstream=upstream.url) as endpoint,
        ):
            status, answer = _post(endpoint.url, {"x-api-key": KEYS["ANTHROPIC_API_KEY"], "content-type": "a/json"})
        assert elsewhere.received == []
    port = elsewhere.url.rsplit(":", 1)[1]
    assert status == 502
    message = str(answer)
    assert "HTTP 307" in message and f"127.0.0.1:{port}" in message and "not followed" in message
    (record,) = read_model_requests(tmp_path / "requests.jsonl")
    assert record.status == 502 and record.error is not None and "HTTP 307" in record.error
    _no_key_in(message + (tmp_path / "requests.jsonl").read_text(encoding="utf-8"))


def test_the_recording_endpoint_forwards_no_header_a_header_cannot_be_and_never_shows_it(tmp_path: Path) -> None:
    with (
        answering(lambda r, c: c.sendall(reply(200, b"{}"))) as upstream,
        ModelEndpoint(tmp_path / "requests.jsonl", upstream=upstream.url) as endpoint,
    ):
        status, answer = _post(endpoint.url, {"x-api-key": "sk-PLANTED-\x01-control", "content-type": "a/json"})
    assert upstream.received == []
    assert status == 400
    assert "x-api-key header" in str(answer).lower() and "a control character" in str(answer)
    assert "PLANTED" not in str(answer) + (tmp_path / "requests.jsonl").read_text(encoding="utf-8")
