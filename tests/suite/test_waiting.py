"""The tests' one bounded wait returns what it waited for, or fails naming it."""

from __future__ import annotations

import itertools
import time

import anyio
import pytest

from tests.helpers.waiting import Deadline, WaitTimedOut, wait_until, wait_until_async, within


def test_wait_until_returns_the_first_true_value() -> None:
    counter = itertools.count()
    assert wait_until(lambda: next(counter) >= 3 and "ready", 5, "the counter") == "ready"


def test_wait_until_fails_naming_what_it_waited_for() -> None:
    with pytest.raises(WaitTimedOut, match=r"waited 0.05 s for the moon to rise"):
        wait_until(lambda: False, 0.05, "the moon to rise")


@pytest.mark.anyio
async def test_the_async_wait_takes_a_coroutine_and_fails_naming_what_it_waited_for() -> None:
    async def never() -> bool:
        return False

    counter = itertools.count()
    assert await wait_until_async(lambda: next(counter) >= 2, 5, "the counter") is True
    with pytest.raises(WaitTimedOut, match="for a reply"):
        await wait_until_async(never, 0.05, "a reply")


@pytest.mark.anyio
async def test_within_bounds_the_awaits_of_its_block_and_names_them() -> None:
    with pytest.raises(WaitTimedOut, match="for the slow step"), within(0.05, "the slow step"):
        await anyio.sleep(5)
    with within(5, "a quick step"):
        await anyio.sleep(0)


@pytest.mark.anyio
async def test_within_lets_a_timeout_raised_inside_the_block_through() -> None:
    with pytest.raises(TimeoutError, match="from the block itself"), within(5, "anything"):
        raise TimeoutError("from the block itself")


def test_a_deadline_shared_by_several_steps_fails_when_it_has_passed() -> None:
    deadline = Deadline(0.05, "every line")
    assert 0 < deadline.remaining() <= 0.05
    wait_until(lambda: deadline.at < time.monotonic(), 5, "the deadline to pass")
    with pytest.raises(WaitTimedOut, match="for every line"):
        deadline.remaining()
