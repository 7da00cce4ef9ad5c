"""What a surface's answers cost, as a snapshot records it (its `answers` part, written by `snapshot --probe`)
and as the sessions' call logs give it: per tool, the calls, the median and largest answer in chars and tokens.
An answer that was an error (`isError`, or a JSON-RPC error for the call) is counted apart and kept out of the
sizes: an error says nothing of what the tool's answers cost.

One rule sizes an answer wherever it is measured: its text as the client received it (the text of its content
blocks), its tokens counted from that text. So an answer probed and the same answer in a session's log have
the same figures (harness.probe, harness.session.score).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError

__all__ = [
    "ANSWERS_KEY",
    "AnswerSizes",
    "SnapshotAnswers",
    "ToolAnswers",
    "answers_from_wire",
    "size_summary",
    "whole_median",
]

ANSWERS_KEY = "answers"


@dataclass(frozen=True)
class AnswerSizes:
    """The answers of some calls: how many, their median and largest size, and their sum."""

    calls: int
    median_chars: float
    max_chars: int
    median_tokens: float | None
    max_tokens: int | None
    chars: int
    tokens: int | None


def size_summary(chars: Sequence[int], tokens: Sequence[int | None]) -> AnswerSizes:
    """Tokens only when every answer's text was kept."""
    from statistics import median  # a few ms to import, which listing the surfaces does not pay

    counted = [t for t in tokens if t is not None]
    whole = len(counted) == len(tokens) and bool(tokens)
    return AnswerSizes(
        calls=len(chars),
        median_chars=float(median(chars)) if chars else 0.0,
        max_chars=max(chars, default=0),
        median_tokens=float(median(counted)) if whole else None,
        max_tokens=max(counted) if whole else None,
        chars=sum(chars),
        tokens=sum(counted) if whole else None,
    )


@dataclass(frozen=True)
class ToolAnswers:
    """One tool's probed calls: the sizes of its answers that were not errors (`sizes.calls` of them), how many
    calls answered an error (isError or a JSON-RPC error; not in the sizes), the arguments of the largest answer,
    and Claude Code's own estimate of the largest (text length / 4, 1,600 per image: what it warns by)."""

    tool: str
    sizes: AnswerSizes
    errors: int = 0
    largest_arguments: dict[str, Any] = field(default_factory=dict)
    largest_estimate: int = 0

    @property
    def calls(self) -> int:
        """Every call made: the answers measured and the error answers."""
        return self.sizes.calls + self.errors

    @property
    def answered(self) -> bool:
        """Whether any call had an answer that was not an error (else there are no sizes to tell)."""
        return self.sizes.calls > 0

    def to_wire(self) -> dict[str, Any]:
        s = self.sizes
        return {
            "tool": self.tool,
            "calls": self.calls,
            "answers": s.calls,
            "errors": self.errors,
            "median_chars": whole_median(s.median_chars),
            "max_chars": s.max_chars,
            "median_tokens": whole_median(s.median_tokens),
            "max_tokens": s.max_tokens,
            "largest_estimate": self.largest_estimate,
            "largest_arguments": self.largest_arguments,
        }


@dataclass(frozen=True)
class SnapshotAnswers:
    """A snapshot's `answers` part: each probed tool's answers, tokens by `counter`, in the protocol version
    the calls were made in."""

    counter: str
    protocol_version: str | None
    tools: tuple[ToolAnswers, ...]

    def tool(self, name: str) -> ToolAnswers | None:
        return next((t for t in self.tools if t.tool == name), None)

    @property
    def largest(self) -> ToolAnswers | None:
        """The tool with the largest answer, by tokens (chars where tokens were not counted); None when no call
        had an answer that was not an error."""
        answered = [t for t in self.tools if t.answered]
        return max(answered, key=lambda t: (t.sizes.max_tokens or 0, t.sizes.max_chars), default=None)

    @property
    def calls(self) -> int:
        return sum(t.calls for t in self.tools)

    @property
    def errors(self) -> int:
        """The calls that answered an error, every tool's."""
        return sum(t.errors for t in self.tools)

    def to_wire(self) -> dict[str, Any]:
        return {
            "counter": self.counter,
            "protocol_version": self.protocol_version,
            "tools": [t.to_wire() for t in self.tools],
        }


def whole_median(value: float | None) -> float | int | None:
    """A median as a whole number where it is one (a half where the calls had an even count)."""
    return int(value) if value is not None and float(value).is_integer() else value


def _count(value: Any, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise SurfaceLoadError(f"{where}: expected a number of 0 or more, got {value!r}")
    return value


def answers_from_wire(data: Mapping[str, Any], origin: str) -> SnapshotAnswers | None:
    """The `answers` part of a snapshot file's object; None when it has none; a malformed one is one line."""
    part = data.get(ANSWERS_KEY)
    if part is None:
        return None
    where = f"{origin}: {ANSWERS_KEY}"
    if not isinstance(part, dict) or not isinstance(part.get("tools"), list):
        raise SurfaceLoadError(f'{where}: expected an object {{"counter": ..., "tools": [...]}}')
    counter = part.get("counter")
    protocol = part.get("protocol_version")
    if not isinstance(counter, str) or not (protocol is None or isinstance(protocol, str)):
        raise SurfaceLoadError(f"{where}: counter and protocol_version must be strings")
    tools = []
    for index, entry in enumerate(part["tools"]):
        at = f"{where}.tools[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("tool"), str):
            raise SurfaceLoadError(f"{at}: expected an object with a string tool")
        arguments = entry.get("largest_arguments", {})
        if not isinstance(arguments, dict):
            raise SurfaceLoadError(f"{at}.largest_arguments: expected an object")
        calls = int(_count(entry.get("calls"), f"{at}.calls"))
        errors = int(_count(entry.get("errors", 0), f"{at}.errors"))
        # A snapshot written before errors were kept out of the sizes has no "answers": its other calls are.
        answers = int(_count(entry.get("answers", max(calls - errors, 0)), f"{at}.answers"))
        if answers + errors != calls:
            raise SurfaceLoadError(f"{at}: answers ({answers}) and errors ({errors}) do not add up to calls ({calls})")
        sizes = AnswerSizes(
            calls=answers,
            median_chars=float(_count(entry.get("median_chars"), f"{at}.median_chars")),
            max_chars=int(_count(entry.get("max_chars"), f"{at}.max_chars")),
            median_tokens=_float(_count(entry.get("median_tokens"), f"{at}.median_tokens", optional=True)),
            max_tokens=_int(_count(entry.get("max_tokens"), f"{at}.max_tokens", optional=True)),
            chars=0,
            tokens=None,
        )
        tools.append(
            ToolAnswers(
                tool=entry["tool"],
                sizes=sizes,
                errors=errors,
                largest_arguments=arguments,
                largest_estimate=int(_count(entry.get("largest_estimate", 0), f"{at}.largest_estimate")),
            )
        )
    return SnapshotAnswers(counter=counter, protocol_version=protocol, tools=tuple(tools))


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)
