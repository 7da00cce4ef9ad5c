"""A key goes nowhere but where it was meant: every request that carries one (the keyed counters, the recording
model endpoint) follows no redirect, sends no header a key cannot be, waits one deadline for the whole answer
and reads a bounded answer, against servers on 127.0.0.1 that answer as no provider would."""

from __future__ import annotations

import json
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.answering_http import Received, answering, reply
from tests.helpers.errors import assert_one_line_error
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


RATE_LIMITED = b'{"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}'


@pytest.mark.parametrize(
    ("retry_after", "asked"),
    [
        ("100000", "to wait 28 h (Retry-After: 100000)"),
        ("Fri, 01 Jan 2100 00:00:00 GMT", " days (Retry-After: Fri, 01"),
    ],
)
def test_a_retry_after_beyond_what_a_count_waits_stops_it_at_once_saying_what_the_server_asked(
    tmp_path: Path, retry_after: str, asked: str
) -> None:
    with answering(lambda r, c: c.sendall(reply(429, RATE_LIMITED, {"Retry-After": retry_after}))) as server:
        run = run_cli(
            "measure", "v2", "--tokens", "o200k,anthropic", "--count-url", f"anthropic={server.url}",
            env=_env(tmp_path),
        )  # fmt: skip
    assert_one_line_error(
        run,
        "anthropic:claude-opus-5-5: Anthropic rate-limited the request (HTTP 429 rate_limit_error: slow down)",
        asked,
        "longer than a count waits (60 s); nothing more was sent",
    )
    # Only the first requests in flight together were sent, none of them twice.
    bodies = [r.body for r in server.received]
    assert 1 <= len(bodies) <= 4 and len(set(bodies)) == len(bodies)


def _counted(request: Received) -> bytes:
    return json.dumps({"input_tokens": len(request.body) // 4}).encode()


def test_a_wait_for_a_rate_limit_is_said_while_it_lasts(tmp_path: Path) -> None:
    """The retried request is not answered until the test has read the wait's line: a line said only at the end
    would never come."""
    import subprocess
    import sys
    import threading

    from tests.helpers.waiting import Deadline

    seen = threading.Event()
    first = threading.Lock()
    limited: list[bytes] = []

    def answer(request: Received, connection: socket.socket) -> None:
        with first:
            if not limited:
                limited.append(request.body)
                connection.sendall(reply(429, RATE_LIMITED, {"Retry-After": "1"}))
                return
        seen.wait(60)
        connection.sendall(reply(200, _counted(request)))

    with answering(answer) as server:
        argv = ["measure", "v2", "--no-growth", "--tokens", "anthropic", "--count-url", server.url, "--format", "json"]
        env = {**os.environ, **_env(tmp_path)}
        with subprocess.Popen(
            [sys.executable, "-m", "toolsurface", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        ) as process:
            assert process.stderr is not None
            deadline = Deadline(60, "the wait's line on stderr")
            os.set_blocking(process.stderr.fileno(), False)
            said = b""
            while b"\n" not in said:
                deadline.remaining()
                said += process.stderr.read() or b""
                time.sleep(0.02)
            seen.set()
            out, rest = process.communicate(timeout=60)
    assert said.decode().splitlines()[0] == (
        "toolsurface: anthropic:claude-opus-5-5: Anthropic rate-limited the request (HTTP 429 rate_limit_error: slow"
        " down); waiting 1 s as it asked (Retry-After), then try 2 of 5"
    )
    assert process.returncode == 0, rest
    assert (said + rest).decode().count("\n") == 1  # said once, not again at the end
    assert json.loads(out)["surfaces"][0]["counts"][0]["tokens"] > 0
    assert sum(r.body == limited[0] for r in server.received) == 2


def test_the_whole_count_has_one_deadline_however_many_requests_it_makes(tmp_path: Path) -> None:
    """Each answer takes 1 s, well within a request's own 60 s; 12 of them, 4 at a time, cannot all come within
    the count's 2 s."""
    from toolsurface.harness.counters import CountCache, CountingError, parse_counters
    from toolsurface.harness.counters._remote import RemoteCounter

    def slow(request: Received, connection: socket.socket) -> None:
        time.sleep(1)
        connection.sendall(reply(200, _counted(request)))

    (spec,) = parse_counters("anthropic")
    with answering(slow) as server:
        counter = RemoteCounter(spec, "sk-k", server.url, CountCache(tmp_path / "cache"), deadline_s=2)
        lists = [[{"name": f"t{n}", "inputSchema": {"type": "object"}}] for n in range(12)]
        with pytest.raises(CountingError) as raised:
            counter.count_requests(lists)
    assert str(raised.value) == (
        f"anthropic:claude-opus-5-5: {server.url}/v1/messages/count_tokens did not count every request within 2 s"
        " (the deadline of the whole count, its waits included); run again later (the answers so far are cached),"
        " or check the counting URL"
    )
    assert len(server.received) < 12


def test_a_wait_that_would_pass_the_counts_deadline_is_not_begun(tmp_path: Path) -> None:
    from toolsurface.harness.counters import CountCache, CountingError, parse_counters
    from toolsurface.harness.counters._remote import RemoteCounter

    (spec,) = parse_counters("openai")
    with answering(lambda r, c: c.sendall(reply(429, b"{}", {"Retry-After": "30"}))) as server:
        counter = RemoteCounter(spec, "sk-k", server.url, CountCache(tmp_path / "cache"), deadline_s=10)
        with pytest.raises(CountingError, match=r"waiting 30 s would pass the deadline of the whole count \(10 s\)"):
            counter.count_requests([[]])
    assert len(server.received) == 1
