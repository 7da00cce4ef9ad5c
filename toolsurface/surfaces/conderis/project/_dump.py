"""The whole project as its stub writes it when it stops (the run's state.json), and read back as records by
the outcome checks: one shape, written and read here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from toolsurface.surfaces.conderis.project._records import (
    Caller,
    DeletionRequest,
    HistoryEntry,
    Item,
    ProjectInfo,
    Proposal,
    Relation,
)


def _item_json(item: Item) -> dict[str, Any]:
    data = asdict(item)
    data["ref"] = item.ref
    data["blockReason"] = data.pop("block_reason")
    return data


def _item(data: Mapping[str, Any]) -> Item:
    return Item(
        kind=str(data["kind"]),
        fields=dict(data["fields"]),
        version=int(data["version"]),
        number=data["number"],
        id=data["id"],
        archived=bool(data["archived"]),
        locked=bool(data["locked"]),
        block_reason=data["blockReason"],
        history=[HistoryEntry(**entry) for entry in data["history"]],
    )


@dataclass(frozen=True)
class ProjectDump:
    """The project's state at one moment: the numbered items by number, the personal memories, the
    instructions, proposals, relations and deletion requests, the next item number and the clock's time."""

    project: ProjectInfo
    caller: Caller
    items: list[Item]
    personal: list[Item]
    instructions: Item
    proposals: list[Proposal]
    relations: list[Relation]
    deletions: list[DeletionRequest]
    next_number: int
    time: str

    def item(self, number: int) -> Item | None:
        return next((item for item in self.items if item.number == number), None)

    def proposal(self, proposal_id: str) -> Proposal | None:
        return next((proposal for proposal in self.proposals if proposal.id == proposal_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "project": asdict(self.project),
            "caller": asdict(self.caller),
            "items": [_item_json(i) for i in self.items],
            "personal": [_item_json(i) for i in self.personal],
            "instructions": _item_json(self.instructions),
            "proposals": [asdict(p) for p in self.proposals],
            "relations": [asdict(r) for r in self.relations],
            "deletions": [asdict(d) for d in self.deletions],
            "nextNumber": self.next_number,
            "time": self.time,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProjectDump:
        """As `to_json` gave it; a state of another shape fails with the KeyError or TypeError that says where."""
        return cls(
            project=ProjectInfo(**data["project"]),
            caller=Caller(**data["caller"]),
            items=[_item(i) for i in data["items"]],
            personal=[_item(i) for i in data["personal"]],
            instructions=_item(data["instructions"]),
            proposals=[Proposal(**p) for p in data["proposals"]],
            relations=[Relation(**r) for r in data["relations"]],
            deletions=[DeletionRequest(**d) for d in data["deletions"]],
            next_number=int(data["nextNumber"]),
            time=str(data["time"]),
        )
