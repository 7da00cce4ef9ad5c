"""A warm start for a study's stubs: one process imports the SDK and the surfaces once, then forks a stub per run.

Starting `toolsurface serve` costs about 0.45 s of CPU, nearly all of it importing the MCP SDK; a study of
many short runs (the script agent, a fast local model) spends most of its time there. The fork server
(`stubs.start._fork_server`, in a process of its own) imports while the study plans, builds the surfaces the study
planned once (each checked against its planned digest), and listens on a Unix socket; `stubs.start.launch` hands it
a run's pipes and arguments and it
forks a child that serves on them at once. Children are forks of a process that never served, so each starts
from the fixture exactly as a fresh process would.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness import PACKAGES_ROOT
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.stubs.digest import SurfaceChanged

__all__ = [
    "END_GRACE_S",
    "ORPHAN_GRACE_S",
    "REFUSED",
    "REQUEST_TIMEOUT_S",
    "STOPS",
    "ForkServer",
    "StartingForkServer",
    "StubForkUnavailable",
    "fork_available",
    "fork_server",
]

READY_TIMEOUT_S = 60.0
# The fork server's answer when a surface builds differently from the one planned, before the reason.
REFUSED = "refused: "
STOPS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
REQUEST_TIMEOUT_S = 10.0
END_GRACE_S = 3.0
# How long a stub whose launcher was killed has to write its state before it is killed too.
ORPHAN_GRACE_S = 10.0


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
        return ["-m", "toolsurface.stubs.start.launch", self.socket_path, *args]


class StartingForkServer:
    """A fork server started in the background (it imports while the study plans); `warm` gives it each surface to
    build once as it is planned, `planned` says they are all given, and `ready()` waits for it."""

    def __init__(self, study: Path | None) -> None:
        if not fork_available():
            raise StubForkUnavailable("forking stubs from a warm server is available on Linux only")
        self._where = tempfile.mkdtemp(prefix="toolsurface-stubs-")
        self._path = os.path.join(self._where, "fork.sock")
        self._answer: str | None = None
        # --study names the study in the server's command line, which its children share: a search for the
        # study's processes finds every stub it forked.
        named = ["--study", str(study.resolve())] if study is not None else []
        self._process = subprocess.Popen(
            [sys.executable, "-m", "toolsurface.harness.cli.fork_server", "--socket", self._path, *named],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=str(PACKAGES_ROOT),
            start_new_session=True,
        )

    def warm(self, spec: str, sha256: str | None = None) -> None:
        """A surface the stubs serve, by the spec their command lines name and its planned digest: the server
        builds it at once, and refuses one that builds differently."""
        self._send(json.dumps({"spec": spec, "sha256": sha256}).encode("utf-8") + b"\n")

    def planned(self) -> None:
        """Every surface is given: the server gets ready."""
        self._send(b"\n")

    def _send(self, line: bytes) -> None:
        assert self._process.stdin is not None
        # A server that has already given up reads nothing: `ready()` says why.
        with contextlib.suppress(OSError):
            self._process.stdin.write(line)
            self._process.stdin.flush()

    def ready(self) -> ForkServer:
        if self._answer is None:
            self._answer = _first_line(self._process)
        if self._answer.startswith(REFUSED):
            raise SurfaceChanged(self._answer.removeprefix(REFUSED))
        if self._answer != "ready":
            raise StubForkUnavailable(f"the stub fork server did not start: {self._answer}")
        return ForkServer(self._path)

    def close(self) -> None:
        _end(self._process)
        shutil.rmtree(self._where, ignore_errors=True)


@contextlib.contextmanager
def fork_server(study: Path, warm: Sequence[str | tuple[str, str]]) -> Iterator[ForkServer]:
    """A fork server for this study, warmed on its surfaces (each a spec, or a spec and its planned digest)."""
    starting = StartingForkServer(study)
    try:
        for surface in warm:
            starting.warm(*((surface,) if isinstance(surface, str) else surface))
        starting.planned()
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
    from toolsurface.harness.process_tree import end_process_tree

    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    end_process_tree(process.pid, grace=END_GRACE_S + 2)
    process.wait()
