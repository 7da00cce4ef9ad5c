"""Reading inputs and writing results. Results are written next to the final name first, then renamed, so
a reader never takes half a file for a whole one; only a regular file is ever replaced (a FIFO, a device or
a symlink where a result goes is refused, not swapped for a file); a failed write (a full disk, a read-only
place, a parent that is a file) is one clear error naming the file. Inputs are read only from regular files
(a FIFO would block for ever), as JSON nested no deeper than harness.bounded_json.MAX_DEPTH."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.errors import ToolsurfaceError

__all__ = ["ensure_directory", "read_json", "write_atomic", "write_atomic_all", "write_json_atomic"]

_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _not_regular(mode: int) -> str | None:
    """What a file of this mode is, when it is not a regular file."""
    return next((kind for test, kind in _KINDS if test(mode)), None)


def ensure_directory(path: Path, purpose: str | None = None) -> Path:
    """`path` as a directory, made with its parents if need be; one clear error when it cannot be, saying
    what could not be done (`purpose`, e.g. "open the call log calls.jsonl"; by default writing to it)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        existing = next((p for p in (path, *path.parents) if os.path.lexists(p)), None)
        if existing is not None and not existing.is_dir():
            reason = f"{existing} is a file, not a directory"
        else:
            reason = error.strerror or str(error)
        raise ToolsurfaceError(f"cannot {purpose or f'write to {path}'}: {reason}") from None
    return path


def _check_target(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return  # nothing there yet, or a parent in the way, which ensure_directory names
    except OSError as error:
        raise ToolsurfaceError(f"cannot write {path}: {error.strerror or error}") from None
    kind = _not_regular(mode)
    if kind is not None:
        raise ToolsurfaceError(f"cannot write {path}: it is {kind}, and only a regular file is replaced")


def write_atomic_all(files: Sequence[tuple[Path, str | bytes]], *, sync: bool = False) -> list[Path]:
    """Write every file to a name of its own beside it, then rename them all, in order; nothing is replaced
    unless every file was written. `sync` flushes each to the disk before its rename."""
    for path, _ in files:
        _check_target(path)
        ensure_directory(path.parent)
    staged: list[tuple[Path, Path]] = []
    current: Path | None = None
    try:
        for path, content in files:
            current = path
            # A name of its own per writer: two studies may write one study.json at the same moment.
            partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
            staged.append((partial, path))
            with partial.open("wb") as out:
                out.write(content if isinstance(content, bytes) else content.encode("utf-8"))
                if sync:
                    out.flush()
                    os.fsync(out.fileno())
        for partial, path in staged:
            current = path
            os.replace(partial, path)
    except OSError as error:
        for partial, _ in staged:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        raise ToolsurfaceError(f"cannot write {current}: {error.strerror or error}") from None
    return [path for path, _ in files]


def write_atomic(path: Path, content: str | bytes) -> Path:
    return write_atomic_all([(path, content)])[0]


def write_json_atomic(path: Path, data: Any) -> Path:
    return write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class _NotRegular(Exception):
    pass


def _read_text(path: Path) -> str:
    """A regular file's text; opened without blocking, so a FIFO is refused rather than waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            raise _NotRegular(f"it is {kind}, not a regular file")
        return file.read().decode("utf-8")


def read_json(path: Path, error: type[ToolsurfaceError] = ToolsurfaceError, what: str = "file") -> Any:
    """A JSON file, or one clear `error` naming it: missing, not a regular file, unreadable, not JSON, or
    nested deeper than MAX_DEPTH (which would end in RecursionError wherever the value is walked)."""
    from harness.bounded_json import MAX_DEPTH, JSONProblem, TooDeep, loads

    try:
        text = _read_text(path)
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except _NotRegular as problem:
        raise error(f"{path}: cannot read: {problem}") from None
    except OSError as problem:
        raise error(f"{path}: cannot read: {problem.strerror or problem}") from None
    except UnicodeDecodeError as problem:
        raise error(f"{path}: cannot read: {problem}") from None
    try:
        return loads(text, MAX_DEPTH)
    except TooDeep as problem:
        raise error(f"{path}: its JSON nests {problem.depth} levels deep, more than {MAX_DEPTH}") from None
    except JSONProblem as problem:
        raise error(f"{path}: not JSON ({problem})") from None
