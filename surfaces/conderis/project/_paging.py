"""Paging: lists in pages with limit and an opaque cursor, long text in parts with offset and take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stubs.refusal import Refusal

__all__ = ["DEFAULT_PAGE", "MAX_PAGE", "TEXT_TAKE", "Paging"]

MAX_PAGE = 100
DEFAULT_PAGE = 20
TEXT_TAKE = 2000
"""Characters a long text gives at once when the call names no take."""


class Paging:
    """The paging rules every list and every long text follows."""

    def page(self, entries: Sequence[dict[str, Any]], limit: int | None, cursor: str | None) -> dict[str, Any]:
        size = DEFAULT_PAGE if limit is None else limit
        if not 1 <= size <= MAX_PAGE:
            raise Refusal(f"limit must be between 1 and {MAX_PAGE}", [1, MAX_PAGE])
        start = 0
        if cursor is not None:
            if not (cursor.startswith("o") and cursor[1:].isdigit()):
                raise Refusal(f"cursor {cursor!r} was not given out by this server; pass nextCursor", ["nextCursor"])
            start = int(cursor[1:])
        chunk = list(entries[start : start + size])
        more = start + size < len(entries)
        return {
            "items": chunk,
            "total": len(entries),
            "hasMore": more,
            "nextCursor": f"o{start + size}" if more else None,
        }

    def text_part(self, text: str, offset: int | None, take: int | None) -> dict[str, Any]:
        start = offset or 0
        if start < 0:
            raise Refusal(f"offset must be 0 or more, up to {len(text)}", [0, len(text)])
        size = take if take is not None else TEXT_TAKE
        if size <= 0:
            raise Refusal("take must be at least 1", [1])
        part = text[start : start + size]
        return {
            "offset": start,
            "take": size,
            "length": len(text),
            "hasMore": start + size < len(text),
            "content": part,
        }
