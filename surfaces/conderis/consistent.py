"""The control series: the 27 old tools with the inconsistencies fixed, descriptions cut to v2 length,
plus task_block (28 tools).

Every item is addressed by number, or by ref where it has none; one version guards every change;
an omitted field is kept and null clears it; decisions are named values, not booleans; every why is a
reason; every list pages with limit and cursor; a relation's type is `relation`. What only
consolidation changes (one tool serving every kind) is left as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.surface import Access, Kind
from surfaces._authoring import join_words, make_tool, prop
from surfaces.conderis._consistent_rules import (
    ARCHIVE_ACTIONS,
    BLOCK_ACTIONS,
    DECISIONS,
    SEARCH_KINDS,
    TASK_CREATE_FIELDS,
)
from surfaces.conderis._per_kind import Conventions, OwnedTool, per_kind_surface
from surfaces.conderis._shared import cursor_paging, project_id, version
from surfaces.conderis.kinds import FIXED_AFTER_CREATE, MEMORY, PAGE, TASK, UNCLEARABLE

if TYPE_CHECKING:
    from stubs.kit import HandlerStub
    from surfaces.conderis.project import Project

__all__ = ["SURFACE"]

R, W, X = Access.READ, Access.WRITE, Access.IRREVERSIBLE

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


_TOOLS = [
    OwnedTool(
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
        ("memory",),
    ),
    OwnedTool(make_tool("system_memory", "Read the system guide: how projects and their items work.", R, {})),
    OwnedTool(make_tool("project_list", "List the projects you can access.", R, dict(_PAGING))),
    OwnedTool(
        make_tool(
            "task_assignee_list",
            "List who a task can be assigned to: people by display name, agents by reference.",
            R,
            {"projectId": _PROJECT, **_PAGING},
            ["projectId"],
        ),
        ("task",),
    ),
    OwnedTool(
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
    ),
    OwnedTool(
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
    ),
    OwnedTool(
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
    ),
    OwnedTool(
        make_tool(
            "memory_get",
            "Read a memory by number, or a personal one by ref memory:<id>; version reads an earlier state.",
            R,
            {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, "version": prop("integer")},
        ),
        ("memory",),
    ),
    OwnedTool(
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
    ),
    OwnedTool(
        make_tool(
            "item_history",
            "List an item's versions: version, author, time, changed fields.",
            R,
            {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, **_PAGING},
        )
    ),
    OwnedTool(
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
        ("task",),
    ),
    OwnedTool(
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
    ),
    OwnedTool(
        make_tool(
            "proposal_queue",
            "List a project's pending proposals as short entries.",
            R,
            {"projectId": _PROJECT, **_PAGING},
            ["projectId"],
        ),
        ("proposal",),
    ),
    OwnedTool(
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
        ("memory",),
    ),
    OwnedTool(
        make_tool(
            "page_store",
            f"Create or change a page, or the instructions with ref instructions. {_KEEP} A move (parent, position "
            f"only) needs no version. {_PROPOSE}",
            W,
            {"projectId": _PROJECT, "number": _NUMBER, "ref": _REF, **_fields(PAGE, clearable=True), **_proposing()},
            ["projectId"],
        ),
        ("page", "instructions"),
    ),
    OwnedTool(
        make_tool(
            "task_create",
            "Create a task; with parent, a subtask.",
            W,
            {"projectId": _PROJECT, **{k: v for k, v in _fields(TASK).items() if k in TASK_CREATE_FIELDS}},
            ["projectId", "title"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "task_patch",
            f"Change a task's fields. {_KEEP} Close it with task_complete or status canceled.",
            W,
            {"projectId": _PROJECT, "number": _NUMBER, **_VERSIONED, **_fields(TASK, clearable=True)},
            ["projectId", "number", "version"],
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "task_claim",
            "Claim a task: assign it to you, status in_progress.",
            W,
            _TASK_ACTION,
            list(_TASK_ACTION),
        ),
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "task_complete",
            "Complete a task.",
            W,
            _TASK_ACTION,
            list(_TASK_ACTION),
        ),
        ("task",),
    ),
    OwnedTool(
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
        ("task",),
    ),
    OwnedTool(
        make_tool(
            "proposal_review",
            "Approve or reject a pending proposal, with a reason.",
            W,
            {"projectId": _PROJECT, "ref": prop("string", "proposal:<id>"), **_VERSIONED, **_decision("")},
            ["projectId", "ref", "version", "decision"],
        ),
        ("proposal",),
    ),
    OwnedTool(
        make_tool(
            "proposal_withdraw",
            "Withdraw your pending proposal.",
            W,
            {"projectId": _PROJECT, "ref": prop("string", "proposal:<id>"), **_VERSIONED},
            ["projectId", "ref", "version"],
        ),
        ("proposal",),
    ),
    OwnedTool(
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
    ),
    OwnedTool(
        make_tool(
            "relation_create",
            "Relate an item to a target item.",
            W,
            {
                "projectId": _PROJECT,
                "number": _NUMBER,
                "target": _NUMBER,
                "relation": prop("string", "e.g. blocks"),
            },
            ["projectId", "number", "target", "relation"],
        )
    ),
    OwnedTool(
        make_tool(
            "relation_remove",
            "Remove a relation between an item and a target item.",
            W,
            {"projectId": _PROJECT, "number": _NUMBER, "target": _NUMBER, "relation": prop("string")},
            ["projectId", "number", "target", "relation"],
        )
    ),
    OwnedTool(
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
    ),
    OwnedTool(
        make_tool(
            "privacy_deletion_queue",
            "List a project's pending deletion requests.",
            R,
            {"projectId": _PROJECT, **_PAGING},
            ["projectId"],
        )
    ),
    OwnedTool(
        make_tool(
            "privacy_deletion_review",
            "Decide a deletion request; approve deletes permanently.",
            X,
            {"projectId": _PROJECT, "ref": prop("string", "deletion:<id>"), **_decision("")},
            ["projectId", "ref", "decision"],
        )
    ),
]


def _stub(fixture: Path | None = None) -> HandlerStub[Project]:
    # Imported when a stub is made: listing or measuring the surface needs only its tools.
    from surfaces.conderis.consistent_stub import consistent_stub

    return consistent_stub(fixture)


SURFACE = per_kind_surface(
    "consistent",
    "Consistency fixes only",
    "The 27 old tools with the inconsistencies fixed and descriptions cut to v2 length, plus task_block.",
    _TOOLS,
    Conventions(project=_PROJECT, paging=lambda kind: dict(_PAGING)),
    _stub,
)
