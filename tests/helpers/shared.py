"""What the processes of a test run share. pytest-xdist runs the suite in several worker processes, and other
test runs (other checkouts) may run at the same time: whatever goes into a folder that more than one of them
writes (~/.cache/toolsurface, the system's packages) is made under an exclusive lock on a file beside it, and
looked for again once the lock is held."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["held"]


@contextmanager
def held(lock_file: Path) -> Iterator[None]:
    """An exclusive lock on `lock_file` (made with its folder when missing), across processes."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with lock_file.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
