"""A live server's name, decided once when it is listed: its `serverInfo.name` (or the user's `--name`) made safe
for file names and table cells by one rule, then used by every command, file and table."""

from __future__ import annotations

import re

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["MAX_NAME_CHARS", "given_server_name", "safe_server_name"]

MAX_NAME_CHARS = 200
# Letters and digits of any script, `_`, `.` and `-` are kept; every run of anything else (a space, a slash,
# a control character, other punctuation) becomes one `-`.
_UNSAFE = re.compile(r"[^\w.-]+")
_EDGES = "-._"


def _cleaned(text: str) -> str:
    return _UNSAFE.sub("-", text).strip(_EDGES)[:MAX_NAME_CHARS].strip(_EDGES)


def safe_server_name(raw: str | None, fallback: str = "server") -> str:
    """What a server that calls itself `raw` is called everywhere: `acme/help desk` is `acme-help-desk`. A name
    the rule leaves empty (none, only punctuation) is `fallback`'s, then `server`."""
    return _cleaned(raw or "") or _cleaned(fallback) or "server"


def given_server_name(text: str) -> str:
    """A `--name` the user gave, by the same rule; one no file or cell can hold is a user error."""
    if len(text) > MAX_NAME_CHARS:
        raise ToolsurfaceError(f"--name: {len(text)} characters; a server's name takes at most {MAX_NAME_CHARS}")
    name = _cleaned(text)
    if not name:
        raise ToolsurfaceError(
            f"--name {text!r}: no letter or digit to name a server by (letters, digits, '.', '_' and '-' are kept)"
        )
    return name
