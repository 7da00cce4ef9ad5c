"""Stop signals handled inside the event loop: SIGTERM, SIGHUP and SIGINT cancel the work in hand, so
its own cleanup runs (a process tree ended, a state written) instead of an exception raised wherever the
interpreter happens to be.

A stub must write its state whenever it is stopped, so it holds the signals from its first line
(`hold_signals`): until the loop listens they wait, blocked, and a signal that reaches another thread
meanwhile is remembered; after the loop they stay held until the process exits.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from types import FrameType

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "STOP_SIGNALS",
    "Held",
    "Interrupted",
    "Stop",
    "StoppedStarting",
    "cancel_on_signals",
    "hold_signals",
    "stops_raise",
]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Interrupted(ToolsurfaceError):
    """The command was stopped by a signal; what it started has been ended."""

    def __init__(self, signum: int, done: str = "") -> None:
        self.signum = signum
        super().__init__(f"interrupted by {signal.Signals(signum).name}" + (f"; {done}" if done else ""))


@dataclass
class Held:
    """Stop signals held since `hold_signals`; `received` are those that arrived outside the loop."""

    received: list[int] = field(default_factory=list)

    def remember(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signum)

    def hold(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        for signum in STOP_SIGNALS:
            signal.signal(signum, self.remember)


_held: list[Held] = []  # the process's one Held, once anything has held the signals


def hold_signals() -> Held | None:
    """Hold the stop signals for the rest of the process (None off the main thread, where they cannot be).
    Holding them again (the stub's first line, after `python -m toolsurface serve` held them as it started)
    keeps what came meanwhile."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if not _held:
        _held.append(Held())
    _held[0].hold()
    return _held[0]


class StoppedStarting(BaseException):
    """A stop signal came while the process was starting (a BaseException: no `except Exception` on the way
    takes it for a failure of the work it interrupted)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


@contextmanager
def stops_raise(held: Held | None) -> Iterator[None]:
    """Within the block (a start: imports, a fixture loaded), a stop signal raises StoppedStarting wherever the
    work is, and one that came before raises at once; afterwards the signals are held again. Code the signal
    interrupted may hand on another exception in its place (pydantic-core, building a model's serializer while
    its module is imported, raises a SchemaError naming it): once a stop has come, that is StoppedStarting too."""
    if held is None:
        yield
        return
    came: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        held.hold()  # one stop is enough: a second is remembered, not raised inside the first's cleanup
        came.append(signum)
        raise StoppedStarting(signum)

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)
    try:
        if held.received:
            raise StoppedStarting(held.received[0])
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        yield
    except StoppedStarting:
        raise
    except Exception as error:
        if came:
            raise StoppedStarting(came[0]) from error
        raise
    finally:
        held.hold()


@dataclass
class Stop:
    """The signal that cancelled the block, if one did."""

    signum: int | None = None


@asynccontextmanager
async def cancel_on_signals(
    held: Held | None = None, *, first: Callable[[], object] | None = None, grace: float = 0.0
) -> AsyncIterator[Stop]:
    """Within the block, a stop signal cancels the block: at once, or when `first` is given, after calling
    it and waiting up to `grace` seconds for the block to end by itself. On the main thread only; elsewhere
    the block runs as it is. With `held`, signals that came before count, and afterwards they are held."""
    import anyio

    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    failure: Exception | None = None
    try:
        async with anyio.create_task_group() as tasks:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as received:

                async def stopping(signum: int) -> None:
                    stop.signum = signum
                    if first is not None:
                        first()
                        await anyio.sleep(grace)
                    tasks.cancel_scope.cancel()

                async def watch() -> None:
                    if held is not None and held.received:
                        await stopping(held.received[0])
                    async for signum in received:
                        await stopping(signum)

                tasks.start_soon(watch)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
                try:
                    yield stop
                except Exception as error:  # raised below as it is, not wrapped in the task group's group
                    failure = error
                finally:
                    if held is not None:
                        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
                    tasks.cancel_scope.cancel()
    finally:
        if held is not None:
            held.hold()
    if failure is not None:
        raise failure
