"""The 27 tools of Conderis before v2, each declared beside its handler, with the inconsistencies the design
page lists.

They are kept on purpose, since they are what the study measures: items addressed as number,
taskNumber, sourceNumber/targetNumber, id next to number, proposalId, requestId and ref; version for
tasks, proposals and page moves but baseRevisionId for memories and page text; a patch object in
task_patch against omitted-keeps plus clearExpiry in memory_store; approve and restore as booleans;
explanation when storing, reason when reviewing; includeClosed against includeArchived; offset/limit
in one list, limit only in two; and `kind` meaning the relation type in the relation tools.

Revision ids. The domain keeps one version per item; the old surface read and changed memories, page
text and the instructions by revision instead. A revision id is derived from the item and one of its
versions, so every version is exactly one revision and no extra state is needed:

- project memories and pages: ``rev-<number>-<version>``, e.g. ``rev-4-2`` for #4 at version 2;
- personal memories: ``rev-<id>-<version>``, e.g. ``rev-m-7f3a-1``;
- the instructions: ``rev-instructions-<version>``.

memory_get and item_get return the current one as ``revisionId``; item_history lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Access, Kind, KindField
from toolsurface.stubs.kit import Handlers, HandlerStub, Refusal, check_limit, choose
from toolsurface.surfaces._authoring import ToolData, join_words, make_tool, prop
from toolsurface.surfaces.conderis._per_kind import Conventions, build_per_kind
from toolsurface.surfaces.conderis._shared import SECRET_EXAMPLE, offset_paging, project_id
from toolsurface.surfaces.conderis._shared_handlers import (
    Args,
    check_project,
    conderis_stub,
    new_project_id,
    numbered,
    recall,
)
from toolsurface.surfaces.conderis.fixture import load_project
from toolsurface.surfaces.conderis.kinds import (
    DEFAULTS,
    KIND_FIELDS,
    MEMORY_TYPES,
    MOVE_FIELDS,
    PRIORITIES,
    PROJECT_FIELDS,
    RELATIONS,
    STATUSES,
)
from toolsurface.surfaces.conderis.pieces import ours
from toolsurface.surfaces.conderis.project import HistoryEntry, Item, Project, Proposal

__all__ = ["DEFAULT_DEPTH", "MAX_DEPTH", "TASK_PATCH_FIELDS", "BeforeV2Project", "build", "revision_id", "stub"]

R, W, X = Access.READ, Access.WRITE, Access.IRREVERSIBLE

# The rules the tool texts state and the handlers enforce.
TASK_PATCH_FIELDS = KIND_FIELDS["task"]
TASK_CREATE_FIELDS = ("title", "content", "priority", "assignee", "parent")
MEMORY_FIELDS = KIND_FIELDS["memory"]
PAGE_MOVE = MOVE_FIELDS
PAGE_TEXT = tuple(f for f in KIND_FIELDS["page"] if f not in PAGE_MOVE)
REVISIONED = ("memory", "page", "instructions")
SCOPES = ("project", "personal", "organization")
SEARCH_KINDS = ("memory", "page", "task")
ITEM_GET_REFS = ("instructions", "proposal:<id>")
DEFAULT_DEPTH = 1
MAX_DEPTH = 3
TASK_LIST_LIMIT = 50
SEARCH_LIMIT = 20
QUEUE_LIMIT = 20
VERIFIED_HOSTS = ("github.com", "gitlab.com", "bitbucket.org")

GUIDE = (
    "Conderis system guide (stub of the surface before v2). A project holds memories, pages, tasks and "
    "proposals; project items have a number. Start with memory_recall. Read with item_get (by number; ref "
    "instructions or proposal:<id>), memory_get (a memory and its revisionId; personal memories by id), task_list, "
    "item_search and proposal_queue. Memories and page text are changed with the baseRevisionId you read; tasks, "
    "proposals and page moves with their version. memory_store keeps the fields you omit; task_patch takes a "
    "patch object. Without moderation rights, or with propose, a change becomes a proposal that a moderator "
    "decides with proposal_review. Tasks are closed with task_complete or status canceled, never archived."
)


@dataclass
class BeforeV2Project:
    """The project as the old surface's handlers hold it, with what the domain does not keep: explanations
    per revision id, task_complete comments per task and version."""

    p: Project
    explanations: dict[str, str] = field(default_factory=dict)
    comments: dict[tuple[int, int], str] = field(default_factory=dict)


tools: Handlers[BeforeV2Project] = Handlers()


def _values(words: Sequence[str], default: str = "") -> str:
    """`a, b or c.`, then the default if there is one."""
    return f"{join_words(words)}." + (f" Default {default}." if default else "")


_PROJECT = project_id("The id of the project.")
_APPROVE_RULE = ours(" Requires moderation rights in the project.", name="moderation")
_RELATION = {
    "projectId": _PROJECT,
    "sourceNumber": prop("integer", "The number of the source item."),
    "targetNumber": prop("integer", "The number of the target item."),
    "kind": prop("string", ours(_values(RELATIONS))),
}


def _limit(default: int, noun: str) -> dict[str, dict[str, object]]:
    return {"limit": prop("integer", f"Maximum number of {noun} to return." + ours(f" Default {default}."))}


# -- revisions -------------------------------------------------------------------------------------


def revision_id(item: Item, version: int | None = None) -> str:
    """The revision id of `item` at `version` (default: its current version)."""
    key = item.number if item.number is not None else (item.id or item.kind)
    return f"rev-{key}-{item.version if version is None else version}"


def _revisions(item: Item) -> dict[str, int]:
    return {revision_id(item, h.version): h.version for h in item.history}


def _choice(args: Args, name: str, choices: Sequence[str]) -> str | None:
    value = args.str(name)
    choose(name, value, choices, label=name, also=[name])
    return value


def _revision_refusal(item: Item, base: str | None, what: str) -> Refusal:
    current = revision_id(item)
    if base is None:
        return Refusal(
            f"baseRevisionId is required for {what}; current revision of {item.ref}: {current}",
            [current, "baseRevisionId"],
        )
    return Refusal(
        f"baseRevisionId {base!r} of {item.ref} is stale; current revision: {current}; read it again",
        [current, "baseRevisionId"],
    )


def _check_revision(item: Item, base: str | None, what: str) -> None:
    if base != revision_id(item):
        raise _revision_refusal(item, base, what)


def _hide_block_reason(data: dict[str, Any]) -> dict[str, Any]:
    """The old surface had no block reason; agents wrote it into the content."""
    data.pop("blockReason", None)
    return data


def _view(p: Project, item: Item) -> dict[str, Any]:
    data = _hide_block_reason(p.view(item))
    if item.kind in REVISIONED:
        data["revisionId"] = revision_id(item)
    return data


def _entry(p: Project, item: Item) -> dict[str, Any]:
    return _hide_block_reason(p.entry(item))


def _personal(p: Project, memory_id: str) -> Item:
    bare = memory_id.removeprefix("memory:")
    if bare not in p.personal:
        ids = list(p.personal)
        raise Refusal(f"there is no personal memory with id {memory_id!r}; your ids: {', '.join(ids)}", [*ids, "id"])
    return p.personal_memory(bare)


def _memory(p: Project, args: Args, what: str) -> Item:
    """A project memory by projectId and number, or a personal one by id."""
    if args.one_of(["number", "id"]) == "id":
        if args.has("projectId"):
            check_project(p, args)
        return _personal(p, args.need("id", args.str("id")))
    if not args.has("projectId"):
        ids = ", ".join(p.personal)
        raise Refusal(
            f"{what} a project memory by number needs projectId ({p.info.id}); "
            f"personal memories are addressed by id ({ids}) instead",
            ["projectId", "id"],
        )
    return numbered(p, args, ["memory"])


def _proposal(p: Project, args: Args) -> Proposal:
    check_project(p, args)
    proposal_id = args.need("proposalId", args.str("proposalId")).removeprefix("proposal:")
    if proposal_id not in p.proposals:
        ids = list(p.proposals)
        raise Refusal(
            f"there is no proposal {proposal_id!r}; proposal ids: {', '.join(ids)} (pending ones: proposal_queue)",
            [*ids, "proposal_queue"],
        )
    return p.proposal(proposal_id)


# -- read: project ---------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "memory_recall",
        "Recalls what an agent should know before working on a project: the most relevant memories, the open "
        "tasks and the project instructions, ranked by the focus." + ours(" Personal memories are always included."),
        R,
        {
            "projectId": project_id("The id of the project." + ours(" Omit it to recall only personal memories.")),
            "focus": prop("string", "What you are about to do" + ours(", e.g. 'fix the login bug'") + "."),
            "maxChars": prop("integer", "Maximum length of the answer." + ours(" Default 8000.")),
            "includeUpstream": prop(
                "boolean",
                "Include memories of the upstream project if this project is a fork." + ours(" Default true.", 81),
            ),
        },
    ),
    kinds=("memory",),
)
def memory_recall(s: BeforeV2Project, args: Args) -> Any:
    # The fixture project is no fork, so includeUpstream adds nothing.
    return recall(s.p, args)


@tools.tool(
    make_tool(
        "system_memory",
        "Returns the Conderis system guide: how projects, memories, pages, tasks and proposals work and which "
        "tool to use for what. Read it when you are unsure how to use Conderis.",
        R,
        {},
    )
)
def system_memory(s: BeforeV2Project, args: Args) -> Any:
    return GUIDE


@tools.tool(
    make_tool(
        "project_list",
        "Lists the projects you can access, with id, name, description, remote (and whether it is verified), "
        "public or private, upstream"
        + ours(" and your permissions", 88, name="permissions")
        + "."
        + ours(" Use the id as projectId in the other tools.", name="use"),
        R,
        {},
    )
)
def project_list(s: BeforeV2Project, args: Args) -> Any:
    view = s.p.project_view()
    mine = {k: view[k] for k in ("id", "name", "description", "remote", "remoteVerified", "visibility", "upstream")}
    return {"projects": [{**mine, "permissions": view["permissions"]}, *s.p.other_projects]}


@tools.tool(
    make_tool(
        "task_assignee_list",
        "Lists who a task of the project can be assigned to: people by email address, agents by reference."
        + ours(" Use a returned value as assignee in task_create or task_patch."),
        R,
        {"projectId": _PROJECT},
        ["projectId"],
    ),
    kinds=("task",),
)
def task_assignee_list(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    # The domain has no e-mail addresses: people are assigned by name, agents by reference.
    names = s.p.assignee_names()
    people = [{"assignee": n, "name": p.name, "agent": p.agent} for n, p in zip(names, s.p.people, strict=True)]
    return {"assignees": people}


# -- write: project --------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "project_create",
        "Creates a project"
        + ours(" and makes you its owner", name="owner")
        + "."
        + ours(
            " remote links it to its Git repository; a remote on a supported host is verified automatically.",
            87,
            name="remote",
        )
        + ours(" Returns the project id.", name="id"),
        W,
        {
            "name": prop("string", "Name of the project."),
            "description": prop("string", "What the project is about."),
            "remote": prop("string", "Git remote URL" + ours(", e.g. https://github.com/org/repo.git") + "."),
        },
        ["name"],
    )
)
def project_create(s: BeforeV2Project, args: Args) -> Any:
    name = args.need("name", args.str("name")).strip()
    new_id = new_project_id(name)
    taken = [str(x["id"]) for x in s.p.project_entries()]
    if new_id in taken:
        raise Refusal(f"a project {new_id!r} exists; pick another name (taken: {', '.join(taken)})", ["name"])
    remote = args.str("remote")
    s.p.other_projects.append(
        {
            "id": new_id,
            "name": name,
            "description": args.str("description") or "",
            "remote": remote,
            "remoteVerified": bool(remote) and any(host in str(remote) for host in VERIFIED_HOSTS),
            "public": False,
        }
    )
    return {"outcome": "published", "projectId": new_id}


@tools.tool(
    make_tool(
        "project_update",
        "Updates the name, description or remote of a project; omitted values are kept."
        + ours(" Changing the remote resets its verification.", name="remote")
        + _APPROVE_RULE,
        W,
        {
            "projectId": project_id("The id of the project to update."),
            "name": prop("string", "The new name."),
            "description": prop("string", "The new description."),
            "remote": prop("string", "The new Git remote URL."),
        },
        ["projectId"],
    )
)
def project_update(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    if not s.p.caller.may_moderate:
        raise Refusal("project_update requires moderation rights in the project; ask a moderator", ["project_list"])
    values = args.picked(PROJECT_FIELDS)
    if not values:
        raise Refusal("nothing to update; give name, description or remote", PROJECT_FIELDS)
    if "name" in values and not str(values["name"]).strip():
        raise Refusal("a project needs a name; give a non-empty name", ["name"])
    return s.p.store_project(values)


# -- read: items -----------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "item_get",
        "Gets one item of a project by number: a memory, page or task, with its content and relations. Use ref "
        "for the project instructions (instructions) or a proposal (proposal:<id>). depth includes the "
        "relations of related items." + ours(" For personal memories use memory_get."),
        R,
        {
            "projectId": _PROJECT,
            "number": prop("integer", "The number of the item" + ours(", e.g. 14") + "."),
            "ref": prop("string", _values(ITEM_GET_REFS)),
            "depth": prop(
                "integer", "Levels of relations to include." + ours(f" Default {DEFAULT_DEPTH}, maximum {MAX_DEPTH}.")
            ),
        },
        ["projectId"],
    )
)
def item_get(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    depth = args.int("depth")
    depth = DEFAULT_DEPTH if depth is None else depth
    if not 1 <= depth <= MAX_DEPTH:
        raise Refusal(f"depth must be between 1 and {MAX_DEPTH}", [1, MAX_DEPTH])
    if args.one_of(["number", "ref"]) == "ref":
        return _get_ref(s.p, args.need("ref", args.str("ref")))
    item = numbered(s.p, args)
    data = _view(s.p, item)
    data["relations"] = _relations(s.p, item.number or 0, depth)
    return data


def _get_ref(p: Project, ref: str) -> Any:
    text = ref.strip()
    if text == "instructions":
        return _view(p, p.instructions)
    if text.startswith("proposal:"):
        proposal = p.proposals.get(text.removeprefix("proposal:"))
        if proposal is not None:
            return {"proposalId": proposal.id, **p.proposal_view(proposal)}
        refs = [x.ref for x in p.proposals.values()]
        raise Refusal(f"there is no {text}; proposals: {', '.join(refs)}", [*refs, "proposal_queue"])
    raise Refusal(
        f"ref {ref!r} is not a ref of item_get; refs: {', '.join(ITEM_GET_REFS)}; project items are read "
        "by number, personal memories with memory_get",
        [*ITEM_GET_REFS, "number", "memory_get"],
    )


def _relations(p: Project, number: int, depth: int) -> list[dict[str, Any]]:
    entries = p.relations_of(number)
    if depth > 1:
        for entry in entries:
            entry["relations"] = _relations(p, entry["number"], depth - 1) if entry["number"] in p.items else []
    return entries


@tools.tool(
    make_tool(
        "memory_get",
        "Gets a memory with content, tags, type, scope, visibility and current revision: project memories by "
        "projectId and number, personal and organization memories by id. revisionId reads an older revision"
        + ours(" (see item_history)")
        + ".",
        R,
        {
            "projectId": project_id("The id of the project. Not needed with id."),
            "number": prop("integer", "The number of the memory in the project."),
            "id": prop("string", "The id of a personal or organization memory."),
            "revisionId": prop("string", "Read this revision instead of the current one."),
        },
    ),
    kinds=("memory",),
)
def memory_get(s: BeforeV2Project, args: Args) -> Any:
    item = _memory(s.p, args, "reading")
    return _memory_data(s.p, item, args.str("revisionId"))


def _memory_data(p: Project, item: Item, revision: str | None) -> dict[str, Any]:
    current = revision_id(item)
    fields = p.view(item)["fields"]
    if revision is not None and revision != current:
        fields = _old_revision(p, item, revision)
    where = (
        {"number": item.number, "scope": "project"} if item.number is not None else {"id": item.id, "scope": "personal"}
    )
    data: dict[str, Any] = {"ref": item.ref, **where, **fields, "revisionId": revision or current}
    if revision is not None and revision != current:
        data["currentRevisionId"] = current
    if item.archived:
        data["archived"] = True
    return data


def _old_revision(p: Project, item: Item, revision: str) -> dict[str, Any]:
    revisions = _revisions(item)
    if revision not in revisions:
        raise Refusal(
            f"{item.ref} has no revision {revision!r}; revisions: {', '.join(revisions)}",
            [*revisions, "revisionId"],
        )
    if item.locked:
        current = revision_id(item)
        raise Refusal(
            f"{item.ref} is locked by a deletion request; only {current} can be read", [current, "revisionId"]
        )
    fields: dict[str, Any] = p.at_version(item, revisions[revision])["fields"]
    return fields


@tools.tool(
    make_tool(
        "relation_list",
        "Lists the relations of an item"
        + ours(f" ({', '.join(RELATIONS)})", name="types")
        + ". kind returns one type only."
        + ours(" Each entry names the other item with number, title and kind.", name="entry"),
        R,
        {
            "projectId": _PROJECT,
            "number": prop("integer", "The number of the item."),
            "kind": prop("string", ours(_values(RELATIONS))),
        },
        ["projectId", "number"],
    )
)
def relation_list(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args)
    kind = _choice(args, "kind", RELATIONS)
    assert item.number is not None
    entries = [
        {"number": r["number"], "title": r["title"], "kind": r["relation"], "direction": r["direction"]}
        for r in s.p.relations_of(item.number)
        if kind is None or r["relation"] == kind
    ]
    return {"number": item.number, "relations": entries}


@tools.tool(
    make_tool(
        "item_history",
        "Returns the history of an item: for memories and pages the revisions (revision id, author, time, "
        "explanation), for tasks the field changes with old and new values.",
        R,
        {"projectId": _PROJECT, "number": prop("integer", "The number of the item.")},
        ["projectId", "number"],
    )
)
def item_history(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args)
    if item.kind == "task":
        return {"number": item.number, "version": item.version, "changes": _task_changes(s, item)}
    revisions = [_revision_entry(s, revision_id(item, h.version), h) for h in item.history]
    return {"number": item.number, "revisionId": revision_id(item), "revisions": revisions}


def _revision_entry(s: BeforeV2Project, rid: str, h: HistoryEntry) -> dict[str, Any]:
    return {"revisionId": rid, "author": h.author, "time": h.time, "explanation": s.explanations.get(rid)}


def _task_changes(s: BeforeV2Project, item: Item) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for h in item.history:
        entry: dict[str, Any] = {"version": h.version, "author": h.author, "time": h.time}
        if previous is None:
            entry["state"] = h.fields
        else:
            entry["changes"] = [
                {"field": k, "old": previous.get(k), "new": v} for k, v in h.fields.items() if previous.get(k) != v
            ]
        comment = s.comments.get((item.number or 0, h.version))
        if comment:
            entry["comment"] = comment
        out.append(entry)
        previous = h.fields
    return out


# -- read: lists -----------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "task_list",
        "Lists the tasks of a project"
        + ours(" with number, title, status, priority, assignee and parent")
        + ". Completed and canceled tasks are left out unless includeClosed is set.",
        R,
        {
            "projectId": _PROJECT,
            "assignee": prop("string", "Only tasks of this assignee."),
            "priority": prop("string", ours(_values(PRIORITIES))),
            "parent": prop("integer", "Only subtasks of this task."),
            "includeClosed": prop("boolean", "Include completed and canceled tasks."),
            **_limit(TASK_LIST_LIMIT, "tasks"),
        },
        ["projectId"],
    ),
    kinds=("task",),
)
def task_list(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    priority = _choice(args, "priority", PRIORITIES)
    assignee = _choice(args, "assignee", s.p.assignee_names())
    parent = args.int("parent")
    if parent is not None:
        s.p.item(parent, ["task"])
    limit = check_limit(args.int("limit"), TASK_LIST_LIMIT)
    found = s.p.tasks(include_closed=args.bool("includeClosed"), priority=priority, assignee=assignee, parent=parent)
    return {"tasks": [_entry(s.p, i) for i in found[:limit]], "total": len(found)}


@tools.tool(
    make_tool(
        "item_search",
        "Searches the memories, pages and tasks of a project by text"
        + ours(" in title, summary and content, best matches first")
        + ". Archived items are left out unless includeArchived is set; closed tasks count as archived here.",
        R,
        {
            "projectId": _PROJECT,
            "query": prop("string", "The text to search for."),
            "kind": prop("string", ours(_values(SEARCH_KINDS))),
            "includeArchived": prop("boolean", "Include archived items and closed tasks."),
            **offset_paging(SEARCH_LIMIT),
        },
        ["projectId", "query"],
    )
)
def item_search(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    query = args.need("query", args.str("query"))
    if not any(c.isalnum() for c in query):
        raise Refusal("query needs at least one word to search for", ["query"])
    kind = _choice(args, "kind", SEARCH_KINDS)
    offset = args.int("offset") or 0
    if offset < 0:
        raise Refusal("offset must be 0 or more", [0])
    limit = check_limit(args.int("limit"), SEARCH_LIMIT)
    archived = args.bool("includeArchived")
    found = s.p.search(query, [kind] if kind else SEARCH_KINDS, include_archived=archived, include_closed=archived)
    entries = [_entry(s.p, i) for i in found[offset : offset + limit]]
    return {"results": entries, "total": len(found), "offset": offset, "limit": limit}


@tools.tool(
    make_tool(
        "proposal_queue",
        "Lists the pending proposals of a project: changes to memories, pages and the instructions waiting for "
        "a moderator, with proposal id, target, author, explanation and version.",
        R,
        {"projectId": _PROJECT, **_limit(QUEUE_LIMIT, "proposals")},
        ["projectId"],
    ),
    kinds=("proposal",),
)
def proposal_queue(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    pending = s.p.proposal_list(state="pending")
    entries = [
        {
            "proposalId": x.id,
            "target": x.target,
            "author": x.author,
            "explanation": x.reason,
            "version": x.version,
            "time": x.time,
        }
        for x in pending[: check_limit(args.int("limit"), QUEUE_LIMIT)]
    ]
    return {"proposals": entries, "total": len(pending)}


# -- write: memories and pages ---------------------------------------------------------------------


@tools.tool(
    make_tool(
        "memory_store",
        "Stores a memory"
        + ours(
            ": a piece of knowledge agents should keep, such as a decision, a convention or a fact about the project"
        )
        + ". Without number or id a new memory is created; with number (project memories, "
        "together with projectId) or id (personal and organization memories) the memory is changed. When "
        "changing, pass the baseRevisionId you read with memory_get; if the memory changed since, the call is "
        "refused and you must read it again. Fields you omit are kept; set clearExpiry to remove the expiry "
        "date. scope decides where the memory lives: project (needs projectId), personal (only you, across "
        "projects) or organization (needs organizationId). If you may not publish directly, or with propose, "
        "the change becomes a proposal for a moderator, who sees the explanation.",
        W,
        {
            "projectId": project_id("The id of the project. Required for project memories."),
            "number": prop("integer", "The number of the project memory to change."),
            "id": prop("string", "The id of the personal or organization memory to change."),
            "title": prop("string", "A short title."),
            "summary": prop("string", "One or two sentences that recall shows in place of the content."),
            "content": prop("string", "The full text of the memory; Markdown is allowed."),
            "tags": prop(
                "array", "Tags to find the memory by" + ours(', e.g. ["build", "ci"]') + ".", items={"type": "string"}
            ),
            "type": prop("string", ours(_values(MEMORY_TYPES))),
            "scope": prop("string", ours(_values(SCOPES, default=SCOPES[0]))),
            "visibility": prop(
                "string",
                ours("private (only you), shared (project members) or public (everyone). Default shared.", 170),
            ),
            "organizationId": prop("string", "The id of the organization, for scope organization."),
            "expiresAt": prop(
                "string", "When the memory stops being recalled" + ours(" (ISO 8601)") + ".", format="date-time"
            ),
            "clearExpiry": prop("boolean", "Remove the expiry date."),
            "baseRevisionId": prop("string", "The revision id read with memory_get; required when changing."),
            "explanation": prop("string", "Why the change is made; shown to the moderator."),
            "propose": prop("boolean", "Ask for review even if you could publish directly."),
        },
    ),
    kinds=("memory",),
)
def memory_store(s: BeforeV2Project, args: Args) -> Any:
    scope = _scope(args)
    fields = _memory_fields(args)
    if args.has("number") or args.has("id"):
        return _change_memory(s, args, scope, fields)
    propose, explanation = args.bool("propose"), args.str("explanation")
    if scope == "personal":
        if fields.get("visibility", "private") != "private":
            raise Refusal("a personal memory is visible to you only; visibility: private", ["private"])
        done = s.p.create("memory", {**fields, "visibility": "private"}, personal=True)
    else:
        if not args.has("projectId"):
            raise Refusal(
                "a project memory needs projectId; for a memory of your own use scope personal",
                ["projectId", "personal"],
            )
        check_project(s.p, args)
        done = s.p.create("memory", fields, propose=propose, reason=explanation)
    return _stored(s, done, explanation)


def _scope(args: Args) -> str | None:
    scope = _choice(args, "scope", SCOPES)
    if scope == "organization" or args.has("organizationId"):
        raise Refusal(
            "this project belongs to no organization, so there are no organization memories; scope: project, personal",
            ["project", "personal", "scope"],
        )
    return scope


def _memory_fields(args: Args) -> dict[str, Any]:
    fields = args.picked(MEMORY_FIELDS)
    if args.bool("clearExpiry"):
        if "expiresAt" in fields:
            raise Refusal("give expiresAt or clearExpiry, not both", ["expiresAt", "clearExpiry"])
        fields["expiresAt"] = None
    return fields


def _change_memory(s: BeforeV2Project, args: Args, scope: str | None, fields: dict[str, Any]) -> Any:
    item = _memory(s.p, args, "changing")
    own = "project" if item.number is not None else "personal"
    if scope is not None and scope != own:
        raise Refusal(f"{item.ref} is a {own} memory; its scope stays {own}", [own])
    _check_revision(item, args.str("baseRevisionId"), f"changing {item.ref}")
    if not fields:
        raise Refusal(f"nothing to change in {item.ref}; give {', '.join(MEMORY_FIELDS)} or clearExpiry", MEMORY_FIELDS)
    explanation = args.str("explanation")
    done = s.p.change(item, fields, version=item.version, propose=args.bool("propose"), reason=explanation)
    return _stored(s, done, explanation)


def _stored(s: BeforeV2Project, done: dict[str, Any], explanation: str | None) -> dict[str, Any]:
    """The domain's answer in the old words: revisionId when published, proposalId when proposed."""
    if done["outcome"] == "proposed":
        return {**done, "proposalId": str(done["ref"]).removeprefix("proposal:")}
    target = s.p.resolve_ref(str(done["ref"]))
    assert isinstance(target, Item)
    rid = revision_id(target)
    if explanation:
        s.explanations[rid] = explanation
    extra = {"id": target.id} if target.number is None and target.id else {}
    return {**done, **extra, "revisionId": rid}


@tools.tool(
    make_tool(
        "page_store",
        "Creates or changes a page of the project's documentation, or the project instructions with ref: "
        "instructions. Without number a new page is created. When you change the text (title or content), "
        "pass the baseRevisionId of the revision you read; when you only move the page (parent or position), "
        "pass its version instead. Changes by agents without moderation rights become proposals; the "
        "moderator sees the explanation.",
        W,
        {
            "projectId": _PROJECT,
            "number": prop("integer", "The number of the page to change."),
            "ref": prop("string", "instructions, to change the project instructions instead of a page."),
            "title": prop("string", "The title of the page."),
            "content": prop("string", "The text of the page in Markdown."),
            "parent": prop("integer", "The number of the parent page."),
            "position": prop("integer", "Position among the sibling pages" + ours(", starting at 0") + "."),
            "version": prop("integer", "The version of the page; required when moving it."),
            "baseRevisionId": prop("string", "The revision id read with item_get; required when changing the text."),
            "explanation": prop("string", "Why the change is made; shown to the moderator."),
            "propose": prop("boolean", "Ask for review even if you could publish directly."),
        },
        ["projectId"],
    ),
    kinds=("page", "instructions"),
)
def page_store(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    fields = args.picked((*PAGE_TEXT, *PAGE_MOVE))
    propose, explanation = args.bool("propose"), args.str("explanation")
    if not args.has("ref") and not args.has("number"):
        return _stored(s, s.p.create("page", fields, propose=propose, reason=explanation), explanation)
    if args.one_of(["number", "ref"]) == "ref":
        return _store_instructions(s, args, fields)
    item = numbered(s.p, args, ["page"])
    if not fields:
        raise Refusal(
            f"nothing to change in {item.ref}; give {', '.join((*PAGE_TEXT, *PAGE_MOVE))}", [*PAGE_TEXT, *PAGE_MOVE]
        )
    if any(k in fields for k in PAGE_TEXT):
        _check_revision(item, args.str("baseRevisionId"), f"changing the text of {item.ref}")
    if any(k in fields for k in PAGE_MOVE):
        _check_move_version(s.p, item, args.int("version"))
    done = s.p.change(item, fields, version=item.version, propose=propose, reason=explanation)
    return _stored(s, done, explanation)


def _check_move_version(p: Project, item: Item, version: int | None) -> None:
    if version is None:
        raise Refusal(
            f"moving {item.ref} (parent or position) needs its version, not baseRevisionId; "
            f"current version: {item.version}",
            ["version", item.version],
        )
    p.check_version(item, version, "a move")


def _store_instructions(s: BeforeV2Project, args: Args, fields: dict[str, Any]) -> Any:
    ref = args.need("ref", args.str("ref"))
    if ref.strip() != "instructions":
        raise Refusal(
            f"ref {ref!r} is not a ref of page_store; ref: instructions; pages by number",
            ["instructions", "number"],
        )
    if set(fields) != {"content"}:
        raise Refusal("the instructions have content only; give content (no title, parent or position)", ["content"])
    item = s.p.instructions
    _check_revision(item, args.str("baseRevisionId"), "changing the instructions")
    explanation = args.str("explanation")
    done = s.p.change(item, fields, version=item.version, propose=args.bool("propose"), reason=explanation)
    return _stored(s, done, explanation)


# -- write: tasks ----------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "task_create",
        "Creates a task in a project. A task has a title, an optional description in content, a priority and "
        "optionally an assignee and a parent task; a task with a parent is a subtask."
        + ours(" New tasks are open. Returns the number of the task and its version."),
        W,
        {
            "projectId": _PROJECT,
            "title": prop("string", "A short title of the task."),
            "content": prop("string", "The description of the task in Markdown."),
            "priority": prop("string", ours(_values(PRIORITIES, default=DEFAULTS["task"]["priority"]))),
            "assignee": prop(
                "string", ours("Email address of a person or reference of an agent (task_assignee_list).", 89, 191)
            ),
            "parent": prop("integer", "The number of the parent task, to create a subtask."),
        },
        ["projectId", "title"],
    ),
    kinds=("task",),
)
def task_create(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    return s.p.create("task", args.picked(TASK_CREATE_FIELDS))


@tools.tool(
    make_tool(
        "task_patch",
        "Changes fields of a task. patch is a JSON object with the fields to change"
        + ours(', e.g. {"title": "New title", "priority": "high"}', name="example")
        + f". Allowed fields: {', '.join(TASK_PATCH_FIELDS)}"
        + ours("; null clears a field", name="null")
        + ". Unknown fields are refused."
        + ours(f" status is {_values(STATUSES)}", name="status")
        + " Pass the version you read; if the task changed since, the call is refused.",
        W,
        {
            "projectId": _PROJECT,
            "taskNumber": prop("integer", "The number of the task."),
            "version": prop("integer", "The version of the task you read."),
            "patch": prop("object", "The fields to change."),
        },
        ["projectId", "taskNumber", "version", "patch"],
    ),
    kinds=("task",),
)
def task_patch(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args, ["task"], "taskNumber")
    patch = args.obj("patch") or {}
    if not patch:
        raise Refusal(f"patch is empty; give fields to change: {', '.join(TASK_PATCH_FIELDS)}", TASK_PATCH_FIELDS)
    s.p.check_fields("task", patch, TASK_PATCH_FIELDS)
    # The old surface checked the version on every patch, a parent-only one too.
    s.p.check_version(item, args.int("version"), "task_patch")
    return s.p.change(item, patch, version=item.version)


@tools.tool(
    make_tool(
        "task_claim",
        "Assigns a task to you and sets it to in_progress."
        + ours(" Refused if the task is assigned to someone else or closed."),
        W,
        {
            "projectId": _PROJECT,
            "taskNumber": prop("integer", "The number of the task."),
            "version": prop("integer", "The version of the task you read."),
        },
        ["projectId", "taskNumber", "version"],
    ),
    kinds=("task",),
)
def task_claim(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args, ["task"], "taskNumber")
    return s.p.task_action(item, "claim", version=args.int("version"), reason=None)


@tools.tool(
    make_tool(
        "task_complete",
        "Marks a task as completed, with an optional comment on the result.",
        W,
        {
            "projectId": _PROJECT,
            "taskNumber": prop("integer", "The number of the task."),
            "version": prop("integer", "The version of the task you read."),
            "comment": prop("string", "What was done."),
        },
        ["projectId", "taskNumber", "version"],
    ),
    kinds=("task",),
)
def task_complete(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args, ["task"], "taskNumber")
    done = s.p.task_action(item, "complete", version=args.int("version"), reason=None)
    comment = args.str("comment")
    if comment:
        s.comments[(item.number or 0, item.version)] = comment
        done["comment"] = comment
    return done


# -- write: proposals, archive, relations ----------------------------------------------------------


@tools.tool(
    make_tool(
        "proposal_review",
        "Approves (approve: true) or rejects (approve: false) a pending proposal; approving publishes the "
        "change. A reason is optional." + _APPROVE_RULE,
        W,
        {
            "projectId": _PROJECT,
            "proposalId": prop("string", "The id of the proposal."),
            "approve": prop("boolean", "true to publish the change, false to reject it."),
            "reason": prop("string", "Why; shown to the author."),
            "version": prop("integer", "The version of the proposal."),
        },
        ["projectId", "proposalId", "approve", "version"],
    ),
    kinds=("proposal",),
)
def proposal_review(s: BeforeV2Project, args: Args) -> Any:
    proposal = _proposal(s.p, args)
    action = "approve" if args.bool("approve") else "reject"
    done = s.p.decide(proposal, action, reason=args.str("reason"), version=args.int("version"), check_version=True)
    if action == "approve":
        target = s.p.resolve_ref(proposal.target)
        if isinstance(target, Item) and target.kind in REVISIONED and proposal.reason:
            s.explanations[revision_id(target)] = proposal.reason
    return {**done, "proposalId": proposal.id}


@tools.tool(
    make_tool(
        "proposal_withdraw",
        "Withdraws a pending proposal you made.",
        W,
        {
            "projectId": _PROJECT,
            "proposalId": prop("string", "The id of the proposal."),
            "version": prop("integer", "The version of the proposal."),
        },
        ["projectId", "proposalId", "version"],
    ),
    kinds=("proposal",),
)
def proposal_withdraw(s: BeforeV2Project, args: Args) -> Any:
    proposal = _proposal(s.p, args)
    done = s.p.decide(proposal, "withdraw", reason=None, version=args.int("version"), check_version=True)
    return {**done, "proposalId": proposal.id}


@tools.tool(
    make_tool(
        "item_archive",
        "Archives a memory or page, or restores it with restore: true."
        + ours(" Archived items are not recalled or found unless includeArchived is set.", 35),
        W,
        {
            "projectId": _PROJECT,
            "number": prop("integer", "The number of the item."),
            "restore": prop("boolean", "Restore the item instead of archiving it."),
        },
        ["projectId", "number"],
    )
)
def item_archive(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args)
    return s.p.archive(item, args.bool("restore"))


@tools.tool(
    make_tool(
        "relation_create",
        "Creates a relation between two items"
        + ours(", e.g. task #12 blocks task #14")
        + ". kind is the type of relation, pointing from source to target.",
        W,
        _RELATION,
        list(_RELATION),
    )
)
def relation_create(s: BeforeV2Project, args: Args) -> Any:
    return _relate(s.p, args, remove=False)


@tools.tool(
    make_tool(
        "relation_remove",
        "Removes a relation; sourceNumber, targetNumber and kind must match (see relation_list).",
        W,
        _RELATION,
        list(_RELATION),
    )
)
def relation_remove(s: BeforeV2Project, args: Args) -> Any:
    return _relate(s.p, args, remove=True)


def _relate(p: Project, args: Args, remove: bool) -> Any:
    check_project(p, args)
    kind = args.need("kind", _choice(args, "kind", RELATIONS))
    source = args.need("sourceNumber", args.int("sourceNumber"))
    target = args.need("targetNumber", args.int("targetNumber"))
    _check_relation(p, source, target, kind, remove)
    done = p.relate(source, target, kind, remove=remove)
    return {"outcome": done["outcome"], "sourceNumber": source, "targetNumber": target, "kind": kind, "removed": remove}


def _check_relation(p: Project, source: int, target: int, kind: str, remove: bool) -> None:
    """Refusals in the old words (sourceNumber, targetNumber, kind) before the domain's own."""
    p.item(source)
    p.item(target)
    if source == target:
        raise Refusal("an item cannot relate to itself; give another targetNumber", ["targetNumber"])
    present = [r for r in p.relations if r.source == source]
    if remove and not any((r.target, r.relation) == (target, kind) for r in present):
        listed = ", ".join(f"targetNumber {r.target} kind {r.relation}" for r in present) or "none"
        raise Refusal(
            f"#{source} has no {kind} relation to #{target}; its relations as source: {listed}",
            [*(str(r.target) for r in present), "relation_list"],
        )


# -- deletion --------------------------------------------------------------------------------------


@tools.tool(
    make_tool(
        "item_delete",
        "Requests permanent deletion of an item or one revision"
        + SECRET_EXAMPLE
        + ". The content is locked at once; a moderator decides with privacy_deletion_review. Pass version for tasks, "
        "baseRevisionId for memories and pages.",
        X,
        {
            "projectId": _PROJECT,
            "number": prop("integer", "The number of the item."),
            "version": prop("integer", "The version of the task."),
            "baseRevisionId": prop("string", "The revision of the memory or page to delete."),
            "reason": prop("string", "Why the item must be deleted."),
        },
        ["projectId", "number", "reason"],
    )
)
def item_delete(s: BeforeV2Project, args: Args) -> Any:
    item = numbered(s.p, args)
    reason = args.str("reason")
    if item.kind == "task":
        if args.has("baseRevisionId"):
            raise Refusal(f"{item.ref} is a task: tasks have no revisions; pass its version", ["version"])
        s.p.check_version(item, args.int("version"), "deleting a task")
        done = s.p.request_deletion(item, version=None, reason=reason)
    else:
        done = _request_revision_deletion(s.p, item, args.str("baseRevisionId"), args.has("version"), reason)
    return {"outcome": done["outcome"], "requestId": done["request"], "number": item.number, "locked": True}


def _request_revision_deletion(
    p: Project, item: Item, base: str | None, version_given: bool, reason: str | None
) -> Any:
    """The current revision deletes the whole item, an older one only that revision."""
    if version_given:
        raise Refusal(
            f"{item.ref} is a {item.kind}: pass baseRevisionId, not version; current: {revision_id(item)}",
            ["baseRevisionId"],
        )
    revisions = _revisions(item)
    if base is None:
        raise _revision_refusal(item, base, f"deleting {item.ref}")
    if base not in revisions:
        raise Refusal(
            f"{item.ref} has no revision {base!r}; revisions: {', '.join(revisions)}",
            [*revisions, "baseRevisionId"],
        )
    version = None if base == revision_id(item) else revisions[base]
    return p.request_deletion(item, version=version, reason=reason)


@tools.tool(
    make_tool(
        "privacy_deletion_queue",
        "Lists the pending deletion requests of a project for a moderator to decide"
        + ours(": item, requester, reason and time")
        + ".",
        R,
        {"projectId": _PROJECT},
        ["projectId"],
    )
)
def privacy_deletion_queue(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    pending = [d for d in s.p.deletions.values() if d.state == "pending"]
    return {
        "requests": [
            {
                "requestId": d.id,
                "item": d.target,
                "revisionId": _deleted_revision(s.p, d.target, d.version),
                "requester": d.requester,
                "reason": d.reason,
                "time": d.time,
            }
            for d in pending
        ]
    }


def _deleted_revision(p: Project, target: str, version: int | None) -> str | None:
    if version is None:
        return None
    try:
        item = p.resolve_ref(target)
    except Refusal:  # deleted meanwhile by an earlier approved request
        return None
    return revision_id(item, version) if isinstance(item, Item) else None


@tools.tool(
    make_tool(
        "privacy_deletion_review",
        "Decides a deletion request: approve: true deletes the item or revision permanently, approve: false "
        "rejects the request and unlocks the content." + _APPROVE_RULE,
        X,
        {
            "projectId": _PROJECT,
            "requestId": prop("string", "The id of the deletion request."),
            "approve": prop("boolean", "true to delete permanently, false to reject the request."),
            "reason": prop("string", "Why; shown to the requester."),
        },
        ["projectId", "requestId", "approve"],
    )
)
def privacy_deletion_review(s: BeforeV2Project, args: Args) -> Any:
    check_project(s.p, args)
    request_id = args.need("requestId", args.str("requestId"))
    if request_id not in s.p.deletions:
        ids = list(s.p.deletions)
        raise Refusal(
            f"there is no deletion request {request_id!r}; requests: {', '.join(ids) or '(none)'}",
            [*ids, "privacy_deletion_queue"],
        )
    request = s.p.deletion(request_id)
    done = s.p.decide_deletion(request, args.bool("approve"), args.str("reason"))
    return {"outcome": done["outcome"], "requestId": request.id, "item": request.target}


# -- the surface -----------------------------------------------------------------------------------


def _param_name(field: KindField) -> str:
    """The old surface named item references after the item, `taskNumber`."""
    return f"{field.name}Number" if field.type == "integer" else field.name


def _param_note(field: KindField) -> str:
    if field.note:
        return field.note if field.note.endswith(".") else f"{field.note}."
    return f"The number of the {field.name}." if field.type == "integer" else f"The {field.name}."


CONVENTIONS = Conventions(
    project=_PROJECT,
    paging=lambda kind: _limit(20, kind.plural),
    param_name=_param_name,
    param_note=_param_note,
)


def build(kinds: Sequence[Kind]) -> list[ToolData]:
    """The old tools of the kinds given, then a kind the surface did not know as its own tools."""
    return build_per_kind(tools, kinds, CONVENTIONS)


def stub(fixture: Path | None = None) -> HandlerStub[BeforeV2Project]:
    project = load_project(fixture)
    return conderis_stub(project, tools, BeforeV2Project(project))
