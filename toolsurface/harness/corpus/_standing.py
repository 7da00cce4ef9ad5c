"""Where a list stands among the corpus's: the percentile of its tokens and of its tokens a tool among the
corpus servers' figures, with the corpus's date and size and the counter, so no figure is read without them.

A percentile here is the share of the corpus's lists below the list's figure, ties counted half
(100 * (below + equal / 2) / lists): a list smaller than every one stands at 0, larger than every one at 100."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolsurface.harness.corpus._figures import CorpusFigures

__all__ = ["Rank", "Standing", "ordinal", "stand"]


@dataclass(frozen=True)
class Rank:
    """One figure of a list among the same figure of `of` corpus lists: how many are below it, how many equal."""

    value: float
    below: int
    equal: int
    of: int

    @property
    def percentile(self) -> float:
        return 100 * (self.below + self.equal / 2) / self.of

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "percentile": round(self.percentile, 1),
            "below": self.below,
            "equal": self.equal,
            "of": self.of,
        }


def _rank(value: float, among: list[float]) -> Rank | None:
    if not among:
        return None
    below = sum(1 for other in among if other < value)
    equal = sum(1 for other in among if other == value)
    return Rank(value, below, equal, len(among))


def ordinal(percentile: float) -> str:
    """`34th`, `1st`, `22nd`, `13th`: a percentile rounded half up to a whole one."""
    whole = int(percentile + 0.5)
    suffix = "th" if 10 <= whole % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(whole % 10, "th")
    return f"{whole}{suffix}"


@dataclass(frozen=True)
class Standing:
    """Where one list stands among the corpus's (`servers` lists, listed by `listed`), its tokens counted by
    `counter`: `tokens` and `tokens_per_tool` ranked among the corpus's (None: the corpus holds no list, or none
    with a tool, or this list has no tools); `same_as`, the corpus server whose list this is, byte for byte."""

    counter: str
    listed: str
    servers: int
    tokens: Rank | None
    tokens_per_tool: Rank | None
    same_as: str | None = None

    def line(self) -> str:
        """`1,708 tokens (o200k_base): 50th percentile of 51 public servers' lists (corpus 2026-12-07); 131 tokens
        a tool: 41st percentile`."""
        if self.tokens is None:
            return f"no standing: the corpus ({self.listed or 'no date'}) holds no servers' lists"
        text = (
            f"{int(self.tokens.value):,} tokens ({self.counter}): {ordinal(self.tokens.percentile)} percentile of"
            f" {self.servers} public servers' lists (corpus {self.listed})"
        )
        if self.tokens_per_tool is not None:
            text += (
                f"; {self.tokens_per_tool.value:,.0f} tokens a tool: {ordinal(self.tokens_per_tool.percentile)}"
                " percentile"
            )
        if self.same_as is not None:
            text += f"; the corpus holds this very list ({self.same_as})"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "counter": self.counter,
            "corpus": {"listed": self.listed, "servers": self.servers},
            "tokens": self.tokens.to_json() if self.tokens is not None else None,
            "tokens_per_tool": self.tokens_per_tool.to_json() if self.tokens_per_tool is not None else None,
            "same_as": self.same_as,
        }


def stand(figures: CorpusFigures, tokens: int, tools: int, tools_sha256: str) -> Standing:
    """Where a list of `tools` tools and `tokens` tokens (by the figures' counter) stands among the corpus's; its
    tools_sha256 finds it in the corpus when it is one of its lists."""
    # From the counts, not the file's rounded tokens_per_tool: a corpus list measured again ties with itself.
    per_tool = [s.tokens / s.tools for s in figures.servers if s.tools]
    same = next((s.name for s in figures.servers if s.tools_sha256 == tools_sha256), None)
    return Standing(
        counter=figures.counter,
        listed=figures.listed,
        servers=len(figures.servers),
        tokens=_rank(tokens, [s.tokens for s in figures.servers]),
        tokens_per_tool=_rank(tokens / tools, per_tool) if tools else None,
        same_as=same,
    )
