"""Writing results: next to the final name first, then renamed, so a reader never takes half a file for
a whole one; a failed write (a full disk, a read-only place) is one clear error naming the file."""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

from harness.errors import ToolsurfaceError

__all__ = ["read_json", "write_atomic", "write_json_atomic"]


def write_atomic(path: Path, content: str | bytes) -> Path:
    # A name of its own per writer: two studies may write one study.json at the same moment.
    partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
    try:
        if isinstance(content, bytes):
            partial.write_bytes(content)
        else:
            partial.write_text(content, encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise ToolsurfaceError(f"cannot write {path}: {error.strerror or error}") from None
    return path


def write_json_atomic(path: Path, data: Any) -> Path:
    return write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def read_json(path: Path, error: type[ToolsurfaceError] = ToolsurfaceError, what: str = "file") -> Any:
    """A JSON file, or one clear `error` naming it: missing, unreadable, not JSON, or nested deeper than
    MAX_DEPTH (which would end in RecursionError wherever the value is walked)."""
    from harness.bounded_json import MAX_DEPTH, JSONProblem, TooDeep, loads

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read: {problem}") from None
    try:
        return loads(text, MAX_DEPTH)
    except TooDeep as problem:
        raise error(f"{path}: its JSON nests {problem.depth} levels deep, more than {MAX_DEPTH}") from None
    except JSONProblem as problem:
        raise error(f"{path}: not JSON ({problem})") from None
