"""One renderer (a result's View: its declared tables, made into every format by `render`) and the pieces every
result's text is made of: compact JSON, terminal, markdown and CSV tables and their cells, GitHub annotations, the columns a table declares once (the key CSV and JSON name it by, the label a person
reads, its alignment, how a value reads), and one way to show a value in a table."""

from toolsurface.harness.output._columns import Column, cells, columns_of, keys, labels, right
from toolsurface.harness.output._github import Level, github_escape, github_line
from toolsurface.harness.output._json import (
    SLICE_CHARS,
    compact_json,
    compact_json_length,
    json_document,
    slices,
    utf8_length,
)
from toolsurface.harness.output._render import Block, Table, Text, View, joined, render
from toolsurface.harness.output._tables import (
    LineBreaks,
    columns_csv,
    columns_markdown,
    csv_table,
    markdown_cell,
    markdown_row,
    markdown_rule,
    markdown_table,
)
from toolsurface.harness.output._terminal import terminal_table
from toolsurface.harness.output._values import PLAIN, READABLE, ValueStyle, counted, possessive, shown, signed

__all__ = [
    "PLAIN",
    "READABLE",
    "SLICE_CHARS",
    "Block",
    "Column",
    "Level",
    "LineBreaks",
    "Table",
    "Text",
    "ValueStyle",
    "View",
    "cells",
    "columns_csv",
    "columns_markdown",
    "columns_of",
    "compact_json",
    "compact_json_length",
    "counted",
    "csv_table",
    "github_escape",
    "github_line",
    "joined",
    "json_document",
    "keys",
    "labels",
    "markdown_cell",
    "markdown_row",
    "markdown_rule",
    "markdown_table",
    "possessive",
    "render",
    "right",
    "shown",
    "signed",
    "slices",
    "terminal_table",
    "utf8_length",
]
