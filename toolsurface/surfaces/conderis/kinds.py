"""The item kinds of Conderis and the values of their fields: the one definition the tool builders render,
each surface in its own way, and the project model and the handlers check against.

Field and filter lists follow the design page's newest version; `COMMIT` is its growth example
(#299, commits on tasks): commits come from the remote, so agents only link them to tasks.
"""

from __future__ import annotations

from typing import Any

from toolsurface.harness.surface import Access, Kind, KindAction, KindField, KindTool
from toolsurface.surfaces.conderis.pieces import ours, seed

__all__ = [
    "ACTIVE",
    "ARCHIVABLE",
    "COMMIT",
    "CURRENT_VISIBILITIES",
    "DEFAULTS",
    "FIXED_AFTER_CREATE",
    "INSTRUCTIONS",
    "KINDS",
    "KIND_FIELDS",
    "MEMORY",
    "MEMORY_TYPES",
    "MOVE_FIELDS",
    "PAGE",
    "PRIORITIES",
    "PROJECT_FIELDS",
    "PROPOSAL",
    "PROPOSAL_ACTIONS",
    "PROPOSAL_STATES",
    "REASON_NOTE",
    "RELATIONS",
    "REQUIRED_ON_CREATE",
    "SETTABLE_STATUSES",
    "STATUSES",
    "STATUS_ACTIONS",
    "TASK",
    "TASK_ACTIONS",
    "TASK_ACTION_NAMES",
    "UNCLEARABLE",
    "VISIBILITIES",
]

STATUSES = ("open", "in_progress", "blocked", "completed", "canceled")
ACTIVE = ("open", "in_progress", "blocked")
STATUS_ACTIONS = {"blocked": "block", "completed": "complete"}
"""Statuses a task reaches only by its action: a block carries its reason, a completion is its own event."""
SETTABLE_STATUSES = tuple(s for s in STATUSES if s not in STATUS_ACTIONS)
PRIORITIES = ("low", "normal", "high", "urgent")
MEMORY_TYPES = ("decision", "convention", "fact", "howto", "note")
VISIBILITIES = ("private", "shared", "public")
"""Every visibility a stored memory may have; `public` is gone from the newer surfaces."""
CURRENT_VISIBILITIES = tuple(v for v in VISIBILITIES if v != "public")
RELATIONS = ("blocks", "duplicates", "relates", "parent")
PROPOSAL_STATES = ("pending", "approved", "rejected", "withdrawn")
MOVE_FIELDS = ("parent", "position")
"""A change of these fields only is a move: no version needed."""
PROJECT_FIELDS = ("name", "description", "remote")
"""What a call may set on the project itself."""

REASON_NOTE = seed("with a reason", 157, name="reason")
"""The note on approve and reject: a decision carries its reason, shown to the author."""

_RELATE = (KindAction("relate"), KindAction("unrelate"))
_ARCHIVE = (KindAction("archive"), KindAction("restore"), *_RELATE)
TASK_ACTIONS = (
    KindAction("claim"),
    KindAction("complete"),
    KindAction("block", "reason required"),
    KindAction("unblock"),
)

TASK = Kind(
    name="task",
    plural="tasks",
    reads="parent, subtasks, assignee, block reason",
    fields=(
        KindField("title"),
        KindField("content"),
        KindField("status", note=ours(", ".join(SETTABLE_STATUSES), 127, 160, name="status")),
        KindField("priority"),
        KindField("assignee"),
        KindField("parent", "integer"),
    ),
    filters=(
        KindField("priority"),
        KindField("assignee"),
        KindField("parent", "integer"),
        KindField("includeClosed", "boolean"),
    ),
    actions=(*TASK_ACTIONS, *_RELATE),
)

MEMORY = Kind(
    name="memory",
    plural="memories",
    refs=("memory:<id>",),
    reads="personal ones by ref memory:<id>",
    fields=(
        KindField("title"),
        KindField("summary"),
        KindField("content"),
        KindField("tags", "array"),
        KindField("type"),
        KindField("visibility", note=ours(", ".join(CURRENT_VISIBILITIES), 11, name="visibility")),
        KindField("expiresAt"),
    ),
    filters=(
        KindField("type"),
        KindField("tags", "array"),
        KindField("visibility"),
        KindField("includeArchived", "boolean"),
        KindField("includeExpired", "boolean"),
    ),
    actions=_ARCHIVE,
)

PAGE = Kind(
    name="page",
    plural="pages",
    reads="long text in parts",
    fields=(
        KindField("title"),
        KindField("content"),
        KindField("parent", "integer"),
        KindField("position", "integer"),
    ),
    filters=(KindField("parent", "integer"), KindField("includeArchived", "boolean")),
    actions=_ARCHIVE,
)

PROPOSAL = Kind(
    name="proposal",
    plural="proposals",
    numbered=False,
    refs=("proposal:<id>",),
    reads="the change against its base version",
    filters=(KindField("state"), KindField("author"), KindField("targetKind")),
    actions=(
        KindAction("approve", REASON_NOTE),
        KindAction("reject", REASON_NOTE),
        KindAction("withdraw"),
    ),
)

INSTRUCTIONS = Kind(
    name="instructions",
    plural="instructions",
    noun="the project instructions",
    numbered=False,
    refs=("instructions",),
    fields=(KindField("content"),),
)

COMMIT = Kind(
    name="commit",
    plural="commits",
    numbered=False,
    refs=("commit:<sha>",),
    reads="linked tasks",
    fields=(KindField("sha"), KindField("task", "integer", "null unlinks")),
    filters=(KindField("task", "integer"), KindField("author")),
    tools=(
        KindTool(
            "list",
            Access.READ,
            "List a project's commits with their linked tasks, newest first.",
            params=(
                KindField("task", "integer", "Only commits linked to this task"),
                KindField("author", note="Only commits by this author"),
            ),
        ),
        KindTool(
            "link",
            Access.WRITE,
            "Link a commit to a task.",
            params=(KindField("sha", note="Commit hash"), KindField("task", "integer")),
            required=("sha", "task"),
        ),
        KindTool(
            "unlink",
            Access.WRITE,
            "Unlink a commit from a task.",
            params=(KindField("sha", note="Commit hash"), KindField("task", "integer")),
            required=("sha", "task"),
        ),
    ),
)

KINDS = (TASK, MEMORY, PAGE, PROPOSAL, INSTRUCTIONS)

KIND_FIELDS: dict[str, tuple[str, ...]] = {k.name: tuple(f.name for f in k.fields) for k in KINDS if k.fields}
"""The fields of each kind as the project stores them; a surface may accept fewer."""
TASK_ACTION_NAMES = tuple(a.name for a in TASK_ACTIONS)
PROPOSAL_ACTIONS = tuple(a.name for a in PROPOSAL.actions)
ARCHIVABLE = tuple(k.name for k in KINDS if any(a.name == "archive" for a in k.actions))
REQUIRED_ON_CREATE: dict[str, tuple[str, ...]] = {
    "task": ("title",),
    "memory": ("title", "content"),
    "page": ("title",),
    "instructions": (),
}
FIXED_AFTER_CREATE: dict[str, tuple[str, ...]] = {"memory": ("visibility",)}
"""Fields a change may not alter once the item exists."""
UNCLEARABLE: dict[str, tuple[str, ...]] = {"task": ("title", "status"), "memory": ("title",), "page": ("title",)}
"""Fields null cannot clear: every titled item keeps its title, a task its status."""
DEFAULTS: dict[str, dict[str, Any]] = {
    "task": {"content": "", "status": "open", "priority": "normal", "assignee": None, "parent": None},
    "memory": {"summary": "", "tags": [], "type": "note", "visibility": "shared", "expiresAt": None},
    "page": {"content": "", "parent": None, "position": 0},
    "instructions": {"content": ""},
}
