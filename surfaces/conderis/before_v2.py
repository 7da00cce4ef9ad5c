"""The 27 tools of Conderis before v2, with the inconsistencies the design page lists.

They are kept on purpose, since they are what the study measures: items addressed as number,
taskNumber, sourceNumber/targetNumber, id next to number, proposalId, requestId and ref; version for
tasks, proposals and page moves but baseRevisionId for memories and page text; a patch object in
task_patch against omitted-keeps plus clearExpiry in memory_store; approve and restore as booleans;
explanation when storing, reason when reviewing; includeClosed against includeArchived; offset/limit
in one list, limit only in two; and `kind` meaning the relation type in the relation tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness.surface import Access, KindField
from surfaces._authoring import join_words, make_tool, prop
from surfaces.conderis._before_v2_rules import (
    DEFAULT_DEPTH,
    ITEM_GET_REFS,
    MAX_DEPTH,
    QUEUE_LIMIT,
    SCOPES,
    SEARCH_KINDS,
    SEARCH_LIMIT,
    TASK_LIST_LIMIT,
    TASK_PATCH_FIELDS,
)
from surfaces.conderis._per_kind import Conventions, OwnedTool, per_kind_surface
from surfaces.conderis._shared import offset_paging, project_id
from surfaces.conderis.kinds import DEFAULTS, MEMORY_TYPES, PRIORITIES, RELATIONS, STATUSES

if TYPE_CHECKING:
    from stubs.kit import HandlerStub
    from surfaces.conderis.project import Project

__all__ = ["SURFACE"]

R, W, X = Access.READ, Access.WRITE, Access.IRREVERSIBLE


def _values(words: Sequence[str], default: str = "") -> str:
    """`a, b or c.`, then the default if there is one."""
    return f"{join_words(words)}." + (f" Default {default}." if default else "")


_PROJECT = project_id("The id of the project.")
_APPROVE_RULE = "Requires moderation rights in the project."
_RELATION = {
    "projectId": _PROJECT,
    "sourceNumber": prop("integer", "The number of the source item."),
    "targetNumber": prop("integer", "The number of the target item."),
    "kind": prop("string", _values(RELATIONS)),
}


def _limit(default: int, noun: str) -> dict[str, dict[str, object]]:
    return {"limit": prop("integer", f"Maximum number of {noun} to return. Default {default}.")}


_TOOLS = [
    OwnedTool(
        make_tool(
            "memory_recall",
            "Recalls what an agent should know before working on a project: the most relevant memories, the open "
            "tasks and the project instructions, ranked by the focus. Personal memories are always included.",
            R,
            {
                "projectId": project_id("The id of the project. Omit it to recall only personal memories."),
                "focus": prop("string", "What you are about to do, e.g. 'fix the login bug'."),
                "maxChars": prop("integer", "Maximum length of the answer. Default 8000."),
                "includeUpstream": prop(
                    "boolean",
                    "Include memories of the upstream project if this project is a fork. Default true.",
                ),
            },
        ),
        ("memory",),
    ),
    OwnedTool(
        make_tool(
            "system_memory",
            "Returns the Conderis system guide: how projects, memories, pages, tasks and proposals work and which "
            "tool to use for what. Read it when you are unsure how to use Conderis.",
            R,
            {},
        )
    ),
    OwnedTool(
        make_tool(
            "project_list",
            "Lists the projects you can access, with id, name, description, remote (and whether it is verified), "
            "public or private, upstream and your permissions. Use the id as projectId in the other tools.",
            R,
            {},
        )
    ),
    OwnedTool(
        make_tool(
            "task_assignee_list",
            "Lists who a task of the project can be assigned to: people by email address, agents by reference. Use "
            "a returned value as assignee in task_create or task_patch.",
            R,
            {"projectId": _PROJECT},
            ["projectId"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "project_create",
            "Creates a project and makes you its owner. remote links it to its Git repository; a remote on a "
            "supported host is verified automatically. Returns the project id.",
            W,
            {
                "name": prop("string", "Name of the project."),
                "description": prop("string", "What the project is about."),
                "remote": prop("string", "Git remote URL, e.g. https://github.com/org/repo.git."),
            },
            ["name"],
        )
    ),
    OwnedTool(
        make_tool(
            "project_update",
            "Updates the name, description or remote of a project; omitted values are kept. Changing the remote "
            f"resets its verification. {_APPROVE_RULE}",
            W,
            {
                "projectId": project_id("The id of the project to update."),
                "name": prop("string", "The new name."),
                "description": prop("string", "The new description."),
                "remote": prop("string", "The new Git remote URL."),
            },
            ["projectId"],
        )
    ),
    OwnedTool(
        make_tool(
            "item_get",
            "Gets one item of a project by number: a memory, page or task, with its content and relations. Use ref "
            "for the project instructions (instructions) or a proposal (proposal:<id>). depth includes the "
            "relations of related items. For personal memories use memory_get.",
            R,
            {
                "projectId": _PROJECT,
                "number": prop("integer", "The number of the item, e.g. 14."),
                "ref": prop("string", _values(ITEM_GET_REFS)),
                "depth": prop(
                    "integer", f"Levels of relations to include. Default {DEFAULT_DEPTH}, maximum {MAX_DEPTH}."
                ),
            },
            ["projectId"],
        )
    ),
    OwnedTool(
        make_tool(
            "memory_get",
            "Gets a memory with content, tags, type, scope, visibility and current revision: project memories by "
            "projectId and number, personal and organization memories by id. revisionId reads an older revision "
            "(see item_history).",
            R,
            {
                "projectId": project_id("The id of the project. Not needed with id."),
                "number": prop("integer", "The number of the memory in the project."),
                "id": prop("string", "The id of a personal or organization memory."),
                "revisionId": prop("string", "Read this revision instead of the current one."),
            },
        ),
        ("memory",),
    ),
    OwnedTool(
        make_tool(
            "relation_list",
            f"Lists the relations of an item ({', '.join(RELATIONS)}). kind returns one type only. Each "
            "entry names the other item with number, title and kind.",
            R,
            {
                "projectId": _PROJECT,
                "number": prop("integer", "The number of the item."),
                "kind": prop("string", _values(RELATIONS)),
            },
            ["projectId", "number"],
        )
    ),
    OwnedTool(
        make_tool(
            "item_history",
            "Returns the history of an item: for memories and pages the revisions (revision id, author, time, "
            "explanation), for tasks the field changes with old and new values.",
            R,
            {"projectId": _PROJECT, "number": prop("integer", "The number of the item.")},
            ["projectId", "number"],
        )
    ),
    OwnedTool(
        make_tool(
            "task_list",
            "Lists the tasks of a project with number, title, status, priority, assignee and parent. Completed and "
            "canceled tasks are left out unless includeClosed is set.",
            R,
            {
                "projectId": _PROJECT,
                "assignee": prop("string", "Only tasks of this assignee."),
                "priority": prop("string", _values(PRIORITIES)),
                "parent": prop("integer", "Only subtasks of this task."),
                "includeClosed": prop("boolean", "Include completed and canceled tasks."),
                **_limit(TASK_LIST_LIMIT, "tasks"),
            },
            ["projectId"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "item_search",
            "Searches the memories, pages and tasks of a project by text in title, summary and content, best "
            "matches first. Archived items are left out unless includeArchived is set; closed tasks count as "
            "archived here.",
            R,
            {
                "projectId": _PROJECT,
                "query": prop("string", "The text to search for."),
                "kind": prop("string", _values(SEARCH_KINDS)),
                "includeArchived": prop("boolean", "Include archived items and closed tasks."),
                **offset_paging(SEARCH_LIMIT),
            },
            ["projectId", "query"],
        )
    ),
    OwnedTool(
        make_tool(
            "proposal_queue",
            "Lists the pending proposals of a project: changes to memories, pages and the instructions waiting for "
            "a moderator, with proposal id, target, author, explanation and version.",
            R,
            {"projectId": _PROJECT, **_limit(QUEUE_LIMIT, "proposals")},
            ["projectId"],
        ),
        ("proposal",),
    ),
    OwnedTool(
        make_tool(
            "memory_store",
            "Stores a memory: a piece of knowledge agents should keep, such as a decision, a convention or a fact "
            "about the project. Without number or id a new memory is created; with number (project memories, "
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
                "tags": prop("array", 'Tags to find the memory by, e.g. ["build", "ci"].', items={"type": "string"}),
                "type": prop("string", _values(MEMORY_TYPES)),
                "scope": prop("string", _values(SCOPES, default=SCOPES[0])),
                "visibility": prop(
                    "string",
                    "private (only you), shared (project members) or public (everyone). Default shared.",
                ),
                "organizationId": prop("string", "The id of the organization, for scope organization."),
                "expiresAt": prop("string", "When the memory stops being recalled (ISO 8601).", format="date-time"),
                "clearExpiry": prop("boolean", "Remove the expiry date."),
                "baseRevisionId": prop("string", "The revision id read with memory_get; required when changing."),
                "explanation": prop("string", "Why the change is made; shown to the moderator."),
                "propose": prop("boolean", "Ask for review even if you could publish directly."),
            },
        ),
        ("memory",),
    ),
    OwnedTool(
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
                "position": prop("integer", "Position among the sibling pages, starting at 0."),
                "version": prop("integer", "The version of the page; required when moving it."),
                "baseRevisionId": prop(
                    "string", "The revision id read with item_get; required when changing the text."
                ),
                "explanation": prop("string", "Why the change is made; shown to the moderator."),
                "propose": prop("boolean", "Ask for review even if you could publish directly."),
            },
            ["projectId"],
        ),
        ("page", "instructions"),
    ),
    OwnedTool(
        make_tool(
            "task_create",
            "Creates a task in a project. A task has a title, an optional description in content, a priority and "
            "optionally an assignee and a parent task; a task with a parent is a subtask. New tasks are open. "
            "Returns the number of the task and its version.",
            W,
            {
                "projectId": _PROJECT,
                "title": prop("string", "A short title of the task."),
                "content": prop("string", "The description of the task in Markdown."),
                "priority": prop("string", _values(PRIORITIES, default=DEFAULTS["task"]["priority"])),
                "assignee": prop("string", "Email address of a person or reference of an agent (task_assignee_list)."),
                "parent": prop("integer", "The number of the parent task, to create a subtask."),
            },
            ["projectId", "title"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "task_patch",
            'Changes fields of a task. patch is a JSON object with the fields to change, e.g. {"title": "New '
            f'title", "priority": "high"}}. Allowed fields: {", ".join(TASK_PATCH_FIELDS)}; '
            f"null clears a field. Unknown fields are refused. status is {_values(STATUSES)} "
            "Pass the version you read; if the task changed since, the call is refused.",
            W,
            {
                "projectId": _PROJECT,
                "taskNumber": prop("integer", "The number of the task."),
                "version": prop("integer", "The version of the task you read."),
                "patch": prop("object", "The fields to change."),
            },
            ["projectId", "taskNumber", "version", "patch"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "task_claim",
            "Assigns a task to you and sets it to in_progress. Refused if the task is assigned to someone else or "
            "closed.",
            W,
            {
                "projectId": _PROJECT,
                "taskNumber": prop("integer", "The number of the task."),
                "version": prop("integer", "The version of the task you read."),
            },
            ["projectId", "taskNumber", "version"],
        ),
        ("task",),
    ),
    OwnedTool(
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
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "proposal_review",
            "Approves (approve: true) or rejects (approve: false) a pending proposal; approving publishes the "
            f"change. A reason is optional. {_APPROVE_RULE}",
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
        ("proposal",),
    ),
    OwnedTool(
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
        ("proposal",),
    ),
    OwnedTool(
        make_tool(
            "item_archive",
            "Archives a memory or page, or restores it with restore: true. Archived items are not recalled or "
            "found unless includeArchived is set.",
            W,
            {
                "projectId": _PROJECT,
                "number": prop("integer", "The number of the item."),
                "restore": prop("boolean", "Restore the item instead of archiving it."),
            },
            ["projectId", "number"],
        )
    ),
    OwnedTool(
        make_tool(
            "relation_create",
            "Creates a relation between two items, e.g. task #12 blocks task #14. kind is the type of relation, "
            "pointing from source to target.",
            W,
            _RELATION,
            list(_RELATION),
        )
    ),
    OwnedTool(
        make_tool(
            "relation_remove",
            "Removes a relation; sourceNumber, targetNumber and kind must match (see relation_list).",
            W,
            _RELATION,
            list(_RELATION),
        )
    ),
    OwnedTool(
        make_tool(
            "item_delete",
            "Requests permanent deletion of an item or one revision, e.g. a secret stored by mistake. The content "
            "is locked at once; a moderator decides with privacy_deletion_review. Pass version for tasks, "
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
    ),
    OwnedTool(
        make_tool(
            "privacy_deletion_queue",
            "Lists the pending deletion requests of a project for a moderator to decide: item, requester, reason "
            "and time.",
            R,
            {"projectId": _PROJECT},
            ["projectId"],
        )
    ),
    OwnedTool(
        make_tool(
            "privacy_deletion_review",
            "Decides a deletion request: approve: true deletes the item or revision permanently, approve: false "
            f"rejects the request and unlocks the content. {_APPROVE_RULE}",
            X,
            {
                "projectId": _PROJECT,
                "requestId": prop("string", "The id of the deletion request."),
                "approve": prop("boolean", "true to delete permanently, false to reject the request."),
                "reason": prop("string", "Why; shown to the requester."),
            },
            ["projectId", "requestId", "approve"],
        )
    ),
]


def _param_name(field: KindField) -> str:
    """The old surface named item references after the item, `taskNumber`."""
    return f"{field.name}Number" if field.type == "integer" else field.name


def _param_note(field: KindField) -> str:
    if field.note:
        return field.note if field.note.endswith(".") else f"{field.note}."
    return f"The number of the {field.name}." if field.type == "integer" else f"The {field.name}."


def _stub(fixture: Path | None = None) -> HandlerStub[Project]:
    # Imported when a stub is made: listing or measuring the surface needs only its tools.
    from surfaces.conderis.before_v2_stub import before_v2_stub

    return before_v2_stub(fixture)


SURFACE = per_kind_surface(
    "before-v2",
    "Before v2",
    "The 27 tools Conderis served before v2, inconsistencies included.",
    _TOOLS,
    Conventions(
        project=_PROJECT,
        paging=lambda kind: _limit(20, kind.plural),
        param_name=_param_name,
        param_note=_param_note,
    ),
    _stub,
)
