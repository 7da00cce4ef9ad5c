"""The eight tools of tool surface v2, each declared beside its handler: built for any set of kinds and every
design on the page (`v2_design`: first, final as measured, final as live; v2 and v2-live share the handlers),
validated per kind against the kinds as data, every refusal naming the allowed fields, filters, actions or
values."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Access, Kind
from toolsurface.stubs.kit import Handlers, HandlerStub, Refusal, choose, page, refuse_unknown
from toolsurface.surfaces._authoring import ToolData, make_tool, prop
from toolsurface.surfaces.conderis._lines import action_rows, address, field_list, kind_lines, kinds_phrase
from toolsurface.surfaces.conderis._shared import SECRET_EXAMPLE, cursor_paging, project_id, version
from toolsurface.surfaces.conderis._shared_handlers import (
    GUIDE,
    Args,
    conderis_stub,
    new_project_id,
    no_public_visibility,
    personal_memory_fields,
    recall,
)
from toolsurface.surfaces.conderis.fixture import load_project
from toolsurface.surfaces.conderis.kinds import (
    ACTIVE,
    CURRENT_VISIBILITIES,
    KINDS,
    MEMORY_TYPES,
    PRIORITIES,
    PROJECT_FIELDS,
    PROPOSAL_STATES,
    REASON_NOTE,
    SETTABLE_STATUSES,
    STATUS_ACTIONS,
    STATUSES,
)
from toolsurface.surfaces.conderis.pieces import ours, seed
from toolsurface.surfaces.conderis.project import Item, Project, Proposal
from toolsurface.surfaces.conderis.v2_design import (
    ANY_ITEM_ACTIONS,
    BATCH_LIMIT,
    Design,
    decisions_need_reason,
    filter_fields,
    listed,
    stored,
)

__all__ = ["STORE_MEANINGS", "V2Project", "build", "stub"]

LISTS = ("task", "memory", "page", "proposal")
STORES = ("task", "memory", "page", "instructions")
"""The kinds these handlers list and store; a kind grown in beyond them is refused like an unknown one."""

SORTS = {
    "task": ("number", "priority", "title"),
    "memory": ("number", "title"),
    "page": ("number", "position", "title"),
}
PRIORITY_ORDER = {"urgent": 0, "high": 1, "normal": 2, "low": 3}

_ACTIVE = f"Tasks are the active ones ({', '.join(s.replace('_', ' ') for s in ACTIVE)}) unless includeClosed."


@dataclass
class V2Project:
    """The project as the v2 handlers hold it: with the design they serve, the kinds by name and the batches
    stored so far by idempotency key."""

    p: Project
    design: Design
    kinds: dict[str, Kind]
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)


tools: Handlers[V2Project] = Handlers()


def _kind(s: V2Project, name: str | None, where: Sequence[str], what: str) -> Kind:
    if name is None or name not in where:
        raise Refusal(f"kind {name!r} cannot be {what}; kinds: {', '.join(where)}", where)
    return s.kinds[name]


def _target(p: Project, args: Args) -> Item | Proposal:
    which = args.one_of(["number", "ref"])
    if which == "number":
        p.check_project(args.str("projectId"))
        return p.item(args.need("number", args.int("number")))
    ref = args.need("ref", args.str("ref"))
    if args.has("projectId") or not ref.startswith("memory:"):
        p.check_project(args.str("projectId"), required=not ref.startswith("memory:"))
    return p.resolve_ref(ref)


# -- read ------------------------------------------------------------------------------------------


def _recall_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    return make_tool(
        "recall",
        "Recall a project's memories, active tasks and instructions for the work at hand, ranked by focus."
        + ours(" Memories appear as #N, personal ones as memory:<id>.", 7, 81),
        Access.READ,
        {
            "projectId": project_id("Omit for personal memories only"),
            "focus": prop("string", "What you are about to do"),
            "maxChars": prop("integer", "Upper limit for the answer"),
            "guide": prop("boolean", "Return the system guide instead of the recall"),
        },
    )


@tools.tool("recall", define=_recall_tool)
def recall_handler(s: V2Project, args: Args) -> Any:
    if args.bool("guide"):
        return GUIDE
    return recall(s.p, args)


def _project_get_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    return make_tool(
        "project_get",
        "Read a project"
        + ours(
            ": name, description, remote (verified or not), public or private, upstream, your permissions (may "
            "write, may moderate), assignees and counts of open tasks, memories, pages and pending proposals",
            87,
            88,
            89,
            90,
        )
        + ". Without projectId, list your projects.",
        Access.READ,
        {"projectId": project_id("Omit to list your projects")},
    )


@tools.tool("project_get", define=_project_get_tool)
def project_get(s: V2Project, args: Args) -> Any:
    if not args.has("projectId"):
        return {"projects": s.p.project_entries()}
    s.p.check_project(args.str("projectId"))
    return s.p.project_view()


# -- write: projects -------------------------------------------------------------------------------


def _project_store_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    return make_tool(
        "project_store",
        "Create or change a project. An omitted value is kept" + ours(", null clears it", 57) + ".",
        Access.WRITE,
        {
            "projectId": project_id("Omit to create"),
            "name": prop("string", "Project name"),
            "description": prop("string", "One paragraph"),
            "remote": prop("string", "Git remote URL"),
        },
    )


@tools.tool("project_store", define=_project_store_tool)
def project_store(s: V2Project, args: Args) -> Any:
    values = {k: args.values[k] for k in PROJECT_FIELDS if args.given(k)}
    if values.get("name", "x") is None:
        raise Refusal("a project needs a name; null clears description or remote only", ["description", "remote"])
    if not args.has("projectId"):
        name = args.need("name", args.str("name"))
        new_id = new_project_id(name)
        if new_id in [x["id"] for x in s.p.project_entries()]:
            raise Refusal(f"a project {new_id!r} exists; change it with projectId or pick another name", ["projectId"])
        s.p.other_projects.append({"id": new_id, **values, "public": False})
        return {"outcome": "published", "projectId": new_id}
    s.p.check_project(args.str("projectId"))
    return s.p.store_project(values)


# -- read: items -----------------------------------------------------------------------------------


def _item_get_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    return make_tool(
        "item_get",
        f"Read one {kinds_phrase(kinds)} with its direct relations and its version."
        + ours(f" Address per kind:\n{kind_lines(kinds, address)}", 40, name="addresses")
        + ours("\nLong text is read in parts with offset and take.", 99, name="parts"),
        Access.READ,
        {
            "projectId": project_id("Omit for personal memories"),
            "number": prop("integer"),
            "ref": prop("string", "Reference, see above"),
            "history": prop("boolean", "List the versions (version, author, time, changed fields) instead"),
            "version": prop("integer", "Read the item as it was at this version"),
            "offset": prop("integer", "First character to read"),
            "take": prop("integer", "Characters to read"),
        },
    )


@tools.tool("item_get", define=_item_get_tool)
def item_get(s: V2Project, args: Args) -> Any:
    target = _target(s.p, args)
    if isinstance(target, Proposal):
        return s.p.proposal_view(target)
    if args.bool("history"):
        return {"ref": target.ref, "versions": s.p.history(target)}
    if args.has("version"):
        return s.p.at_version(target, args.need("version", args.int("version")))
    return s.p.view(target, args.int("offset"), args.int("take"))


def _item_list_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    listed_kinds = listed(kinds)
    active = "" if design.status_filter or not any(k.name == "task" for k in listed_kinds) else seed(f" {_ACTIVE}", 107)
    example = ours(' per kind, for example {"status": "open"}', 914) if design.status_filter else ""
    return make_tool(
        "item_list",
        f"List or search {kinds_phrase(listed_kinds, plural=True)} as short entries.{active} "
        f"filter is a JSON object{example}; allowed keys per kind:\n"
        f"{kind_lines(listed_kinds, lambda k: field_list(filter_fields(k, design)))}\n"
        "An unknown filter is refused with the allowed ones.",
        Access.READ,
        {
            "kind": prop("string", ours("Kind, see above")),
            "projectId": project_id("Omit for personal memories"),
            "query": prop("string", "Text to search for"),
            "filter": prop("object", "Filters for the kind, see above"),
            "sort": prop("string", "Field; prefix - for descending"),
            **cursor_paging(),
        },
        required=["kind"],
    )


@tools.tool("item_list", define=_item_list_tool)
def item_list(s: V2Project, args: Args) -> Any:
    served = [k.name for k in listed(s.kinds.values()) if k.name in LISTS]
    kind = _kind(s, args.str("kind"), served, "listed")
    filters = args.obj("filter") or {}
    allowed = [f.name for f in filter_fields(kind, s.design)]
    refuse_unknown(filters, allowed, noun="filter", of=kind.name, label="allowed filters")
    query = args.str("query")
    personal = kind.name == "memory" and not args.has("projectId")
    if not personal:
        s.p.check_project(args.str("projectId"))
    if kind.name == "proposal":
        proposals = s.p.proposal_list(
            state=_filter_str(filters, "state", PROPOSAL_STATES) or "pending",
            author=_filter_str(filters, "author"),
            target_kind=_filter_str(filters, "targetKind", ("memory", "page", "task", "instructions")),
        )
        return page([s.p.proposal_entry(x) for x in proposals], args.int("limit"), args.str("cursor"))
    if kind.name == "task":
        statuses = None
        if "status" in filters:
            status = _filter_str(filters, "status", STATUSES)
            statuses = [status] if status else None
        items = s.p.tasks(
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
        items = s.p.memories(
            type_=_filter_str(filters, "type", MEMORY_TYPES),
            tags=tags,
            visibility=_filter_str(filters, "visibility", CURRENT_VISIBILITIES),
            include_archived=_filter_bool(filters, "includeArchived"),
            include_expired=_filter_bool(filters, "includeExpired"),
            query=query,
            personal=personal,
        )
    else:
        items = s.p.pages(
            parent=_filter_int(filters, "parent"),
            include_archived=_filter_bool(filters, "includeArchived"),
            query=query,
        )
    items = _sort(kind.name, items, args.str("sort"))
    return page([s.p.entry(i) for i in items], args.int("limit"), args.str("cursor"))


def _sort(kind: str, items: list[Item], sort: str | None) -> list[Item]:
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


# -- write: items ----------------------------------------------------------------------------------

STORE_MEANINGS = {
    "kind": seed("memory, page, task, instructions" + seed("; later every further kind", 114, name="later"), 114),
    "projectId": seed("Missing for personal memories", 115),
    "number": seed("Change this item; without it, create", 116),
    "version": seed("The version read with item_get; required when content changes, not for a move", 117),
    "fields": seed("JSON object for the kind", 118),
    "reason": seed("Shown to the moderator when the change becomes a proposal", 119),
    "propose": seed("Ask for review instead of publishing", 120),
    "batch": seed("Many items at once, instead of fields", 121),
}
"""item_store's parameters with the meaning the page gives each (L113-L121, the same in every version)."""


def _batch_rule(design: Design) -> str:
    """The batch sentence: its form (ours), its size (L146), which key a parent may name and what is atomic."""
    key_lines: tuple[int, ...]
    atomic_lines: tuple[int, ...]
    if design.batch_keys_per_kind:
        key, key_lines = "the key of an earlier item of the same kind", (145,)
    else:
        key, key_lines = "a key", (754, 951)
    if design.batch_atomic_per_kind:
        atomic, atomic_lines = "each kind is stored atomically on its own", (147,)
    else:
        atomic, atomic_lines = "all items are stored or none", (756, 953)
    form = ours("{idempotencyKey, source, items: [{key, kind, fields}]}, ", 136, 143, name="form")
    rule = seed(f"; parent may name {key}; {atomic}", *sorted({*key_lines, *atomic_lines}), name="batch")
    return f"batch is {form}up to {BATCH_LIMIT} items{rule}."


def _item_store_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    stored_kinds = stored(kinds)
    return make_tool(
        "item_store",
        f"Create or change a {kinds_phrase(stored_kinds)}. fields is one JSON object; allowed fields per kind:\n"
        f"{kind_lines(stored_kinds, lambda k: field_list(k.fields))}\n"
        "An omitted field is kept, null clears it, an unknown field is refused."
        + ours(" A move (parent, position only) needs no version.", 189, name="move")
        + ours(
            " Without write permission, or with propose, the change becomes a proposal.", 88, 119, 120, name="proposal"
        )
        + f" {_batch_rule(design)}",
        Access.WRITE,
        {
            "kind": prop("string", STORE_MEANINGS["kind"]),
            "projectId": project_id(STORE_MEANINGS["projectId"]),
            "number": prop("integer", STORE_MEANINGS["number"]),
            "version": version(STORE_MEANINGS["version"]),
            "fields": prop("object", STORE_MEANINGS["fields"]),
            "reason": prop("string", STORE_MEANINGS["reason"]),
            "propose": prop("boolean", STORE_MEANINGS["propose"]),
            "batch": prop("object", STORE_MEANINGS["batch"]),
        },
        required=["kind"],
    )


def _allowed_fields(kind: Kind) -> list[str]:
    return [f.name for f in kind.fields]


def _check_store_fields(p: Project, kind: Kind, fields: dict[str, Any]) -> None:
    p.check_fields(kind.name, fields, _allowed_fields(kind))
    status = fields.get("status")
    if kind.name == "task" and status in STATUS_ACTIONS:
        action = STATUS_ACTIONS[status]
        raise Refusal(
            f"status {status} is set with item_action {action}; status values here: {', '.join(SETTABLE_STATUSES)}",
            SETTABLE_STATUSES,
        )
    if kind.name == "memory":
        no_public_visibility(fields)


@tools.tool("item_store", define=_item_store_tool)
def item_store(s: V2Project, args: Args) -> Any:
    storable = [k.name for k in stored(s.kinds.values()) if k.name in STORES]
    kind = _kind(s, args.str("kind"), storable, "stored")
    if args.has("batch"):
        if args.has("fields") or args.has("number"):
            raise Refusal("batch stores many items instead of fields and number; give one of them", ["batch", "fields"])
        return _batch(s, args.obj("batch") or {}, args)
    fields = args.obj("fields")
    if fields is None:
        raise Refusal(
            f"fields is required: a JSON object with {kind.name} fields {', '.join(_allowed_fields(kind))}",
            _allowed_fields(kind),
        )
    _check_store_fields(s.p, kind, fields)
    propose, reason = args.bool("propose"), args.str("reason")
    if kind.name == "instructions":
        s.p.check_project(args.str("projectId"))
        return s.p.change(s.p.instructions, fields, version=args.int("version"), propose=propose, reason=reason)
    personal = kind.name == "memory" and not args.has("projectId")
    if not personal:
        s.p.check_project(args.str("projectId"))
    if not args.has("number"):
        if personal:
            fields = personal_memory_fields(fields)
        return s.p.create(kind.name, fields, propose=propose, reason=reason, personal=personal)
    if personal:
        raise Refusal(
            "number addresses a project item and needs projectId; personal memories have no number", ["projectId"]
        )
    item = s.p.item(args.need("number", args.int("number")), [kind.name])
    return s.p.change(item, fields, version=args.int("version"), propose=propose, reason=reason)


def _batch(s: V2Project, batch: dict[str, Any], args: Args) -> Any:
    allowed_top = ["idempotencyKey", "source", "items"]
    unknown = [k for k in batch if k not in allowed_top]
    if unknown:
        raise Refusal(f"unknown batch field {unknown[0]!r}; batch fields: {', '.join(allowed_top)}", allowed_top)
    items = batch.get("items")
    if not isinstance(items, list) or not items:
        raise Refusal("batch.items must be a non-empty list of {key, kind, fields}", ["items"])
    if len(items) > BATCH_LIMIT:
        raise Refusal(f"a batch holds at most {BATCH_LIMIT} items; send several batches", [BATCH_LIMIT])
    s.p.check_project(args.str("projectId"))
    key = batch.get("idempotencyKey")
    if key is not None and not isinstance(key, str):
        raise Refusal("idempotencyKey must be a string", ["string"])
    storable = [k for k in ("task", "memory", "page") if k in s.kinds]
    for n, entry in enumerate(items):
        if not isinstance(entry, dict):
            raise Refusal(f"batch.items[{n}] must be an object with key, kind, fields", ["key", "kind", "fields"])
        extra = [k for k in entry if k not in ("key", "kind", "fields")]
        if extra:
            raise Refusal(
                f"batch.items[{n}] has {extra[0]!r}; an item holds only key, kind, fields",
                ["key", "kind", "fields"],
            )
        kind = _kind(s, entry.get("kind"), storable, "stored in a batch")
        fields = entry.get("fields")
        if not isinstance(fields, dict):
            raise Refusal(f"batch.items[{n}].fields must be an object", _allowed_fields(kind))
        checked = {k: v for k, v in fields.items() if not (k == "parent" and isinstance(v, str))}
        _check_store_fields(s.p, kind, checked)
    results: dict[str, Any] = {}
    for kind_name in storable:
        memo = f"{key}:{kind_name}" if key else None
        if memo and memo in s.batches:
            results[kind_name] = {**s.batches[memo], "replayed": True}
            continue
        mine = [e for e in items if e["kind"] == kind_name]
        if mine:
            results[kind_name] = _store_kind(s.p, kind_name, mine, args)
            if memo:
                s.batches[memo] = results[kind_name]
    return {"outcome": "stored", "kinds": results}


def _store_kind(p: Project, kind: str, entries: list[dict[str, Any]], args: Args) -> dict[str, Any]:
    """One kind atomically: on a refusal nothing of this kind stays stored."""
    saved = (copy.deepcopy(p.items), p.next_number, copy.deepcopy(p.proposals))
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
            done = p.create(kind, fields, propose=args.bool("propose"), reason=args.str("reason"))
            if entry.get("key") is not None:
                keys[str(entry["key"])] = done.get("number")
    except Refusal as refusal:
        p.items, p.next_number, p.proposals = saved
        return {"outcome": "refused", "message": refusal.message}
    return {"outcome": "stored", "keys": keys, "count": len(entries)}


def _item_action_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    acting = [k for k in kinds if k.actions]
    common = () if design.actions_per_kind else ANY_ITEM_ACTIONS
    hidden = () if design.decision_reasons else (REASON_NOTE,)
    rows = "\n".join(f"- {who}: {actions}" for who, actions in action_rows(acting, common, hidden))
    if design.versioned_decisions:
        rule = ours("Every action needs the version from item_get. ", name="rule")
    else:
        rule = seed(
            "Task and item actions need the version from item_get; relate, unrelate and the proposal actions do not. ",
            162,
            771,
            name="rule",
        )
    closing = ""
    if design.task_never_archived and any(k.name == "task" for k in acting):
        closing = seed(
            " A task is closed with complete or by setting status canceled, never archived.", 160, 566, name="closing"
        )
    decisions = ", approve or reject" if decisions_need_reason(design) else ""
    return make_tool(
        "item_action",
        f"Act on a {kinds_phrase(acting)}. Actions per kind:\n{rows}\n"
        + rule
        + seed(
            "An action that does not apply to the item's kind is refused, naming the actions that do.",
            160,
            769,
            966,
            name="refusal",
        )
        + closing,
        Access.WRITE,
        {
            "projectId": project_id(),
            "number": prop("integer"),
            "ref": prop("string", "proposal:<id> for a proposal"),
            "action": prop("string", "Action, see above"),
            "version": version(),
            "reason": prop("string", f"Why; required to block{decisions}"),
            "target": prop("integer", "Other item for relate, unrelate"),
            "relation": prop("string", "Relation type for relate, unrelate, e.g. blocks, duplicates"),
        },
        required=["action"],
    )


@tools.tool("item_action", define=_item_action_tool)
def item_action(s: V2Project, args: Args) -> Any:
    target = _target(s.p, args)
    action = args.need("action", args.str("action"))
    kind = s.kinds.get(target.kind if isinstance(target, Item) else "proposal")
    own = [a.name for a in kind.actions] if kind else []
    common = s.design.common_actions
    if common and not isinstance(target, Proposal):
        own = list(dict.fromkeys([*(a for a in own if a not in common), *common]))
    name = kind.name if kind else "item"
    if action not in own:
        raise Refusal(
            f"{action!r} does not apply to a {name}; {name} actions: {', '.join(own) or '(none)'}",
            own or ["item_store"],
        )
    read, reason = args.int("version"), args.str("reason")
    if isinstance(target, Proposal):
        if action in ("approve", "reject") and not reason and decisions_need_reason(s.design):
            raise Refusal(f"{action} needs a reason, shown to the author", ["reason"])
        return s.p.decide(target, action, reason=reason, version=read, check_version=s.design.versioned_decisions)
    if action in ("relate", "unrelate"):
        if target.number is None:
            raise Refusal(f"{target.ref} has no number; relations link numbered items", ["number"])
        if s.design.versioned_decisions:
            s.p.check_version(target, read, action)
        relation = args.need("relation", args.str("relation"))
        return s.p.relate(target.number, args.need("target", args.int("target")), relation, remove=action == "unrelate")
    if action in ("archive", "restore"):
        return s.p.archive(target, action == "restore", version=read, check_version=True)
    return s.p.task_action(target, action, version=read, reason=reason)


def _item_delete_tool(kinds: Sequence[Kind], design: Design) -> ToolData:
    deletable = [k for k in kinds if k.numbered and k.fields]
    return make_tool(
        "item_delete",
        f"Requests permanent deletion of a {kinds_phrase(deletable)}, or of one version, and locks its content "
        "immediately" + SECRET_EXAMPLE + ". A person decides in the web app.",
        Access.IRREVERSIBLE,
        {
            "projectId": project_id(),
            "number": prop("integer"),
            "ref": prop("string", "memory:<id> for a personal memory"),
            "version": prop("integer", "Delete only this version"),
            "reason": prop("string", "Shown to the person who decides"),
        },
    )


@tools.tool("item_delete", define=_item_delete_tool)
def item_delete(s: V2Project, args: Args) -> Any:
    target = _target(s.p, args)
    if isinstance(target, Proposal):
        raise Refusal(
            "a proposal is withdrawn or rejected, not deleted; actions: withdraw, reject", ["withdraw", "reject"]
        )
    return s.p.request_deletion(target, version=args.int("version"), reason=args.str("reason"))


# -- the surface -----------------------------------------------------------------------------------


def build(kinds: Sequence[Kind], design: Design) -> list[ToolData]:
    """The eight tools of `design`, built for the kinds given."""
    return tools.definitions(kinds, design)


def stub(fixture: Path | None, design: Design, kinds: Sequence[Kind] = KINDS) -> HandlerStub[V2Project]:
    """A fresh project served by the handlers of `design`, for `kinds`."""
    project = load_project(fixture)
    return conderis_stub(project, tools, V2Project(project, design, {k.name: k for k in kinds}))
