"""A table's column declared once: the key CSV and JSON name it by, the label a person reads (a terminal's table,
a report's, the page), how a value reads in a cell, and how a terminal lays it out. A column whose figures are
numbers is right-aligned (in a terminal and in markdown) and sorts as a number."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    """`show`: how a value reads in a cell (default: a text as it is, any other value as output.shown shows it);
    `no_wrap`, `fold` and `max_width`: a terminal's layout of the column (kept on one line, a word too long
    folded, the most characters it takes)."""

    key: str
    label: str = ""
    numeric: bool = False
    show: Callable[[Any], str] | None = None
    no_wrap: bool = False
    fold: bool = False
    max_width: int | None = None

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.key)

    def cell(self, value: Any) -> str:
        if self.show is not None:
            return self.show(value)
        if isinstance(value, str):
            return value
        from toolsurface.harness.output._values import shown

        return shown(value)


def columns_of(labels: Iterable[str], numbers: Collection[str] = ()) -> tuple[Column, ...]:
    """A column per label (its key too), those named in `numbers` holding numbers."""
    return tuple(Column(label, numeric=label in numbers) for label in labels)


def keys(columns: Iterable[Column]) -> list[str]:
    return [c.key for c in columns]


def labels(columns: Iterable[Column]) -> list[str]:
    return [c.label for c in columns]


def right(columns: Iterable[Column]) -> set[int]:
    """The indices of the right-aligned columns (those of numbers)."""
    return {i for i, c in enumerate(columns) if c.numeric}


def cells(columns: Sequence[Column], row: Sequence[Any]) -> list[str]:
    """A row's values as each column shows them."""
    return [column.cell(value) for column, value in zip(columns, row, strict=True)]
