"""What a run tells its user without stopping (a cache it cannot write, say): the library gives each notice
once per run (`notice`) and never prints it; the CLI collects a command's notices (`collected`) and says them
on stderr when the command ends without an error (an error is one line, and says what went wrong).

A notice about something still under way (a wait for a rate limit) is given `now=True`: the CLI says it as it is
given, so a wait is seen while it lasts, not after; without a listener (the library used on its own) it is
kept with the others."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

__all__ = ["collected", "notice", "said"]

_lock = threading.Lock()
_said: list[str] = []
_keys: set[str] = set()
_now: list[Callable[[str], None]] = []


def notice(text: str, once: str | None = None, *, now: bool = False) -> None:
    """Tell the user `text`, unless this run told it already (or, given `once`, any notice of that key); `now`:
    as it happens, to the run's listener when it has one."""
    key = f"\0{once}" if once is not None else text
    with _lock:
        if key in _keys:
            return
        _keys.add(key)
        if now and _now:
            # Said under the lock, so that notices from several threads come out whole lines, in order.
            _now[-1](text)
        else:
            _said.append(text)


def said() -> list[str]:
    """The notices given so far in this run (those said as they happened are not among them)."""
    with _lock:
        return list(_said)


@contextlib.contextmanager
def collected(now: Callable[[str], None] | None = None) -> Iterator[list[str]]:
    """A run of its own: the list it yields holds the run's notices once it ends, and `now`, when given, is told
    each notice given `now=True` as it comes; those of the run around it are put back after."""
    with _lock:
        kept, kept_keys = list(_said), set(_keys)
        _said.clear()
        _keys.clear()
        if now is not None:
            _now.append(now)
    told: list[str] = []
    try:
        yield told
    finally:
        with _lock:
            told.extend(_said)
            _said[:] = kept
            _keys.clear()
            _keys.update(kept_keys)
            if now is not None:
                _now.remove(now)
