"""The one bounded wait of the tests: poll until something holds, or fail naming what was awaited."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar, overload

T = TypeVar("T")

INTERVAL_S = 0.02


class WaitTimedOut(AssertionError):
    """A bounded wait ran out: the message names what was awaited and for how long."""

    def __init__(self, what: str, timeout: float) -> None:
        super().__init__(f"waited {timeout:g} s for {what}; it did not happen")


def wait_until(predicate: Callable[[], T], timeout: float, what: str, *, interval: float = INTERVAL_S) -> T:
    """The first true value of `predicate()`, polled every `interval` seconds for at most `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise WaitTimedOut(what, timeout)
        time.sleep(min(interval, max(0.0, deadline - time.monotonic())))


@overload
async def wait_until_async(
    predicate: Callable[[], Awaitable[T]], timeout: float, what: str, *, interval: float = ...
) -> T: ...
@overload
async def wait_until_async(predicate: Callable[[], T], timeout: float, what: str, *, interval: float = ...) -> T: ...
async def wait_until_async(
    predicate: Callable[[], Any], timeout: float, what: str, *, interval: float = INTERVAL_S
) -> Any:
    """`wait_until` inside an event loop: sleeps without blocking it; `predicate` may be a coroutine function."""
    import inspect

    import anyio

    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() >= deadline:
            raise WaitTimedOut(what, timeout)
        await anyio.sleep(min(interval, max(0.0, deadline - time.monotonic())))


@contextlib.contextmanager
def within(timeout: float, what: str) -> Iterator[None]:
    """Awaits in the block take at most `timeout` seconds together (anyio's cancel scope), else fail naming `what`."""
    import anyio

    scope = None
    try:
        with anyio.fail_after(timeout) as scope:
            yield
    except TimeoutError:
        if scope is None or not scope.cancelled_caught:
            raise
        raise WaitTimedOut(what, timeout) from None


class Deadline:
    """One bound shared by several blocking steps (a read of many lines): what is left of it, or a failure."""

    def __init__(self, timeout: float, what: str) -> None:
        self.timeout, self.what = timeout, what
        self.at = time.monotonic() + timeout

    def remaining(self) -> float:
        """Seconds left; fails naming what was awaited when none are."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise WaitTimedOut(self.what, self.timeout)
        return left
