"""A probe's bounds, apart from the probe itself: the CLI declares its options with these defaults without
loading what a probe needs."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_CALL_TIMEOUT_S", "DEFAULT_MAX_ANSWER_BYTES", "DEFAULT_MAX_CALLS", "ProbeBounds"]

DEFAULT_CALL_TIMEOUT_S = 30.0
# An answer far larger than any client takes whole (Claude Code cuts at 100,000 chars by default), and bounded.
DEFAULT_MAX_ANSWER_BYTES = 16 * 2**20
# More calls than a probe of any server needs (a calls file's times add up): a plan beyond it is refused whole.
DEFAULT_MAX_CALLS = 1000


@dataclass(frozen=True)
class ProbeBounds:
    """A timeout per call, the most bytes one answer may have, how many calls run at once, the most calls in all,
    and whether a tool whose hints say it may destroy is left out."""

    call_timeout: float = DEFAULT_CALL_TIMEOUT_S
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES
    jobs: int = 1
    max_calls: int = DEFAULT_MAX_CALLS
    skip_destructive: bool = False
