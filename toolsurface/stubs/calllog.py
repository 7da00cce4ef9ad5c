"""The call log: one JSON line per tools/list and tools/call, flushed before the answer goes out."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import WriteFailed
from toolsurface.harness.jsonl import RecordWriter, read_records

__all__ = ["CALL_FORMAT", "CallLog", "CallLogError", "CallRecord", "logged_protocol", "read_log"]

CALL_FORMAT = "toolsurface-call/1"
T = TypeVar("T")


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
        self._file = RecordWriter(path, "the call log") if path is not None else None

    @property
    def failed(self) -> WriteFailed | None:
        return self._file.failed if self._file is not None else None

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
        import hashlib  # OpenSSL's load, which listing the surfaces (whose modules import the kit) does not pay

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
            self._file.write(asdict(record))
        return record

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _read(path: Path, build: Callable[[dict[str, Any]], T]) -> list[T]:
    """Each line of a log made by `build` (harness.jsonl's rule: a last line cut off by a killed server is left
    out). Lines of logs written before the format was named are read as its first version."""
    return read_records(path, build, what="call log", formats=(CALL_FORMAT,), unnamed=CALL_FORMAT, error=CallLogError)


def read_log(path: Path) -> list[CallRecord]:
    """The records of a log."""
    return _read(path, lambda data: CallRecord(**data))


def logged_protocol(path: Path) -> str | None:
    """The MCP version of the first line of a log that names one, each line's protocol read alone: a log
    whose lines are not whole records still names it."""
    found = _read(path, lambda data: data.get("protocol"))
    return next((str(protocol) for protocol in found if isinstance(protocol, str)), None)
