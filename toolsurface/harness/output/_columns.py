"""A table's column declared once: the key CSV and JSON name it by, and the label a person reads (a report's
tables, the page). A column whose figures are numbers is right-aligned and sorts as a number."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    key: str
    label: str = ""
    numeric: bool = False

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.key)


def keys(columns: Iterable[Column]) -> list[str]:
    return [c.key for c in columns]


def labels(columns: Iterable[Column]) -> list[str]:
    return [c.label for c in columns]
