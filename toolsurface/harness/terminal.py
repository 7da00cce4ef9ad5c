"""Text for a terminal: control characters that a tool list or a server can carry are shown, never obeyed.

A tool's name or description is data from whoever wrote the server. Sent as it is, ESC sequences in it
would move the cursor, clear the screen or retitle the window, C1 controls (U+0080-U+009F) act alike on
many terminals, and bidirectional overrides reorder what is shown. Each is written as its `\\uXXXX`
escape instead, which is also how JSON spells it. Lone surrogates, which cannot be encoded, are escaped too.
Tabs and line breaks are kept, except where text must stay on one line (an error, a table cell: `one_line`,
and harness.output's `markdown_cell`), where a line break is shown as `\\n`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console
    from rich.text import Text

__all__ = ["escape_controls", "one_line", "readable_width", "safe_console", "wrapped_not_cut"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def escape_controls(text: str) -> str:
    return _CONTROL.sub(_escaped, text)


def one_line(text: str) -> str:
    """Text kept on one line: its line breaks shown as their escapes."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def safe_console(**options: Any) -> Console:
    """A rich Console whose strings are taken literally (no markup) with their control characters escaped;
    rich Text built by the library is escaped by the library (`escape_controls`)."""
    from rich.console import Console

    class SafeConsole(Console):
        def render_str(self, text: str, **kwargs: Any) -> Text:
            kwargs["markup"] = False
            return super().render_str(escape_controls(text), **kwargs)

    return SafeConsole(**options)


def readable_width(console: Console, renderables: Sequence[Any]) -> int:
    """The width that shows every renderable on lines of its own natural length: each cell whole."""
    from rich.measure import Measurement

    options = console.options.update_width(1 << 16)
    return max([Measurement.get(console, options, r).maximum for r in renderables] or [console.width])


def wrapped_not_cut(renderable: Any) -> Any:
    """`renderable`, and when it is a table, its columns set to wrap a cell that does not fit rather than
    cut it with an ellipsis (the default): a too-long word is folded onto the next line. A table is at least as
    wide as its title, which rich would otherwise fold into the width of narrow columns."""
    from rich.table import Table

    if isinstance(renderable, Table):
        if isinstance(renderable.title, str):
            longest = max(map(len, renderable.title.splitlines()), default=0)
            renderable.min_width = max(renderable.min_width or 0, longest)
        for column in renderable.columns:
            if column.overflow == "ellipsis":
                column.overflow = "fold"
            column.no_wrap = False
    return renderable
