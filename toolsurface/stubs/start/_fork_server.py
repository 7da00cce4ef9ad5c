"""The stub fork server's loop, in its own process: it imports what a stub start needs while the study plans, builds
each surface once as the study has planned it (its spec and digest, a JSON line on stdin; an empty line ends
them; one that builds differently is refused), then for each launcher (`stubs.start.launch`) forks a child that
runs the launcher's command line on the launcher's pipes, directory and environment, serving the surface as built.

The server ends when the study closes its stdin (or the study itself dies), ending any child still there. What a
child runs (the CLI) is given by the process's entry point (`harness.cli.fork_server`), so this package stands on
the stubs alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from toolsurface.stubs.digest import SurfaceChanged
from toolsurface.stubs.start._fork import END_GRACE_S, ORPHAN_GRACE_S, REFUSED, REQUEST_TIMEOUT_S, STOPS
from toolsurface.stubs.start.launch import LENGTH, NUMBER, receive_exactly

__all__ = ["serve_forks"]

# A child's command line run to its exit status.
RunCommand = Callable[[list[str]], int]


def _planned() -> Iterator[tuple[str, str | None]]:
    """The surfaces the study plans, each its spec and planned digest (a JSON object on a line of stdin) as soon as
    it is planned, until an empty line; EOFError when the study ends first (it closes stdin)."""
    data = b""
    while True:
        line, newline, rest = data.partition(b"\n")
        if newline:
            if not line:
                return
            planned = json.loads(line)
            spec, sha256 = (planned.get("spec"), planned.get("sha256")) if isinstance(planned, dict) else (None, None)
            if not isinstance(spec, str) or not isinstance(sha256, str | None):
                raise ValueError(f"a surface to serve is not a planned one: {planned!r}")
            yield spec, sha256
            data = rest
            continue
        chunk = os.read(sys.stdin.fileno(), 65536)
        if not chunk:
            raise EOFError
        data += chunk


def _warm(spec: str, sha256: str | None) -> None:
    """Build the surface once, kept for the children (refused if it does not list to its planned digest), and
    serve it once, so nothing is left to import."""
    from toolsurface.stubs.calllog import CallLog
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import build_ahead, start_stub

    surface = build_ahead(spec, sha256)
    build_server(surface, start_stub(surface, None), CallLog(None), None)


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


def _child(conn: socket.socket, request: dict[str, Any], fds: list[int], run: RunCommand) -> None:
    """In the fork: take the launcher's pipes, directory and environment, run the command, report, exit."""
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
            # The launcher is the stub as its client knows it; when it is killed (codex, ending its servers, kills
            # the one it started), the stub ends as a stopped one does, with its state written, or is killed.
            with contextlib.suppress(OSError):
                conn.recv(1)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(ORPHAN_GRACE_S)
            os.kill(os.getpid(), signal.SIGKILL)

        # Started while the stop signals are blocked, so they reach only the main thread.
        threading.Thread(target=orphaned, daemon=True).start()
        code = run(sys.argv[1:])
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
    def __init__(self, path: str, run: RunCommand) -> None:
        self.run = run
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
                _child(conn, request, fds, self.run)
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


def serve_forks(socket_path: str, prepare: Callable[[], None], run: RunCommand) -> int:
    """Import (`prepare`: what a child's command needs) and build the planned surfaces, say `ready` (or why not) on
    stdout, then fork a child per launcher, each running its command line with `run`, until stdin closes."""
    # Until it is ready, SIGTERM ends the server silently (a study that stops while planning); once
    # serving, it ends it through `end`, which ends the children too.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        prepare()
        for spec, sha256 in _planned():
            _warm(spec, sha256)
        import anyio

        anyio.run(anyio.sleep, 0)
    except EOFError:  # the study ended while it planned
        return 0
    except SurfaceChanged as changed:  # the study stops: a run would serve another surface than it planned
        print(f"{REFUSED}{changed}", flush=True)
        return 0
    except Exception as error:  # a surface that cannot be built: the study spawns its stubs and reports it there
        print(f"not ready: {type(error).__name__}: {error}", flush=True)
        return 0
    if threading.active_count() > 1:
        print("not ready: threads are running, forking is unsafe", flush=True)
        return 0
    forks = _Forks(socket_path, run)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    print("ready", flush=True)
    try:
        forks.serve()
    finally:
        # The study closes stdin and sends SIGTERM at once: one that comes while the children end, or while the
        # interpreter shuts down, must not raise SystemExit there.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        forks.end()
    return 0
