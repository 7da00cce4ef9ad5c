"""The report's charts, drawn in a child process while this one measures and builds the tables.

matplotlib's import and the drawing are a third of a report's time and need only the figures, so a forked
child imports matplotlib as soon as the report starts and draws each chart as its figures arrive, each in a
process forked from it (two at once, so that the charts drawn last, once the surfaces are measured, take
both cores); the page
gets the PNGs' bytes from `wait`, to be written with every other file of the report. The charts are the
same bytes either way. Where forking is not safe
(no os.fork, or other threads running, whose locks a child could inherit held) they are drawn here, in turn.
"""

from __future__ import annotations

import os
import select
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from toolsurface.harness.report._apart import can_fork, default_signals, receive, send, sendable_error

__all__ = ["ChartDrawer", "chart_drawer"]


# Charts drawn at once, each by a process forked from the warm child: two cores draw two charts.
_AT_ONCE = 2


def _draw_one(job: tuple[Callable[..., None], tuple[Any, ...]], out: int) -> None:
    """In a grandchild: draw one chart and send (error or None, its staged bytes)."""
    staged: dict[Path, bytes] = {}
    try:
        draw, args = job
        try:
            draw(*args, staged)
            outcome: tuple[BaseException | None, dict[Path, bytes]] = (None, staged)
        except Exception as failed:
            outcome = (sendable_error(failed), {})
        send(out, outcome)
    finally:
        os._exit(0)


def _child(jobs: int, results: int, warm: Callable[[], None] | None) -> None:
    """Warm up (import what drawing needs), then draw each (function, arguments) received until None, each in a
    process of its own forked from this warm one, `_AT_ONCE` at a time; then send the first error (or None)
    and every chart's bytes."""
    error: BaseException | None = None
    staged: dict[Path, bytes] = {}
    drawing: dict[int, int] = {}  # result pipe -> pid

    def collect(block: bool) -> None:
        nonlocal error
        while drawing:
            ready, _, _ = select.select(list(drawing), [], [], None if block else 0)
            if not ready:
                return
            for fd in ready:
                try:
                    failed, charts = receive(fd)
                except (OSError, EOFError):
                    failed, charts = RuntimeError("a chart's process ended without drawing it"), {}
                os.close(fd)
                os.waitpid(drawing.pop(fd), 0)
                staged.update(charts)
                error = error or failed
            if block:
                return

    try:
        default_signals()
        # At the report's own priority: on a busy machine a lower one starves the charts the page waits for.
        if warm is not None:
            try:
                warm()
            except Exception as failed:
                error = failed
        while (job := receive(jobs)) is not None:
            if error is not None:
                continue
            collect(block=False)
            if len(drawing) >= _AT_ONCE:
                collect(block=True)
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                _draw_one(job, write)
            os.close(write)
            drawing[read] = pid
        while drawing:
            collect(block=True)
        send(results, (None if error is None else sendable_error(error), staged))
    finally:
        os._exit(0)


class ChartDrawer:
    """`draw(function, *args)` draws a chart in the child (or here): `function(*args, staged)` puts its PNG's
    bytes in `staged` under its path; `wait()` gives every chart's bytes once all are drawn."""

    def __init__(self, warm: Callable[[], None] | None = None) -> None:
        self._pid: int | None = None
        self._staged: dict[Path, bytes] = {}
        self._jobs = self._results = -1
        if not can_fork():
            return
        jobs_read, self._jobs = os.pipe()
        self._results, results_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(self._jobs)
            os.close(self._results)
            _child(jobs_read, results_write, warm)
        os.close(jobs_read)
        os.close(results_write)
        self._pid = pid

    def draw(self, function: Callable[..., None], *args: Any) -> None:
        if self._pid is None:
            function(*args, self._staged)
        else:
            send(self._jobs, (function, args))

    def wait(self) -> dict[Path, bytes]:
        if self._pid is None:
            return self._staged
        try:
            send(self._jobs, None)
            error, staged = receive(self._results)
            assert isinstance(staged, dict)
        except (OSError, EOFError):
            error, staged = RuntimeError("the report's chart process ended without drawing its charts"), {}
        self.close(stop=False)
        if error is not None:
            raise error
        self._staged = staged
        return staged

    def close(self, stop: bool = True) -> None:
        """Free what the child holds, ending it first when `stop` (it is still drawing); none is left behind."""
        if self._pid is None:
            return
        for fd in (self._jobs, self._results):
            os.close(fd)
        if stop:
            with suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)
        self._pid = None


@contextmanager
def chart_drawer(warm: Callable[[], None] | None = None) -> Iterator[ChartDrawer]:
    """A drawer whose child first calls `warm` (where there is a child), while this process goes on."""
    drawer = ChartDrawer(warm)
    try:
        yield drawer
    finally:
        drawer.close()
