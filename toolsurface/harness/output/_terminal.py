"""A table for a terminal from declared columns: the same declaration a markdown or CSV table is made from gives
its labels, its alignment (numbers right) and how each value reads; rich loads only when one is made."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from toolsurface.harness.output._columns import Column

if TYPE_CHECKING:
    from rich.box import Box
    from rich.table import Table

__all__ = ["terminal_table"]


def terminal_table(
    title: str | None,
    columns: Sequence[Column],
    rows: Sequence[Sequence[Any]],
    *,
    caption: str | None = None,
    box: Box | None = None,
    sections: Collection[int] = (),
) -> Table:
    """A rich table of `rows`, a value per column, each shown as its column says (a rich Text as it is, styled by
    its maker); `box`: the lines drawn (rich's
    default, heavy-headed, unless given); `sections`: the rows (by index) a line is drawn under."""
    from rich.table import Table
    from rich.text import Text

    options: dict[str, Any] = {"title": title, "caption": caption}
    if box is not None:
        options["box"] = box
    table = Table(**options)
    for column in columns:
        table.add_column(
            column.label,
            justify="right" if column.numeric else "left",
            no_wrap=column.no_wrap,
            overflow="fold" if column.fold else "ellipsis",
            max_width=column.max_width,
        )
    for n, row in enumerate(rows):
        shown = [v if isinstance(v, Text) else c.cell(v) for c, v in zip(columns, row, strict=True)]
        table.add_row(*shown)
        if n in sections:
            table.add_section()
    return table
