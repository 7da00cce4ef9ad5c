"""Searching by text: the words of a query, matching and ranking items by them."""

from __future__ import annotations

from collections.abc import Sequence

from toolsurface.surfaces.conderis.kinds import ACTIVE
from toolsurface.surfaces.conderis.project._records import Item
from toolsurface.surfaces.conderis.project._state import ProjectState

__all__ = ["Search"]


class Search(ProjectState):
    """Text search over titles, summaries and content."""

    def search(self, query: str, kinds: Sequence[str], *, include_archived: bool, include_closed: bool) -> list[Item]:
        found = []
        for item in sorted(self.items.values(), key=lambda i: i.number or 0):
            if item.kind not in kinds or not self._matches(item, query):
                continue
            if item.archived and not include_archived:
                continue
            if item.kind == "task" and item.fields["status"] not in ACTIVE and not include_closed:
                continue
            found.append(item)
        return sorted(found, key=lambda i: -self._score(i, query))

    @staticmethod
    def _terms(text: str) -> list[str]:
        return [t for t in "".join(c.lower() if c.isalnum() else " " for c in text).split() if t]

    def _score(self, item: Item, query: str) -> int:
        words = self._terms(" ".join(str(item.fields.get(k) or "") for k in ("title", "summary", "content")))
        return sum(words.count(t) for t in self._terms(query))

    def _matches(self, item: Item, query: str) -> bool:
        terms = self._terms(query)
        words = set(self._terms(" ".join(str(item.fields.get(k) or "") for k in ("title", "summary", "content"))))
        return bool(terms) and all(t in words for t in terms)
