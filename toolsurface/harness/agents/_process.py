"""Running an agent CLI: its own process group in a fresh directory, a timeout that ends the whole
tree (the stub it started included), and stdout streamed to the transcript as it comes. What a CLI writes is
bounded: a transcript past MAX_TRANSCRIPT_BYTES ends the process (no real one comes near: a six-task session
writes about 50 KB), stderr is kept up to MAX_STDERR_BYTES, and a short answer (`--version`) is read up to
MAX_ANSWER_BYTES within its timeout, the whole tree ended when it does not end by itself."""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import anyio

from toolsurface.harness.files import WriteFailed

__all__ = [
    "MAX_STDERR_BYTES",
    "MAX_TRANSCRIPT_BYTES",
    "Answered",
    "ProcessOutcome",
    "answer_of",
    "end_process_group",
    "run_process",
]

GRACE_S = 3.0
MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024
MAX_STDERR_BYTES = 4 * 1024 * 1024
MAX_ANSWER_BYTES = 64 * 1024
# After the CLI has exited: how long a child of its that still holds stderr may keep it.
_STDERR_AFTER_EXIT_S = 1.0


@dataclass(frozen=True)
class ProcessOutcome:
    """How the CLI ended; `too_much` when its transcript passed MAX_TRANSCRIPT_BYTES and it was ended there."""

    returncode: int | None
    timed_out: bool
    duration_s: float
    stdout: Path
    stderr: Path
    too_much: bool = False


@dataclass(frozen=True)
class Answered:
    """A short answer: what the process wrote (undecodable bytes replaced), whether it did not end within its
    timeout, and whether it wrote more than MAX_ANSWER_BYTES (and was ended there)."""

    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    too_much: bool = False


def answer_of(argv: Sequence[str], *, env: Mapping[str, str], timeout: float) -> Answered:
    """Run `argv` for its short answer: stdin empty, its own process group, both streams read up to
    MAX_ANSWER_BYTES within `timeout` seconds; a process still running then, writing more, or leaving a child
    that holds its streams open, is ended with its whole tree. OSError when it cannot be started."""
    process = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env),
        start_new_session=True,
    )
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.fileno(), process.stderr.fileno()
    got = {out: bytearray(), err: bytearray()}
    open_fds = {out, err}
    deadline = time.monotonic() + timeout
    cut = False
    with selectors.DefaultSelector() as selector:
        for fd in open_fds:
            selector.register(fd, selectors.EVENT_READ)
        while open_fds and not cut and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                kept = got[key.fd]
                kept += chunk[: MAX_ANSWER_BYTES - len(kept)]
                cut = cut or len(kept) >= MAX_ANSWER_BYTES
                if not chunk:
                    selector.unregister(key.fd)
                    open_fds.discard(key.fd)
    returncode: int | None = None
    if not cut:
        with contextlib.suppress(subprocess.TimeoutExpired):
            returncode = process.wait(timeout=max(0.0, deadline - time.monotonic()))
    if returncode is None or open_fds:
        end_process_group(process.pid, grace=0.5)
        process.wait()
    process.stdout.close()
    process.stderr.close()
    text, errors = (got[fd].decode("utf-8", "replace") for fd in (out, err))
    return Answered(returncode, text, errors, timed_out=returncode is None and not cut, too_much=cut)


def end_process_group(pid: int, grace: float = GRACE_S) -> None:
    """SIGTERM the group and what it started outside it (so the stub writes its state), then SIGKILL what is left."""
    from toolsurface.harness.process_tree import end_process_tree

    end_process_tree(pid, grace=grace)


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    try:
        file = path.open("wb")
    except OSError as error:
        raise WriteFailed(f"cannot open {path}: {error.strerror or error}") from None
    try:
        yield file
    finally:
        with contextlib.suppress(OSError):  # what a failed write left buffered fails again: it is said already
            file.close()


@contextlib.contextmanager
def _first_failure() -> Iterator[None]:
    """A failure inside the task group (the transcript that cannot be written) raised as itself."""
    try:
        yield
    except BaseExceptionGroup as group:
        if all(isinstance(error, Exception) for error in group.exceptions):
            raise group.exceptions[0] from None
        raise


async def _keep(stream: anyio.abc.ByteReceiveStream, file: IO[bytes], limit: int, what: str, path: Path) -> bool:
    """Copy `stream` to `file` as it comes, up to `limit` bytes; True as soon as it brings more (the rest of
    it then unread)."""
    written = 0
    async for chunk in stream:
        room = limit - written
        try:
            file.write(chunk[:room])
            file.flush()
        except OSError as error:  # the harness's own file: the run is an error, not the agent's
            raise WriteFailed(f"cannot write {what} {path}: {error.strerror or error}") from None
        written += min(room, len(chunk))
        if len(chunk) > room:
            return True
    return False


async def _drain(stream: anyio.abc.ByteReceiveStream) -> None:
    async for _ in stream:
        pass


async def run_process(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float,
    stdout: Path,
    stderr: Path,
    stdin: bytes | None = None,
) -> ProcessOutcome:
    started = time.monotonic()
    too_much = False
    with _opened(stdout) as out, _opened(stderr) as err:
        process = await anyio.open_process(
            list(argv),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        )
        assert process.stdout is not None and process.stderr is not None
        timed_out = False
        try:
            with anyio.move_on_after(timeout) as scope, _first_failure():
                async with anyio.create_task_group() as tasks:

                    async def keep_stderr() -> None:
                        assert process.stderr is not None
                        if await _keep(process.stderr, err, MAX_STDERR_BYTES, "the agent's stderr", stderr):
                            await _drain(process.stderr)  # kept up to the bound; the rest is read, not kept

                    tasks.start_soon(keep_stderr)
                    if stdin is not None and process.stdin is not None:
                        await process.stdin.send(stdin)
                        await process.stdin.aclose()
                    too_much = await _keep(process.stdout, out, MAX_TRANSCRIPT_BYTES, "the transcript", stdout)
                    if too_much:
                        tasks.cancel_scope.cancel()
                    else:
                        await process.wait()
                        # A child of the CLI's may hold stderr open after it has gone.
                        tasks.cancel_scope.deadline = anyio.current_time() + _STDERR_AFTER_EXIT_S
            timed_out = scope.cancelled_caught
        finally:
            if process.returncode is None:
                await anyio.to_thread.run_sync(end_process_group, process.pid)
                with anyio.CancelScope(shield=True):
                    await process.wait()
            with anyio.CancelScope(shield=True):
                await process.aclose()
    return ProcessOutcome(process.returncode, timed_out, time.monotonic() - started, stdout, stderr, too_much)
