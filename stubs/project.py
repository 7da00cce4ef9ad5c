"""The fixed project a stub serves: typed records and the product's rules, shared by every surface.

Surfaces differ in how calls are named and checked; what a call does to the project is decided here,
once: one version per item, full-state history, proposals, relations, deletion requests, paging.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from stubs.refusal import Refusal

__all__ = [
    "ACTIVE",
    "MEMORY_TYPES",
    "PRIORITIES",
    "RELATIONS",
    "STATUSES",
    "VISIBILITIES",
    "Caller",
    "DeletionRequest",
    "HistoryEntry",
    "Item",
    "Person",
    "Project",
    "ProjectInfo",
    "Proposal",
    "Refusal",
    "Relation",
]

STATUSES = ("open", "in_progress", "blocked", "completed", "canceled")
ACTIVE = ("open", "in_progress", "blocked")
PRIORITIES = ("low", "normal", "high", "urgent")
MEMORY_TYPES = ("decision", "convention", "fact", "howto", "note")
VISIBILITIES = ("private", "shared", "public")
RELATIONS = ("blocks", "duplicates", "relates", "parent")
PROPOSAL_STATES = ("pending", "approved", "rejected", "withdrawn")
MOVE_FIELDS = frozenset({"parent", "position"})

# The fields of each kind as the product stores them; surfaces may accept fewer.
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "task": ("title", "content", "status", "priority", "assignee", "parent"),
    "memory": ("title", "summary", "content", "tags", "type", "visibility", "expiresAt"),
    "page": ("title", "content", "parent", "position"),
    "instructions": ("content",),
}
REQUIRED_ON_CREATE: dict[str, tuple[str, ...]] = {
    "task": ("title",),
    "memory": ("title", "content"),
    "page": ("title",),
    "instructions": (),
}
DEFAULTS: dict[str, dict[str, Any]] = {
    "task": {"content": "", "status": "open", "priority": "normal", "assignee": None, "parent": None},
    "memory": {"summary": "", "tags": [], "type": "note", "visibility": "shared", "expiresAt": None},
    "page": {"content": "", "parent": None, "position": 0},
    "instructions": {"content": ""},
}
MAX_PAGE = 100
DEFAULT_PAGE = 20


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


def _names(values: Iterable[object], limit: int = 12) -> str:
    items = [str(v) for v in values]
    shown = ", ".join(items[:limit])
    return shown + (f", … ({len(items)} in all)" if len(items) > limit else "")


class Project:
    """One project with its items, as loaded from a fixture, changed only by calls."""

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
        self._start = now
        self._ticks = 0
        for item in [*self.items.values(), *self.personal.values(), self.instructions]:
            if not item.history or item.history[-1].version != item.version:
                item.history.append(
                    HistoryEntry(
                        item.version, self.caller.ref, self._time(), sorted(item.fields), copy.deepcopy(item.fields)
                    )
                )

    # -- time and people -------------------------------------------------------------------------

    def _time(self) -> str:
        return (self._start + timedelta(minutes=self._ticks)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def _tick(self) -> str:
        self._ticks += 1
        return self._time()

    def assignee_names(self) -> list[str]:
        return [p.ref if p.agent else p.name for p in self.people]

    def check_project(self, project_id: str | None, required: bool = True) -> None:
        if project_id is None:
            if required:
                raise Refusal(f"projectId is required; this server has {self.info.id}", [self.info.id])
            return
        if project_id != self.info.id:
            raise Refusal(f"unknown projectId {project_id!r}; known: {self.info.id}", [self.info.id])

    # -- finding items ---------------------------------------------------------------------------

    def item(self, number: int, kinds: Sequence[str] = ()) -> Item:
        found = self.items.get(number)
        candidates = [n for n, i in sorted(self.items.items()) if not kinds or i.kind in kinds]
        what = "/".join(kinds) if kinds else "item"
        if found is None:
            raise Refusal(f"there is no {what} #{number}; existing: {_names(candidates)}", candidates)
        if kinds and found.kind not in kinds:
            raise Refusal(
                f"#{number} is a {found.kind}, not a {what}; {what} numbers: {_names(candidates)}", candidates
            )
        return found

    def personal_memory(self, memory_id: str) -> Item:
        found = self.personal.get(memory_id)
        if found is None:
            refs = [f"memory:{i}" for i in self.personal]
            raise Refusal(f"there is no personal memory memory:{memory_id}; yours: {_names(refs)}", refs)
        return found

    def proposal(self, proposal_id: str) -> Proposal:
        found = self.proposals.get(proposal_id)
        if found is None:
            refs = [p.ref for p in self.proposals.values()]
            raise Refusal(f"there is no proposal:{proposal_id}; proposals: {_names(refs)}", refs)
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

    def deletion(self, request_id: str) -> DeletionRequest:
        found = self.deletions.get(request_id)
        if found is None:
            ids = list(self.deletions) or ["(no pending requests)"]
            raise Refusal(f"there is no deletion request {request_id!r}; requests: {_names(ids)}", ids)
        return found

    # -- views -----------------------------------------------------------------------------------

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

    def proposal_entry(self, p: Proposal) -> dict[str, Any]:
        return {
            "ref": p.ref,
            "target": p.target,
            "author": p.author,
            "state": p.state,
            "reason": p.reason,
            "version": p.version,
        }

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
            data["text"] = self.text_part(str(fields.get("content") or ""), offset, take)
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

    def text_part(self, text: str, offset: int | None, take: int | None) -> dict[str, Any]:
        start = offset or 0
        if start < 0:
            raise Refusal(f"offset must be 0 or more, up to {len(text)}", [0, len(text)])
        size = take if take is not None else 2000
        if size <= 0:
            raise Refusal("take must be at least 1", [1])
        part = text[start : start + size]
        return {
            "offset": start,
            "take": size,
            "length": len(text),
            "hasMore": start + size < len(text),
            "content": part,
        }

    def target_kind(self, p: Proposal) -> str:
        """The kind a proposal changes; a proposal to create an item names it as `new <kind>`."""
        if p.target.startswith("new "):
            return p.target.removeprefix("new ")
        target = self.resolve_ref(p.target)
        return target.kind if isinstance(target, Item) else "proposal"

    def proposal_view(self, p: Proposal) -> dict[str, Any]:
        target = None if p.target.startswith("new ") else self.resolve_ref(p.target)
        current = target.fields if isinstance(target, Item) else None
        return {
            **self.proposal_entry(p),
            "baseVersion": p.base_version,
            "changes": p.changes,
            "current": {k: current.get(k) for k in p.changes} if current is not None else None,
            "decisionReason": p.decision_reason,
            "time": p.time,
        }

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
        raise Refusal(f"{item.ref} has no version {version}; versions: {_names(versions)}", versions)

    # -- lists -----------------------------------------------------------------------------------

    def page(self, entries: Sequence[dict[str, Any]], limit: int | None, cursor: str | None) -> dict[str, Any]:
        size = DEFAULT_PAGE if limit is None else limit
        if not 1 <= size <= MAX_PAGE:
            raise Refusal(f"limit must be between 1 and {MAX_PAGE}", [1, MAX_PAGE])
        start = 0
        if cursor is not None:
            if not (cursor.startswith("o") and cursor[1:].isdigit()):
                raise Refusal(f"cursor {cursor!r} was not given out by this server; pass nextCursor", ["nextCursor"])
            start = int(cursor[1:])
        chunk = list(entries[start : start + size])
        more = start + size < len(entries)
        return {
            "items": chunk,
            "total": len(entries),
            "hasMore": more,
            "nextCursor": f"o{start + size}" if more else None,
        }

    def tasks(
        self,
        *,
        statuses: Sequence[str] | None = None,
        include_closed: bool = False,
        priority: str | None = None,
        assignee: str | None = None,
        parent: int | None = None,
        query: str | None = None,
    ) -> list[Item]:
        allowed = statuses if statuses is not None else (STATUSES if include_closed else ACTIVE)
        found = []
        for item in self._sorted("task"):
            f = item.fields
            if f["status"] not in allowed:
                continue
            if priority is not None and f["priority"] != priority:
                continue
            if assignee is not None and f["assignee"] != assignee:
                continue
            if parent is not None and f["parent"] != parent:
                continue
            if query and not self._matches(item, query):
                continue
            found.append(item)
        return found

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
            if not include_expired and f.get("expiresAt") and str(f["expiresAt"]) < self._time():
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

    def proposal_list(
        self, *, state: str | None = "pending", author: str | None = None, target_kind: str | None = None
    ) -> list[Proposal]:
        out = []
        for p in self.proposals.values():
            kind = self.target_kind(p)
            if state is not None and p.state != state:
                continue
            if author is not None and p.author != author:
                continue
            if target_kind is not None and kind != target_kind:
                continue
            out.append(p)
        return out

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

    def _sorted(self, kind: str) -> list[Item]:
        return [i for _, i in sorted(self.items.items()) if i.kind == kind]

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

    # -- checking values -------------------------------------------------------------------------

    def check_fields(self, kind: str, fields: dict[str, Any], allowed: Sequence[str] | None = None) -> None:
        """Names and values of a kind's fields; null is allowed where it clears a field."""
        names = list(allowed if allowed is not None else KIND_FIELDS[kind])
        unknown = [k for k in fields if k not in names]
        if unknown:
            raise Refusal(f"unknown field {unknown[0]!r} for {kind}; allowed fields: {', '.join(names)}", names)
        for name, value in fields.items():
            self._check_value(kind, name, value)

    def _check_value(self, kind: str, name: str, value: Any) -> None:
        if value is None:
            if (kind, name) in {("task", "title"), ("memory", "title"), ("page", "title"), ("task", "status")}:
                raise Refusal(f"{kind} {name} cannot be cleared; give a value", [name])
            return
        choices = {
            ("task", "status"): STATUSES,
            ("task", "priority"): PRIORITIES,
            ("memory", "type"): MEMORY_TYPES,
            ("memory", "visibility"): VISIBILITIES,
        }.get((kind, name))
        if choices is not None:
            if value not in choices:
                raise Refusal(f"{kind} {name} {value!r} is not allowed; allowed values: {', '.join(choices)}", choices)
            return
        if name == "assignee":
            names = self.assignee_names()
            if value not in names:
                raise Refusal(f"assignee {value!r} is not a member; assignees: {', '.join(names)}", names)
        elif name == "parent":
            if not isinstance(value, int) or isinstance(value, bool):
                raise Refusal(f"parent must be a {kind} number", [f"{kind} number"])
            self.item(value, [kind])
        elif name == "position":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise Refusal("position must be an integer, 0 or more", [0])
        elif name == "tags":
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise Refusal('tags must be a list of strings, e.g. ["build"]', ["list of strings"])
        elif name == "expiresAt":
            try:
                datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                raise Refusal(
                    f"expiresAt {value!r} is not an ISO 8601 time (e.g. 2026-12-31T00:00:00Z) or null",
                    ["ISO 8601", "null"],
                ) from None
        elif not isinstance(value, str):
            raise Refusal(f"{kind} {name} must be a string", ["string"])

    def check_version(self, item: Item, version: int | None, what: str = "this change") -> None:
        if version is None:
            raise Refusal(
                f"version is required for {what}; read it with the item (current version of {item.ref} not shown)",
                ["version"],
            )
        if version != item.version:
            raise Refusal(
                f"version {version} of {item.ref} is stale; current version: {item.version}; read the item again",
                [item.version],
            )

    # -- writing ---------------------------------------------------------------------------------

    def _record(self, item: Item, changed: Sequence[str]) -> None:
        item.version += 1
        item.history.append(
            HistoryEntry(item.version, self.caller.ref, self._tick(), sorted(changed), copy.deepcopy(item.fields))
        )

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
        item.history.append(HistoryEntry(1, self.caller.ref, self._tick(), sorted(values), copy.deepcopy(values)))
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
        if item.kind == "memory" and "visibility" in fields and fields["visibility"] != item.fields["visibility"]:
            current = item.fields["visibility"]
            raise Refusal(f"visibility is fixed after creation; {item.ref} stays {current}", [current])
        if "parent" in fields and fields["parent"] is not None:
            self._check_no_cycle(item, int(fields["parent"]))
        changed = [k for k, v in fields.items() if item.fields.get(k) != v]
        move = bool(fields) and set(fields) <= MOVE_FIELDS
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
                f"{_names(allowed)}",
                allowed or ["null"],
            )

    def _propose(self, target: str, changes: dict[str, Any], base: int, reason: str | None) -> dict[str, Any]:
        proposal_id = f"p-{len(self.proposals) + 101}"
        p = Proposal(
            proposal_id, target, self.caller.ref, reason or "", base, 1, "pending", self._tick(), copy.deepcopy(changes)
        )
        self.proposals[proposal_id] = p
        return {"outcome": "proposed", "ref": p.ref, "target": target}

    # -- actions ---------------------------------------------------------------------------------

    def task_action(
        self, item: Item, action: str, *, version: int | None, reason: str | None, check_version: bool = True
    ) -> dict[str, Any]:
        status = item.fields["status"]
        if check_version:
            self.check_version(item, version, f"{action}")
        if action == "claim":
            if status not in ("open", "in_progress"):
                raise Refusal(f"{item.ref} is {status}; only open tasks can be claimed; claimable: open", ["open"])
            assignee = item.fields["assignee"]
            if assignee not in (None, self.caller.ref):
                free = [t.number for t in self.tasks(statuses=("open",)) if t.fields["assignee"] is None]
                raise Refusal(
                    f"{item.ref} is assigned to {assignee}; unassigned open tasks to claim: {_names(free)}",
                    free or ["open"],
                )
            item.fields.update(status="in_progress", assignee=self.caller.ref)
            changed = ["assignee", "status"]
        elif action == "complete":
            if status in ("completed", "canceled"):
                raise Refusal(f"{item.ref} is already {status}; active statuses: {', '.join(ACTIVE)}", ACTIVE)
            item.fields["status"] = "completed"
            changed = ["status"]
        elif action == "block":
            if not reason:
                raise Refusal("block needs a reason: what the task waits for", ["reason"])
            if status not in ("open", "in_progress"):
                raise Refusal(
                    f"{item.ref} is {status}; open or in_progress tasks can be blocked", ["open", "in_progress"]
                )
            item.fields["status"] = "blocked"
            item.block_reason = reason
            changed = ["status", "blockReason"]
        elif action == "unblock":
            if status != "blocked":
                raise Refusal(f"{item.ref} is {status}, not blocked; unblock applies to blocked tasks", ["blocked"])
            item.fields["status"] = "open"
            item.block_reason = None
            changed = ["status", "blockReason"]
        else:
            actions = ["claim", "complete", "block", "unblock"]
            raise Refusal(f"{action!r} is not a task action; task actions: {', '.join(actions)}", actions)
        self._record(item, changed)
        return {"outcome": "published", "ref": item.ref, "status": item.fields["status"], "version": item.version}

    def decide(
        self, p: Proposal, action: str, *, reason: str | None, version: int | None = None, check_version: bool = False
    ) -> dict[str, Any]:
        if p.state != "pending":
            raise Refusal(f"{p.ref} is {p.state}; only pending proposals can be decided", ["pending"])
        if check_version:
            if version is None:
                raise Refusal(f"version is required to {action} {p.ref}; current version: {p.version}", [p.version])
            if version != p.version:
                raise Refusal(f"version {version} of {p.ref} is stale; current version: {p.version}", [p.version])
        if action == "withdraw":
            if p.author != self.caller.ref:
                raise Refusal(
                    f"only the author ({p.author}) can withdraw {p.ref}; a moderator approves or rejects",
                    ["approve", "reject"],
                )
            p.state = "withdrawn"
        elif action in ("approve", "reject"):
            if not self.caller.may_moderate:
                raise Refusal(f"deciding {p.ref} needs moderation rights; you may withdraw your own", ["withdraw"])
            if action == "approve":
                self._apply(p)
            p.state = "approved" if action == "approve" else "rejected"
            p.decision_reason = reason
        else:
            actions = ["approve", "reject", "withdraw"]
            raise Refusal(f"{action!r} is not a proposal action; proposal actions: {', '.join(actions)}", actions)
        p.version += 1
        self._tick()
        return {"outcome": p.state, "ref": p.ref, "target": p.target}

    def _apply(self, p: Proposal) -> None:
        if p.target.startswith("new "):
            kind = p.target.removeprefix("new ")
            values = dict(p.changes)
            item = Item(kind, values, 1, number=self.next_number)
            self.items[self.next_number] = item
            self.next_number += 1
            item.history.append(HistoryEntry(1, p.author, self._tick(), sorted(values), copy.deepcopy(values)))
            p.target = item.ref
            return
        target = self.resolve_ref(p.target)
        assert isinstance(target, Item)
        target.fields.update(p.changes)
        target.version += 1
        target.history.append(
            HistoryEntry(target.version, p.author, self._tick(), sorted(p.changes), copy.deepcopy(target.fields))
        )

    def archive(
        self, item: Item, restore: bool, *, version: int | None = None, check_version: bool = False
    ) -> dict[str, Any]:
        if item.kind == "task":
            raise Refusal(
                f"{item.ref} is a task: a task is closed with complete or status canceled, never archived",
                ["complete", "canceled"],
            )
        if item.kind not in ("memory", "page"):
            raise Refusal(f"{item.ref} is a {item.kind}; memories and pages are archived", ["memory", "page"])
        if check_version:
            self.check_version(item, version, "archive" if not restore else "restore")
        if item.archived == (not restore):
            state = "archived" if item.archived else "not archived"
            action = "restore" if item.archived else "archive"
            raise Refusal(f"{item.ref} is already {state}; the action that applies: {action}", [action])
        item.archived = not restore
        self._record(item, ["archived"])
        return {"outcome": "published", "ref": item.ref, "archived": item.archived, "version": item.version}

    def relate(self, source: int, target: int, relation: str, remove: bool = False) -> dict[str, Any]:
        if relation not in RELATIONS:
            raise Refusal(f"relation {relation!r} is unknown; relations: {', '.join(RELATIONS)}", RELATIONS)
        self.item(source)
        self.item(target)
        if source == target:
            others = [n for n in sorted(self.items) if n != source]
            raise Refusal(f"an item cannot relate to itself; targets: {_names(others)}", others)
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
        self._tick()
        return {"outcome": "published", "source": source, "target": target, "relation": relation, "removed": remove}

    def request_deletion(self, item: Item, *, version: int | None, reason: str | None) -> dict[str, Any]:
        if not reason:
            raise Refusal("a deletion request needs a reason, shown to the person who decides", ["reason"])
        if version is not None and version not in [h.version for h in item.history]:
            versions = [h.version for h in item.history]
            raise Refusal(f"{item.ref} has no version {version}; versions: {_names(versions)}", versions)
        request_id = f"d-{len(self.deletions) + 1}"
        self.deletions[request_id] = DeletionRequest(
            request_id, item.ref, version, reason, self.caller.ref, self._tick()
        )
        item.locked = True
        return {"outcome": "requested", "request": request_id, "ref": item.ref, "locked": True}

    def decide_deletion(self, request: DeletionRequest, approve: bool, reason: str | None) -> dict[str, Any]:
        if request.state != "pending":
            raise Refusal(
                f"deletion request {request.id} is {request.state}; only pending requests are decided", ["pending"]
            )
        if not self.caller.may_moderate:
            raise Refusal("deciding a deletion needs moderation rights", ["moderator"])
        target = self.resolve_ref(request.target)
        assert isinstance(target, Item)
        if approve:
            if request.version is None:
                if target.number is not None:
                    del self.items[target.number]
                    self.relations = [r for r in self.relations if target.number not in (r.source, r.target)]
                elif target.id is not None:
                    self.personal.pop(target.id, None)
                else:
                    target.fields = {k: None for k in target.fields}
                    target.locked = False
            else:
                target.history = [h for h in target.history if h.version != request.version]
                target.locked = False
        else:
            target.locked = False
        request.state = "approved" if approve else "rejected"
        request.decision_reason = reason
        self._tick()
        return {"outcome": request.state, "request": request.id, "ref": request.target}

    def store_project(self, values: dict[str, Any]) -> dict[str, Any]:
        for name, value in values.items():
            if name == "remote" and value != self.info.remote:
                self.info.remote_verified = False
            setattr(self.info, name, value)
        self._tick()
        return {"outcome": "published", "projectId": self.info.id}

    # -- reading the whole ----------------------------------------------------------------------

    def project_view(self) -> dict[str, Any]:
        counts = {
            "openTasks": len(self.tasks()),
            "memories": len(self.memories()),
            "pages": len(self.pages()),
            "pendingProposals": len(self.proposal_list()),
        }
        return {
            "id": self.info.id,
            "name": self.info.name,
            "description": self.info.description,
            "remote": self.info.remote,
            "remoteVerified": self.info.remote_verified,
            "visibility": "public" if self.info.public else "private",
            "upstream": self.info.upstream,
            "permissions": {"mayWrite": self.caller.may_write, "mayModerate": self.caller.may_moderate},
            "assignees": [{"name": p.name, "ref": p.ref, "agent": p.agent} for p in self.people],
            "counts": counts,
        }

    def project_entries(self) -> list[dict[str, Any]]:
        mine = {
            "id": self.info.id,
            "name": self.info.name,
            "description": self.info.description,
            "public": self.info.public,
        }
        return [mine, *self.other_projects]

    def recall(self, focus: str | None, max_chars: int | None, personal_only: bool = False) -> str:
        """Memories, active tasks and the instructions (or only personal memories), focus matches first."""
        memories = self.memories(personal=True) if personal_only else self.memories() + self.memories(personal=True)
        if focus:
            memories.sort(key=lambda i: -self._score(i, focus))
        entries = [f"- {m.ref} {m.fields['title']}: {m.fields['summary']}" for m in memories] or ["(none)"]
        if personal_only:
            lines = ["Personal memories:", *entries]
        else:
            lines = [
                f"Project {self.info.name}: {self.info.description}",
                "",
                "Instructions:",
                str(self.instructions.fields["content"]),
                "",
                "Memories:",
                *entries,
                "",
                "Active tasks:",
                *(f"- {t.ref} [{t.fields['status']}] {t.fields['title']}" for t in self.tasks()),
            ]
        text = "\n".join(lines)
        return text[:max_chars] if max_chars else text

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, for outcome checks."""

        def item_state(i: Item) -> dict[str, Any]:
            data = asdict(i)
            data["ref"] = i.ref
            data["blockReason"] = data.pop("block_reason")
            return data

        return {
            "project": asdict(self.info),
            "caller": asdict(self.caller),
            "items": [item_state(i) for _, i in sorted(self.items.items())],
            "personal": [item_state(i) for i in self.personal.values()],
            "instructions": item_state(self.instructions),
            "proposals": [asdict(p) for p in self.proposals.values()],
            "relations": [asdict(r) for r in self.relations],
            "deletions": [asdict(d) for d in self.deletions.values()],
            "nextNumber": self.next_number,
            "time": self._time(),
        }
