"""The rules of the consistency-only surface that its tool texts state and its handlers enforce: one
definition, light enough for listing the tools without importing the handlers."""

from __future__ import annotations

from surfaces.conderis.kinds import MEMORY, PAGE, TASK

__all__ = [
    "ARCHIVE_ACTIONS",
    "BLOCK_ACTIONS",
    "DECISIONS",
    "MEMORY_FIELDS",
    "PAGE_FIELDS",
    "SEARCH_KINDS",
    "STATUS_TOOLS",
    "TASK_CREATE_FIELDS",
    "TASK_FIELDS",
]

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
