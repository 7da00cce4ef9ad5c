"""The control series, each tool declared beside its handler: the 27 old tools with the inconsistencies
fixed, descriptions cut to v2 length, plus task_block (28 tools).

Every item is addressed by number, or by ref where it has none; one version guards every change (every
content change and every task, archive and proposal action); an omitted field is kept and null clears it;
decisions are named values, not booleans; every why is a reason; every list pages with limit and cursor; a
relation's type is `relation`. What only consolidation changes (one tool serving every kind) is left as it
was. What a call does to the project is decided by `surfaces.conderis.project`, as for every other surface.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Access, Kind
from toolsurface.stubs.kit import Handlers, HandlerStub, Refusal, choose, page
from toolsurface.surfaces._authoring import ToolData, join_words, make_tool, prop
from toolsurface.surfaces.conderis._per_kind import Conventions, build_per_kind
from toolsurface.surfaces.conderis._shared import cursor_paging, project_id, version
from toolsurface.surfaces.conderis._shared_handlers import (
    GUIDE,
    Args,
    check_project,
    conderis_stub,
    new_project_id,
    no_public_visibility,
    numbered,
    personal_memory_fields,
    recall,
)
from toolsurface.surfaces.conderis.fixture import load_project
from toolsurface.surfaces.conderis.kinds import (
    FIXED_AFTER_CREATE,
    MEMORY,
    PAGE,
    PROJECT_FIELDS,
    RELATIONS,
    SETTABLE_STATUSES,
    TASK,
    UNCLEARABLE,
)
from toolsurface.surfaces.conderis.pieces import ours
from toolsurface.surfaces.conderis.project import DeletionRequest, Item, Project, Proposal

__all__ = ["ARCHIVE_ACTIONS", "BLOCK_ACTIONS", "DECISIONS", "SEARCH_KINDS", "TASK_CREATE_FIELDS", "build", "stub"]

R, W, X = Access.READ, Access.WRITE, Access.IRREVERSIBLE

# The rules the tool texts state and the handlers enforce.
MEMORY_FIELDS = [f.name for f in MEMORY.fields]
PAGE_FIELDS = [f.name for f in PAGE.fields]
TASK_FIELDS = [f.name for f in TASK.fields]
TASK_CREATE_FIELDS = [n for n in TASK_FIELDS if n != "status"]
"""A new task is open: task_create takes every task field but status."""
BLOCK_ACTIONS = ("block", "unblock")
ARCHIVE_ACTIONS = ("archive", "restore")
DECISIONS = ("approve", "reject")
STATUS_TOOLS = {"blocked": "task_block (action block, with a reason)", "completed": "task_complete"}
SEARCH_KINDS = ("task", "memory", "page")

tools: Handlers[Project] = Handlers()

_PROJECT = project_id()
_NUMBER = prop("integer")
_REF = prop("string")
_PAGING = cursor_paging()
_KEEP = "An omitted field is kept, null clears it."
_PROPOSE = "Without write permission, or with propose, the change becomes a proposal."
_VERSIONED = {"version": version()}
_TASK_ACTION = {"projectId": _PROJECT, "number": _NUMBER, **_VERSIONED}


def _fields(kind: Kind, clearable: bool = False) -> dict[str, Any]:
    """A kind's fields as parameters, named as item_store's lines name them; null clears where it may."""
    fields: dict[str, Any] = {}
    kept = (*UNCLEARABLE.get(kind.name, ()), *FIXED_AFTER_CREATE.get(kind.name, ()))
    for field in kind.fields:
        extra = {"items": {"type": "string"}} if field.type == "array" else {}
        type_: str | list[str] = [field.type, "null"] if clearable and field.name not in kept else field.type
        fields[field.name] = prop(type_, field.note, **extra)
    return fields


def _proposing() -> dict[str, Any]:
    return {
        "version": version("Version read; required when content changes"),
        "reason": prop("string", "Shown to the moderator"),
        "propose": prop("boolean", "Ask for review instead of publishing"),
    }


def _decision(what: str) -> dict[str, Any]:
    return {"decision": prop("string", f"{join_words(DECISIONS)}{what}"), "reason": prop("string")}


def _choice(args: Args, name: str, choices: Sequence[str]) -> str:
    """A decision or action as a named value; anything else is refused naming the values."""
    value: str = args.need(name, args.str(name))
    choose(name, value, choices, label=f"{name} values")
    return value


def _ref_id(ref: str, prefix: str, known: Sequence[str]) -> str:
    """The <id> of a `prefix:<id>` ref."""
    if not ref.startswith(f"{prefix}:"):
        known_part = f"; known: {', '.join(known)}" if known else ""
        raise Refusal(f"ref {ref!r} is not a {prefix} ref; give {prefix}:<id>{known_part}", [f"{prefix}:<id>", *known])
    return ref.removeprefix(f"{prefix}:")


def _target(p: Project, args: Args) -> Item | Proposal:
    """By number (in a project) or by ref; a personal memory's ref needs no projectId."""
    if args.one_of(["number", "ref"]) == "number":
        return numbered(p, args)
    ref: str = args.need("ref", args.str("ref"))
    personal = ref.strip().startswith("memory:")
    if args.has("projectId") or not personal:
        p.check_project(args.str("projectId"), required=not personal)
    return p.resolve_ref(ref)


def _item_target(p: Project, args: Args, what: str) -> Item:
    target = _target(p, args)
    if isinstance(target, Proposal):
        forms = ["number", "memory:<id>", "instructions"]
        raise Refusal(f"{target.ref} is a proposal; {what} applies to items: {', '.join(forms)}", forms)
    return target


def _paged(args: Args, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return page(entries, args.int("limit"), args.str("cursor"))


def _proposal(p: Project, args: Args) -> Proposal:
    check_project(p, args)
    ref: str = args.need("ref", args.str("ref"))
    known = [x.ref for x in p.proposal_list()]
    return p.proposal(_ref_id(ref.strip(), "proposal", known))


def _memory(p: Project, args: Args) -> Item:
    if args.one_of(["number", "ref"]) == "number":
        return numbered(p, args, ["memory"])
    if args.has("projectId"):
        p.check_project(args.str("projectId"))
    ref: str = args.need("ref", args.str("ref"))
    known = [f"memory:{i}" for i in p.personal]
    return p.personal_memory(_ref_id(ref.strip(), "memory", known))


def _need_changes(fields: dict[str, Any], names: Sequence[str]) -> None:
    if not fields:
        raise Refusal(f"nothing to change; fields: {', '.join(names)}", names)


# -- reading ---------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "memory_recall",
        "Recall a project's memories, active tasks and instructions for the work at hand, ranked by focus.",
        R,
        {
            "projectId": project_id("Omit for personal memories only"),
            "focus": prop("string", "What you are about to do"),
            "maxChars": prop("integer", "Upper limit for the answer"),
        },
    ),
    kinds=("memory",),
)
def memory_recall(p: Project, args: Args) -> Any:
    return recall(p, args)


@tools.tool(make_tool("system_memory", "Read the system guide: how projects and their items work.", R, {}))
def system_memory(p: Project, args: Args) -> Any:
    return GUIDE


@tools.tool(make_tool("project_list", "List the projects you can access.", R, dict(_PAGING)))
def project_list(p: Project, args: Args) -> Any:
    return _paged(args, p.project_entries())


@tools.tool(
    make_tool(
        "task_assignee_list",
        "List who a task can be assigned to: people by display name, agents by reference.",
        R,
        {"projectId": _PROJECT, **_PAGING},
        ["projectId"],
    ),
    kinds=("task",),
)
def task_assignee_list(p: Project, args: Args) -> Any:
    check_project(p, args)
    entries = [
        {"assignee": value, "name": person.name, "agent": person.agent}
        for person, value in zip(p.people, p.assignee_names(), strict=True)
    ]
    return _paged(args, entries)


# -- projects --------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "project_create",
        "Create a project.",
        W,
        {
            "name": prop("string"),
            "description": prop("string"),
            "remote": prop("string", "Git remote URL"),
        },
        ["name"],
    )
)
def project_create(p: Project, args: Args) -> Any:
    name: str = args.need("name", args.str("name"))
    new_id = new_project_id(name)
    if new_id in [x["id"] for x in p.project_entries()]:
        raise Refusal(
            f"a project {new_id!r} exists; change it with project_update or pick another name",
            ["project_update", "another name"],
        )
    values = args.picked(PROJECT_FIELDS, nulls=True)
    p.other_projects.append({"id": new_id, **values, "public": False})
    return {"outcome": "published", "projectId": new_id}


@tools.tool(
    make_tool(
        "project_update",
        f"Change a project's name, description or remote. {_KEEP}",
        W,
        {
            "projectId": _PROJECT,
            "name": prop("string"),
            "description": prop(["string", "null"]),
            "remote": prop(["string", "null"]),
        },
        ["projectId"],
    )
)
def project_update(p: Project, args: Args) -> Any:
    check_project(p, args)
    values = args.picked(PROJECT_FIELDS, nulls=True)
    if not values:
        raise Refusal(f"nothing to change; fields: {', '.join(PROJECT_FIELDS)}", PROJECT_FIELDS)
    if "name" in values and values["name"] is None:
        raise Refusal("a project needs a name; null clears description or remote only", ["description", "remote"])
    return p.store_project(values)


# -- reading items ---------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "item_get",
        "Read a task, memory, page, proposal or the instructions with its relations and version: by number, "
        "or by ref memory:<id>, proposal:<id> or instructions.",
        R,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            "ref": _REF,
            "offset": prop("integer", "First character to read"),
            "take": prop("integer", "Characters to read"),
        },
    )
)
def item_get(p: Project, args: Args) -> Any:
    target = _target(p, args)
    if isinstance(target, Proposal):
        if args.has("offset") or args.has("take"):
            raise Refusal(f"{target.ref} is read whole; offset and take read an item's text", ["projectId", "ref"])
        return p.proposal_view(target)
    return p.view(target, args.int("offset"), args.int("take"))


@tools.tool(
    make_tool(
        "memory_get",
        "Read a memory by number, or a personal one by ref memory:<id>; version reads an earlier state.",
        R,
        {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, "version": prop("integer")},
    ),
    kinds=("memory",),
)
def memory_get(p: Project, args: Args) -> Any:
    memory = _memory(p, args)
    at = args.int("version")
    if at is not None:
        return p.at_version(memory, at)
    return p.view(memory)


@tools.tool(
    make_tool(
        "relation_list",
        "List an item's relations as short entries.",
        R,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            "relation": prop("string", "Only this type"),
            **_PAGING,
        },
        ["projectId", "number"],
    )
)
def relation_list(p: Project, args: Args) -> Any:
    item = numbered(p, args)
    relation = args.str("relation")
    if relation is not None and relation not in RELATIONS:
        raise Refusal(f"relation {relation!r} is unknown; relations: {', '.join(RELATIONS)}", RELATIONS)
    assert item.number is not None
    entries = [r for r in p.relations_of(item.number) if relation is None or r["relation"] == relation]
    return _paged(args, entries)


@tools.tool(
    make_tool(
        "item_history",
        "List an item's versions: version, author, time, changed fields.",
        R,
        {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, **_PAGING},
    )
)
def item_history(p: Project, args: Args) -> Any:
    item = _item_target(p, args, "item_history")
    listed = _paged(args, p.history(item))
    return {"ref": item.ref, "version": item.version, **listed}


@tools.tool(
    make_tool(
        "task_list",
        "List a project's tasks as short entries: the active ones, closed ones too with includeClosed.",
        R,
        {
            "projectId": _PROJECT,
            "priority": prop("string"),
            "assignee": prop("string"),
            "parent": prop("integer"),
            "includeClosed": prop("boolean"),
            **_PAGING,
        },
        ["projectId"],
    ),
    kinds=("task",),
)
def task_list(p: Project, args: Args) -> Any:
    check_project(p, args)
    filters = args.picked(["priority", "assignee", "parent"], nulls=True)
    # The task fields' own checks name the allowed priorities, assignees and task numbers.
    p.check_fields("task", {k: v for k, v in filters.items() if v is not None})
    tasks = p.tasks(
        include_closed=args.bool("includeClosed"),
        priority=args.str("priority"),
        assignee=args.str("assignee"),
        parent=args.int("parent"),
    )
    return _paged(args, [p.entry(t) for t in tasks])


@tools.tool(
    make_tool(
        "item_search",
        "Search a project's tasks, memories and pages by text, best matches first.",
        R,
        {
            "projectId": _PROJECT,
            "query": prop("string"),
            "kind": prop("string", join_words(SEARCH_KINDS)),
            "includeArchived": prop("boolean", "Archived memories and pages too"),
            "includeClosed": prop("boolean", "Closed tasks too"),
            **_PAGING,
        },
        ["projectId", "query"],
    )
)
def item_search(p: Project, args: Args) -> Any:
    check_project(p, args)
    query: str = args.need("query", args.str("query"))
    kind = args.str("kind")
    if kind is not None and kind not in SEARCH_KINDS:
        raise Refusal(f"kind {kind!r} is not searched; kinds: {', '.join(SEARCH_KINDS)}", SEARCH_KINDS)
    found = p.search(
        query,
        [kind] if kind else SEARCH_KINDS,
        include_archived=args.bool("includeArchived"),
        include_closed=args.bool("includeClosed"),
    )
    return _paged(args, [p.entry(i) for i in found])


@tools.tool(
    make_tool(
        "proposal_queue",
        "List a project's pending proposals as short entries.",
        R,
        {"projectId": _PROJECT, **_PAGING},
        ["projectId"],
    ),
    kinds=("proposal",),
)
def proposal_queue(p: Project, args: Args) -> Any:
    check_project(p, args)
    return _paged(args, [p.proposal_entry(x) for x in p.proposal_list()])


# -- storing ---------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "memory_store",
        f"Create or change a memory; without number or ref, create. {_KEEP} {_PROPOSE}",
        W,
        {
            "projectId": project_id("Omit for a personal memory"),
            "number": _NUMBER,
            "ref": prop("string", "memory:<id> of a personal memory"),
            **_fields(MEMORY, clearable=True),
            **_proposing(),
        },
    ),
    kinds=("memory",),
)
def memory_store(p: Project, args: Args) -> Any:
    fields = args.picked(MEMORY_FIELDS, nulls=True)
    no_public_visibility(fields)
    propose, reason = args.bool("propose"), args.str("reason")
    if args.has("number") and args.has("ref"):
        raise Refusal("give number (a project memory) or ref (a personal one), not both", ["number", "ref"])
    if not args.has("number") and not args.has("ref"):
        return _create_memory(p, args, fields)
    if args.has("number") and not args.has("projectId"):
        raise Refusal(
            "number addresses a project memory and needs projectId; a personal memory is addressed by ref memory:<id>",
            ["projectId", "ref"],
        )
    memory = _memory(p, args)
    _need_changes(fields, MEMORY_FIELDS)
    return p.change(memory, fields, version=args.int("version"), propose=propose, reason=reason)


def _create_memory(p: Project, args: Args, fields: dict[str, Any]) -> Any:
    if args.has("projectId"):
        check_project(p, args)
        return p.create("memory", fields, propose=args.bool("propose"), reason=args.str("reason"))
    return p.create("memory", personal_memory_fields(fields), personal=True)


@tools.tool(
    make_tool(
        "page_store",
        f"Create or change a page, or the instructions with ref instructions. {_KEEP} A move (parent, position "
        f"only) needs no version. {_PROPOSE}",
        W,
        {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, **_fields(PAGE, clearable=True), **_proposing()},
        ["projectId"],
    ),
    kinds=("page", "instructions"),
)
def page_store(p: Project, args: Args) -> Any:
    check_project(p, args)
    fields = args.picked(PAGE_FIELDS, nulls=True)
    propose, reason, read = args.bool("propose"), args.str("reason"), args.int("version")
    if args.has("number") and args.has("ref"):
        raise Refusal("give number (a page) or ref instructions, not both", ["number", "ref"])
    if args.has("ref"):
        ref: str = args.need("ref", args.str("ref"))
        if ref.strip() != "instructions":
            raise Refusal(f"ref {ref!r} is not a page ref; page_store takes ref instructions", ["instructions"])
        _need_changes(fields, ["content"])
        return p.change(p.instructions, fields, version=read, propose=propose, reason=reason)
    if not args.has("number"):
        return p.create("page", fields, propose=propose, reason=reason)
    item = p.item(args.need("number", args.int("number")), ["page"])
    _need_changes(fields, PAGE_FIELDS)
    return p.change(item, fields, version=read, propose=propose, reason=reason)


# -- tasks -----------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "task_create",
        "Create a task; with parent, a subtask.",
        W,
        {"projectId": _PROJECT, **{k: v for k, v in _fields(TASK).items() if k in TASK_CREATE_FIELDS}},
        ["projectId", "title"],
    ),
    kinds=("task",),
)
def task_create(p: Project, args: Args) -> Any:
    check_project(p, args)
    return p.create("task", args.picked(TASK_CREATE_FIELDS, nulls=True))


@tools.tool(
    make_tool(
        "task_patch",
        f"Change a task's fields. {_KEEP} Close it with task_complete or status canceled.",
        W,
        {"projectId": _PROJECT, "number": _NUMBER, **_VERSIONED, **_fields(TASK, clearable=True)},
        ["projectId", "number", "version"],
    ),
    kinds=("task",),
)
def task_patch(p: Project, args: Args) -> Any:
    task = numbered(p, args, ["task"])
    fields = args.picked(TASK_FIELDS, nulls=True)
    _need_changes(fields, TASK_FIELDS)
    if "status" in fields:
        _check_status(task, fields["status"])
    return p.change(task, fields, version=args.int("version"))


def _check_status(task: Item, status: Any) -> None:
    """Blocking and completing are actions of their own; a blocked task leaves that state by unblock."""
    settable = ", ".join(SETTABLE_STATUSES)
    if status in STATUS_TOOLS:
        tool = STATUS_TOOLS[status]
        raise Refusal(
            f"status {status} is set with {tool}; status values here: {settable}",
            [tool.split()[0], *SETTABLE_STATUSES],
        )
    if status is not None and status not in SETTABLE_STATUSES:
        raise Refusal(
            f"status {status!r} is unknown; status values here: {settable}; blocked and completed are set with "
            "task_block and task_complete",
            SETTABLE_STATUSES,
        )
    current = task.fields["status"]
    if current == "blocked" and status in ("open", "in_progress"):
        raise Refusal(
            f"{task.ref} is blocked; unblock it with task_block action unblock, or cancel it with status canceled",
            ["task_block", "canceled"],
        )


@tools.tool(
    make_tool("task_claim", "Claim a task: assign it to you, status in_progress.", W, _TASK_ACTION, list(_TASK_ACTION)),
    kinds=("task",),
)
def task_claim(p: Project, args: Args) -> Any:
    return _task_action(p, args, "claim")


@tools.tool(make_tool("task_complete", "Complete a task.", W, _TASK_ACTION, list(_TASK_ACTION)), kinds=("task",))
def task_complete(p: Project, args: Args) -> Any:
    return _task_action(p, args, "complete")


@tools.tool(
    make_tool(
        "task_block",
        "Block a task with a reason (required), or unblock it.",
        W,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            **_VERSIONED,
            "action": prop("string", join_words(BLOCK_ACTIONS)),
            "reason": prop("string"),
        },
        ["projectId", "number", "version", "action"],
    ),
    kinds=("task",),
)
def task_block(p: Project, args: Args) -> Any:
    action = _choice(args, "action", BLOCK_ACTIONS)
    if action == "block" and not args.has("reason"):
        raise Refusal("block needs a reason: what the task waits for", ["reason"])
    return _task_action(p, args, action)


def _task_action(p: Project, args: Args, action: str) -> Any:
    task = numbered(p, args, ["task"])
    # A reason only where the tool declares one (task_block); claim and complete take none.
    reason = args.str("reason") if action in BLOCK_ACTIONS else None
    return p.task_action(task, action, version=args.int("version"), reason=reason)


# -- proposals, archive, relations -----------------------------------------------------------------


@tools.tool(
    make_tool(
        "proposal_review",
        "Approve or reject a pending proposal, with a reason.",
        W,
        {"projectId": _PROJECT, "ref": prop("string", "proposal:<id>"), **_VERSIONED, **_decision("")},
        ["projectId", "ref", "version", "decision"],
    ),
    kinds=("proposal",),
)
def proposal_review(p: Project, args: Args) -> Any:
    decision = _choice(args, "decision", DECISIONS)
    proposal = _proposal(p, args)
    return p.decide(proposal, decision, reason=args.str("reason"), version=args.int("version"), check_version=True)


@tools.tool(
    make_tool(
        "proposal_withdraw",
        "Withdraw your pending proposal.",
        W,
        {"projectId": _PROJECT, "ref": prop("string", "proposal:<id>"), **_VERSIONED},
        ["projectId", "ref", "version"],
    ),
    kinds=("proposal",),
)
def proposal_withdraw(p: Project, args: Args) -> Any:
    proposal = _proposal(p, args)
    return p.decide(proposal, "withdraw", reason=None, version=args.int("version"), check_version=True)


@tools.tool(
    make_tool(
        "item_archive",
        "Archive or restore a memory or page.",
        W,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            **_VERSIONED,
            "action": prop("string", join_words(ARCHIVE_ACTIONS)),
        },
        ["projectId", "number", "version", "action"],
    )
)
def item_archive(p: Project, args: Args) -> Any:
    action = _choice(args, "action", ARCHIVE_ACTIONS)
    item = numbered(p, args)
    return p.archive(item, action == "restore", version=args.int("version"), check_version=True)


@tools.tool(
    make_tool(
        "relation_create",
        "Relate an item to a target item.",
        W,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            "target": _NUMBER,
            "relation": prop("string", ours("e.g. blocks")),
        },
        ["projectId", "number", "target", "relation"],
    )
)
def relation_create(p: Project, args: Args) -> Any:
    return _relate(p, args, remove=False)


@tools.tool(
    make_tool(
        "relation_remove",
        "Remove a relation between an item and a target item.",
        W,
        {"projectId": _PROJECT, "number": _NUMBER, "target": _NUMBER, "relation": prop("string")},
        ["projectId", "number", "target", "relation"],
    )
)
def relation_remove(p: Project, args: Args) -> Any:
    return _relate(p, args, remove=True)


def _relate(p: Project, args: Args, remove: bool) -> Any:
    check_project(p, args)
    return p.relate(
        args.need("number", args.int("number")),
        args.need("target", args.int("target")),
        args.need("relation", args.str("relation")),
        remove=remove,
    )


# -- deletion --------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "item_delete",
        "Request permanent deletion of an item or one version; its content is locked at once.",
        X,
        {
            "projectId": _PROJECT,
            "number": _NUMBER,
            "ref": _REF,
            "version": prop("integer"),
            "reason": prop("string"),
        },
        ["reason"],
    )
)
def item_delete(p: Project, args: Args) -> Any:
    target = _target(p, args)
    if isinstance(target, Proposal):
        raise Refusal(
            "a proposal is withdrawn or rejected, not deleted; tools: proposal_withdraw, proposal_review",
            ["proposal_withdraw", "proposal_review"],
        )
    return p.request_deletion(target, version=args.int("version"), reason=args.str("reason"))


def _deletion_entry(request: DeletionRequest) -> dict[str, Any]:
    return {
        "ref": f"deletion:{request.id}",
        "target": request.target,
        "version": request.version,
        "reason": request.reason,
        "requester": request.requester,
        "time": request.time,
        "state": request.state,
    }


@tools.tool(
    make_tool(
        "privacy_deletion_queue",
        "List a project's pending deletion requests.",
        R,
        {"projectId": _PROJECT, **_PAGING},
        ["projectId"],
    )
)
def privacy_deletion_queue(p: Project, args: Args) -> Any:
    check_project(p, args)
    pending = [_deletion_entry(d) for d in p.deletions.values() if d.state == "pending"]
    return _paged(args, pending)


@tools.tool(
    make_tool(
        "privacy_deletion_review",
        "Decide a deletion request; approve deletes permanently.",
        X,
        {"projectId": _PROJECT, "ref": prop("string", ours("deletion:<id>")), **_decision("")},
        ["projectId", "ref", "decision"],
    )
)
def privacy_deletion_review(p: Project, args: Args) -> Any:
    decision = _choice(args, "decision", DECISIONS)
    check_project(p, args)
    ref: str = args.need("ref", args.str("ref"))
    known = [f"deletion:{i}" for i in p.deletions]
    request_id = _ref_id(ref.strip(), "deletion", known)
    if request_id not in p.deletions:
        refs = known or ["(no requests; item_delete files one)"]
        raise Refusal(f"there is no deletion request {ref!r}; requests: {', '.join(refs)}", refs)
    return p.decide_deletion(p.deletions[request_id], decision == "approve", args.str("reason"))


# -- the surface -----------------------------------------------------------------------------------

CONVENTIONS = Conventions(project=_PROJECT, paging=lambda kind: dict(_PAGING))


def build(kinds: Sequence[Kind]) -> list[ToolData]:
    """The consistent tools of the kinds given, then a kind the surface did not know as its own tools."""
    return build_per_kind(tools, kinds, CONVENTIONS)


def stub(fixture: Path | None = None) -> HandlerStub[Project]:
    return conderis_stub(load_project(fixture), tools)
