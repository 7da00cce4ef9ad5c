"""A budget from a list's size and the project's margin (`ratchet-margin`, a percentage), and the comment above
`max-chars` that says what each budget value holds and when it was set: written by init, rewritten by the
ratchet. A comment is toolsurface's when it reads as one it writes (or as init wrote before it said when)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

__all__ = ["BudgetNote", "budget_comment", "is_budget_comment", "notes_of", "percent", "with_margin"]


def with_margin(size: int, margin: float) -> int:
    """`size` plus `margin` percent of it, rounded up (in decimal: 700 + 10 % is 770, not 771)."""
    return math.ceil(Decimal(size) * (100 + Decimal(str(margin))) / 100)


def percent(margin: float) -> str:
    return f"{margin:g} %"


@dataclass(frozen=True)
class BudgetNote:
    """What one budget value holds: the size measured and the margin on it (`kept`: a value left as it was,
    because the size plus the margin would raise it), who set it and on which day."""

    key: str
    value: int
    measured: int
    unit: str
    margin: float
    by: str
    date: str
    kept: bool = False

    def text(self) -> str:
        plus = f" + {percent(self.margin)}" if self.margin else ""
        held = (
            f"kept: {self.measured:,} {self.unit}{plus} would raise it"
            if self.kept
            else f"{self.measured:,} {self.unit}{plus}"
        )
        return f"{self.key} {self.value:,}: {held} ({self.by}, {self.date})"


_NOTE = re.compile(r"(max-chars|max-tokens) ([\d,]+): (.+?) \((toolsurface [^()]+), (\d{4}-\d{2}-\d{2})\)")
# What init wrote before a budget's comment said when it was set.
_INIT_BEFORE = re.compile(r"# [\d,]+ chars and [\d,]+ \S+ tokens when toolsurface init listed it, \+ [\d.]+ ?%")


def budget_comment(notes: Sequence[BudgetNote | str]) -> str:
    """The comment line (without its line break): each value's note, or a note carried over as written."""
    return "# " + "; ".join(note if isinstance(note, str) else note.text() for note in notes)


def notes_of(comment: str) -> dict[str, tuple[int, str]] | None:
    """The notes of a comment toolsurface wrote, by key (the value each was written for, and its text); None
    when the comment is not one of its own."""
    text = comment.strip()
    if _INIT_BEFORE.fullmatch(text):
        return {}
    if not text.startswith("# "):
        return None
    found = {}
    for part in text[2:].split("; "):
        match = _NOTE.fullmatch(part)
        if match is None:
            return None
        found[match.group(1)] = (int(match.group(2).replace(",", "")), part)
    return found


def is_budget_comment(comment: str) -> bool:
    return notes_of(comment) is not None
