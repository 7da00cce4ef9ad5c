"""`--url` reads servers of MCP 2024-11-05's HTTP+SSE transport as well as Streamable HTTP: by the specification's
fallback (POST initialize; on 400, 404 or 405, GET the URL and follow its `endpoint` event) or with `--transport
sse`. The servers are real: npm's server-everything in its SSE mode, a server on the Python SDK's
SseServerTransport (tests/fixtures/servers/sse_only.py), toolsurface's own Streamable HTTP stub; and hostile
ones on a bare socket (tests/helpers/answering_http.py) that never send the endpoint event or name another origin."""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers.answering_http import Received, answering, reply
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import free_port, npm_servers, serving_http, v2_over_http
from tests.helpers.paths import FIXTURES

__all__ = ["npm_servers", "v2_over_http"]  # the fixtures, used here

PY = sys.executable
SSE_ONLY = FIXTURES / "servers" / "sse_only.py"
SECRET = "Bearer sse-test-0123456789"
Answer = Callable[[Received, socket.socket], None]


@pytest.fixture(scope="module")
def sse_only() -> Iterator[str]:
    port = free_port()
    with serving_http([PY, str(SSE_ONLY), str(port)], port, "/sse") as url:
        yield url


@pytest.fixture(scope="module")
def everything_sse(npm_servers: Path) -> Iterator[str]:
    port = free_port()
    index = npm_servers / "server-everything" / "dist" / "index.js"
    with serving_http(["node", str(index), "sse"], port, "/sse", env={"PORT": str(port)}) as url:
        yield url


def sidecar(path: Path) -> dict[str, object]:
    meta: dict[str, object] = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    return meta


# -- servers that speak only HTTP+SSE -----------------------------------------------------------------------


def test_measure_lists_a_server_that_speaks_only_http_sse_at_its_sse_url(sse_only: str) -> None:
    run = run_cli("measure", "--url", sse_only, "--format", "json", timeout=60)
    assert run.returncode == 0, run.stderr
    [surface] = run.json()["surfaces"]
    assert surface["name"] == "acme-help-desk-sse"  # its serverInfo.name, "acme/help desk (sse)", made safe
    assert [tool["name"] for tool in surface["per_tool"]] == ["ticket_find", "ticket_answer"]
    assert surface["protocol_version"] == "2025-11-25"


def test_a_list_over_http_sse_is_the_list_the_same_server_sends_over_stdio(sse_only: str, tmp_path: Path) -> None:
    over_sse, over_stdio = tmp_path / "sse.json", tmp_path / "stdio.json"
    assert run_cli("snapshot", "--url", sse_only, "-o", str(over_sse), timeout=60).returncode == 0
    assert run_cli("snapshot", "-o", str(over_stdio), "--", PY, str(SSE_ONLY), "--stdio", timeout=60).returncode == 0
    # Byte for byte: the tools, key order and all, and the instructions beside them.
    assert over_sse.read_bytes() == over_stdio.read_bytes()
    assert "Tickets of the help desk" in over_sse.read_text(encoding="utf-8")


def test_a_snapshot_over_http_sse_records_the_transport_in_its_sidecar(sse_only: str, tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    run = run_cli("snapshot", "--url", sse_only, "--header", f"Authorization: {SECRET}", "-o", str(path), timeout=60)
    assert run.returncode == 0, run.stderr
    meta = sidecar(path)
    assert meta["source"] == {"kind": "url", "url": sse_only, "headers": ["Authorization"], "transport": "sse"}
    assert SECRET not in path.with_suffix(".meta.json").read_text(encoding="utf-8")


def test_server_everything_in_its_sse_mode_lists_what_it_lists_over_stdio(
    everything_sse: str, npm_servers: Path, tmp_path: Path
) -> None:
    index = npm_servers / "server-everything" / "dist" / "index.js"
    over_sse, direct, over_stdio = tmp_path / "sse.json", tmp_path / "direct.json", tmp_path / "stdio.json"
    assert run_cli("snapshot", "--url", everything_sse, "-o", str(over_sse), timeout=60).returncode == 0
    run = run_cli("snapshot", "--url", everything_sse, "--transport", "sse", "-o", str(direct), timeout=60)
    assert run.returncode == 0, run.stderr
    assert run_cli("snapshot", "-o", str(over_stdio), "--", "node", str(index), "stdio", timeout=60).returncode == 0
    assert over_sse.read_bytes() == direct.read_bytes() == over_stdio.read_bytes()
    assert len(json.loads(over_sse.read_text(encoding="utf-8"))["tools"]) > 10
    source = sidecar(over_sse)["source"]
    assert isinstance(source, dict) and source["transport"] == "sse"


def test_a_probe_over_http_sse_calls_the_read_only_tool(sse_only: str) -> None:
    run = run_cli("probe", "--url", sse_only, "--format", "json", timeout=60)
    assert run.returncode == 0, run.stderr
    calls = run.json()["calls"]
    assert [call["tool"] for call in calls] == ["ticket_find"]
    # The fixture's answer, as long as its text.
    query = calls[0]["arguments"]["query"]
    assert calls[0]["chars"] == len(f"ticket_find: 1 ticket for {query!r}: #7 printer on fire")
    assert calls[0]["is_error"] is False


def test_an_answer_over_http_sse_larger_than_the_answer_limit_is_one_line(sse_only: str) -> None:
    run = run_cli("probe", "--url", sse_only, "--max-answer-bytes", "40", timeout=60)
    line = assert_one_line_error(run, sse_only, "its answer to tools/call ticket_find is larger than the answer limit")
    assert "HTTP 405" not in line  # Streamable HTTP's refusal is no news once HTTP+SSE has listed the server


def test_a_configured_url_target_takes_its_transport(sse_only: str, tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        f'url = "{sse_only}"\ntransport = "sse"\nmax-chars = 5000\n', encoding="utf-8"
    )
    shown = run_cli("config", "--format", "json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.json()["targets"][0]["transport"] == "sse"
    run = run_cli("budget", cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "within budget" in run.stdout


# -- what each transport refuses, in one line ---------------------------------------------------------------


def test_streamable_http_alone_on_an_sse_server_says_how_to_list_it(sse_only: str) -> None:
    run = run_cli("measure", "--url", sse_only, "--transport", "streamable-http", "--timeout", "20", timeout=60)
    assert_one_line_error(run, sse_only, "answered initialize with HTTP 405", "--transport sse")


def test_sse_alone_on_a_streamable_http_server_says_how_to_list_it(v2_over_http: str) -> None:
    run = run_cli("measure", "--url", v2_over_http, "--transport", "sse", "--timeout", "20", timeout=60)
    assert_one_line_error(run, "answered the GET of its SSE stream with HTTP", "--transport streamable-http")


def test_a_path_that_serves_neither_transport_says_both_answers(sse_only: str) -> None:
    wrong = sse_only.replace("/sse", "/mcp")
    run = run_cli("measure", "--url", wrong, "--timeout", "20", timeout=60)
    assert_one_line_error(
        run,
        "answered initialize with HTTP 404",
        "over HTTP+SSE, answered the GET of its SSE stream with HTTP 404",
        "HTTP+SSE at /sse",
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["measure", "--transport", "sse", "--", PY, "-c", "pass"], "--transport applies to --url only"),
        (["measure", "v2", "--transport", "sse"], "--transport goes with a live server"),
        (["measure", "--url", "http://127.0.0.1:1/sse", "--transport", "carrier-pigeon"], "carrier-pigeon"),
    ],
)
def test_a_transport_that_does_not_fit_is_one_line(args: list[str], needle: str) -> None:
    assert_one_line_error(run_cli(*args), needle)


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('url = "http://127.0.0.1:1/sse"\ntransport = "smoke"\nmax-chars = 10\n', "unknown transport 'smoke'"),
        ('command = ["x"]\ntransport = "sse"\nmax-chars = 10\n', "transport: applies to a url target only"),
    ],
)
def test_a_configured_transport_that_does_not_fit_is_one_line(toml: str, needle: str, tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(toml, encoding="utf-8")
    assert_one_line_error(run_cli("budget", cwd=tmp_path), "toolsurface.toml", needle)


# -- hostile HTTP+SSE servers -------------------------------------------------------------------------------


def sse_head() -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n"


def holding(sent: bytes, closed: threading.Event) -> Answer:
    """An answer to every GET: an SSE stream that sends `sent` and is held open until the client goes (or the
    test ends); a POST is 404, as a server of HTTP+SSE alone answers one at its SSE URL."""

    def answer(received: Received, connection: socket.socket) -> None:
        if received.method != "GET":
            connection.sendall(reply(404, b"Cannot POST /sse"))
            return
        connection.sendall(sse_head() + sent)
        connection.settimeout(0.1)
        while not closed.is_set():
            try:
                if not connection.recv(1024):
                    return
            except TimeoutError:
                continue

    return answer


def test_an_sse_url_that_never_sends_its_endpoint_event_is_bounded_by_the_timeout() -> None:
    closed = threading.Event()
    with answering(holding(b": a comment, then nothing\n\n", closed)) as server:
        url = f"{server.url}/sse"
        try:
            run = run_cli("measure", "--url", url, "--timeout", "2", timeout=60)
        finally:
            closed.set()
    assert_one_line_error(
        run, url, "answered initialize with HTTP 404", "sent no endpoint event on its SSE stream within 2 s"
    )


def test_an_endpoint_on_another_origin_is_refused_and_the_header_goes_nowhere_else() -> None:
    closed = threading.Event()
    with answering(lambda received, connection: connection.sendall(reply(202, b"Accepted"))) as elsewhere:
        event = f"event: endpoint\ndata: {elsewhere.url}/messages?sessionId=1\n\n".encode()
        with answering(holding(event, closed)) as server:
            url = f"{server.url}/sse"
            try:
                run = run_cli(
                    "measure", "--url", url, "--transport", "sse", "--header", f"Authorization: {SECRET}", timeout=60
                )
            finally:
                closed.set()
        line = assert_one_line_error(run, url, f"its endpoint event names {elsewhere.url}/messages", "refused")
        assert elsewhere.received == []
    assert SECRET not in line and "sessionId" not in line
    assert [(r.method, r.headers.get("authorization")) for r in server.received] == [("GET", SECRET)]


def test_an_endpoint_that_refuses_the_post_is_one_line_at_once() -> None:
    closed = threading.Event()

    def answer(received: Received, connection: socket.socket) -> None:
        if received.path.startswith("/messages"):
            connection.sendall(reply(400, b"no such session"))
        else:
            holding(b"event: endpoint\ndata: /messages?sessionId=1\n\n", closed)(received, connection)

    with answering(answer) as server:
        url = f"{server.url}/sse"
        try:
            # The timeout is long: the refusal is said as soon as it comes, not when the timeout ends.
            run = run_cli("measure", "--url", url, "--timeout", "600", timeout=60)
        finally:
            closed.set()
    assert_one_line_error(run, f"answered initialize (POSTed to its endpoint {server.url}/messages) with HTTP 400")
