"""Items: their list entry and full view, creating and changing them (omitted kept, null clears, a move
unversioned), and the parent rule (no item below itself)."""

from __future__ import annotations

import copy
from typing import Any

from toolsurface.stubs.kit import Refusal, names, text_part
from toolsurface.surfaces.conderis.kinds import DEFAULTS, FIXED_AFTER_CREATE, MOVE_FIELDS, REQUIRED_ON_CREATE
from toolsurface.surfaces.conderis.project._proposals import Proposals
from toolsurface.surfaces.conderis.project._records import HistoryEntry, Item
from toolsurface.surfaces.conderis.project._relations import Relations
from toolsurface.surfaces.conderis.project._search import Search
from toolsurface.surfaces.conderis.project._values import Values

__all__ = ["Items"]


class Items(Values, Relations, Proposals, Search):
    """Reading, creating and changing items."""

    def entry(self, item: Item) -> dict[str, Any]:
        """A short list entry."""
        f = item.fields
        base: dict[str, Any] = {"ref": item.ref, "kind": item.kind, "title": f.get("title")}
        if item.number is not None:
            base["number"] = item.number
        if item.kind == "task":
            base |= {"status": f["status"], "priority": f["priority"], "assignee": f["assignee"], "parent": f["parent"]}
            if item.block_reason:
                base["blockReason"] = item.block_reason
        elif item.kind == "memory":
            base |= {"summary": f["summary"], "type": f["type"], "tags": f["tags"]}
        elif item.kind == "page":
            base |= {"parent": f["parent"], "position": f["position"]}
        if item.archived:
            base["archived"] = True
        return base

    def view(self, item: Item, offset: int | None = None, take: int | None = None) -> dict[str, Any]:
        """An item with its direct relations and its version; long text in parts with offset/take."""
        data: dict[str, Any] = {"ref": item.ref, "kind": item.kind, "version": item.version}
        if item.number is not None:
            data["number"] = item.number
        fields = dict(item.fields)
        if item.locked:
            fields = {
                k: ("[locked: deletion requested]" if k in ("content", "summary") else v) for k, v in fields.items()
            }
        if offset is not None or take is not None:
            data["text"] = text_part(str(fields.get("content") or ""), offset, take)
            fields.pop("content", None)
        data["fields"] = fields
        if item.kind == "task":
            data["blockReason"] = item.block_reason
            data["subtasks"] = [
                n for n, i in sorted(self.items.items()) if i.kind == "task" and i.fields["parent"] == item.number
            ]
        if item.archived:
            data["archived"] = True
        if item.number is not None:
            data["relations"] = self.relations_of(item.number)
        return data

    def _may_publish(self, kind: str, propose: bool) -> bool:
        if kind == "task":
            return True
        return self.caller.may_write and not propose

    def create(
        self,
        kind: str,
        fields: dict[str, Any],
        *,
        propose: bool = False,
        reason: str | None = None,
        personal: bool = False,
    ) -> dict[str, Any]:
        missing = [f for f in REQUIRED_ON_CREATE[kind] if fields.get(f) in (None, "")]
        if missing:
            raise Refusal(f"a new {kind} needs {', '.join(missing)}", missing)
        self.check_fields(kind, fields)
        if kind == "instructions":
            current = self.instructions.version
            raise Refusal(
                f"the instructions exist once per project; change them with their version (current: {current})",
                [current],
            )
        values = {**DEFAULTS[kind], **fields}
        if not self._may_publish(kind, propose) and not personal:
            return self._propose(f"new {kind}", values, 0, reason)
        if personal:
            memory_id = f"m-{len(self.personal) + 1:04x}"
            item = Item(kind, values, 1, id=memory_id)
            self.personal[memory_id] = item
        else:
            item = Item(kind, values, 1, number=self.next_number)
            self.items[self.next_number] = item
            self.next_number += 1
        item.history.append(HistoryEntry(1, self.caller.ref, self.clock.tick(), sorted(values), copy.deepcopy(values)))
        return {"outcome": "published", "ref": item.ref, "number": item.number, "version": item.version}

    def change(
        self,
        item: Item,
        fields: dict[str, Any],
        *,
        version: int | None,
        check_version: bool = True,
        propose: bool = False,
        reason: str | None = None,
    ) -> dict[str, Any]:
        """Omitted fields are kept, null clears; a move (parent/position only) is not version-checked."""
        if item.locked:
            raise Refusal(
                f"{item.ref} is locked: its deletion was requested; read-only until a person decides", ["read"]
            )
        self.check_fields(item.kind, fields)
        for name in FIXED_AFTER_CREATE.get(item.kind, ()):
            if name in fields and fields[name] != item.fields[name]:
                current = item.fields[name]
                raise Refusal(f"{name} is fixed after creation; {item.ref} stays {current}", [current])
        if "parent" in fields and fields["parent"] is not None:
            self._check_no_cycle(item, int(fields["parent"]))
        changed = [k for k, v in fields.items() if item.fields.get(k) != v]
        move = bool(fields) and set(fields) <= set(MOVE_FIELDS)
        if move:
            item.fields.update(fields)
            return {
                "outcome": "published",
                "ref": item.ref,
                "number": item.number,
                "version": item.version,
                "moved": True,
            }
        if check_version:
            self.check_version(item, version, "a content change")
        if not self._may_publish(item.kind, propose):
            return self._propose(item.ref, fields, item.version, reason)
        item.fields.update(fields)
        self._record(item, changed)
        return {"outcome": "published", "ref": item.ref, "number": item.number, "version": item.version}

    def _below(self, item: Item) -> set[int]:
        """The numbers of the items under `item`, at any depth."""
        found: set[int] = set()
        frontier = [item.number]
        while frontier:
            current = frontier.pop()
            for number, other in self.items.items():
                if other.fields.get("parent") == current and number not in found:
                    found.add(number)
                    frontier.append(number)
        return found

    def _check_no_cycle(self, item: Item, parent: int) -> None:
        below = self._below(item)
        if parent == item.number or parent in below:
            allowed = [
                n for n, i in sorted(self.items.items()) if i.kind == item.kind and n != item.number and n not in below
            ]
            raise Refusal(
                f"#{parent} is {item.ref} or below it; a parent cannot be its own descendant; parents possible: "
                f"{names(allowed)}",
                allowed or ["null"],
            )
