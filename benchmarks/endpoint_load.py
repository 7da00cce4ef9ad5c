"""The model endpoint under a burst: N clients connect at the same moment and each sends one Messages request;
how many are answered within the deadline, and the p50 / p99 time to the whole answer.

    python -m benchmarks.endpoint_load [--clients 200] [--deadline 60] [--backlog N]

`--backlog` overrides the endpoint's listen backlog (socketserver's default was 5), to compare."""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.endpoint import ModelEndpoint
from toolsurface.harness.endpoint._server import BACKLOG, _Server
from toolsurface.harness.scenario import Step

BODY = json.dumps({"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hello"}]}).encode()


@dataclass(frozen=True)
class Burst:
    clients: int
    answered: int
    p50_s: float | None
    p99_s: float | None
    backlog: int


def _one(port: int, start: threading.Barrier, deadline: float, times: list[float], lock: threading.Lock) -> None:
    start.wait()
    began = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=deadline) as conn:
            conn.sendall(
                b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(BODY)}\r\nConnection: close\r\n\r\n".encode()
                + BODY
            )
            received = b""
            while chunk := conn.recv(65536):
                received += chunk
    except OSError:
        return
    if received.startswith(b"HTTP/1.1 200"):
        with lock:
            times.append(time.monotonic() - began)


def burst(clients: int, deadline: float, backlog: int = BACKLOG) -> Burst:
    _Server.request_queue_size = backlog
    times: list[float] = []
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as folder:
        endpoint = ModelEndpoint(Path(folder) / "requests.jsonl", steps=[Step(0, {"say": "done"})])
        with endpoint:
            port = int(endpoint.url.rsplit(":", 1)[1])
            # One request first, so the burst does not wait for the tokenizer to load.
            _one(port, threading.Barrier(1), deadline, [], threading.Lock())
            start = threading.Barrier(clients)
            threads = [
                threading.Thread(target=_one, args=(port, start, deadline, times, lock), daemon=True)
                for _ in range(clients)
            ]
            for thread in threads:
                thread.start()
            finish = time.monotonic() + deadline
            for thread in threads:
                thread.join(max(0.0, finish - time.monotonic()))
    _Server.request_queue_size = BACKLOG
    with lock:
        done = sorted(t for t in times if t <= deadline)
    p50 = statistics.median(done) if done else None
    p99 = done[min(len(done) - 1, round(0.99 * (len(done) - 1)))] if done else None
    return Burst(clients, len(done), p50, p99, backlog)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--deadline", type=float, default=60.0)
    parser.add_argument("--backlog", type=int, default=BACKLOG)
    args = parser.parse_args()
    result = burst(args.clients, args.deadline, args.backlog)
    p50 = f"{result.p50_s:.3f} s" if result.p50_s is not None else "-"
    p99 = f"{result.p99_s:.3f} s" if result.p99_s is not None else "-"
    print(
        f"backlog {result.backlog}: {result.answered} of {result.clients} answered within {args.deadline:g} s; "
        f"p50 {p50}, p99 {p99}"
    )


if __name__ == "__main__":
    main()
