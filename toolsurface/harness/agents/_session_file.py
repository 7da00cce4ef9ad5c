"""One of a client's own session files, read as what `session import` needs: each tool call (the server and
tool, the arguments, the answer as the client recorded it, error or not, the time), the model's usage per turn
where the file has it, and the client's version and model as the file names them.

A card's reader (`SessionFiles.read`) reads a file line by line through `session_lines`, never the whole file at
once: a session file may be hundreds of megabytes. A line that is not JSON is counted and skipped (the last one,
cut off by a client still writing, is not counted); a file none of whose lines the reader knows is
`SessionFormatError`."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.agents._usage import Usage
from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_SESSION_BYTES",
    "SessionCall",
    "SessionFormatError",
    "SessionRead",
    "SessionReader",
    "SessionSearch",
    "SessionTurn",
    "SessionsReader",
    "document_items",
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


@dataclass(frozen=True)
class SessionSearch:
    """One call of the client's own tool search: what it was asked, and the tools it found, by the full names
    the client gave them (`mcp__SERVER__TOOL`)."""

    query: str | None
    found: list[str]
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
    searches: list[SessionSearch] = field(default_factory=list)
    bad_lines: int = 0
    known_lines: int = 0

    def seen(self, time: object) -> None:
        """A time of the session (ISO 8601, as the file writes it): the first is when it started."""
        if isinstance(time, str) and time:
            self.started = self.started or time
            self.ended = time


SessionReader = Callable[[Path], SessionRead]
SessionsReader = Callable[[Path], Iterator[SessionRead]]


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


_CHUNK = 2**20
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[\s,]*")


def document_items(path: Path, key: str, read: SessionRead) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """For a file that is one JSON object holding an array under `key` (its other members before it): those
    members, and the array's objects one at a time, the file read a chunk at a time. An item that does not parse
    ends the array, counted in `read`; a file that is not such an object gives ({}, no items)."""
    file = path.open("rb")
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    text = ""
    opening = re.compile(r'(?<!\\)"' + re.escape(key) + r'"\s*:\s*\[')
    head: dict[str, Any] | None = None
    start = 0
    while head is None:
        chunk = file.read(_CHUNK)
        text += decoder.decode(chunk, final=not chunk)
        for found in opening.finditer(text):
            before = text[: found.start()].rstrip()
            try:
                parsed = json.loads((before[:-1] if before.endswith(",") else before) + "}")
            except ValueError:
                continue
            if isinstance(parsed, dict):
                head, start = parsed, found.end()
                break
        if head is None and (not chunk or len(text) > MAX_LINE_BYTES):
            file.close()
            return {}, iter(())

    def items() -> Iterator[dict[str, Any]]:
        nonlocal text
        position = start
        with file:
            ended = False
            while True:
                position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
                if position < len(text) and text[position] == "]":
                    return
                try:
                    if position >= len(text):
                        raise ValueError("more")
                    item, position = _DECODER.raw_decode(text, position)
                except ValueError:
                    if ended or len(text) - position > MAX_LINE_BYTES:
                        read.bad_lines += 1
                        return
                    text, position = text[position:], 0
                    chunk = file.read(_CHUNK)
                    ended = not chunk
                    text += decoder.decode(chunk, final=ended)
                    continue
                if isinstance(item, dict):
                    yield item
                else:
                    read.bad_lines += 1

    return head, items()
