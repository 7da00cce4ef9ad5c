"""Relations between numbered items, and the history of an item's versions."""

from __future__ import annotations

from typing import Any

from toolsurface.stubs.kit import names
from toolsurface.stubs.refusal import Refusal
from toolsurface.surfaces.conderis.kinds import RELATIONS
from toolsurface.surfaces.conderis.project._records import Item, Relation
from toolsurface.surfaces.conderis.project._state import ProjectState

__all__ = ["Relations"]


class Relations(ProjectState):
    """Relations and versions."""

    def relations_of(self, number: int) -> list[dict[str, Any]]:
        out = []
        for r in self.relations:
            if number in (r.source, r.target):
                other = r.target if r.source == number else r.source
                o = self.items.get(other)
                direction = "outgoing" if r.source == number else "incoming"
                out.append(
                    {
                        "relation": r.relation,
                        "direction": direction,
                        "number": other,
                        "kind": o.kind if o else None,
                        "title": o.fields.get("title") if o else None,
                    }
                )
        return out

    def relate(self, source: int, target: int, relation: str, remove: bool = False) -> dict[str, Any]:
        if relation not in RELATIONS:
            raise Refusal(f"relation {relation!r} is unknown; relations: {', '.join(RELATIONS)}", RELATIONS)
        self.item(source)
        self.item(target)
        if source == target:
            others = [n for n in sorted(self.items) if n != source]
            raise Refusal(f"an item cannot relate to itself; targets: {names(others)}", others)
        existing = [r for r in self.relations if (r.source, r.target, r.relation) == (source, target, relation)]
        if remove:
            if not existing:
                targets = [r.target for r in self.relations if r.source == source and r.relation == relation]
                present = [f"#{r.target} {r.relation}" for r in self.relations if r.source == source] or ["none"]
                raise Refusal(
                    f"#{source} has no {relation} relation to #{target}; its relations: {', '.join(present)}",
                    targets or list(RELATIONS),
                )
            self.relations.remove(existing[0])
        elif not existing:
            self.relations.append(Relation(source, target, relation))
        self.clock.tick()
        return {"outcome": "published", "source": source, "target": target, "relation": relation, "removed": remove}

    def history(self, item: Item) -> list[dict[str, Any]]:
        return [
            {"version": h.version, "author": h.author, "time": h.time, "changedFields": h.changed} for h in item.history
        ]

    def at_version(self, item: Item, version: int) -> dict[str, Any]:
        for h in item.history:
            if h.version == version:
                return {
                    "ref": item.ref,
                    "kind": item.kind,
                    "version": h.version,
                    "author": h.author,
                    "time": h.time,
                    "fields": h.fields,
                }
        versions = [h.version for h in item.history]
        raise Refusal(f"{item.ref} has no version {version}; versions: {names(versions)}", versions)
