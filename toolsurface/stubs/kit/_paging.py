"""Paging: lists in pages of `limit` entries with an opaque cursor, long text in parts with offset and take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolsurface.stubs.paging import DEFAULT_PAGE, MAX_PAGE
from toolsurface.stubs.refusal import Refusal

TEXT_TAKE = 2000
"""Characters a long text gives at once when the call names no take."""


def check_limit(limit: int | None, default: int = DEFAULT_PAGE, maximum: int = MAX_PAGE) -> int:
    size = default if limit is None else limit
    if not 1 <= size <= maximum:
        raise Refusal(f"limit must be between 1 and {maximum}", [1, maximum])
    return size


def page(entries: Sequence[Any], limit: int | None, cursor: str | None) -> dict[str, Any]:
    """One page: `items`, `total`, `hasMore` and the `nextCursor` to pass back (`o<offset>`)."""
    size = check_limit(limit)
    start = 0
    if cursor is not None:
        if not (cursor.startswith("o") and cursor[1:].isdigit()):
            raise Refusal(f"cursor {cursor!r} was not given out by this server; pass nextCursor", ["nextCursor"])
        start = int(cursor[1:])
    chunk = list(entries[start : start + size])
    more = start + size < len(entries)
    return {"items": chunk, "total": len(entries), "hasMore": more, "nextCursor": f"o{start + size}" if more else None}


def text_part(text: str, offset: int | None, take: int | None) -> dict[str, Any]:
    start = offset or 0
    if start < 0:
        raise Refusal(f"offset must be 0 or more, up to {len(text)}", [0, len(text)])
    size = take if take is not None else TEXT_TAKE
    if size <= 0:
        raise Refusal("take must be at least 1", [1])
    part = text[start : start + size]
    return {"offset": start, "take": size, "length": len(text), "hasMore": start + size < len(text), "content": part}
