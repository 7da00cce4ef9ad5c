"""The item kinds of Conderis, as data every Conderis surface renders in its own way.

Field and filter lists follow the design page's newest version; `COMMIT` is its growth example
(#299, commits on tasks): commits come from the remote, so agents only link them to tasks.
"""

from __future__ import annotations

from harness.surface import Access, Kind, KindAction, KindField, KindTool

__all__ = ["COMMIT", "INSTRUCTIONS", "KINDS", "MEMORY", "PAGE", "PROPOSAL", "TASK"]

_RELATE = (KindAction("relate"), KindAction("unrelate"))

TASK = Kind(
    name="task",
    plural="tasks",
    reads="parent, subtasks, assignee, block reason",
    fields=(
        KindField("title"),
        KindField("content"),
        KindField("status", note="open, in_progress, canceled"),
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
    actions=(
        KindAction("claim"),
        KindAction("complete"),
        KindAction("block", "reason required"),
        KindAction("unblock"),
        *_RELATE,
    ),
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
        KindField("visibility", note="private, shared"),
        KindField("expiresAt"),
    ),
    filters=(
        KindField("type"),
        KindField("tags", "array"),
        KindField("visibility"),
        KindField("includeArchived", "boolean"),
        KindField("includeExpired", "boolean"),
    ),
    actions=(KindAction("archive"), KindAction("restore"), *_RELATE),
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
    actions=(KindAction("archive"), KindAction("restore"), *_RELATE),
)

PROPOSAL = Kind(
    name="proposal",
    plural="proposals",
    numbered=False,
    refs=("proposal:<id>",),
    reads="the change against its base version",
    filters=(KindField("state"), KindField("author"), KindField("targetKind")),
    actions=(
        KindAction("approve", "with a reason"),
        KindAction("reject", "with a reason"),
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
