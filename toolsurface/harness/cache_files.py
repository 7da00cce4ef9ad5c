"""A cache is a cache: an entry is read only when it is a regular file within a size (a FIFO, a device or a link,
to /dev/zero say, is passed over, never read or waited on), and anything that cannot be read is the caller's
None, so the value is made again and the entry rewritten. An entry is written whole under a name of its own,
then renamed over whatever was at its place (a damaged entry, a FIFO, a link), so writers at the same moment
leave one valid entry. A cache that cannot be written (a read-only or full disk, a parent that is a file) is
said once per run (harness.notices) and the run goes on without it."""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from pathlib import Path

__all__ = ["read_entry", "write_entry"]


def read_entry(path: Path, max_bytes: int) -> bytes | None:
    """The entry's bytes, or None: missing, unreadable, not a regular file, or larger than `max_bytes`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            return None
        with os.fdopen(fd, "rb") as file:
            fd = -1
            data = file.read(max_bytes + 1)
        return data if len(data) <= max_bytes else None
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def write_entry(path: Path, content: bytes, what: str | None) -> bool:
    """Put `content` at `path`, replacing whatever is there; False when it cannot be, said once a run per cache
    (`what` names it and its folder: "the counting cache ~/.cache/toolsurface/counts"; None: said by the
    caller, which has another place to try)."""
    from toolsurface.harness.notices import notice

    partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as file:
            file.write(content)
        os.replace(partial, path)
        return True
    except OSError as error:
        if what is not None:
            notice(f"cannot write {what}: {error.strerror or error}; going on without it", once=what)
        return False
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
