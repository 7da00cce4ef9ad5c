"""Work of a report done in a forked child while this process goes on, its result (or its error) sent back
through a pipe. Where forking is not safe (no os.fork, or other threads running, whose locks a child could
inherit held) the work is done here, when its result is asked for; the result is the same either way."""

from __future__ import annotations

import os
import pickle
import signal
import struct
import threading
import traceback
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Generic, TypeVar

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["Apart", "can_fork", "receive", "send", "sendable_error"]

T = TypeVar("T")

_LENGTH = struct.Struct("!Q")


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1


def send(fd: int, value: Any) -> None:
    data = pickle.dumps(value)
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def receive(fd: int) -> Any:
    def exactly(size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(fd, left)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    (size,) = _LENGTH.unpack(exactly(_LENGTH.size))
    return pickle.loads(exactly(size))


def sendable_error(error: BaseException) -> BaseException:
    """The error itself where it crosses a pipe whole; else one of its kind's message: a user's error keeps
    its one line, any other keeps its traceback as text."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        if isinstance(error, ToolsurfaceError):
            return ToolsurfaceError(str(error))
        return RuntimeError("".join(traceback.format_exception(error)))


def default_signals() -> None:
    """The report's own handlers are for the parent: a stop signal simply ends a child."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


class Apart(Generic[T]):
    """`function(*args)` started in a forked child (or, where forking is not safe, kept to be called here);
    `result()` gives what it returned or raises what it raised. `close()` ends a child still working."""

    def __init__(self, function: Callable[..., T], *args: Any) -> None:
        self._function, self._args = function, args
        self._pid: int | None = None
        self._read = -1
        if not can_fork():
            return
        self._read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(self._read)
            self._child(write)
        os.close(write)
        self._pid = pid

    def _child(self, write: int) -> None:
        try:
            default_signals()
            try:
                outcome: tuple[bool, Any] = (True, self._function(*self._args))
            except BaseException as error:
                outcome = (False, sendable_error(error))
            send(write, outcome)
        finally:
            os._exit(0)

    def result(self) -> T:
        if self._pid is None:
            return self._function(*self._args)
        try:
            ok, value = receive(self._read)
        except (OSError, EOFError):
            ok, value = False, RuntimeError("the report's child process ended without giving its result")
        self.close(stop=False)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def __enter__(self) -> Apart[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, stop: bool = True) -> None:
        """Free what the child holds, ending it first when `stop` (it is still working); none is left behind."""
        if self._pid is None:
            return
        os.close(self._read)
        if stop:
            with suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)
        self._pid = None
