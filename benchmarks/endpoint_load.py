"""The model endpoint under a burst: N clients connect at the same moment and each sends one Messages request;
how many are answered within the deadline, and the p50 / p99 time to the whole answer.

    python -m benchmarks.endpoint_load [--clients 200] [--deadline 60] [--backlog N] [--cold] [--sigterm]

By default the endpoint is served by this process, warm (one request answered before the burst). `--cold`
starts `toolsurface model-endpoint scripted` as a process of its own and sends the burst the moment it has
printed its URL: its first requests. `--sigterm` sends that process SIGTERM in the middle of the burst and
times how long it takes to exit (the bar: 2 s). `--backlog` overrides the endpoint's listen backlog
(socketserver's default was 5), to compare."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.endpoint import ModelEndpoint
from toolsurface.harness.endpoint._server import BACKLOG, _Server
from toolsurface.harness.scenario import Step

SMOKE = ["--clients", "10", "--deadline", "30"]

# --sigterm: how long into the burst the signal comes.
SIGTERM_AFTER_S = 0.05
BODY = json.dumps({"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hello"}]}).encode()


@dataclass(frozen=True)
class Burst:
    clients: int
    answered: int
    p50_s: float | None
    p99_s: float | None
    backlog: int
    mode: str = "warm"
    stopped_s: float | None = None  # --sigterm: from the signal to the endpoint's exit


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


def _fire(port: int, clients: int, deadline: float, during: object = None) -> list[float]:
    """The burst: `clients` requests at once; `during` (a callable) runs once they are all sent off."""
    times: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    threads = [
        threading.Thread(target=_one, args=(port, start, deadline, times, lock), daemon=True) for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    start.wait()
    if callable(during):
        during()
    finish = time.monotonic() + deadline
    for thread in threads:
        thread.join(max(0.0, finish - time.monotonic()))
    with lock:
        return sorted(t for t in times if t <= deadline)


def _figures(done: list[float], clients: int, backlog: int, mode: str, stopped: float | None = None) -> Burst:
    p50 = statistics.median(done) if done else None
    p99 = done[min(len(done) - 1, round(0.99 * (len(done) - 1)))] if done else None
    return Burst(clients, len(done), p50, p99, backlog, mode, stopped)


def burst(clients: int, deadline: float, backlog: int = BACKLOG) -> Burst:
    """A warm endpoint of this process's own."""
    _Server.request_queue_size = backlog
    with tempfile.TemporaryDirectory() as folder:
        endpoint = ModelEndpoint(Path(folder) / "requests.jsonl", steps=[Step(0, {"say": "done"})])
        with endpoint:
            port = int(endpoint.url.rsplit(":", 1)[1])
            # One request first, so the burst does not wait for the tokenizer to load.
            _one(port, threading.Barrier(1), deadline, [], threading.Lock())
            done = _fire(port, clients, deadline)
    _Server.request_queue_size = BACKLOG
    return _figures(done, clients, backlog, "warm")


def cold_burst(clients: int, deadline: float, sigterm: bool = False) -> Burst:
    """A fresh `model-endpoint` process: the burst the moment its URL is printed; with `sigterm`, the signal in
    the middle of it, and the time until the process has exited."""
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [sys.executable, "-m", "toolsurface", "model-endpoint", "scripted", "--surface", "v2", "--log",
             str(Path(folder) / "requests.jsonl")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert process.stdout is not None
            port = int(process.stdout.readline().strip().rsplit(":", 1)[1])
            stopped: list[float] = []

            def stop() -> None:
                time.sleep(SIGTERM_AFTER_S)  # the requests are in: some read, some answered, most waiting
                signalled = time.monotonic()
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=60)
                stopped.append(time.monotonic() - signalled)

            done = _fire(port, clients, deadline, stop if sigterm else None)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
    mode = "cold, SIGTERM in the burst" if sigterm else "cold"
    return _figures(done, clients, BACKLOG, mode, stopped[0] if stopped else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--deadline", type=float, default=60.0)
    parser.add_argument("--backlog", type=int, default=BACKLOG)
    parser.add_argument("--cold", action="store_true", help="a fresh endpoint process, its first requests")
    parser.add_argument("--sigterm", action="store_true", help="with --cold: SIGTERM in the burst, timed")
    args = parser.parse_args()
    if args.cold or args.sigterm:
        result = cold_burst(args.clients, args.deadline, args.sigterm)
    else:
        result = burst(args.clients, args.deadline, args.backlog)
    p50 = f"{result.p50_s:.3f} s" if result.p50_s is not None else "-"
    p99 = f"{result.p99_s:.3f} s" if result.p99_s is not None else "-"
    line = (
        f"{result.mode}, backlog {result.backlog}: {result.answered} of {result.clients} answered within"
        f" {args.deadline:g} s; p50 {p50}, p99 {p99}"
    )
    if result.stopped_s is not None:
        line += f"; SIGTERM to exit {result.stopped_s:.3f} s"
    print(line)


if __name__ == "__main__":
    main()
