"""What a run tells its user without stopping (a cache it cannot write, say): the library gives each notice
once per run (`notice`) and never prints it; the CLI collects a command's notices (`collected`) and says them
on stderr when the command ends without an error (an error is one line, and says what went wrong)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

__all__ = ["collected", "notice", "said"]

_lock = threading.Lock()
_said: list[str] = []
_keys: set[str] = set()


def notice(text: str, once: str | None = None) -> None:
    """Tell the user `text`, unless this run told it already (or, given `once`, any notice of that key)."""
    key = f"\0{once}" if once is not None else text
    with _lock:
        if key not in _keys:
            _keys.add(key)
            _said.append(text)


def said() -> list[str]:
    """The notices given so far in this run."""
    with _lock:
        return list(_said)


@contextlib.contextmanager
def collected() -> Iterator[list[str]]:
    """A run of its own: the list it yields holds the run's notices once it ends; those of the run around it
    are put back after."""
    with _lock:
        kept, kept_keys = list(_said), set(_keys)
        _said.clear()
        _keys.clear()
    told: list[str] = []
    try:
        yield told
    finally:
        with _lock:
            told.extend(_said)
            _said[:] = kept
            _keys.clear()
            _keys.update(kept_keys)
