"""Sessions side by side: N of them, J at a time, each in a folder under one root that is kept or thrown away."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import anyio

__all__ = ["run_at_once"]

T = TypeVar("T")


def run_at_once(
    count: int, one: Callable[[int, Path], Awaitable[T]], *, jobs: int, out: Path | None, prefix: str
) -> list[T]:
    """`one(n, root)` for each n below `count`, `jobs` at a time, in order. `root` is `out` (kept) or a temporary
    folder removed after. The error a user should see comes first out of the task group."""
    from harness.session.run._runner import _first_cause

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
            raise _first_cause(group) from None

    if out is not None:
        run(Path(os.path.abspath(out)))
    else:
        with tempfile.TemporaryDirectory(prefix=prefix) as root:
            run(Path(root))
    return [found[n] for n in range(count)]
