"""What the processes of a test run share. pytest-xdist runs the suite in several worker processes, and other
test runs (other checkouts) may run at the same time: whatever goes into a folder that more than one of them
writes (~/.cache/toolsurface, the system's packages) is made under an exclusive lock on a file beside it, and
looked for again once the lock is held; what one test run makes once for all its workers (a study of real agents
that tests of several modules read) is made by `made_once`."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["held", "made_once"]


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


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name` that `make` fills, made once for this test run whichever worker asks first: the others
    wait for it and read it. Every worker's own temporary folder lies in the run's, which is new each run; one
    that `make` did not finish is made again."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "made-once" / name
    with held(folder.with_name(f"{name}.lock")):
        done = folder / ".made"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            make(folder)
            done.touch()
    return folder
