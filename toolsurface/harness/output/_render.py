"""One renderer: a result declares what it shows once, as a View (its tables of declared columns and the words
between them, the JSON document it is, the rows its CSV holds), and `render` makes every format from that one
declaration: the terminal's rich tables, markdown, CSV and JSON. No result writes a function per format."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, overload

from toolsurface.harness.output._columns import Column
from toolsurface.harness.output._json import json_document
from toolsurface.harness.output._tables import LineBreaks, columns_csv, columns_markdown

if TYPE_CHECKING:
    from rich.box import Box
    from rich.console import RenderableType

__all__ = ["Block", "Table", "Text", "View", "joined", "render"]


@dataclass(frozen=True)
class Table:
    """A table declared once: its columns, a value per column in each row, its title and caption. In a terminal
    the title stands above and the caption below (`sections`: the rows a line is drawn under, `box`: the lines
    drawn); in markdown `heading` and `footing` say how the title and the caption read around the table (either
    empty: not said), and `breaks` and `tight` how its cells and rule read."""

    columns: Sequence[Column]
    rows: Sequence[Sequence[Any]]
    title: str | None = None
    caption: str | None = None
    sections: Collection[int] = ()
    box: Box | None = None
    breaks: LineBreaks = "escaped"
    tight: bool = False
    heading: str = "### {title}\n\n"
    footing: str = "\n{caption}\n"
    # Whether the terminal shows the table, and markdown: a table one of them leaves out.
    terminal: bool = True
    markdown: bool = True


@dataclass(frozen=True)
class Text:
    """Words beside the tables: `terminal` shown as a line in a terminal (a text, or a rich renderable as it is;
    `markup`: a text as rich reads a string, its markup obeyed), `markdown` written as it is in markdown; None
    leaves it out of that format."""

    terminal: Any = None
    markdown: str | None = None
    markup: bool = False


# What a view shows, in order: a table, or words beside the tables.
Block = Table | Text


@dataclass(frozen=True)
class View:
    """A result as every format shows it: `blocks`, the tables and words a terminal prints and markdown writes, in
    order, markdown's parts joined by `between`; `data`, the JSON document (written non-ASCII as escapes when
    `ascii`); `records`, the table CSV holds (its columns' keys as the header, the values as they are)."""

    blocks: Sequence[Block] = ()
    data: Any = None
    records: Table | None = None
    ascii: bool = False
    between: str = "\n"


def _markdown_table(table: Table) -> str:
    said = table.heading.format(title=table.title) if table.title and table.heading else ""
    said += columns_markdown(table.columns, table.rows, breaks=table.breaks, tight=table.tight)
    if table.caption and table.footing:
        said += table.footing.format(caption=table.caption)
    return said


def _terminal(block: Table | Text) -> RenderableType | None:
    if isinstance(block, Text):
        if block.terminal is None:
            return None
        if isinstance(block.terminal, str) and not block.markup:
            from rich.text import Text as RichText

            return RichText(block.terminal)
        return block.terminal  # type: ignore[no-any-return]
    if not block.terminal:
        return None
    from toolsurface.harness.output._terminal import terminal_table

    return terminal_table(
        block.title, block.columns, block.rows, caption=block.caption, box=block.box, sections=block.sections
    )


@overload
def render(view: View, fmt: Literal["json", "csv", "markdown"]) -> str: ...
@overload
def render(view: View, fmt: Literal["table"]) -> list[RenderableType]: ...
@overload
def render(view: View, fmt: str) -> str | list[RenderableType]: ...
def render(view: View, fmt: str) -> str | list[RenderableType]:
    """`view` in the format `fmt`: `table`, the rich renderables a terminal prints; `markdown`, `csv` and `json`,
    the exact text."""
    if fmt == "json":
        return json_document(view.data, ascii=view.ascii)
    if fmt == "csv":
        if view.records is None:
            raise ValueError("this result has no CSV form")
        return columns_csv(view.records.columns, view.records.rows)
    if fmt == "markdown":
        parts = [
            _markdown_table(b) if isinstance(b, Table) else b.markdown
            for b in view.blocks
            if (b.markdown if isinstance(b, Table) else b.markdown is not None)
        ]
        return view.between.join(p for p in parts if p is not None)
    if fmt != "table":
        raise ValueError(f"unknown format {fmt!r}")
    return [shown for shown in map(_terminal, view.blocks) if shown is not None]


def joined(views: Sequence[View], *, data: Any = None, records: Table | None = None, ascii: bool = False) -> View:
    """Views shown one after another, as one: each one's blocks in a terminal, each one's markdown as it renders on
    its own; the JSON and CSV of the whole given."""
    blocks: list[Block] = []
    for view in views:
        blocks += [
            replace(b, markdown=False) if isinstance(b, Table) else replace(b, markdown=None) for b in view.blocks
        ]
        blocks.append(Text(markdown=str(render(view, "markdown"))))
    return View(blocks, data=data, records=records, ascii=ascii, between="")
