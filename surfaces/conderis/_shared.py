"""Parameters the Conderis surfaces share: project, paging, version. Helpers, so no surface copies them."""

from __future__ import annotations

from typing import Any

from harness.surface import BuildFunction, StubFactory, SurfaceDefinition
from stubs.kit import DEFAULT_PAGE, MAX_PAGE
from surfaces._authoring import prop
from surfaces.conderis.kinds import COMMIT, KINDS

__all__ = ["cursor_paging", "offset_paging", "project_id", "study", "version"]

Schema = dict[str, Any]


def project_id(note: str = "") -> Schema:
    return prop("string", note)


def version(note: str = "Version read with item_get") -> Schema:
    return prop("integer", note)


def cursor_paging(default: int = DEFAULT_PAGE, maximum: int = MAX_PAGE) -> dict[str, Schema]:
    """The one paging contract of the newer surfaces: limit and an opaque cursor (the project's `page`)."""
    return {
        "limit": prop("integer", f"Entries per page (default {default}, at most {maximum})"),
        "cursor": prop("string", "nextCursor of the previous answer (it has total, hasMore, nextCursor)"),
    }


def offset_paging(default: int = DEFAULT_PAGE, maximum: int = MAX_PAGE) -> dict[str, Schema]:
    return {
        "offset": prop("integer", "Number of results to skip"),
        "limit": prop("integer", f"Maximum number of results (default {default}, max {maximum})"),
    }


def study(
    name: str, title: str, purpose: str, build: BuildFunction, stub: StubFactory, instructions: str
) -> SurfaceDefinition:
    """A surface of the Conderis study: measured with its five kinds, grown by commit, served by a stub with
    the server instructions of its naming (`instructions`)."""
    return SurfaceDefinition(
        name=name,
        title=title,
        purpose=purpose,
        build=build,
        kinds=KINDS,
        growth_kind=COMMIT,
        stub=stub,
        instructions=instructions,
    )
