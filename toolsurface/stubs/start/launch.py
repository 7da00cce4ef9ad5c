"""`python -m toolsurface.stubs.start.launch SOCKET ARGS...`: start `toolsurface ARGS...` as a fork of a warm stub server.

This is the command an agent is given to start its stub. It imports almost nothing: it hands its own
stdin, stdout and stderr, arguments, directory and environment to the fork server listening on SOCKET
(stubs.start._fork_server), which forks a child that already has the SDK imported and serves on those very pipes.
The launcher stays as the child's stand-in: signals it gets are passed on, it exits with the child's
status, and when it is killed the child, losing the connection, ends as a stopped stub does (its state
written), or is killed a little later. When no fork server answers,
it becomes `python -m toolsurface ARGS...` itself, so a stub always starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import struct
import sys
from types import FrameType

# Frames on the connection: the request is an 8-byte length (sent with the three descriptors) and a JSON
# body; the answers are the child's pid, then its exit status, each a signed 32-bit integer.
LENGTH = struct.Struct("!Q")
NUMBER = struct.Struct("!i")
LOST = 1  # exit status when the child ends without reporting one (killed)


def receive_exactly(conn: socket.socket, size: int) -> bytes | None:
    """`size` bytes, or None when the other side closes first."""
    data = b""
    while len(data) < size:
        chunk = conn.recv(min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return data


FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _receive_number(conn: socket.socket) -> int | None:
    data = receive_exactly(conn, NUMBER.size)
    return None if data is None else int(NUMBER.unpack(data)[0])


def _connect(path: str) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def launch(path: str, args: list[str]) -> int:
    conn = _connect(path)
    if conn is None:
        os.execv(sys.executable, [sys.executable, "-m", "toolsurface", *args])
    request = json.dumps({"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode("utf-8")
    # The child may answer its client before its pid reaches us: a signal sent then waits, blocked, and is
    # passed on once there is a pid to pass it to (else it would end the launcher alone, and not with 0).
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    try:
        socket.send_fds(conn, [LENGTH.pack(len(request))], [0, 1, 2])
        conn.sendall(request)
    except OSError:
        conn.close()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
        os.execv(sys.executable, [sys.executable, "-m", "toolsurface", *args])
    pid = _receive_number(conn)
    if pid is None:
        print("toolsurface: the stub fork server closed the connection before starting the stub", file=sys.stderr)
        return LOST
    # The child holds the pipes now; keeping our copies open would hold the client's stdout open after the
    # child has gone.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)

    def forward(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)

    for signum in FORWARDED:
        signal.signal(signum, forward)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
    status = _receive_number(conn)
    # The child is gone and we exit with its status. A signal from now on would otherwise find the default action
    # back in place while the interpreter shuts down, and end us with that signal instead.
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    return LOST if status is None else status


def main() -> None:
    if len(sys.argv) < 3:
        print("usage: python -m toolsurface.stubs.start.launch SOCKET ARGS...", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(launch(sys.argv[1], sys.argv[2:]))


if __name__ == "__main__":
    main()
