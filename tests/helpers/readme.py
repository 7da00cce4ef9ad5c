"""The README's and the docs pages' tables and figures as data, so tests can hold them to what the code
measures. Every pin names its page: `README.md` or `docs/NAME.md`, relative to the repository's root."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.paths import ROOT

__all__ = ["DOCS", "README", "ROOT", "doc_pages", "doc_prose", "doc_table", "doc_text", "number"]

README = ROOT / "README.md"
DOCS = ROOT / "docs"

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def doc_pages() -> list[Path]:
    """The README and every page of docs/."""
    return [README, *sorted(DOCS.glob("*.md"))]


def doc_text(page: str) -> str:
    path = ROOT / page
    assert path in doc_pages(), f"{page} is not the README or a page of docs/"
    return path.read_text(encoding="utf-8")


def doc_prose(page: str) -> str:
    """A page's text with its line breaks as spaces, so a sentence reads as one line."""
    return " ".join(doc_text(page).split())


def doc_table(page: str, after: str) -> list[dict[str, str]]:
    """The first markdown table of `page` after the first line holding `after` (or starting there, when that
    line is a table's header): a dict per row, keyed by its header."""
    lines = doc_text(page).splitlines()
    start = next((i for i, line in enumerate(lines) if after in line), None)
    assert start is not None, f"{page} has no line holding {after!r}"
    rows: list[list[str]] = []
    for line in lines[start if lines[start].startswith("|") else start + 1 :]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) >= 2, f"no table follows {after!r} in {page}"
    header, separator, *body = rows
    assert all(set(cell) <= set("-: ") for cell in separator), f"the table after {after!r} has no separator line"
    for row in body:
        assert len(row) == len(header), f"a row of the table after {after!r} has {len(row)} cells: {row}"
    return [dict(zip(header, row, strict=True)) for row in body]


def number(text: str) -> int:
    """A figure as the docs write it: `19,204`, `8` or `eight`."""
    return _WORDS[text] if text in _WORDS else int(text.replace(",", ""))
