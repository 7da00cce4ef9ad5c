"""Memories and pages: their lists (archived and expired ones left out unless asked) and archiving."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolsurface.stubs.refusal import Refusal
from toolsurface.surfaces.conderis.kinds import ARCHIVABLE
from toolsurface.surfaces.conderis.project._items import Items
from toolsurface.surfaces.conderis.project._records import Item

__all__ = ["Notes"]


class Notes(Items):
    """Listing memories and pages, archiving and restoring them."""

    def memories(
        self,
        *,
        type_: str | None = None,
        tags: Sequence[str] | None = None,
        visibility: str | None = None,
        include_archived: bool = False,
        include_expired: bool = False,
        query: str | None = None,
        personal: bool = False,
    ) -> list[Item]:
        pool = list(self.personal.values()) if personal else self._sorted("memory")
        found = []
        for item in pool:
            f = item.fields
            if item.archived and not include_archived:
                continue
            if not include_expired and f.get("expiresAt") and str(f["expiresAt"]) < self.clock.now():
                continue
            if type_ is not None and f["type"] != type_:
                continue
            if tags and not set(tags) <= set(f["tags"]):
                continue
            if visibility is not None and f["visibility"] != visibility:
                continue
            if query and not self._matches(item, query):
                continue
            found.append(item)
        return found

    def pages(
        self, *, parent: int | None = None, include_archived: bool = False, query: str | None = None
    ) -> list[Item]:
        return [
            i
            for i in self._sorted("page")
            if (include_archived or not i.archived)
            and (parent is None or i.fields["parent"] == parent)
            and (not query or self._matches(i, query))
        ]

    def archive(
        self, item: Item, restore: bool, *, version: int | None = None, check_version: bool = False
    ) -> dict[str, Any]:
        if item.kind == "task":
            raise Refusal(
                f"{item.ref} is a task: a task is closed with complete or status canceled, never archived",
                ["complete", "canceled"],
            )
        if item.kind not in ARCHIVABLE:
            raise Refusal(f"{item.ref} is a {item.kind}; memories and pages are archived", ARCHIVABLE)
        if check_version:
            self.check_version(item, version, "archive" if not restore else "restore")
        if item.archived == (not restore):
            state = "archived" if item.archived else "not archived"
            action = "restore" if item.archived else "archive"
            raise Refusal(f"{item.ref} is already {state}; the action that applies: {action}", [action])
        item.archived = not restore
        self._record(item, ["archived"])
        return {"outcome": "published", "ref": item.ref, "archived": item.archived, "version": item.version}
