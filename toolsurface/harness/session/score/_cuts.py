"""Answers a client would cut: each tools/call answer of a run set against what `toolsurface compat --answers`
saw that client (agent, version, mode) pass on of the probe's text answers, kept in answer_limits.json beside
this module (`compat --answers --record FILE` writes it), each entry naming the client and version it was seen
on. An answer at least as long as the shortest probe answer the client did not carry whole is flagged as cut
(or moved to a file, as the client did); one between the longest it carried whole and that is flagged as
maybe cut. A run of a version never observed is read by the nearest observed version below it (else above),
and the flag names the version it was seen on."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ANSWER_LIMITS_FORMAT", "AnswerCut", "AnswerLimit", "answer_cuts", "answer_limits", "cuts_markdown"]

ANSWER_LIMITS_FORMAT = "toolsurface-answer-limits/1"
_DATA = Path(__file__).with_name("answer_limits.json")


@dataclass(frozen=True)
class AnswerLimit:
    """What one client (`agent` at `version`, in `mode`, with its default settings) did with text answers:
    the longest carried whole and the shortest not (chars and o200k tokens), what it did with that one
    (`how`: cut, file, left out) and how many of its chars it kept."""

    agent: str
    client: str
    version: str
    mode: str
    whole_up_to_chars: int | None
    whole_up_to_tokens: int | None
    cut_from_chars: int | None
    cut_from_tokens: int | None
    how: str | None
    kept_chars: int | None
    note: str | None = None

    @property
    def label(self) -> str:
        return f"{self.client} {self.version} {self.mode}"


@functools.cache
def _bundled() -> tuple[AnswerLimit, ...]:
    return tuple(answer_limits(_DATA))


def answer_limits(path: Path) -> list[AnswerLimit]:
    """The entries of an answer limits file (the default-setting ones)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    names = {f for f in AnswerLimit.__dataclass_fields__}
    return [
        AnswerLimit(**{k: v for k, v in entry.items() if k in names})
        for entry in data["clients"]
        if entry.get("setting") is None
    ]


@dataclass(frozen=True)
class AnswerCut:
    """One answer of one run that its client would cut: the run's folder, the tool, the answer's size, and
    what the client was seen to do (`how`; `certain`: False when the answer lies between the longest seen
    carried whole and the shortest seen cut), on the version it was seen on (`seen_on`)."""

    run: str
    surface: str
    agent: str
    agent_version: str | None
    mode: str
    tool: str
    chars: int
    tokens: int | None
    how: str
    certain: bool
    seen_on: str
    whole_up_to_chars: int | None
    cut_from_chars: int


def _version(text: str | None) -> tuple[int, ...]:
    parts = []
    for part in (text or "").split("."):
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def limit_for(
    agent: str, version: str | None, mode: str, limits: Sequence[AnswerLimit] | None = None
) -> AnswerLimit | None:
    """The entry for this client: its version and mode where seen, else the nearest version below (else
    above), in its mode where seen in it."""
    entries = [e for e in (_bundled() if limits is None else limits) if e.agent == agent and e.cut_from_chars]
    if not entries:
        return None
    wanted = _version(version)
    below = [e for e in entries if _version(e.version) <= wanted]
    pool = below or entries
    best = max(_version(e.version) for e in pool) if below else min(_version(e.version) for e in pool)
    same = [e for e in pool if _version(e.version) == best]
    return next((e for e in same if e.mode == mode), same[0])


def answer_cuts(runs: Sequence[Any], limits: Sequence[AnswerLimit] | None = None) -> list[AnswerCut]:
    """Every answer of `runs` (run records: `.path`, `.spec`) its client would cut, run by run."""
    from toolsurface.harness.run_folder import CALLS
    from toolsurface.harness.session.score._answers import run_answers

    found = []
    for record in runs:
        spec = record.spec
        limit = limit_for(spec.agent, spec.agent_version, spec.mode, limits)
        if limit is None or limit.cut_from_chars is None:
            continue
        for tool, chars, tokens in run_answers(record.path / CALLS).calls:
            low = limit.whole_up_to_chars or 0
            if chars <= low:
                continue
            found.append(
                AnswerCut(
                    run="/".join(record.path.parts[-2:]),
                    surface=spec.surface,
                    agent=spec.agent,
                    agent_version=spec.agent_version,
                    mode=spec.mode,
                    tool=tool,
                    chars=chars,
                    tokens=tokens,
                    how=limit.how or "cut",
                    certain=chars >= limit.cut_from_chars,
                    seen_on=limit.label,
                    whole_up_to_chars=limit.whole_up_to_chars,
                    cut_from_chars=limit.cut_from_chars,
                )
            )
    return found


_HOW = {"file": "moved to a file", "cut": "cut", "left out": "left out"}


def cuts_markdown(cuts: Sequence[AnswerCut]) -> str:
    """A line per answer a client would cut."""
    lines = []
    for cut in cuts:
        how = _HOW.get(cut.how, cut.how)
        said = how if cut.certain else f"maybe {how}"
        tokens = f", {cut.tokens:,} tokens" if cut.tokens is not None else ""
        whole = f"whole up to {cut.whole_up_to_chars:,}, " if cut.whole_up_to_chars else ""
        lines.append(
            f"- {cut.surface} ({cut.agent} {cut.agent_version or ''} {cut.mode}): {cut.tool} answered"
            f" {cut.chars:,} chars{tokens}: {said} ({cut.seen_on} carried {whole}not from {cut.cut_from_chars:,}"
            f" chars); {cut.run}"
        )
    return "\n".join(lines) + "\n"
