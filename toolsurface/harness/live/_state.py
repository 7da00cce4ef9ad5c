"""How far a listing got, so a failure can say where it stopped and why, and the steps that move it on."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolsurface.harness.surface import SurfaceParts

if TYPE_CHECKING:
    from toolsurface.harness.live._servers import Use

__all__ = [
    "CACHE_KEYS",
    "MAX_LINE_BYTES",
    "ListingState",
    "Opened",
    "cache_keeper",
    "lift_deadline",
    "phase_setter",
    "quiet_sdk_logs",
]


# One JSON-RPC message a line: far beyond any list a server sends, and bounded.
MAX_LINE_BYTES = 64 * 1024 * 1024


@dataclass
class ListingState:
    """What happened so far, so a failure can say where it stopped and why."""

    timeout: float
    phase: str = "initialize"
    noise: list[str] = field(default_factory=list)
    eof: bool = False
    exit_code: int | None = None
    http_status: str | None = None
    logged: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    listed: float | None = None
    marker: str | None = None
    parts: SurfaceParts = field(default_factory=SurfaceParts)
    protocol: str | None = None  # the version asked for; None: the handshake, or 2026-07-28 if refused
    # What the connection is used for once listed (harness.live._connection), and what that gave.
    use: Use | None = None
    used: Any = None
    deadline: Any = None  # the listing's cancel scope, lifted once listed: each use has its own bounds
    # The longest line a server may send: any list; once listed, an answer within the use's limit.
    line_limit: int = MAX_LINE_BYTES
    answer_limit: int | None = None
    cut: str | None = None  # why the HTTP transport ended an answer (larger than the answer limit)
    # ttlMs and cacheScope of the first tools/list page, where the server sent them (2026-07-28).
    cache: dict[str, Any] = field(default_factory=dict)
    # The list's check (as a surface), run before any use of the connection.
    check: Callable[[list[dict[str, Any]]], None] | None = None
    # Over HTTP: the transport spoken (harness.protocol), and how the URL answered Streamable HTTP's first
    # request before HTTP+SSE was tried (the specification's fallback).
    transport: str | None = None
    refused: str | None = None
    # Whether the drafts a server advertises are read too (`--drafts`).
    drafts: bool = False


@dataclass(frozen=True)
class Opened:
    """What the first exchange (initialize or server/discover) settled."""

    protocol_version: str
    server_name: str | None
    server_version: str | None
    has_tools: bool


class _Collect(logging.Handler):
    def __init__(self, state: ListingState) -> None:
        super().__init__(logging.WARNING)
        self.state = state

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.state.logged.append(record.getMessage())


@contextlib.contextmanager
def quiet_sdk_logs(state: ListingState) -> Iterator[None]:
    """The SDK logs transport faults with tracebacks; keep them for the error message instead of stderr."""
    root = logging.getLogger()
    handler = _Collect(state)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def lift_deadline(state: ListingState) -> None:
    """Once listed, the listing's timeout no longer applies: each of the use's requests has its own bound, and
    an answer may be as large as its limit allows."""
    import math

    if state.deadline is not None:
        state.deadline.deadline = math.inf
    if state.answer_limit is not None:
        state.line_limit = state.answer_limit


def phase_setter(state: ListingState) -> Callable[[str], None]:
    def set_phase(method: str) -> None:
        state.phase = method

    return set_phase


# What a list result may carry beside the tools about how long it holds (2026-07-28).
CACHE_KEYS = ("ttlMs", "cacheScope")


def cache_keeper(state: ListingState) -> Callable[[dict[str, Any]], None]:
    """Keeps ttlMs and cacheScope of the first page of tools/list, where the server sends them."""

    def keep(page: dict[str, Any]) -> None:
        if not state.cache:
            state.cache.update({key: page[key] for key in CACHE_KEYS if key in page})

    return keep
