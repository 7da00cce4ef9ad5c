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

__all__ = [
    "LOG_FORMAT",
    "LogEntry",
    "append_log",
    "appended",
    "check_log_for_update",
    "git_revision",
    "last_entry",
    "now",
    "read_log",
]

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
    # The target's `ratchet-margin` (a percentage) the new budget adds to the figures, when it has one.
    margin: float | None = None

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
            **({"margin": self.margin} if self.margin is not None else {}),
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
        if not isinstance(chars, dict) or not isinstance(tokens, dict):
            raise ValueError("max_chars and max_tokens are each {old, new}")
        tools = data.get("tools", {})
        if not isinstance(tools, dict) or not all(type(v) is int for v in tools.values()):
            raise ValueError("tools is not a table of sizes")
        step = data["step"]
        if step not in ("lower", "raise"):
            raise ValueError(f"step is {step!r}, not lower or raise")
        return cls(
            time=_text(data["time"], "time"),
            revision=_text(data.get("revision"), "revision", optional=True),
            target=_text(data["target"], "target"),
            step=step,
            max_chars=(_count(chars["old"], "max_chars.old"), _count(chars["new"], "max_chars.new")),
            max_tokens=(_tokens(tokens["old"], "max_tokens.old"), _tokens(tokens["new"], "max_tokens.new")),
            chars=_count(data["chars"], "chars"),
            tokens=_tokens(data.get("tokens"), "tokens"),
            reason=_text(data["reason"], "reason"),
            tools=dict(tools),
            counter=_text(data.get("counter"), "counter", optional=True),
            margin=_margin(data.get("margin")),
        )


def _count(value: Any, name: str) -> int:
    """A whole number of a log line; 1e400 reads as infinity, which no count is."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} is {_json(value)}, not a number of characters")
    return int(value)


def _margin(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"margin is {_json(value)}, not a percentage")
    return value


def _tokens(value: Any, name: str) -> int | None:
    """A number of tokens of a log line, or null (no token budget, or none counted); true is no number."""
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} is {_json(value)}, not a number of tokens")
    return value


def _text(value: Any, name: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} is {_json(value)}, not text")
    return value


def _json(value: Any) -> str:
    import json

    return json.dumps(value)[:40]


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


def check_log_for_update(path: Path) -> None:
    """Refuse, before anything is written, a log that appending would damage: a link (the log is replaced whole,
    which would cut it from the file it links to), or one whose last line was cut off (each read skips that line,
    but the new lines would follow it, and it would stand broken in the middle)."""
    import os

    from toolsurface.harness.bounded_json import MAX_DEPTH, JSONProblem, loads
    from toolsurface.harness.files import read_text

    if not os.path.lexists(path):
        return
    if path.is_symlink():
        raise ToolsurfaceError(
            f"{path}: the budget log is a symbolic link (to {os.readlink(path)}); --update replaces the log whole,"
            " which would make it a file of its own: name the file itself as the budget log"
        )
    links = path.stat().st_nlink
    if links > 1:
        raise ToolsurfaceError(
            f"{path}: the budget log has {links} names (hard links); --update replaces the log whole, which would"
            " leave the others as they were: keep one name"
        )
    text = read_text(path, ToolsurfaceError, "budget log")
    if text and not text.endswith(("\n", "\r")):
        last = text.splitlines()[-1]
        if last.strip() and not last.lstrip().startswith("#"):
            try:
                loads(last, MAX_DEPTH)
            except JSONProblem:
                number = len(text.splitlines())
                raise ToolsurfaceError(
                    f"{path}:{number}: the budget log's last line is cut off (no line break, and not JSON), as by a"
                    " write that was stopped; the new entries would follow it: finish or remove it, then run again"
                ) from None


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
