"""One writer at a time for a project's configuration and its budget log: an exclusive lock on the folder that holds
them (flock on the folder itself, so no lock file is left in the user's project), held while they are read again,
changed and replaced."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["LOCK_WAIT_S", "held_for_update"]

# The change it guards takes milliseconds: a writer still holding it after this long is stuck.
LOCK_WAIT_S = 60.0


@contextmanager
def held_for_update(folder: Path, wait: float = LOCK_WAIT_S) -> Iterator[None]:
    """The lock on `folder`, waited for up to `wait` seconds (then one line saying who holds it)."""
    import fcntl

    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise ToolsurfaceError(f"cannot lock {folder} for the update: {error.strerror or error}") from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise ToolsurfaceError(
                        f"{folder}: another process has been changing its budgets for {wait:.0f} s (a toolsurface"
                        " budget --update or --raise); nothing changed: run again once it is done"
                    ) from None
                time.sleep(0.02)
            except OSError as error:
                raise ToolsurfaceError(f"cannot lock {folder} for the update: {error.strerror or error}") from None
        yield
    finally:
        os.close(fd)  # which lets the lock go
