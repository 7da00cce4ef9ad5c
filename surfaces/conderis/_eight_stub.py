"""Handlers of the eight v2 tools, for every design (v2-first; v2 and v2-live share theirs): per-kind validation against the kinds as data,
every refusal naming the allowed fields, filters, actions or values."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.surface import Kind
from stubs.kit import HandlerStub, Refusal, choose, page, refuse_unknown
from surfaces.conderis._eight_design import BATCH_LIMIT, Design, decisions_need_reason, filter_fields, listed, stored
from surfaces.conderis._stub import (
    GUIDE,
    Args,
    conderis_stub,
    new_project_id,
    no_public_visibility,
    personal_memory_fields,
    recall,
)
from surfaces.conderis.fixture import load_project
from surfaces.conderis.kinds import (
    CURRENT_VISIBILITIES,
    KINDS,
    MEMORY_TYPES,
    PRIORITIES,
    PROJECT_FIELDS,
    PROPOSAL_STATES,
    SETTABLE_STATUSES,
    STATUS_ACTIONS,
    STATUSES,
)
from surfaces.conderis.project import Item, Project, Proposal

__all__ = ["eight_stub"]

LISTS = ("task", "memory", "page", "proposal")
STORES = ("task", "memory", "page", "instructions")
"""The kinds these handlers list and store; a kind grown in beyond them is refused like an unknown one."""

SORTS = {
    "task": ("number", "priority", "title"),
    "memory": ("number", "title"),
    "page": ("number", "position", "title"),
}
PRIORITY_ORDER = {"urgent": 0, "high": 1, "normal": 2, "low": 3}


def eight_stub(design: Design, fixture: Path | None = None, kinds: Sequence[Kind] = KINDS) -> HandlerStub[Project]:
    project = load_project(fixture)
    return conderis_stub(project, _Handlers(project, design, kinds))


class _Handlers:
    def __init__(self, project: Project, design: Design, kinds: Sequence[Kind]) -> None:
        self.p = project
        self.design = design
        self.kinds = {k.name: k for k in kinds}
        self.batches: dict[str, dict[str, Any]] = {}

    def _kind(self, name: str | None, where: Sequence[str], what: str) -> Kind:
        if name is None or name not in where:
            raise Refusal(f"kind {name!r} cannot be {what}; kinds: {', '.join(where)}", where)
        return self.kinds[name]

    def _filters(self, kind: Kind) -> list[str]:
        return [f.name for f in filter_fields(kind, self.design)]

    def _target(self, args: Args) -> Item | Proposal:
        which = args.one_of(["number", "ref"])
        if which == "number":
            self.p.check_project(args.str("projectId"))
            return self.p.item(args.need("number", args.int("number")))
        ref = args.need("ref", args.str("ref"))
        if args.has("projectId") or not ref.startswith("memory:"):
            self.p.check_project(args.str("projectId"), required=not ref.startswith("memory:"))
        return self.p.resolve_ref(ref)

    # -- read ------------------------------------------------------------------------------------

    def recall(self, args: Args) -> Any:
        if args.bool("guide"):
            return GUIDE
        return recall(self.p, args)

    def project_get(self, args: Args) -> Any:
        if not args.has("projectId"):
            return {"projects": self.p.project_entries()}
        self.p.check_project(args.str("projectId"))
        return self.p.project_view()

    def item_get(self, args: Args) -> Any:
        target = self._target(args)
        if isinstance(target, Proposal):
            return self.p.proposal_view(target)
        if args.bool("history"):
            return {"ref": target.ref, "versions": self.p.history(target)}
        if args.has("version"):
            return self.p.at_version(target, args.need("version", args.int("version")))
        return self.p.view(target, args.int("offset"), args.int("take"))

    def item_list(self, args: Args) -> Any:
        served = [k.name for k in listed(self.kinds.values()) if k.name in LISTS]
        kind = self._kind(args.str("kind"), served, "listed")
        filters = args.obj("filter") or {}
        allowed = self._filters(kind)
        refuse_unknown(filters, allowed, noun="filter", of=kind.name, label="allowed filters")
        query = args.str("query")
        personal = kind.name == "memory" and not args.has("projectId")
        if not personal:
            self.p.check_project(args.str("projectId"))
        if kind.name == "proposal":
            proposals = self.p.proposal_list(
                state=_filter_str(filters, "state", PROPOSAL_STATES) or "pending",
                author=_filter_str(filters, "author"),
                target_kind=_filter_str(filters, "targetKind", ("memory", "page", "task", "instructions")),
            )
            return page([self.p.proposal_entry(x) for x in proposals], args.int("limit"), args.str("cursor"))
        if kind.name == "task":
            statuses = None
            if "status" in filters:
                status = _filter_str(filters, "status", STATUSES)
                statuses = [status] if status else None
            items = self.p.tasks(
                statuses=statuses,
                include_closed=_filter_bool(filters, "includeClosed"),
                priority=_filter_str(filters, "priority", PRIORITIES),
                assignee=_filter_str(filters, "assignee"),
                parent=_filter_int(filters, "parent"),
                query=query,
            )
        elif kind.name == "memory":
            tags = filters.get("tags")
            if tags is not None and (not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)):
                raise Refusal('filter tags must be a list of strings, e.g. ["build"]', ["list of strings"])
            items = self.p.memories(
                type_=_filter_str(filters, "type", MEMORY_TYPES),
                tags=tags,
                visibility=_filter_str(filters, "visibility", CURRENT_VISIBILITIES),
                include_archived=_filter_bool(filters, "includeArchived"),
                include_expired=_filter_bool(filters, "includeExpired"),
                query=query,
                personal=personal,
            )
        else:
            items = self.p.pages(
                parent=_filter_int(filters, "parent"),
                include_archived=_filter_bool(filters, "includeArchived"),
                query=query,
            )
        items = self._sort(kind.name, items, args.str("sort"))
        return page([self.p.entry(i) for i in items], args.int("limit"), args.str("cursor"))

    def _sort(self, kind: str, items: list[Item], sort: str | None) -> list[Item]:
        if sort is None:
            return items
        allowed = SORTS[kind]
        name = sort.removeprefix("-")
        if name not in allowed:
            options = [*allowed, *(f"-{a}" for a in allowed)]
            raise Refusal(f"cannot sort {kind} by {sort!r}; sort by: {', '.join(options)}", options)

        def key(item: Item) -> Any:
            if name == "number":
                return item.number or 0
            if name == "priority":
                return PRIORITY_ORDER[item.fields["priority"]]
            return item.fields.get(name) or 0

        return sorted(items, key=key, reverse=sort.startswith("-"))

    # -- write -----------------------------------------------------------------------------------

    def project_store(self, args: Args) -> Any:
        values = {k: args.values[k] for k in PROJECT_FIELDS if args.given(k)}
        if values.get("name", "x") is None:
            raise Refusal("a project needs a name; null clears description or remote only", ["description", "remote"])
        if not args.has("projectId"):
            name = args.need("name", args.str("name"))
            new_id = new_project_id(name)
            if new_id in [x["id"] for x in self.p.project_entries()]:
                raise Refusal(
                    f"a project {new_id!r} exists; change it with projectId or pick another name", ["projectId"]
                )
            self.p.other_projects.append({"id": new_id, **values, "public": False})
            return {"outcome": "published", "projectId": new_id}
        self.p.check_project(args.str("projectId"))
        return self.p.store_project(values)

    def _allowed_fields(self, kind: Kind) -> list[str]:
        return [f.name for f in kind.fields]

    def _check_store_fields(self, kind: Kind, fields: dict[str, Any]) -> None:
        self.p.check_fields(kind.name, fields, self._allowed_fields(kind))
        status = fields.get("status")
        if kind.name == "task" and status in STATUS_ACTIONS:
            action = STATUS_ACTIONS[status]
            raise Refusal(
                f"status {status} is set with item_action {action}; status values here: {', '.join(SETTABLE_STATUSES)}",
                SETTABLE_STATUSES,
            )
        if kind.name == "memory":
            no_public_visibility(fields)

    def item_store(self, args: Args) -> Any:
        storable = [k.name for k in stored(self.kinds.values()) if k.name in STORES]
        kind = self._kind(args.str("kind"), storable, "stored")
        if args.has("batch"):
            if args.has("fields") or args.has("number"):
                raise Refusal(
                    "batch stores many items instead of fields and number; give one of them", ["batch", "fields"]
                )
            return self._batch(args.obj("batch") or {}, args)
        fields = args.obj("fields")
        if fields is None:
            raise Refusal(
                f"fields is required: a JSON object with {kind.name} fields {', '.join(self._allowed_fields(kind))}",
                self._allowed_fields(kind),
            )
        self._check_store_fields(kind, fields)
        propose, reason = args.bool("propose"), args.str("reason")
        if kind.name == "instructions":
            self.p.check_project(args.str("projectId"))
            return self.p.change(
                self.p.instructions, fields, version=args.int("version"), propose=propose, reason=reason
            )
        personal = kind.name == "memory" and not args.has("projectId")
        if not personal:
            self.p.check_project(args.str("projectId"))
        if not args.has("number"):
            if personal:
                fields = personal_memory_fields(fields)
            return self.p.create(kind.name, fields, propose=propose, reason=reason, personal=personal)
        if personal:
            raise Refusal(
                "number addresses a project item and needs projectId; personal memories have no number", ["projectId"]
            )
        item = self.p.item(args.need("number", args.int("number")), [kind.name])
        return self.p.change(item, fields, version=args.int("version"), propose=propose, reason=reason)

    def _batch(self, batch: dict[str, Any], args: Args) -> Any:
        allowed_top = ["idempotencyKey", "source", "items"]
        unknown = [k for k in batch if k not in allowed_top]
        if unknown:
            raise Refusal(f"unknown batch field {unknown[0]!r}; batch fields: {', '.join(allowed_top)}", allowed_top)
        items = batch.get("items")
        if not isinstance(items, list) or not items:
            raise Refusal("batch.items must be a non-empty list of {key, kind, fields}", ["items"])
        if len(items) > BATCH_LIMIT:
            raise Refusal(f"a batch holds at most {BATCH_LIMIT} items; send several batches", [BATCH_LIMIT])
        self.p.check_project(args.str("projectId"))
        key = batch.get("idempotencyKey")
        if key is not None and not isinstance(key, str):
            raise Refusal("idempotencyKey must be a string", ["string"])
        storable = [k for k in ("task", "memory", "page") if k in self.kinds]
        for n, entry in enumerate(items):
            if not isinstance(entry, dict):
                raise Refusal(f"batch.items[{n}] must be an object with key, kind, fields", ["key", "kind", "fields"])
            extra = [k for k in entry if k not in ("key", "kind", "fields")]
            if extra:
                raise Refusal(
                    f"batch.items[{n}] has {extra[0]!r}; an item holds only key, kind, fields",
                    ["key", "kind", "fields"],
                )
            kind = self._kind(entry.get("kind"), storable, "stored in a batch")
            fields = entry.get("fields")
            if not isinstance(fields, dict):
                raise Refusal(f"batch.items[{n}].fields must be an object", self._allowed_fields(kind))
            checked = {k: v for k, v in fields.items() if not (k == "parent" and isinstance(v, str))}
            self._check_store_fields(kind, checked)
        results: dict[str, Any] = {}
        for kind_name in storable:
            memo = f"{key}:{kind_name}" if key else None
            if memo and memo in self.batches:
                results[kind_name] = {**self.batches[memo], "replayed": True}
                continue
            mine = [e for e in items if e["kind"] == kind_name]
            if mine:
                results[kind_name] = self._store_kind(kind_name, mine, args)
                if memo:
                    self.batches[memo] = results[kind_name]
        return {"outcome": "stored", "kinds": results}

    def _store_kind(self, kind: str, entries: list[dict[str, Any]], args: Args) -> dict[str, Any]:
        """One kind atomically: on a refusal nothing of this kind stays stored."""
        saved = (copy.deepcopy(self.p.items), self.p.next_number, copy.deepcopy(self.p.proposals))
        keys: dict[str, int | str | None] = {}
        try:
            for entry in entries:
                fields = dict(entry["fields"])
                parent = fields.get("parent")
                if isinstance(parent, str):
                    if parent not in keys:
                        raise Refusal(
                            f"parent {parent!r} is not the key of an earlier {kind}; keys so far: {', '.join(map(str, keys)) or '(none)'}",
                            [*map(str, keys), "an existing number"],
                        )
                    fields["parent"] = keys[parent]
                done = self.p.create(kind, fields, propose=args.bool("propose"), reason=args.str("reason"))
                if entry.get("key") is not None:
                    keys[str(entry["key"])] = done.get("number")
        except Refusal as refusal:
            self.p.items, self.p.next_number, self.p.proposals = saved
            return {"outcome": "refused", "message": refusal.message}
        return {"outcome": "stored", "keys": keys, "count": len(entries)}

    def item_action(self, args: Args) -> Any:
        target = self._target(args)
        action = args.need("action", args.str("action"))
        kind = self.kinds.get(target.kind if isinstance(target, Item) else "proposal")
        own = [a.name for a in kind.actions] if kind else []
        if self.design.common_actions and not isinstance(target, Proposal):
            own = list(
                dict.fromkeys([*(a for a in own if a not in self.design.common_actions), *self.design.common_actions])
            )
        name = kind.name if kind else "item"
        if action not in own:
            raise Refusal(
                f"{action!r} does not apply to a {name}; {name} actions: {', '.join(own) or '(none)'}",
                own or ["item_store"],
            )
        version, reason = args.int("version"), args.str("reason")
        if isinstance(target, Proposal):
            if action in ("approve", "reject") and not reason and decisions_need_reason(self.design):
                raise Refusal(f"{action} needs a reason, shown to the author", ["reason"])
            return self.p.decide(
                target, action, reason=reason, version=version, check_version=self.design.versioned_decisions
            )
        if action in ("relate", "unrelate"):
            if target.number is None:
                raise Refusal(f"{target.ref} has no number; relations link numbered items", ["number"])
            if self.design.versioned_decisions:
                self.p.check_version(target, version, action)
            relation = args.need("relation", args.str("relation"))
            return self.p.relate(
                target.number, args.need("target", args.int("target")), relation, remove=action == "unrelate"
            )
        if action in ("archive", "restore"):
            return self.p.archive(target, action == "restore", version=version, check_version=True)
        return self.p.task_action(target, action, version=version, reason=reason)

    def item_delete(self, args: Args) -> Any:
        target = self._target(args)
        if isinstance(target, Proposal):
            raise Refusal(
                "a proposal is withdrawn or rejected, not deleted; actions: withdraw, reject", ["withdraw", "reject"]
            )
        return self.p.request_deletion(target, version=args.int("version"), reason=args.str("reason"))


def _filter_str(filters: dict[str, Any], name: str, choices: Sequence[str] | None = None) -> str | None:
    value = filters.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refusal(f"filter {name} must be a string", ["string"])
    if choices is not None:
        choose(f"filter {name}", value, choices, label="values")
    return value


def _filter_bool(filters: dict[str, Any], name: str) -> bool:
    value = filters.get(name, False)
    if not isinstance(value, bool):
        raise Refusal(f"filter {name} must be true or false", ["true", "false"])
    return value


def _filter_int(filters: dict[str, Any], name: str) -> int | None:
    value = filters.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise Refusal(f"filter {name} must be an item number", ["number"])
    return value
