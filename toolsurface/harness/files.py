"""Reading inputs and writing results. Results are written next to the final name first, then renamed, so
a reader never takes half a file for a whole one; only a regular file is ever replaced (a FIFO, a device or
a symlink where a result goes is refused, not swapped for a file); a failed write (a full disk, a read-only
place, a parent that is a file) is one clear error naming the file. Several files written as one change are
all checked writable before any is touched, and either all replaced or none. Inputs are read only from
regular files (a FIFO would block for ever), as JSON nested no deeper than harness.bounded_json.MAX_DEPTH;
a reader of files inside a study or a shard refuses a symbolic link (`follow_links=False`), so nothing from
outside it is read through one."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import uuid
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "LineWriter",
    "WriteFailed",
    "cache_root",
    "check_writable",
    "ensure_directory",
    "read_json",
    "read_text",
    "write_atomic",
    "write_atomic_all",
    "write_json_atomic",
]

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


def _check_folder(path: Path) -> None:
    """That the folder `path` goes in could be made: its nearest existing ancestor is a folder this process may
    write into; nothing is made."""
    existing = next(p for p in path.parents if os.path.lexists(p) or p == p.parent)
    if not existing.is_dir():
        raise ToolsurfaceError(f"cannot write {path}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ToolsurfaceError(f"cannot write {path}: its folder {existing} is not writable")


def check_writable(path: Path, *, make_folder: bool = True) -> None:
    """One clear error naming `path` unless it can be written: nothing there and a folder that takes a new
    file, or a regular file this process may write (a read-only file, mount or immutable file is refused, as
    writing it in place would be, though a rename over it might succeed). Its folder is made when missing,
    unless `make_folder` is False: then only checked to be one that could be made."""
    _check_target(path)
    if not make_folder and not path.parent.is_dir():
        _check_folder(path)
        return
    ensure_directory(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise ToolsurfaceError(f"cannot write {path}: its folder {path.parent} is not writable") from None
        return
    except OSError as error:
        raise ToolsurfaceError(f"cannot write {path}: {error.strerror or error}") from None
    os.close(fd)


def _keep_aside(path: Path, tag: str) -> Path | None:
    """A second name for what is at `path` now, so a change that fails half-way can put it back."""
    if not os.path.lexists(path):
        return None
    aside = path.with_name(f".{path.name}.{tag}.before")
    try:
        os.link(path, aside)
    except OSError:
        import shutil  # with bz2 and lzma, a few ms that every command importing this module would pay

        shutil.copy2(path, aside)
    return aside


def _keep_mode(path: Path, fd: int) -> None:
    """The new file gets the permissions of the one it replaces (a 0600 file stays 0600)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    os.fchmod(fd, stat.S_IMODE(mode))


def write_atomic_all(files: Sequence[tuple[Path, str | bytes]], *, sync: bool = False) -> list[Path]:
    """Write every file to a name of its own beside it, then rename them all, in order; nothing is replaced
    unless every file can be written and was, and a rename that fails puts back the files renamed before it.
    A file replaced keeps its permissions.
    `sync` flushes each to the disk before its rename."""
    for path, _ in files:
        check_writable(path)
    # A name of its own per writer: two studies may write one study.json at the same moment.
    tag = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
    staged: list[tuple[Path, Path]] = []
    asides: list[Path | None] = []
    renamed = 0
    current: Path | None = None
    try:
        for path, content in files:
            current = path
            partial = path.with_name(f".{path.name}.{tag}.partial")
            staged.append((partial, path))
            with partial.open("wb") as out:
                _keep_mode(path, out.fileno())
                out.write(content if isinstance(content, bytes) else content.encode("utf-8"))
                if sync:
                    out.flush()
                    os.fsync(out.fileno())
        if len(files) > 1:
            for _, path in staged:
                current = path
                asides.append(_keep_aside(path, tag))
        for partial, path in staged:
            current = path
            os.replace(partial, path)
            renamed += 1
    except OSError as error:
        for (_, path), aside in reversed(list(zip(staged[:renamed], asides, strict=False))):
            with contextlib.suppress(OSError):
                if aside is not None:
                    os.replace(aside, path)
                else:
                    path.unlink()
        raise ToolsurfaceError(f"cannot write {current}: {error.strerror or error}") from None
    finally:
        for partial, _ in staged:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        for aside in asides:
            if aside is not None:
                with contextlib.suppress(OSError):
                    aside.unlink(missing_ok=True)
    return [path for path, _ in files]


def write_atomic(path: Path, content: str | bytes) -> Path:
    return write_atomic_all([(path, content)])[0]


def write_json_atomic(path: Path, data: Any) -> Path:
    from toolsurface.harness.output import json_document

    return write_atomic(path, json_document(data))


class WriteFailed(ToolsurfaceError):
    """A file of the harness's own (a transcript, a call log) could not be written; the message names it."""


class LineWriter:
    """A text file written a line at a time, straight to its descriptor, so a reader (or a killed process)
    never loses a whole line and nothing is left buffered to fail again at exit; a failure to open or write
    it is WriteFailed naming the file, never a bare OSError a caller might take for stdout's."""

    def __init__(self, path: Path, *, append: bool = False, what: str = "file") -> None:
        self.path = path
        self.what = what
        try:
            ensure_directory(path.parent, f"open {what} {path}")
        except ToolsurfaceError as error:
            raise WriteFailed(str(error)) from None
        # Not blocking: a FIFO nobody reads would hold the open for ever (and a stop signal with it).
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | (os.O_APPEND if append else os.O_TRUNC)
        try:
            self._fd: int | None = os.open(path, flags, 0o644)
        except OSError as error:
            reason = "it is a FIFO no process reads" if error.errno == errno.ENXIO else error.strerror or error
            raise WriteFailed(f"cannot open {what} {path}: {reason}") from None
        os.set_blocking(self._fd, True)

    def write(self, line: str) -> None:
        """`line` and a line break, as UTF-8 (a lone surrogate is the caller's to escape)."""
        if self._fd is None:
            return
        view = memoryview((line + "\n").encode("utf-8"))
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as error:
            raise WriteFailed(f"cannot write {self.what} {self.path}: {error.strerror or error}") from None

    @property
    def closed(self) -> bool:
        return self._fd is None

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> LineWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


class _NotRegular(Exception):
    pass


def _read_bytes(path: Path, follow_links: bool) -> bytes:
    """A regular file's bytes; opened without blocking, so a FIFO is refused rather than waited on."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_links else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if not follow_links and os.path.islink(path):
            raise _NotRegular("it is a symbolic link, and nothing is read through a link here") from None
        raise error from None
    with os.fdopen(fd, "rb") as file:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            raise _NotRegular(f"it is {kind}, not a regular file")
        return file.read()


def read_text(
    path: Path, error: type[ToolsurfaceError] = ToolsurfaceError, what: str = "file", *, follow_links: bool = True
) -> str:
    """A regular file's UTF-8 text, or one clear `error` naming it: missing, not a regular file (a FIFO,
    a device; a link when `follow_links` is False), unreadable or not UTF-8."""
    try:
        return _read_bytes(path, follow_links).decode("utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except _NotRegular as problem:
        raise error(f"{path}: cannot read: {problem}") from None
    except OSError as problem:
        raise error(f"{path}: cannot read: {problem.strerror or problem}") from None
    except UnicodeDecodeError as problem:
        raise error(f"{path}: cannot read: it is not UTF-8 text ({problem.reason} at byte {problem.start})") from None


def read_json(
    path: Path, error: type[ToolsurfaceError] = ToolsurfaceError, what: str = "file", *, follow_links: bool = True
) -> Any:
    """A JSON file, or one clear `error` naming it: missing, not a regular file, unreadable, not JSON, nested
    deeper than MAX_DEPTH (which would end in RecursionError wherever the value is walked), or giving one key of
    an object twice (read as its last value, while the file reads as its first)."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, DuplicateKey, JSONProblem, TooDeep, loads

    text = read_text(path, error, what, follow_links=follow_links)
    try:
        return loads(text, MAX_DEPTH, unique_keys=True)
    except DuplicateKey as problem:
        raise error(f"{path}: {problem}") from None
    except TooDeep as problem:
        raise error(f"{path}: its JSON nests {problem.depth} levels deep, more than {MAX_DEPTH}") from None
    except JSONProblem as problem:
        raise error(f"{path}: not JSON ({problem})") from None


def cache_root() -> Path:
    """The user's cache folder for toolsurface: `$XDG_CACHE_HOME/toolsurface`, `~/.cache/toolsurface` without it."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolsurface"
