"""A probe's bounds, apart from the probe itself: the CLI declares its options with these defaults without
loading what a probe needs."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_CALL_TIMEOUT_S", "DEFAULT_MAX_ANSWER_BYTES", "ProbeBounds"]

DEFAULT_CALL_TIMEOUT_S = 30.0
# An answer far larger than any client takes whole (Claude Code cuts at 100,000 chars by default), and bounded.
DEFAULT_MAX_ANSWER_BYTES = 16 * 2**20


@dataclass(frozen=True)
class ProbeBounds:
    """A timeout per call, the most bytes one answer may have, and how many calls run at once."""

    call_timeout: float = DEFAULT_CALL_TIMEOUT_S
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES
    jobs: int = 1
