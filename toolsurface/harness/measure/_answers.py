"""What a tool's answer may cost in a client before the client cuts it, and the check of probed answers against
a token budget (`budget --max-answer-tokens N`) or, without one, against each client's own cap, as its card
declares it (harness.agents: each client's `answer_caps`, the version each was read in).

The estimate a probe records beside each answer (`claude_estimate`) is Claude Code's own, read from its bundle
in 2.1.197 and 2.1.332: each text block's length in UTF-16 code units / 4, rounded as JavaScript's Math.round
does, plus 1,600 per image; it is the estimate a client's warning (`warn`) is set against.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.output import Column
from toolsurface.harness.surface import SnapshotAnswers, ToolAnswers

__all__ = [
    "ANSWER_COLUMNS",
    "IMAGE_ESTIMATE",
    "AnswerCheck",
    "ClientAnswerCap",
    "OverAnswer",
    "answer_rows",
    "check_answers",
    "claude_estimate",
    "client_answer_caps",
    "count_of",
    "error_answers_text",
]

# Claude Code's estimate of an image block, in tokens.
IMAGE_ESTIMATE = 1600


@dataclass(frozen=True)
class ClientAnswerCap:
    """A client's cap on one tool answer (`cap` tokens, over which it cuts the answer) and the size over which
    it warns (`warn`, by its own estimate); `setting` is how a user moves the cap."""

    client: str
    cap: int
    warn: int
    setting: str


def client_answer_caps() -> tuple[ClientAnswerCap, ...]:
    """Every registered client's cap on one tool answer, per version its card read it in (`Claude Code 2.1.332`)."""
    from toolsurface.harness.agents import client_cards

    return tuple(
        ClientAnswerCap(f"{card.title} {cap.version}", cap.cap, cap.warn, cap.setting)
        for card in client_cards()
        for cap in card.answer_caps
    )


def claude_estimate(texts: Sequence[str], images: int = 0) -> int:
    """Claude Code's rough estimate of an answer: each text's length in UTF-16 code units / 4, rounded as
    JavaScript's Math.round does, and 1,600 per image."""
    from toolsurface.harness.output import slices

    total = 0
    for text in texts:
        # A character beyond U+FFFF is two code units; a long text is encoded a slice at a time.
        units = (
            len(text)
            if text.isascii()
            else sum(len(piece.encode("utf-16-le", "surrogatepass")) // 2 for piece in slices(text))
        )
        total += math.floor(units / 4 + 0.5)
    return total + IMAGE_ESTIMATE * images


@dataclass(frozen=True)
class OverAnswer:
    """A tool whose largest answer is over a limit: the limit's name, its tokens and the call's arguments."""

    tool: str
    tokens: int
    limit: int
    by: str
    arguments: dict[str, Any]

    @property
    def text(self) -> str:
        from toolsurface.harness.output import compact_json

        return (
            f"{self.tool} answered {self.tokens:,} tokens, over {self.by} ({self.limit:,}) by"
            f" {self.tokens - self.limit:,}; the call: {self.tool} {compact_json(self.arguments)}"
        )


def count_of(count: int, noun: str) -> str:
    """`1 call`, `2 calls`."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def error_answers_text(errors: int, calls: int, tools: Sequence[str], calls_file: str | None = None) -> str | None:
    """What the calls that answered an error tell, and what to do: "1 of 2 calls answered an error (ticket_get):
    give arguments in a calls file ..."; None when none did."""
    if not errors:
        return None
    said = "an error" if errors == 1 else "errors"
    where = calls_file or "a calls file (toolsurface new calls writes a starter)"
    return f"{errors:,} of {count_of(calls, 'call')} answered {said} ({', '.join(tools)}): give arguments in {where}"


@dataclass(frozen=True)
class AnswerCheck:
    """Probed answers against a budget: `max_tokens` given, or None for each client's own cap; what is over
    (failing), and what a client warns of (not failing). The calls that answered an error (`errors` of `calls`,
    by the tools `error_tools`) are kept out of the sizes, which rest on the other answers (of `answered_tools`
    tools), and fail the check only with `fail_on_errors`; `calls_file` is where the calls' arguments came from."""

    max_tokens: int | None
    counter: str
    tools: int
    calls: int
    largest: ToolAnswers | None
    over: tuple[OverAnswer, ...] = ()
    warned: tuple[str, ...] = field(default_factory=tuple)
    errors: int = 0
    error_tools: tuple[str, ...] = ()
    answered_tools: int = 0
    fail_on_errors: bool = False
    calls_file: str | None = None

    @property
    def answers(self) -> int:
        """The calls whose answers were measured: those that did not answer an error."""
        return self.calls - self.errors

    @property
    def failing_errors(self) -> bool:
        return self.fail_on_errors and self.errors > 0

    @property
    def within(self) -> bool:
        return not self.over and not self.failing_errors

    @property
    def errors_text(self) -> str | None:
        return error_answers_text(self.errors, self.calls, self.error_tools, self.calls_file)

    @property
    def limit_text(self) -> str:
        if self.max_tokens is not None:
            return f"{self.max_tokens:,} tokens an answer"
        return f"each client's cap ({', '.join(f'{c.client} {c.cap:,}' for c in client_answer_caps())} tokens)"

    def to_json(self) -> dict[str, Any]:
        largest = self.largest
        return {
            "max_answer_tokens": self.max_tokens,
            "counter": self.counter,
            "tools": self.tools,
            "calls": self.calls,
            "answers": self.answers,
            "errors": self.errors,
            "error_tools": list(self.error_tools),
            "fail_on_error_answers": self.fail_on_errors,
            "within": self.within,
            "largest": None
            if largest is None
            else {
                "tool": largest.tool,
                "chars": largest.sizes.max_chars,
                "tokens": largest.sizes.max_tokens,
                "arguments": largest.largest_arguments,
            },
            "over": [
                {"tool": o.tool, "tokens": o.tokens, "limit": o.limit, "by": o.by, "arguments": o.arguments}
                for o in self.over
            ],
            "warned": list(self.warned),
        }


def check_answers(
    answers: SnapshotAnswers,
    max_tokens: int | None = None,
    *,
    fail_on_errors: bool = False,
    calls_file: str | None = None,
) -> AnswerCheck:
    """Each tool's largest probed answer against `max_tokens` (None: each client's cap, where the client cuts
    it), and the answers a client warns of; the calls that answered an error counted apart, failing the check
    with `fail_on_errors`."""
    over: list[OverAnswer] = []
    warned: list[str] = []
    caps = client_answer_caps()
    for tool in answers.tools:
        tokens = tool.sizes.max_tokens
        if tokens is None:
            continue
        if max_tokens is not None:
            if tokens > max_tokens:
                over.append(OverAnswer(tool.tool, tokens, max_tokens, "the answer budget", tool.largest_arguments))
        else:
            for cap in caps:
                if tokens > cap.cap:
                    by = f"{cap.client}'s cap ({cap.setting})"
                    over.append(OverAnswer(tool.tool, tokens, cap.cap, by, tool.largest_arguments))
                    break
        for cap in caps:
            if tool.largest_estimate > cap.warn:
                warned.append(
                    f"{tool.tool}: {cap.client} warns of its answer (~{tool.largest_estimate:,} tokens by its"
                    f" estimate, over {cap.warn:,}) and cuts one over {cap.cap:,} tokens ({cap.setting})"
                )
                break
    over.sort(key=lambda o: o.tokens, reverse=True)
    return AnswerCheck(
        max_tokens=max_tokens,
        counter=answers.counter,
        tools=len(answers.tools),
        calls=answers.calls,
        largest=answers.largest,
        over=tuple(over),
        warned=tuple(warned),
        errors=answers.errors,
        error_tools=tuple(t.tool for t in answers.tools if t.errors),
        answered_tools=sum(t.answered for t in answers.tools),
        fail_on_errors=fail_on_errors,
        calls_file=calls_file,
    )


# What a snapshot's answers part shows, a row per tool (measure, probe, the report).
ANSWER_COLUMNS = (
    Column("surface"),
    Column("tool"),
    Column("calls", numeric=True),
    Column("errors", "error answers", numeric=True),
    Column("median_chars", "median chars", numeric=True),
    Column("max_chars", "largest chars", numeric=True),
    Column("median_tokens", "median tokens", numeric=True),
    Column("max_tokens", "largest tokens", numeric=True),
    Column("largest_call", "largest call"),
)


def answer_rows(surface: str, answers: SnapshotAnswers) -> list[list[Any]]:
    """A row per tool of ANSWER_COLUMNS, largest answer first; a median as a whole number where it is one. The
    sizes are of the answers that were not errors; a tool whose every call answered an error has none."""
    from toolsurface.harness.output import compact_json
    from toolsurface.harness.surface import whole_median as whole

    rows = []
    for t in sorted(answers.tools, key=lambda t: (-(t.sizes.max_tokens or 0), -t.sizes.max_chars, t.tool)):
        s = t.sizes
        if not t.answered:
            rows.append([surface, t.tool, t.calls, t.errors, None, None, None, None, None])
            continue
        rows.append(
            [
                surface,
                t.tool,
                t.calls,
                t.errors,
                whole(s.median_chars),
                s.max_chars,
                whole(s.median_tokens),
                s.max_tokens,
                f"{t.tool} {compact_json(t.largest_arguments)}",
            ]
        )
    return rows
