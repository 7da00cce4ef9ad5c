"""The project's state and what every rule needs: the clock, the people, finding items by number or ref."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from toolsurface.stubs.kit import Clock, Refusal, names
from toolsurface.surfaces.conderis.project._records import (
    Caller,
    DeletionRequest,
    HistoryEntry,
    Item,
    Person,
    ProjectInfo,
    Proposal,
    Relation,
)

__all__ = ["ProjectState"]


class ProjectState:
    """One project with its items, as loaded from a fixture, changed only by calls: its state, its clock
    and finding what a call names."""

    def __init__(
        self,
        *,
        info: ProjectInfo,
        caller: Caller,
        people: list[Person],
        items: list[Item],
        proposals: list[Proposal],
        relations: list[Relation],
        now: datetime,
        next_number: int,
        other_projects: list[dict[str, Any]] | None = None,
    ) -> None:
        self.info = info
        self.caller = caller
        self.people = people
        self.items: dict[int, Item] = {i.number: i for i in items if i.number is not None}
        self.personal: dict[str, Item] = {i.id: i for i in items if i.number is None and i.kind == "memory" and i.id}
        instructions = [i for i in items if i.kind == "instructions"]
        self.instructions = instructions[0] if instructions else Item("instructions", {"content": ""}, 1)
        self.proposals: dict[str, Proposal] = {p.id: p for p in proposals}
        self.relations = relations
        self.deletions: dict[str, DeletionRequest] = {}
        self.other_projects = other_projects or []
        self.next_number = next_number
        self.clock = Clock(now)
        for item in [*self.items.values(), *self.personal.values(), self.instructions]:
            if not item.history or item.history[-1].version != item.version:
                item.history.append(
                    HistoryEntry(
                        item.version, self.caller.ref, self.clock.now(), sorted(item.fields), copy.deepcopy(item.fields)
                    )
                )

    def assignee_names(self) -> list[str]:
        return [p.ref if p.agent else p.name for p in self.people]

    def check_project(self, project_id: str | None, required: bool = True) -> None:
        if project_id is None:
            if required:
                raise Refusal(f"projectId is required; this server has {self.info.id}", [self.info.id])
            return
        if project_id != self.info.id:
            raise Refusal(f"unknown projectId {project_id!r}; known: {self.info.id}", [self.info.id])

    def item(self, number: int, kinds: Sequence[str] = ()) -> Item:
        found = self.items.get(number)
        candidates = [n for n, i in sorted(self.items.items()) if not kinds or i.kind in kinds]
        what = "/".join(kinds) if kinds else "item"
        if found is None:
            raise Refusal(f"there is no {what} #{number}; existing: {names(candidates)}", candidates)
        if kinds and found.kind not in kinds:
            raise Refusal(f"#{number} is a {found.kind}, not a {what}; {what} numbers: {names(candidates)}", candidates)
        return found

    def personal_memory(self, memory_id: str) -> Item:
        found = self.personal.get(memory_id)
        if found is None:
            refs = [f"memory:{i}" for i in self.personal]
            raise Refusal(f"there is no personal memory memory:{memory_id}; yours: {names(refs)}", refs)
        return found

    def proposal(self, proposal_id: str) -> Proposal:
        found = self.proposals.get(proposal_id)
        if found is None:
            refs = [p.ref for p in self.proposals.values()]
            raise Refusal(f"there is no proposal:{proposal_id}; proposals: {names(refs)}", refs)
        return found

    def resolve_ref(self, ref: str) -> Item | Proposal:
        """`instructions`, `memory:<id>`, `proposal:<id>`, `#N` or `N`."""
        text = ref.strip()
        if text == "instructions":
            return self.instructions
        if text.startswith("memory:"):
            return self.personal_memory(text.removeprefix("memory:"))
        if text.startswith("proposal:"):
            return self.proposal(text.removeprefix("proposal:"))
        if text.removeprefix("#").isdigit():
            return self.item(int(text.removeprefix("#")))
        forms = ["instructions", "memory:<id>", "proposal:<id>", "#<number>"]
        raise Refusal(f"ref {ref!r} is not a reference this project knows; forms: {', '.join(forms)}", forms)

    def _sorted(self, kind: str) -> list[Item]:
        return [i for _, i in sorted(self.items.items()) if i.kind == kind]

    def _record(self, item: Item, changed: Sequence[str]) -> None:
        item.version += 1
        item.history.append(
            HistoryEntry(item.version, self.caller.ref, self.clock.tick(), sorted(changed), copy.deepcopy(item.fields))
        )
