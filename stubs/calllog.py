"""The call log: one JSON line per tools/list and tools/call, flushed before the answer goes out."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness.bounded_json import MAX_DEPTH, JSONProblem, TooDeep, loads
from harness.errors import ToolsurfaceError
from harness.files import LineWriter, WriteFailed, read_text

__all__ = ["CALL_FORMAT", "CallLog", "CallLogError", "CallRecord", "read_log"]

CALL_FORMAT = "toolsurface-call/1"


class CallLogError(ToolsurfaceError):
    """A call log that is not one of this version."""


@dataclass(frozen=True)
class CallRecord:
    seq: int
    time: str
    method: str | None
    tool: str | None
    arguments: dict[str, Any] | None
    outcome: str
    message: str | None
    response_chars: int
    latency_ms: float
    allowed: list[str] | None = None
    response_sha256: str | None = None
    # The answer's text as the client received it (tools/call), so its tokens can be counted later.
    response: str | None = None
    # The MCP protocol version of the connection the request came on; None where the request never reached
    # the SDK (a line the stub's transport refused) or in logs written before it was recorded.
    protocol: str | None = None
    format: str = CALL_FORMAT

    @property
    def is_call(self) -> bool:
        return self.method == "tools/call"


class CallLog:
    """Appends records to a JSONL file (or keeps them in memory only when there is no file). Once a line
    could not be written, `failed` holds why, and every later write raises it again: a log with a gap
    would score the run wrongly."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.records: list[CallRecord] = []
        self.failed: WriteFailed | None = None
        self._file: LineWriter | None = None
        if path is not None:
            self._file = LineWriter(path, append=True, what="the call log")

    def write(
        self,
        method: str | None,
        tool: str | None,
        arguments: dict[str, Any] | None,
        outcome: str,
        message: str | None,
        response_chars: int,
        started: float,
        allowed: list[str] | None = None,
        response: str | None = None,
        protocol: str | None = None,
    ) -> CallRecord:
        if self.failed is not None:
            raise self.failed
        record = CallRecord(
            seq=len(self.records) + 1,
            time=datetime.now(UTC).isoformat(timespec="milliseconds"),
            method=method,
            tool=tool,
            arguments=arguments,
            outcome=outcome,
            message=message,
            response_chars=response_chars,
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
            allowed=allowed,
            response_sha256=hashlib.sha256(response.encode("utf-8")).hexdigest() if response is not None else None,
            response=response,
            protocol=protocol,
        )
        self.records.append(record)
        if self._file is not None:
            line = json.dumps(asdict(record), ensure_ascii=False)
            if not line.isascii():
                try:
                    line.encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate a client sent: JSON's escape keeps it exactly
                    line = json.dumps(asdict(record))
            try:
                self._file.write(line)
            except WriteFailed as failed:
                self.failed = failed
                raise
        return record

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_log(path: Path) -> list[CallRecord]:
    """The records of a log; a last line cut off by a killed server is left out. Lines of logs written before
    the format was named are read as its first version."""
    records = []
    for number, line in enumerate(read_text(path, CallLogError, "call log", follow_links=False).splitlines(), 1):
        try:
            data = loads(line, MAX_DEPTH)
        except TooDeep as problem:
            raise CallLogError(f"{path}:{number}: {problem}") from None
        except JSONProblem:
            break
        found = data.get("format", CALL_FORMAT) if isinstance(data, dict) else None
        if found != CALL_FORMAT:
            raise CallLogError(f"{path}:{number}: call log format {found!r} is not {CALL_FORMAT!r}")
        try:
            records.append(CallRecord(**data))
        except TypeError as error:
            raise CallLogError(f"{path}:{number}: does not match {CALL_FORMAT}: {error}") from None
    return records
