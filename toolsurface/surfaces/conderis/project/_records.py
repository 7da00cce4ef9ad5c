"""The records of the fixed project: people, the project, items with their history, proposals, relations,
deletion requests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Person:
    ref: str
    name: str
    agent: bool


@dataclass
class Caller:
    ref: str
    name: str
    may_write: bool
    may_moderate: bool


@dataclass
class ProjectInfo:
    id: str
    name: str
    description: str
    remote: str | None
    remote_verified: bool
    public: bool
    upstream: str | None


@dataclass
class HistoryEntry:
    version: int
    author: str
    time: str
    changed: list[str]
    fields: dict[str, Any]


@dataclass
class Item:
    kind: str
    fields: dict[str, Any]
    version: int
    number: int | None = None
    id: str | None = None
    archived: bool = False
    locked: bool = False
    block_reason: str | None = None
    history: list[HistoryEntry] = field(default_factory=list)

    @property
    def ref(self) -> str:
        if self.number is not None:
            return f"#{self.number}"
        if self.kind == "instructions":
            return "instructions"
        return f"{self.kind}:{self.id}"


@dataclass
class Proposal:
    id: str
    target: str
    author: str
    reason: str
    base_version: int
    version: int
    state: str
    time: str
    changes: dict[str, Any]
    decision_reason: str | None = None

    @property
    def ref(self) -> str:
        return f"proposal:{self.id}"


@dataclass
class Relation:
    source: int
    target: int
    relation: str


@dataclass
class DeletionRequest:
    id: str
    target: str
    version: int | None
    reason: str
    requester: str
    time: str
    state: str = "pending"
    decision_reason: str | None = None
