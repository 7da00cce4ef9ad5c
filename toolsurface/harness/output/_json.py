"""JSON as toolsurface writes it: compact (the counting rule) and indented (a document for a person or a program)."""

from __future__ import annotations

import json
from typing import Any


def compact_json(value: Any) -> str:
    """The counting rule: compact separators, key order as received, non-ASCII unescaped."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_document(value: Any, *, ascii: bool = False) -> str:
    """A JSON document on stdout or in a file: indented by two, ending in a line break; `ascii`: non-ASCII
    characters written as their escapes."""
    return json.dumps(value, indent=2, ensure_ascii=ascii) + "\n"
