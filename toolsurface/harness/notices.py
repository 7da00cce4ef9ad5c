"""What a run tells its user without stopping (a cache it cannot write, say): the library gives each notice
once per run (`notice`) and never prints it; the CLI says each on stderr as it comes (`telling`)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

__all__ = ["notice", "said", "telling"]

_lock = threading.Lock()
_said: list[str] = []
_keys: set[str] = set()
_listener: Callable[[str], None] | None = None


def notice(text: str, once: str | None = None) -> None:
    """Tell the user `text`, unless this run told it already (or, given `once`, any notice of that key)."""
    key = f"\0{once}" if once is not None else text
    with _lock:
        if key in _keys:
            return
        _keys.add(key)
        _said.append(text)
        listener = _listener
    if listener is not None:
        listener(text)


def said() -> list[str]:
    """The notices given so far in this run."""
    with _lock:
        return list(_said)


@contextlib.contextmanager
def telling(listener: Callable[[str], None]) -> Iterator[None]:
    """A run whose notices go to `listener`, each once; the notices of the run before are put back after."""
    global _listener
    with _lock:
        before, kept, kept_keys = _listener, list(_said), set(_keys)
        _listener = listener
        _said.clear()
        _keys.clear()
    try:
        yield
    finally:
        with _lock:
            _listener = before
            _said[:] = kept
            _keys.clear()
            _keys.update(kept_keys)
