"""What one big answer costs a probe (issue 40's bar: memory within 3 x the answer's size, time linear in it, a
50 MB answer probed within 10 s when --max-answer-bytes allows it).

A small fixture server (this module, `serve`) answers `tools/list` with one read-only tool, `export_tickets`,
and every call of it with one text block of about BYTES bytes of ticket records (JSON lines, as an export
tool answers), written straight from the bytes it holds so that it stays small beside the probe. Over stdio
(`serve --bytes N`) or over Streamable HTTP (`serve --bytes N --http`, which prints its URL), answering in the
plain JSON a stateless server may answer with.

Each figure is one `toolsurface probe` (or `snapshot --probe`) of it under /usr/bin/time -v: its wall time and
the largest resident set of the command and what it waited for (the fixture server over stdio is one of
those, and smaller). Over HTTP the server runs in this process, so the figure is the probe's alone.

    python -m benchmarks.big_answers [--sizes 15,50] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["Answer", "BigAnswer", "make_answer", "measure_big_answers"]

SMOKE = ["--sizes", "1", "--shapes", "text"]

TOOL = {
    "name": "export_tickets",
    "description": "Export every ticket of the help desk as JSON lines.",
    "inputSchema": {"type": "object", "properties": {}},
    "annotations": {"readOnlyHint": True},
}
MB = 1_000_000


_RECORD = (
    '{"id":%d,"title":"Printer on floor %d jams on duplex page %d","status":"%s","tags":["hardware","floor-%d"],'
    '"body":"The tray was replaced on day %d; it jams again after %d pages."}'
)
_STATUSES = ("open", "pending", "closed")


def _records(size: int, template: str = _RECORD) -> Iterator[bytes]:
    """Ticket records of about `size` bytes in all as compact JSON (by `template`), each different."""
    total = n = 0
    while total < size:
        line = (template % (n, n % 9, n % 13, _STATUSES[n % 3], n % 9, n % 28, n % 7 + 2)).encode()
        total += len(line) + 1
        n += 1
        yield line


@dataclass(frozen=True)
class Answer:
    """What the fixture answers every call with, held as the bytes it writes: the text block's text already
    escaped as a JSON string (without its quotes), and the structuredContent it copies, if any."""

    escaped_text: bytes
    structured: bytes | None

    def pieces(self, ident: Any) -> Iterator[bytes]:
        yield b'{"jsonrpc":"2.0","id":' + json.dumps(ident).encode() + b',"result":{"content":[{"type":"text","text":"'
        yield self.escaped_text
        yield b'"}]' + (b',"structuredContent":' + self.structured if self.structured is not None else b"") + b"}}"

    @property
    def size(self) -> int:
        return sum(len(piece) for piece in self.pieces(1))


def make_answer(shape: str, size: int) -> Answer:
    """About `size` bytes of answer: `text`, JSON lines of ticket records in one text block; `structured`, the same
    records as structuredContent `{"tickets": [...]}` and its compact JSON as the text (the specification's
    advice), each half the size."""
    escaped = _RECORD.replace('"', '\\"') + "\\n"
    if shape == "text":
        return Answer(b"".join(_records(size, escaped)), None)
    structured = b'{"tickets":[' + b",".join(_records(size // 2)) + b"]}"
    return Answer(json.dumps(structured.decode())[1:-1].encode(), structured)


def _reply(message: dict[str, Any], answer: Answer) -> Iterator[bytes] | None:
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return None
    if method == "tools/call":
        return answer.pieces(ident)
    result: dict[str, Any] = {}
    if method == "initialize":
        result = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "big-answers", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    return iter([json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()])


def _serve_stdio(answer: Answer) -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        pieces = _reply(json.loads(line), answer)
        if pieces is not None:
            for piece in pieces:
                out.write(piece)
            out.write(b"\n")
            out.flush()


@contextmanager
def http_server(answer: Answer, sse: bool = False) -> Iterator[str]:
    """The fixture over Streamable HTTP on 127.0.0.1, each answer one application/json body (`sse`: one event of
    a text/event-stream, as the SDK's servers answer by default); its URL."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            pieces = _reply(json.loads(body), answer)
            if pieces is None:
                self._empty(202)
                return
            chunks = list(pieces)
            if sse:
                chunks = [b"event: message\r\ndata: ", *chunks, b"\r\n\r\n"]
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if sse else "application/json")
            self.send_header("content-length", str(sum(len(c) for c in chunks)))
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(chunk)

        def _empty(self, status: int) -> None:
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self._empty(405)

        def do_DELETE(self) -> None:
            self._empty(405)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class BigAnswer:
    """One command's wall time and peak resident set, for an answer of `answer_bytes`."""

    command: str
    answer_bytes: int
    seconds: float
    peak_rss_mb: float
    exit_code: int
    # Why the answer was not measured (the call answered an error, say); None when it was.
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "answer_mb": round(self.answer_bytes / MB, 1),
            "seconds": round(self.seconds, 2),
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "rss_over_answer": round(self.peak_rss_mb * MB / self.answer_bytes, 2),
            "exit_code": self.exit_code,
            "error": self.error,
        }


def _timed(argv: Sequence[str], timeout: float) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS in MB, exit code and stdout of one command under /usr/bin/time -v."""
    time_bin = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
    done = subprocess.run([time_bin, "-v", *argv], capture_output=True, text=True, timeout=timeout, check=False)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if wall is None or rss is None:
        raise RuntimeError(f"no figures from /usr/bin/time -v: {done.stderr[-400:]}")
    hours, minutes, seconds = wall.groups()
    code = int(m.group(1)) if (m := re.search(r"Exit status: (\d+)", done.stderr)) else done.returncode
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds), int(rss.group(1)) / 1024, code, done.stdout


def _measured(stdout: str, snapshot: Path) -> str | None:
    """What the call's answer came to: None when it was measured, else the error the probe recorded."""
    try:
        if stdout.strip():
            (call,) = json.loads(stdout)["calls"]
            return call["error"] if call["error_answer"] else None
        answers = json.loads(snapshot.read_text(encoding="utf-8"))["answers"]
        return "an error answer" if answers["tools"][0]["errors"] else None
    except (ValueError, KeyError, IndexError, OSError) as error:
        return f"no probe figures ({type(error).__name__})"


def _toolsurface() -> list[str]:
    found = shutil.which("toolsurface", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "toolsurface"]


SHAPES = ("text", "structured")
# The answer every figure is set against: what the command holds whatever the answer.
SMALL = 1000


def _commands(shape: str, size: int, folder: Path, limit: Sequence[str]) -> dict[str, list[str]]:
    server = [sys.executable, "-m", "benchmarks.big_answers", "serve", "--bytes", str(size), "--shape", shape]
    out = str(folder / "snapshot.json")
    return {
        "probe (stdio)": [*_toolsurface(), "probe", *limit, "--format", "json", "--", *server],
        "snapshot --probe (stdio)": [*_toolsurface(), "snapshot", "--probe", *limit, "-o", out, "--", *server],
        "probe (Streamable HTTP, JSON)": [*_toolsurface(), "probe", *limit, "--format", "json", "--url", "{json}"],
        "probe (Streamable HTTP, SSE)": [*_toolsurface(), "probe", *limit, "--format", "json", "--url", "{sse}"],
    }


def _run(shape: str, size: int, folder: Path, runs: int, timeout: float) -> list[BigAnswer]:
    answer = make_answer(shape, size)
    limit = [] if answer.size + 200 < 16 * 2**20 else ["--max-answer-bytes", "100000000"]
    figures = []
    with http_server(answer) as json_url, http_server(answer, sse=True) as sse_url:
        for name, argv in _commands(shape, size, folder, limit).items():
            argv = [arg.format(json=json_url, sse=sse_url) for arg in argv]
            for _ in range(runs):
                for stale in (folder / "snapshot.json", folder / "snapshot.meta.json"):
                    stale.unlink(missing_ok=True)
                seconds, rss, code, out = _timed(argv, timeout)
                error = _measured(out, folder / "snapshot.json")
                figures.append(BigAnswer(f"{name}, {shape}", answer.size, seconds, rss, code, error))
    return figures


def measure_big_answers(
    sizes_mb: Sequence[float] = (15, 50), shapes: Sequence[str] = SHAPES, runs: int = 1, timeout: float = 300
) -> tuple[list[BigAnswer], list[BigAnswer]]:
    """Each command for each shape and size, and for an answer of SMALL bytes (what the figures are set against);
    a size within the default limit (16 MiB) is probed with it, a larger one with --max-answer-bytes 100000000."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        small = [f for shape in shapes for f in _run(shape, SMALL, folder, 1, timeout)]
        big = [f for shape in shapes for size in sizes_mb for f in _run(shape, int(size * MB), folder, runs, timeout)]
    return small, big


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.big_answers", description=__doc__)
    sub = parser.add_subparsers(dest="what")
    serve = sub.add_parser("serve", help="the fixture server over stdio")
    serve.add_argument("--bytes", type=int, required=True)
    serve.add_argument("--shape", choices=SHAPES, default="text")
    parser.add_argument("--sizes", default="15,50", help="answer sizes in MB, comma-separated")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="answer shapes, comma-separated")
    parser.add_argument("--runs", type=int, default=1, help="runs per figure")
    args = parser.parse_args()
    if args.what == "serve":
        _serve_stdio(make_answer(args.shape, args.bytes))
        return
    small, big = measure_big_answers([float(s) for s in args.sizes.split(",")], args.shapes.split(","), args.runs)
    base = {f.command: f.peak_rss_mb for f in small}
    by: dict[tuple[str, int], list[BigAnswer]] = {}
    for figure in big:
        by.setdefault((figure.command, figure.answer_bytes), []).append(figure)
    rows = []
    for runs in by.values():
        row = min(runs, key=lambda f: f.seconds).to_json()
        row["seconds"] = round(statistics.median(f.seconds for f in runs), 2)
        row["runs"] = len(runs)
        row["small_answer_rss_mb"] = round(base[runs[0].command], 1)
        row["added_rss_over_answer"] = round(
            (row["peak_rss_mb"] - base[runs[0].command]) * MB / runs[0].answer_bytes, 2
        )
        rows.append(row)
    load = Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3] if os.path.exists("/proc/loadavg") else []
    print(json.dumps({"load": load, "cpus": os.cpu_count(), "figures": rows}, indent=2))


if __name__ == "__main__":
    main()
