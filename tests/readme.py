"""The README's tables and figures as data, so tests can hold them to what the code measures."""

from __future__ import annotations

from pathlib import Path

__all__ = ["README", "number", "readme_table", "readme_text"]

README = Path(__file__).resolve().parent.parent / "README.md"

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def readme_text() -> str:
    return README.read_text(encoding="utf-8")


def readme_table(after: str) -> list[dict[str, str]]:
    """The first markdown table after the first line holding `after` (or starting there, when that line is a
    table's header): a dict per row, keyed by its header."""
    lines = readme_text().splitlines()
    start = next((i for i, line in enumerate(lines) if after in line), None)
    assert start is not None, f"the README has no line holding {after!r}"
    rows: list[list[str]] = []
    for line in lines[start if lines[start].startswith("|") else start + 1 :]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) >= 2, f"no table follows {after!r} in the README"
    header, separator, *body = rows
    assert all(set(cell) <= set("-: ") for cell in separator), f"the table after {after!r} has no separator line"
    for row in body:
        assert len(row) == len(header), f"a row of the table after {after!r} has {len(row)} cells: {row}"
    return [dict(zip(header, row, strict=True)) for row in body]


def number(text: str) -> int:
    """A figure as the README writes it: `19,204`, `8` or `eight`."""
    return _WORDS[text] if text in _WORDS else int(text.replace(",", ""))
