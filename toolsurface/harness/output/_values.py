"""One way to show a value in a table cell: nothing is `-`, a whole number has thousands separators. The rest
reads in one of two styles: PLAIN, as Python writes it (`True`, `0.5`, `2.0`, `[1, 2]`: report.md's and its
tables' cells, as they have always read), and READABLE (`yes`, at most four decimals with a whole float as a
whole number, a list's items joined by commas: the page, and the seed's figures everywhere)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ValueStyle:
    """`no`, `yes`: how False and True read; `places`: a float's decimals at most, trailing zeros dropped (None:
    the float as Python writes it); `lists`: a list or tuple as its items shown and joined by commas (else as
    Python writes it)."""

    no: str
    yes: str
    places: int | None
    lists: bool


PLAIN = ValueStyle("False", "True", None, lists=False)
READABLE = ValueStyle("no", "yes", 4, lists=True)


def shown(value: Any, style: ValueStyle = READABLE) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    if isinstance(value, bool):
        return style.yes if value else style.no
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float) and style.places is not None:
        return f"{value:,.{style.places}f}".rstrip("0").rstrip(".")
    if isinstance(value, list | tuple) and style.lists:
        return ", ".join(shown(v, style) for v in value)
    return str(value)


def signed(value: int | None) -> str:
    """A change: its sign always, thousands separators; nothing is `-`."""
    return "-" if value is None else f"{value:+,}"


def possessive(name: str) -> str:
    """A name's possessive: `files'` for a name that ends in s, else `desk's`."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun, plural where it is not one: `1 finding`, `2 findings`, `3 categories`."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
