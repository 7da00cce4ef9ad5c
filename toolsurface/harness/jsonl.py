"""JSON Lines, read and written one way: the versioned records of toolsurface's own (the call log, the model
request log, the budget log), and the transcripts other programs write.

A record file holds one JSON object per line, each naming its format (`"format": "toolsurface-call/1"`).
Blank lines and lines starting with `#` are a person's notes. A last line without a line break that is not
JSON was cut off by a writer that was killed, and is left out. Any other line that is not a record of the
file's formats is one error naming the file and the line: `FILE:LINE: not a WHAT entry: WHY`.

A transcript (an agent CLI's stream) is another program's output, not a record of ours: its lines that are not
JSON objects are that program's own words, and are skipped.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import LineWriter, WriteFailed

__all__ = ["RecordWriter", "json_objects", "read_records", "record_line", "transcript_objects"]

T = TypeVar("T")


def read_records(
    path: Path,
    build: Callable[[dict[str, Any]], T],
    *,
    what: str,
    formats: Sequence[str],
    unnamed: str | None = None,
    error: type[ToolsurfaceError] = ToolsurfaceError,
    missing_ok: bool = False,
    follow_links: bool = False,
) -> list[T]:
    """The records of `path`, a `what` (e.g. "call log"), each line's object made by `build` (its TypeError,
    ValueError or KeyError is the line's error). `formats` are the versions read, the newest last; a line naming none reads as `unnamed`
    (logs written before the format was named), or is refused when that is None. A missing file is [] when
    `missing_ok`, else `error` naming it, as is a file that cannot be read."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, DuplicateKey, JSONProblem, loads
    from toolsurface.harness.files import read_text

    if missing_ok and not os.path.lexists(path):
        return []
    text = read_text(path, error, what, follow_links=follow_links)
    lines = text.splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = loads(line, MAX_DEPTH, unique_keys=True)
        except DuplicateKey as problem:
            raise error(f"{path}:{number}: not a {what} entry: {problem}") from None
        except JSONProblem as problem:
            if number == len(lines) and not text.endswith(("\n", "\r")):
                break  # cut off by a writer that was killed
            raise error(f"{path}:{number}: not a {what} entry: not JSON ({problem})") from None
        found = data.get("format", unnamed) if isinstance(data, dict) else None
        if not isinstance(data, dict) or found not in formats:
            why = f"format {found!r} is not {formats[-1]!r}" if isinstance(data, dict) else "not a JSON object"
            raise error(f"{path}:{number}: not a {what} entry: {why}")
        try:
            records.append(build(data))
        except (TypeError, ValueError, KeyError) as problem:
            raise error(f"{path}:{number}: not a {what} entry: {problem}") from None
    return records


def record_line(data: Mapping[str, Any]) -> str:
    """One record as its line: UTF-8 JSON, a lone surrogate (which UTF-8 cannot hold) kept by JSON's escape."""
    line = json.dumps(data, ensure_ascii=False)
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            line = json.dumps(data)
    return line


class RecordWriter:
    """Appends records to a JSONL file, one line each written whole at once, from any thread. Once a line could
    not be written, `failed` holds why and every later write raises it again: a log with a gap would tell a
    run wrongly."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.failed: WriteFailed | None = None
        self._lock = threading.Lock()
        self._file = LineWriter(path, append=True, what=what)

    def write(self, data: Mapping[str, Any]) -> None:
        line = record_line(data)
        with self._lock:
            if self.failed is not None:
                raise self.failed
            try:
                self._file.write(line)
            except WriteFailed as failed:
                self.failed = failed
                raise

    def close(self) -> None:
        with self._lock:
            self._file.close()


def json_objects(text: str) -> list[dict[str, Any]]:
    """The JSON objects of another program's JSONL output; anything else on a line (or a cut-off last line) is
    skipped."""
    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads

    found = []
    for line in text.splitlines():
        try:
            record = loads(line, MAX_DEPTH)
        except JSONProblem:  # not JSON, or nested deeper than any program's record: skipped too
            continue
        if isinstance(record, dict):
            found.append(record)
    return found


def transcript_objects(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a transcript file ([] when it cannot be read; bytes that are not UTF-8 replaced)."""
    try:
        return json_objects(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
