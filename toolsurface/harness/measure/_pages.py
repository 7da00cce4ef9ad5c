"""Every page of a list method, and what one request of a listing is: the pieces the listing of the tools, of the
parts beside them and of the drafts share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolsurface.harness.errors import InvalidToolList

__all__ = ["MAX_PAGES", "Request", "failed", "list_pages", "pager"]

MAX_PAGES = 10_000

# What asks a server for one result: a method and its params (None: none), the result exactly as received.
Request = Callable[[str, dict[str, Any] | None], Awaitable[dict[str, Any]]]


async def list_pages(
    fetch: Callable[[str | None], Awaitable[dict[str, Any]]], method: str = "tools/list", key: str = "tools"
) -> tuple[list[dict[str, Any]], int]:
    """Every page of a list method, `fetch(cursor)` giving each raw result, following nextCursor."""
    entries: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for pages in range(1, MAX_PAGES + 1):
        raw = await fetch(cursor)
        if not isinstance(raw, dict):
            raise InvalidToolList(f"{method} answered with no JSON object")
        page = raw.get(key)
        if not isinstance(page, list):
            raise InvalidToolList(f"{method} answered without a {key} array")
        entries.extend(page)
        cursor = raw.get("nextCursor")
        if cursor is None:
            return entries, pages
        if cursor in seen:
            raise InvalidToolList(f"{method} repeats the cursor {cursor!r}")
        seen.add(cursor)
    raise InvalidToolList(f"{method} did not end after {MAX_PAGES} pages")


def pager(request: Request, method: str) -> Callable[[str | None], Awaitable[dict[str, Any]]]:
    async def fetch(cursor: str | None) -> dict[str, Any]:
        return await request(method, {"cursor": cursor} if cursor is not None else None)

    return fetch


def failed(method: str, error: Exception) -> str:
    """Why a request of a part failed, in one line: the server's JSON-RPC error, or what was wrong with its answer."""
    code, message = getattr(error, "code", None), getattr(error, "message", None)
    if isinstance(code, int) and isinstance(message, str):
        return f"{method} answered with error {code}: {message}"
    text = str(error)
    return text if text.startswith(method) else f"{method} failed: {text}"
