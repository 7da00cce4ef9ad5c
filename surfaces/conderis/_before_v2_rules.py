"""The rules of the surface before v2 that its tool texts state and its handlers enforce: one definition,
light enough for listing the tools without importing the handlers."""

from __future__ import annotations

from surfaces.conderis.kinds import KIND_FIELDS, MOVE_FIELDS

__all__ = [
    "DEFAULT_DEPTH",
    "ITEM_GET_REFS",
    "MAX_DEPTH",
    "MEMORY_FIELDS",
    "PAGE_MOVE",
    "PAGE_TEXT",
    "QUEUE_LIMIT",
    "REVISIONED",
    "SCOPES",
    "SEARCH_KINDS",
    "SEARCH_LIMIT",
    "TASK_CREATE_FIELDS",
    "TASK_LIST_LIMIT",
    "TASK_PATCH_FIELDS",
    "VERIFIED_HOSTS",
]

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
