"""A warm start for a study's stubs: one process imports the SDK and the surfaces once, then forks a stub per run.

Starting `toolsurface serve` costs about 0.45 s of CPU, nearly all of it importing the MCP SDK; a study of
many short runs (the script agent, a fast local model) spends most of its time there. The fork server
listens on a Unix socket; `harness.stub_launch` hands it a run's pipes and arguments and it forks a child
that serves on them at once. Children are forks of a process that never served, so each starts from the
fixture exactly as a fresh process would.

The server ends when the study closes its stdin (or the study itself dies), ending any child still there.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import ToolsurfaceError
from harness.session.stub_launch import LENGTH, NUMBER, receive_exactly

__all__ = ["ForkServer", "StartingForkServer", "StubForkUnavailable", "fork_available", "fork_server"]

READY_TIMEOUT_S = 60.0
STOPS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
REQUEST_TIMEOUT_S = 10.0
END_GRACE_S = 3.0


class StubForkUnavailable(ToolsurfaceError):
    """No fork server here: the platform has no fork, or the server did not come up."""


def fork_available() -> bool:
    """Forking a warm server is tried where it is known to behave: Linux."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and hasattr(socket, "send_fds")


@dataclass(frozen=True)
class ForkServer:
    """A running fork server, as the study sees it: the command that starts a stub through it."""

    socket_path: str

    def command(self, args: Sequence[str]) -> list[str]:
        return ["-m", "harness.session.stub_launch", self.socket_path, *args]


class StartingForkServer:
    """A fork server started in the background (it imports while the study plans); `ready()` waits for it."""

    def __init__(self, study: Path, warm: Sequence[str]) -> None:
        if not fork_available():
            raise StubForkUnavailable("forking stubs from a warm server is available on Linux only")
        self._where = tempfile.mkdtemp(prefix="toolsurface-stubs-")
        self._path = os.path.join(self._where, "fork.sock")
        self._answer: str | None = None
        # --study names the study in the server's command line, which its children share: a search for the
        # study's processes finds every stub it forked.
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "harness.session._stub_fork",
                "--socket",
                self._path,
                "--study",
                str(study.resolve()),
                *warm,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=str(Path(__file__).resolve().parents[2]),
            start_new_session=True,
        )

    def ready(self) -> ForkServer:
        if self._answer is None:
            self._answer = _first_line(self._process)
        if self._answer != "ready":
            raise StubForkUnavailable(f"the stub fork server did not start: {self._answer}")
        return ForkServer(self._path)

    def close(self) -> None:
        _end(self._process)
        shutil.rmtree(self._where, ignore_errors=True)


@contextlib.contextmanager
def fork_server(study: Path, warm: Sequence[str]) -> Iterator[ForkServer]:
    """A fork server for this study, warmed on its surfaces."""
    starting = StartingForkServer(study, warm)
    try:
        yield starting.ready()
    finally:
        starting.close()


def _first_line(process: subprocess.Popen[bytes]) -> str:
    """The server's first line: `ready`, or why not."""
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(READY_TIMEOUT_S):
            return f"no answer within {READY_TIMEOUT_S:.0f} s"
    line = process.stdout.readline().decode("utf-8", "replace").strip()
    return line or f"it exited ({process.wait()})"


def _end(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM ends the server whether it is still importing or serving, and its children (the stubs, in its
    process group) write their state; what is left after the grace period is killed."""
    from harness.process_tree import end_process_tree

    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    end_process_tree(process.pid, grace=END_GRACE_S + 2)
    process.wait()


# The fork server itself, in its own process.


def _warm(specs: Sequence[str]) -> None:
    """Import and build everything a stub start needs, so a child only reads its fixture and serves."""
    import anyio
    import mcp.server.stdio  # noqa: F401

    from harness.surface import resolve
    from stubs.calllog import CallLog
    from stubs.serve import start_stub, surface_for_serving
    from stubs.server import build_server

    for spec in specs:
        surface = surface_for_serving(resolve(spec))
        build_server(surface, start_stub(surface, None), CallLog(None), None)
    anyio.run(anyio.sleep, 0)


def _receive_exactly(conn: socket.socket, size: int) -> bytes:
    data = receive_exactly(conn, size)
    if data is None:
        raise ConnectionError("the launcher went away mid-request")
    return data


def _read_request(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    conn.settimeout(REQUEST_TIMEOUT_S)
    head, fds, _, _ = socket.recv_fds(conn, LENGTH.size, 3)
    try:
        if len(fds) != 3 or not head:
            raise ConnectionError("a request without its three descriptors")
        head += _receive_exactly(conn, LENGTH.size - len(head))
        request = json.loads(_receive_exactly(conn, LENGTH.unpack(head)[0]))
        if not isinstance(request, dict) or not isinstance(request.get("args"), list):
            raise ConnectionError("a request without arguments")
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def _serve(args: list[str]) -> int:
    """`serve SURFACE [--log F] [--state F] [--fixture F]`, the one command a study's launcher sends, run as
    `toolsurface serve` would run it: a user's error is one line on stderr and exit 2."""
    import argparse

    from harness.errors import ToolsurfaceError
    from stubs.serve import serve

    parser = argparse.ArgumentParser(prog="toolsurface serve", exit_on_error=False, add_help=False)
    parser.add_argument("command", choices=["serve"])
    parser.add_argument("surface")
    for flag in ("--log", "--state", "--fixture"):
        parser.add_argument(flag, type=Path)
    try:
        options = parser.parse_args(args)
        serve(options.surface, fixture=options.fixture, log_path=options.log, state_path=options.state)
    except (argparse.ArgumentError, SystemExit) as error:
        print(f"toolsurface: the fork server runs only serve SURFACE [--log F] [--state F]: {error}", file=sys.stderr)
        return 2
    except ToolsurfaceError as error:
        print(f"toolsurface: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


def _child(conn: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    """In the fork: take the launcher's pipes, directory and environment, run the CLI, report, exit."""
    code = 1
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(str(request.get("cwd") or "."))
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in dict(request.get("env") or {}).items()})
        sys.argv = ["toolsurface", *map(str, request["args"])]
        conn.settimeout(None)
        conn.sendall(NUMBER.pack(os.getpid()))

        def orphaned() -> None:
            # The launcher is the stub as its client knows it; when it is killed, so is the stub.
            with contextlib.suppress(OSError):
                conn.recv(1)
            os.kill(os.getpid(), signal.SIGKILL)

        # Started while the stop signals are blocked, so they reach only the main thread.
        threading.Thread(target=orphaned, daemon=True).start()
        code = _serve(sys.argv[1:])
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        with contextlib.suppress(OSError):
            conn.sendall(NUMBER.pack(code))
        os._exit(code)


class _Forks:
    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(64)
        self.selector = selectors.DefaultSelector()
        self.children: set[int] = set()

    def serve(self) -> None:
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
        while True:
            events = self.selector.select(0.5)
            self._reap()
            for key, _ in events:
                if key.fileobj is self.listener:
                    self._accept()
                elif not os.read(sys.stdin.fileno(), 4096):
                    return

    def _accept(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            try:
                request, fds = _read_request(conn)
            except (OSError, ValueError, ConnectionError) as error:
                print(f"toolsurface stub fork server: a launch failed: {error}", file=sys.stderr)
                return
            sys.stdout.flush()
            sys.stderr.flush()
            # The child is born holding the stop signals; the stub it becomes listens for them in its loop.
            signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            pid = os.fork()
            if pid == 0:
                self.selector.close()
                self.listener.close()
                _child(conn, request, fds)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
            for fd in fds:
                os.close(fd)
            self.children.add(pid)

    def _reap(self) -> None:
        for pid in list(self.children):
            with contextlib.suppress(ChildProcessError):
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done == 0:
                    continue
            self.children.discard(pid)

    def end(self) -> None:
        """Children still serving when the study ends get SIGTERM (they write their state), then SIGKILL."""
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + END_GRACE_S
        while self.children and time.monotonic() < deadline:
            time.sleep(0.05)
            self._reap()
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._reap()
        self.listener.close()


def main(argv: Sequence[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m harness.stub_fork")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--study", help="the study this serves (named so its processes can be found)")
    parser.add_argument("warm", nargs="*", help="surfaces to build once before forking")
    options = parser.parse_args(argv)
    # Until it is ready, SIGTERM ends the server silently (a study that stops while planning); once
    # serving, it ends it through `end`, which ends the children too.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        _warm(options.warm)
    except Exception as error:  # a surface that cannot be built: the study spawns its stubs and reports it there
        print(f"not ready: {type(error).__name__}: {error}", flush=True)
        return 0
    if threading.active_count() > 1:
        print("not ready: threads are running, forking is unsafe", flush=True)
        return 0
    forks = _Forks(options.socket)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    print("ready", flush=True)
    try:
        forks.serve()
    finally:
        forks.end()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
