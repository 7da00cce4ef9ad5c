"""A table is declared once as columns, and that declaration makes its terminal, markdown and CSV forms alike:
labels, numbers right-aligned, each value shown as its column says; no renderer builds a rich table by hand."""

from __future__ import annotations

import ast
import io
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tests.conftest import ROOT
from toolsurface.harness.output import Column, columns_csv, columns_markdown, columns_of, terminal_table

COLUMNS = (
    Column("tool"),
    Column("chars", numeric=True),
    Column("ratio", "share", numeric=True, show=lambda v: f"{v:.0%}"),
    Column("note"),
)
ROWS = [["item_get", 12345, 0.25, None], ["item_list", 7, 0.5, "big"]]


def rendered(table: object) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(table)
    return out.getvalue()


def test_a_terminal_table_shows_each_value_as_its_column_declares() -> None:
    text = rendered(terminal_table("Sizes", COLUMNS, ROWS))
    assert "Sizes" in text
    header = next(line for line in text.splitlines() if "tool" in line)
    assert header.split("┃")[1:-1] == [" tool      ", "  chars ", " share ", " note "]
    first = next(line for line in text.splitlines() if "item_get" in line)
    # Numbers right-aligned, thousands separated; nothing is `-`; a declared `show` wins.
    assert first.split("│")[1:-1] == [" item_get  ", " 12,345 ", "   25% ", " -    "]
    second = next(line for line in text.splitlines() if "item_list" in line)
    assert second.split("│")[2] == "      7 "


def test_markdown_from_the_same_columns_aligns_the_numbers_right_as_the_terminal_does() -> None:
    assert columns_markdown(COLUMNS, ROWS).splitlines() == [
        "| tool | chars | share | note |",
        "| --- | ---: | ---: | --- |",
        "| item_get | 12,345 | 25% | - |",
        "| item_list | 7 | 50% | big |",
    ]


def test_csv_from_the_same_columns_is_headed_by_their_keys_with_the_values_as_they_are() -> None:
    assert columns_csv(COLUMNS, ROWS) == "tool,chars,ratio,note\nitem_get,12345,0.25,\nitem_list,7,0.5,big\n"


def test_columns_named_as_numbers_are_right_aligned_by_name_not_by_place() -> None:
    declared = columns_of(["surface", "Shown", "Status"], numbers={"Shown"})
    assert [(c.label, c.numeric) for c in declared] == [("surface", False), ("Shown", True), ("Status", False)]


def test_a_line_is_drawn_under_each_section_and_styled_text_keeps_its_style() -> None:
    table = terminal_table(None, COLUMNS[:2], [["a", 1], ["b", 2], [Text("c", style="bold"), 3]], sections={1})
    assert [row.end_section for row in table.rows] == [False, True, False]
    lines = rendered(table).splitlines()
    assert any(set(line.strip()) <= set("├┼─┤") and line.strip() for line in lines[3:-1])
    assert "c" in lines[-2]


def test_no_module_builds_a_rich_table_but_the_one_that_renders_declared_columns() -> None:
    builders = []
    for path in (ROOT / "toolsurface").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # A Table called where rich's is imported (the report's own Table record is not rich's).
        rich_table = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "rich.table"
            and any(a.name == "Table" for a in node.names)
            for node in ast.walk(tree)
        )
        for node in ast.walk(tree):
            called = node.func if isinstance(node, ast.Call) else None
            name = getattr(called, "id", getattr(called, "attr", "")) if called is not None else ""
            if name == "add_column" or (name == "Table" and rich_table):
                builders.append(path.relative_to(ROOT))
    assert sorted(set(builders)) == [Path("toolsurface/harness/output/_terminal.py")]
