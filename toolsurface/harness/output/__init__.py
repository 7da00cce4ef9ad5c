"""The pieces every result's text is made of: compact JSON, markdown and CSV tables and their cells, GitHub
annotations, the columns a table declares once (the key CSV and JSON name it by, the label a person reads),
and one way to show a value in a table."""

from toolsurface.harness.output._columns import Column, keys, labels
from toolsurface.harness.output._github import Level, github_escape, github_line
from toolsurface.harness.output._json import (
    SLICE_CHARS,
    compact_json,
    compact_json_length,
    json_document,
    slices,
    utf8_length,
)
from toolsurface.harness.output._tables import (
    LineBreaks,
    csv_table,
    markdown_cell,
    markdown_row,
    markdown_rule,
    markdown_table,
)
from toolsurface.harness.output._values import PLAIN, READABLE, ValueStyle, counted, shown, signed

__all__ = [
    "PLAIN",
    "READABLE",
    "SLICE_CHARS",
    "Column",
    "Level",
    "LineBreaks",
    "ValueStyle",
    "compact_json",
    "compact_json_length",
    "counted",
    "csv_table",
    "github_escape",
    "github_line",
    "json_document",
    "keys",
    "labels",
    "markdown_cell",
    "markdown_row",
    "markdown_rule",
    "markdown_table",
    "shown",
    "signed",
    "slices",
    "utf8_length",
]
