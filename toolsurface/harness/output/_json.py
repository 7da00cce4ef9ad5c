"""JSON as toolsurface writes it: compact (the counting rule) and indented (a document for a person or a program);
and the compact length of a value holding long strings (a 50 MB answer), found without making its text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

__all__ = ["SLICE_CHARS", "compact_json", "compact_json_length", "json_document", "slices", "utf8_length"]

# A long text is read a slice of this many characters at a time: a copy of each slice, never of the whole.
SLICE_CHARS = 1 << 20
# A container with more items than this is dumped whole: one holding a long string is an answer's few blocks.
_FEW = 256


def compact_json(value: Any) -> str:
    """The counting rule: compact separators, key order as received, non-ASCII unescaped."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_document(value: Any, *, ascii: bool = False) -> str:
    """A JSON document on stdout or in a file: indented by two, ending in a line break; `ascii`: non-ASCII
    characters written as their escapes."""
    return json.dumps(value, indent=2, ensure_ascii=ascii) + "\n"


def slices(text: str, size: int = SLICE_CHARS) -> Iterator[str]:
    """`text` in consecutive slices of at most `size` characters: the text itself when it is no longer."""
    if len(text) <= size:
        yield text
        return
    for start in range(0, len(text), size):
        yield text[start : start + size]


def utf8_length(text: str) -> int:
    """`len(text.encode())`, a slice at a time (a lone surrogate counted as its three bytes)."""
    if text.isascii():
        return len(text)
    return sum(len(piece.encode("utf-8", "surrogatepass")) for piece in slices(text))


def compact_json_length(value: Any) -> int:
    """`len(compact_json(value))`, where each string longer than SLICE_CHARS (inside a container of a few items)
    is measured a slice at a time, so neither its escaped copy nor the whole text is ever made."""
    long: list[str] = []
    rest = _without_long_strings(value, long)
    # Escaping is per character, so a string's escaped length is the sum of its slices'; "" stands for it.
    return len(compact_json(rest)) + sum(len(compact_json(piece)) - 2 for text in long for piece in slices(text))


def _without_long_strings(value: Any, long: list[str]) -> Any:
    if isinstance(value, str):
        if len(value) <= SLICE_CHARS:
            return value
        long.append(value)
        return ""
    if isinstance(value, dict) and len(value) <= _FEW:
        return {key: _without_long_strings(item, long) for key, item in value.items()}
    if isinstance(value, list) and len(value) <= _FEW:
        return [_without_long_strings(item, long) for item in value]
    return value
