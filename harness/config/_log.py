"""The budget log: one JSON line per step of the ratchet, appended beside the configuration and never rewritten.
A line keeps the date, the git revision, the old and new budget (chars and tokens), the figures measured, the
reason, and each tool's size, so a later over-budget list can say which tools grew since."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from harness.errors import ToolsurfaceError

__all__ = ["LOG_FORMAT", "LogEntry", "append_log", "git_revision", "last_entry", "now", "read_log"]

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
        return json.dumps(self.to_json(), ensure_ascii=False) + "\n"

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
            max_chars=(int(chars["old"]), int(chars["new"])),
            max_tokens=(tokens["old"], tokens["new"]),
            chars=int(data["chars"]),
            tokens=data.get("tokens"),
            reason=str(data["reason"]),
            tools=dict(tools),
            counter=str(data["counter"]) if data.get("counter") is not None else None,
        )


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
            text=True,
            check=False,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def read_log(path: Path) -> list[LogEntry]:
    """Every entry, oldest first; blank lines and lines starting with # are a person's notes."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        raise ToolsurfaceError(
            f"{path}: cannot read the budget log: {getattr(error, 'strerror', None) or error}"
        ) from None
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entries.append(LogEntry.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError) as error:
            raise ToolsurfaceError(f"{path}:{number}: not a budget log entry: {error}") from None
    return entries


def last_entry(entries: Sequence[LogEntry], target: str) -> LogEntry | None:
    return next((e for e in reversed(entries) if e.target == target), None)


def check_appendable(path: Path) -> None:
    """The log can be appended to: absent, or a regular file."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        if not os.access(path.parent, os.W_OK):
            raise ToolsurfaceError(f"cannot write the budget log {path}: its directory is not writable") from None
        return
    if not stat.S_ISREG(mode):
        raise ToolsurfaceError(f"cannot append to the budget log {path}: it is not a regular file")


def append_log(path: Path, entries: Sequence[LogEntry]) -> None:
    """Append the entries, one line each; what the file held before is left byte for byte as it was."""
    check_appendable(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        with os.fdopen(fd, "ab") as out:
            size = os.fstat(fd).st_size
            ends_open = False
            if size:
                with path.open("rb") as existing:
                    existing.seek(size - 1)
                    ends_open = existing.read(1) != b"\n"
            data = ("\n" if ends_open else "") + "".join(entry.line() for entry in entries)
            out.write(data.encode("utf-8"))
            out.flush()
            os.fsync(fd)
    except OSError as error:
        raise ToolsurfaceError(f"cannot append to the budget log {path}: {error.strerror or error}") from None
