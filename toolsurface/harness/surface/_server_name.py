"""A server's name, decided once: a live server's `serverInfo.name` (or the user's `--name`), or a snapshot's file
name where it records none, made safe by one rule, then used by every command, file, table and client config.

The rule keeps what every registered client takes as a server's name in its MCP config (each card's
`ToolNaming.server_allowed`, `[A-Za-z0-9_-]+` for all of them): ASCII letters and digits, `_` and `-`. A letter
with an accent loses it (`Zürich` is `Zurich`); every run of anything else (a dot, a space, a slash, a letter of
another script, a control character) becomes one `-`, and `-` and `_` are trimmed from the ends."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["MAX_NAME_CHARS", "file_server_name", "given_server_name", "safe_server_name"]

MAX_NAME_CHARS = 200
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_EDGES = "-_"
# The suffixes a surface file's name ends in, left out of the name it gives its server.
_FILE_SUFFIXES = (".json", ".py")


def _cleaned(text: str) -> str:
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _UNSAFE.sub("-", plain).strip(_EDGES)[:MAX_NAME_CHARS].strip(_EDGES)


def safe_server_name(raw: str | None, fallback: str = "server") -> str:
    """What a server that calls itself `raw` is called everywhere: `acme/help desk` is `acme-help-desk`,
    `mcp.time` is `mcp-time`. A name the rule leaves empty (none, only punctuation) is `fallback`'s, then
    `server`."""
    return _cleaned(raw or "") or _cleaned(fallback) or "server"


def file_server_name(path: Path) -> str:
    """What the server of a surface file that records no name of its server is called: the file's name less
    `.json` (or `.py`), made safe by the same rule, so `everything.snap.json` is `everything-snap` and every
    client takes it."""
    name = path.name
    for suffix in _FILE_SUFFIXES:
        name = name.removesuffix(suffix)
    return safe_server_name(name)


def given_server_name(text: str) -> str:
    """A `--name` the user gave, by the same rule; one no file or cell can hold is a user error."""
    if len(text) > MAX_NAME_CHARS:
        raise ToolsurfaceError(f"--name: {len(text)} characters; a server's name takes at most {MAX_NAME_CHARS}")
    name = _cleaned(text)
    if not name:
        raise ToolsurfaceError(
            f"--name {text!r}: no letter or digit to name a server by (letters, digits, '_' and '-' are kept)"
        )
    return name
