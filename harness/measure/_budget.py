"""A character (and optionally token) budget for one tool list: within, or over and by how much."""

from __future__ import annotations

from dataclasses import dataclass

from harness.measure._measure import Measurable, ToolSize, measure

__all__ = ["BudgetResult", "check_budget"]


@dataclass(frozen=True)
class BudgetResult:
    surface: str
    protocol_version: str | None
    tools: int
    chars: int
    max_chars: int
    tokens: int | None
    max_tokens: int | None
    largest: list[ToolSize]

    @property
    def chars_over(self) -> int:
        return max(0, self.chars - self.max_chars)

    @property
    def tokens_over(self) -> int:
        if self.tokens is None or self.max_tokens is None:
            return 0
        return max(0, self.tokens - self.max_tokens)

    @property
    def within(self) -> bool:
        return self.chars_over == 0 and self.tokens_over == 0


def check_budget(item: Measurable, max_chars: int, max_tokens: int | None = None, largest: int = 3) -> BudgetResult:
    """Measure one list; tokens are counted only when a token budget is given, to keep CI fast."""
    measured = measure([item], tokens=max_tokens is not None, growth=False).surfaces[0]
    return BudgetResult(
        surface=measured.name,
        protocol_version=measured.protocol_version,
        tools=measured.tools,
        chars=measured.chars,
        max_chars=max_chars,
        tokens=measured.tokens,
        max_tokens=max_tokens,
        largest=measured.largest(largest),
    )
