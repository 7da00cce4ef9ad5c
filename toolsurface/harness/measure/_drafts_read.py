"""Reading the drafts a server advertises (harness.surface._drafts), over the same requests the listing makes:
every page of tools/manifest, and tools/describe (in batches) of the entries whose digest is not that of the tool
tools/list gave; every page of groups/list, and groups/get of each group, nested ones too, each once. A request that
fails is kept as why, and the rest is read; nothing is asked of a server that advertises neither."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolsurface.harness.measure._pages import Request, failed, list_pages, pager
from toolsurface.harness.surface import (
    DraftsRead,
    advertises_groups,
    advertises_manifest,
    tool_digest,
)

__all__ = ["DESCRIBE_BATCH", "MAX_GROUPS", "read_drafts"]

# Names a tools/describe asks for at once: the most SEP-2636 says a server should accept, fewer when it says its own.
DESCRIBE_BATCH = 50
# Groups fetched at most: a server's groups nest, each fetched once, and no list is endless.
MAX_GROUPS = 1_000


def _error_data(error: Exception) -> Any:
    data = getattr(error, "data", None)
    return data if data is not None else getattr(getattr(error, "error", None), "data", None)


async def _described(
    names: Sequence[str], request: Request, failures: list[str], on_method: Callable[[str], object] | None
) -> list[dict[str, Any]]:
    """The definitions tools/describe gives for `names`, in batches the server takes (its `data.maxNames`)."""
    found: list[dict[str, Any]] = []
    batch, start = DESCRIBE_BATCH, 0
    while start < len(names):
        if on_method is not None:
            on_method("tools/describe")
        chunk = list(names[start : start + batch])
        try:
            raw = await request("tools/describe", {"names": chunk})
        except Exception as error:
            data = _error_data(error)
            bound = data.get("maxNames") if isinstance(data, dict) else None
            if type(bound) is int and 0 < bound < len(chunk):
                batch = bound
                continue
            failures.append(failed("tools/describe", error))
            return found
        tools = raw.get("tools") if isinstance(raw, dict) else None
        found += [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
        start += len(chunk)
    return found


async def read_drafts(
    capabilities: Mapping[str, Any] | None,
    tools: Sequence[Mapping[str, Any]],
    request: Request,
    on_method: Callable[[str], object] | None = None,
) -> DraftsRead | None:
    """What the drafts a server's capabilities (as sent) advertise give; None where it advertises neither."""
    manifest, groups = advertises_manifest(capabilities), advertises_groups(capabilities)
    if not manifest and not groups:
        return None
    failures: list[str] = []

    async def every_page(method: str, key: str) -> list[dict[str, Any]]:
        if on_method is not None:
            on_method(method)
        try:
            found, _ = await list_pages(pager(request, method), method, key)
        except Exception as error:
            failures.append(failed(method, error))
            return []
        return found

    entries: list[dict[str, Any]] | None = None
    described: list[dict[str, Any]] = []
    if manifest:
        entries = await every_page("tools/manifest", "entries")
        listed = {str(t.get("name")): t for t in tools}
        stale = [
            str(e["name"])
            for e in entries
            if isinstance(e, dict)
            and e.get("name") in listed
            and tool_digest(listed[str(e["name"])])[0] != e.get("digest")
        ]
        described = await _described(stale, request, failures, on_method)
    found: list[dict[str, Any]] | None = None
    fetched: dict[str, dict[str, Any]] = {}
    if groups:
        found = await every_page("groups/list", "groups")
        waiting = [str(g.get("name")) for g in found if isinstance(g, dict)]
        while waiting and len(fetched) < MAX_GROUPS:
            name = waiting.pop(0)
            if name in fetched:
                continue
            if on_method is not None:
                on_method("groups/get")
            try:
                result = await request("groups/get", {"name": name})
            except Exception as error:
                failures.append(f"group {name!r}: {failed('groups/get', error)}")
                continue
            fetched[name] = result
            contents = result.get("contents") if isinstance(result, dict) else None
            nested = contents.get("groups") if isinstance(contents, dict) else None
            waiting += [
                str(g.get("name")) for g in nested or [] if isinstance(g, dict) and g.get("name") not in fetched
            ]
    return DraftsRead(entries, described, found, fetched, tuple(failures))
