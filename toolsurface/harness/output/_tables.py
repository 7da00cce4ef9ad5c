"""Markdown and CSV tables, and a markdown cell: text on one line with its pipes escaped, so a table keeps its
columns whatever a tool's name or description holds."""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from typing import Any, Literal

from toolsurface.harness.output._columns import Column, cells, keys, labels, right
from toolsurface.harness.terminal import one_line

# How a cell shows a line break: escaped, as `\n` (measure's and clients' tables, where the text is data to
# see exactly); spaced, as a space (a pull request's or job's summary, report.md); collapsed, every run of
# white space one space (the session table, whose cells hold an agent's error output); kept, the cell written as
# it is (cells its table made markdown already: the study's tables).
LineBreaks = Literal["escaped", "spaced", "collapsed", "kept"]


def markdown_cell(text: str, breaks: LineBreaks = "escaped") -> str:
    """Text as one cell of a markdown table row: on one line, its pipes escaped."""
    if breaks == "escaped":
        return one_line(text).replace("|", "\\|")
    if breaks == "kept":
        return text
    if breaks == "spaced":
        return text.replace("|", "\\|").replace("\n", " ")
    return " ".join(text.replace("|", "\\|").split())


def markdown_row(cells: Sequence[str]) -> str:
    """A row of cells that are markdown already (escaped, or markup of their own)."""
    return "| " + " | ".join(cells) + " |"


def markdown_rule(count: int, right: Collection[int] = (), *, tight: bool = False) -> str:
    """The line under the header: `| --- | ---: |`, the columns in `right` right-aligned; `tight`: `|---|--:|`
    (the job summaries' way)."""
    if tight:
        return "|" + "|".join("--:" if i in right else "---" for i in range(count)) + "|"
    return markdown_row(["---:" if i in right else "---" for i in range(count)])


def markdown_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: Collection[int] = (),
    *,
    breaks: LineBreaks = "escaped",
    tight: bool = False,
) -> str:
    """A markdown table of text cells, each escaped as `breaks` says; the columns in `right` right-aligned."""
    lines = [markdown_row(header), markdown_rule(len(header), right, tight=tight)]
    lines += [markdown_row([markdown_cell(cell, breaks) for cell in row]) for row in rows]
    return "\n".join(lines) + "\n"


def csv_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """CSV with a header row and `\\n` line ends; None is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if v is None else v for v in row] for row in rows)
    return out.getvalue()


def columns_markdown(
    columns: Sequence[Column], rows: Sequence[Sequence[Any]], *, breaks: LineBreaks = "escaped", tight: bool = False
) -> str:
    """A markdown table from declared columns: their labels, numbers right-aligned, each value as its column
    shows it."""
    return markdown_table(
        labels(columns), [cells(columns, row) for row in rows], right(columns), breaks=breaks, tight=tight
    )


def columns_csv(columns: Sequence[Column], rows: Sequence[Sequence[object]]) -> str:
    """CSV from declared columns: their keys as the header, each value as it is (None an empty cell)."""
    return csv_table(keys(columns), rows)
