"""Where a file defines a tool, for a SARIF result's line: where a server registers it with an MCP SDK, by the name it
registers (Python `@mcp.tool` / `@mcp.tool()` / `@server.tool(...)` above `def NAME`, or with `name="..."`;
TypeScript `server.tool("name", ...)` and `server.registerTool("name", ...)`), else the first line naming it as a
string (`"ticket_close"`, `'ticket_close'`: a snapshot, a list written out by hand). Only the first MAX_SOURCE_BYTES
of a file are read: a server's script is far smaller, and an argument taken for one may be data of any size."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from pathlib import Path

__all__ = ["MAX_SOURCE_BYTES", "ToolLines"]

MAX_SOURCE_BYTES = 4 << 20

_PYTHON = (".py", ".pyw")
_SCRIPT = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
# A tool decorator (`@mcp.tool`, `@mcp.tool()`, `@server.tool(name=...)`, `@tool`) or a function definition, in
# the order they come; the decorators' arguments lie between the two.
_DECORATED = re.compile(
    r"^[ \t]*@[ \t]*(?P<decorator>(?:[A-Za-z_][\w.]*\.)?tool)\b[ \t]*(?:\(|$|#)"
    r"|^[ \t]*(?:async[ \t]+)?def[ \t]+(?P<function>[A-Za-z_]\w*)",
    re.M,
)
# The name a decorator gives: its first argument a string (`@mcp.tool("...")`), or `name="..."`.
_FIRST_ARGUMENT = re.compile(r"""[ \t]*\(\s*(['"])(?P<name>[^'"\n]+)\1""")
_NAME_ARGUMENT = re.compile(r"""\bname\s*=\s*(['"])(?P<name>[^'"\n]+)\1""")
_REGISTERED = re.compile(r"""\.\s*(?:tool|registerTool)\s*\(\s*(['"`])(?P<name>[^'"`\n]+)\1""")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class ToolLines:
    """The lines (1-based) of one file that define or name each tool."""

    def __init__(self, path: Path) -> None:
        self.text = _read(path)
        self._starts = [0, *(found.end() for found in _LINE_BREAK.finditer(self.text))]
        self._registered: dict[str, int] = {}
        if path.suffix in _PYTHON:
            self._python()
        elif path.suffix in _SCRIPT:
            for found in _REGISTERED.finditer(self.text):
                self._register(found.group("name"), found.start("name"))
        self._quoted: dict[str, int | None] = {}

    def line_of(self, tools: Sequence[str]) -> int | None:
        """The first line that defines one of the tools, else the first that names one as a string."""
        lines = [line for tool in tools if (line := self._line(tool)) is not None]
        return min(lines) if lines else None

    def _line(self, tool: str) -> int | None:
        if tool in self._registered:
            return self._registered[tool]
        if tool not in self._quoted:
            found = [at for form in (json.dumps(tool), f"'{tool}'") if (at := self.text.find(form)) >= 0]
            self._quoted[tool] = self._line_at(min(found)) if found else None
        return self._quoted[tool]

    def _python(self) -> None:
        decorator: int | None = None
        for found in _DECORATED.finditer(self.text):
            if found.group("decorator") is not None:
                decorator = found.end("decorator") if decorator is None else decorator
                continue
            if decorator is not None:
                named = _FIRST_ARGUMENT.match(self.text, decorator, found.start()) or _NAME_ARGUMENT.search(
                    self.text, decorator, found.start()
                )
                if named is not None:
                    self._register(named.group("name"), named.start("name"))
                else:
                    self._register(found.group("function"), found.start("function"))
            decorator = None

    def _register(self, name: str, at: int) -> None:
        self._registered.setdefault(name, self._line_at(at))

    def _line_at(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


def _read(path: Path) -> str:
    """The file's first MAX_SOURCE_BYTES as text, cut at its last whole line when there is more."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SOURCE_BYTES + 1)
    except OSError:
        return ""
    if len(data) > MAX_SOURCE_BYTES:
        data = data[: data.rfind(b"\n", 0, MAX_SOURCE_BYTES) + 1]
    return data.decode("utf-8", errors="replace")
