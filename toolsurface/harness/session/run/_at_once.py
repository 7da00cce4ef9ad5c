"""Sessions side by side: N of them, J at a time, each in a folder under one root that is kept or thrown away."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import anyio

from toolsurface.harness.errors import ToolsurfaceError

T = TypeVar("T")


def first_cause(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The error a user should see from a task group: a user error or an interrupt before anything else."""
    leaves: list[BaseException] = []
    pending: list[BaseException] = [group]
    while pending:
        current = pending.pop(0)
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        else:
            leaves.append(current)
    for kind in (KeyboardInterrupt, ToolsurfaceError):
        for leaf in leaves:
            if isinstance(leaf, kind):
                return leaf
    return leaves[0] if leaves else group


def run_at_once(
    count: int, one: Callable[[int, Path], Awaitable[T]], *, jobs: int, out: Path | None, prefix: str
) -> list[T]:
    """`one(n, root)` for each n below `count`, `jobs` at a time, in order. `root` is `out` (kept) or a temporary
    folder removed after. The error a user should see comes first out of the task group."""
    found: dict[int, T] = {}

    async def main(root: Path) -> None:
        limiter = anyio.CapacityLimiter(max(1, jobs))

        async def each(n: int) -> None:
            async with limiter:
                found[n] = await one(n, root)

        async with anyio.create_task_group() as group:
            for n in range(count):
                group.start_soon(each, n)

    def run(root: Path) -> None:
        try:
            anyio.run(main, root)
        except BaseExceptionGroup as group:
            raise first_cause(group) from None

    with runs_root(out, prefix) as root:
        run(root)
    return [found[n] for n in range(count)]


@contextmanager
def runs_root(out: Path | None, prefix: str) -> Iterator[Path]:
    """The folder sessions side by side write in: `out` (kept), or a temporary folder removed after."""
    if out is not None:
        yield Path(os.path.abspath(out))
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as root:
        yield Path(root)
