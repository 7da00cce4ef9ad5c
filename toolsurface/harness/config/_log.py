"""The budget log: one JSON line per step of the ratchet, appended beside the configuration and never rewritten.
A line keeps the date, the git revision, the old and new budget (chars and tokens), the figures measured, the
reason, and each tool's size, so a later over-budget list can say which tools grew since."""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["LOG_FORMAT", "LogEntry", "append_log", "appended", "git_revision", "last_entry", "now", "read_log"]

LOG_FORMAT = "toolsurface-budget-log/1"


@dataclass(frozen=True)
class LogEntry:
    time: str
    revision: str | None
    target: str
    step: Literal["lower", "raise"]
    max_chars: tuple[int, int]
    max_tokens: tuple[int | None, int | None]
    chars: int
    tokens: int | None
    reason: str
    tools: dict[str, int] = field(default_factory=dict)
    format: str = LOG_FORMAT
    # The counter of `tokens` and `max_tokens` when it is not o200k.
    counter: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "time": self.time,
            "revision": self.revision,
            "target": self.target,
            "step": self.step,
            "max_chars": {"old": self.max_chars[0], "new": self.max_chars[1]},
            "max_tokens": {"old": self.max_tokens[0], "new": self.max_tokens[1]},
            "chars": self.chars,
            "tokens": self.tokens,
            "reason": self.reason,
            "tools": self.tools,
            "format": self.format,
            **({"counter": self.counter} if self.counter is not None else {}),
        }

    def line(self) -> str:
        from toolsurface.harness.jsonl import record_line

        return record_line(self.to_json()) + "\n"

    @property
    def label(self) -> str:
        """How a message names this entry: its date and revision."""
        revision = f", {self.revision[:12]}" if self.revision else ""
        return f"the last budget log entry ({self.time[:10]}{revision})"

    @classmethod
    def from_json(cls, data: Any) -> LogEntry:
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            raise ValueError(f"not a {LOG_FORMAT} entry (format {found!r})")
        chars, tokens = data["max_chars"], data["max_tokens"]
        tools = data.get("tools", {})
        if not isinstance(tools, dict) or not all(isinstance(v, int) for v in tools.values()):
            raise ValueError("tools is not a table of sizes")
        return cls(
            time=str(data["time"]),
            revision=data.get("revision"),
            target=str(data["target"]),
            step=data["step"],
            max_chars=(_count(chars["old"], "max_chars.old"), _count(chars["new"], "max_chars.new")),
            max_tokens=(tokens["old"], tokens["new"]),
            chars=_count(data["chars"], "chars"),
            tokens=data.get("tokens"),
            reason=str(data["reason"]),
            tools=dict(tools),
            counter=str(data["counter"]) if data.get("counter") is not None else None,
        )


def _count(value: Any, name: str) -> int:
    """A whole number of a log line; 1e400 reads as infinity, which no count is."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} is {value!r}, not a number of characters")
    return int(value)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def git_revision(directory: Path) -> str | None:
    """HEAD of the repository `directory` is in, if it is in one."""
    if shutil.which("git") is None:
        return None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--verify", "-q", "HEAD"],
            cwd=directory,
            capture_output=True,
            check=False,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "replace").strip() or None if done.returncode == 0 else None


def read_log(path: Path) -> list[LogEntry]:
    """Every entry, oldest first; blank lines and lines starting with # are a person's notes (harness.jsonl)."""
    from toolsurface.harness.jsonl import read_records

    return read_records(
        path, LogEntry.from_json, what="budget log", formats=(LOG_FORMAT,), missing_ok=True, follow_links=True
    )


def last_entry(entries: Sequence[LogEntry], target: str) -> LogEntry | None:
    return next((e for e in reversed(entries) if e.target == target), None)


def appended(path: Path, entries: Sequence[LogEntry]) -> bytes:
    """The log with the entries appended, one line each; what it held before is kept byte for byte."""
    from toolsurface.harness.files import read_text

    before = read_text(path, ToolsurfaceError, "budget log").encode("utf-8") if path.exists() else b""
    opening = b"\n" if before and not before.endswith(b"\n") else b""
    return before + opening + "".join(entry.line() for entry in entries).encode("utf-8")


def append_log(path: Path, entries: Sequence[LogEntry]) -> None:
    """Append the entries (the log is replaced whole, atomically, by itself plus the new lines)."""
    from toolsurface.harness.files import write_atomic

    write_atomic(path, appended(path, entries))
