"""One of a client's own session files, read as what `session import` needs: each tool call (the server and
tool, the arguments, the answer as the client recorded it, error or not, the time), the model's usage per turn
where the file has it, and the client's version and model as the file names them.

A card's reader (`SessionFiles.read`) reads a file line by line through `session_lines`, never the whole file at
once: a session file may be hundreds of megabytes. A line that is not JSON is counted and skipped (the last one,
cut off by a client still writing, is not counted); a file none of whose lines the reader knows is
`SessionFormatError`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.agents.base import Usage
from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_SESSION_BYTES",
    "SessionCall",
    "SessionFormatError",
    "SessionRead",
    "SessionReader",
    "SessionTurn",
    "known",
    "session_lines",
]

# Larger than any session file a client was seen to write: one over it is listed as too large, not read.
MAX_SESSION_BYTES = 512 * 2**20
# A line over this is skipped as one that is not the client's (the largest answers clients keep are a few MB).
MAX_LINE_BYTES = 64 * 2**20


class SessionFormatError(ToolsurfaceError):
    """A file that is not a session file of the client whose reader read it, or of a version it knows."""


@dataclass(frozen=True)
class SessionCall:
    """One tool call as the session file recorded it: `server` as the client's config named it (None where the
    file does not say), `answer` the text the client passed on to its model (cut or moved as it did)."""

    server: str | None
    tool: str
    arguments: dict[str, Any] | None
    answer: str | None
    error: bool
    time: str | None


@dataclass(frozen=True)
class SessionTurn:
    """One model response: its usage as the file records it, and its time."""

    usage: Usage
    time: str | None = None


@dataclass
class SessionRead:
    """What one session file holds: the client's name, its version and the model (as the file names them), its
    session's id and first time, its calls and turns, and the lines that were not JSON."""

    client: str
    session: str | None = None
    version: str | None = None
    model: str | None = None
    started: str | None = None
    ended: str | None = None
    calls: list[SessionCall] = field(default_factory=list)
    turns: list[SessionTurn] = field(default_factory=list)
    bad_lines: int = 0
    known_lines: int = 0

    def seen(self, time: object) -> None:
        """A time of the session (ISO 8601, as the file writes it): the first is when it started."""
        if isinstance(time, str) and time:
            self.started = self.started or time
            self.ended = time


SessionReader = Callable[[Path], SessionRead]


def session_lines(path: Path, read: SessionRead) -> Iterator[dict[str, Any]]:
    """Each line of `path` that is a JSON object, read one at a time; a line that is not is counted in `read`."""
    with path.open("rb") as file:
        pending: bytes | None = None
        for raw in _lines(file):
            if pending is not None:
                read.bad_lines += 1
                pending = None
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                pending = raw  # counted unless it was the last line (a client still writing it)
                continue
            if isinstance(data, dict):
                yield data
            else:
                read.bad_lines += 1
        if pending is not None and pending.endswith(b"\n"):
            read.bad_lines += 1


def _lines(file: Any) -> Iterator[bytes]:
    """The file's lines, each a line over MAX_LINE_BYTES given as b"x" (not JSON) without holding it."""
    while True:
        line = file.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := file.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass
            yield b"x\n"
            continue
        yield line


def known(read: SessionRead, what: str) -> SessionRead:
    """`read` when the reader knew at least one of its lines, else SessionFormatError naming `what`."""
    if read.known_lines == 0:
        raise SessionFormatError(f"not a {what} session file (no line of a format it writes)")
    return read
