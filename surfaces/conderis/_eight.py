"""The eight tools of tool surface v2, built for any set of kinds, for every design on the page
(`_eight_design`: first, final as measured, final as live); their handlers are `_eight_stub`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from harness.surface import Access, Kind, SurfaceDefinition
from surfaces._authoring import ToolData, make_tool, prop
from surfaces.conderis._eight_design import (
    ANY_ITEM_ACTIONS,
    BATCH_LIMIT,
    Design,
    decisions_need_reason,
    filter_fields,
    listed,
    stored,
)
from surfaces.conderis._lines import action_rows, address, field_list, kind_lines, kinds_phrase
from surfaces.conderis._shared import cursor_paging, project_id, study, version
from surfaces.conderis.kinds import ACTIVE, REASON_NOTE

if TYPE_CHECKING:
    from stubs.kit import HandlerStub
    from surfaces.conderis.project import Project

__all__ = ["build_eight", "eight_tool_surface"]

_ACTIVE = f"Tasks are the active ones ({', '.join(s.replace('_', ' ') for s in ACTIVE)}) unless includeClosed."


def _recall() -> ToolData:
    return make_tool(
        "recall",
        "Recall a project's memories, active tasks and instructions for the work at hand, ranked by focus. "
        "Memories appear as #N, personal ones as memory:<id>.",
        Access.READ,
        {
            "projectId": project_id("Omit for personal memories only"),
            "focus": prop("string", "What you are about to do"),
            "maxChars": prop("integer", "Upper limit for the answer"),
            "guide": prop("boolean", "Return the system guide instead of the recall"),
        },
    )


def _project_get() -> ToolData:
    return make_tool(
        "project_get",
        "Read a project: name, description, remote (verified or not), public or private, upstream, your "
        "permissions (may write, may moderate), assignees and counts of open tasks, memories, pages and "
        "pending proposals. Without projectId, list your projects.",
        Access.READ,
        {"projectId": project_id("Omit to list your projects")},
    )


def _project_store() -> ToolData:
    return make_tool(
        "project_store",
        "Create or change a project. An omitted value is kept, null clears it.",
        Access.WRITE,
        {
            "projectId": project_id("Omit to create"),
            "name": prop("string", "Project name"),
            "description": prop("string", "One paragraph"),
            "remote": prop("string", "Git remote URL"),
        },
    )


def _item_get(kinds: Sequence[Kind]) -> ToolData:
    return make_tool(
        "item_get",
        f"Read one {kinds_phrase(kinds)} with its direct relations and its version. Address per kind:\n"
        f"{kind_lines(kinds, address)}\n"
        "Long text is read in parts with offset and take.",
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


def _item_list(kinds: Sequence[Kind], design: Design) -> ToolData:
    listed_kinds = listed(kinds)
    active = "" if design.status_filter or not any(k.name == "task" for k in listed_kinds) else f" {_ACTIVE}"
    example = ' per kind, for example {"status": "open"}' if design.status_filter else ""
    return make_tool(
        "item_list",
        f"List or search {kinds_phrase(listed_kinds, plural=True)} as short entries.{active} "
        f"filter is a JSON object{example}; allowed keys per kind:\n"
        f"{kind_lines(listed_kinds, lambda k: field_list(filter_fields(k, design)))}\n"
        "An unknown filter is refused with the allowed ones.",
        Access.READ,
        {
            "kind": prop("string", "Kind, see above"),
            "projectId": project_id("Omit for personal memories"),
            "query": prop("string", "Text to search for"),
            "filter": prop("object", "Filters for the kind, see above"),
            "sort": prop("string", "Field; prefix - for descending"),
            **cursor_paging(),
        },
        required=["kind"],
    )


STORE_MEANINGS = {
    "kind": "memory, page, task, instructions; later every further kind",
    "projectId": "Missing for personal memories",
    "number": "Change this item; without it, create",
    "version": "The version read with item_get; required when content changes, not for a move",
    "fields": "JSON object for the kind",
    "reason": "Shown to the moderator when the change becomes a proposal",
    "propose": "Ask for review instead of publishing",
    "batch": "Many items at once, instead of fields",
}
"""item_store's parameters with the meaning the page gives each (L113-L121, the same in every version)."""


def _batch_rule(design: Design) -> str:
    """The batch sentence: its form (ours), its size (L146), which key a parent may name and what is atomic."""
    key = "the key of an earlier item of the same kind" if design.batch_keys_per_kind else "a key"
    atomic = (
        "each kind is stored atomically on its own" if design.batch_atomic_per_kind else "all items are stored or none"
    )
    return (
        f"batch is {{idempotencyKey, source, items: [{{key, kind, fields}}]}}, up to {BATCH_LIMIT} items; "
        f"parent may name {key}; {atomic}."
    )


def _item_store(kinds: Sequence[Kind], design: Design) -> ToolData:
    stored_kinds = stored(kinds)
    return make_tool(
        "item_store",
        f"Create or change a {kinds_phrase(stored_kinds)}. fields is one JSON object; allowed fields per kind:\n"
        f"{kind_lines(stored_kinds, lambda k: field_list(k.fields))}\n"
        "An omitted field is kept, null clears it, an unknown field is refused. A move (parent, position only) "
        "needs no version. Without write permission, or with propose, the change becomes a proposal. "
        f"{_batch_rule(design)}",
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


def _item_action(kinds: Sequence[Kind], design: Design) -> ToolData:
    acting = [k for k in kinds if k.actions]
    common = () if design.actions_per_kind else ANY_ITEM_ACTIONS
    hidden = () if design.decision_reasons else (REASON_NOTE,)
    rows = "\n".join(f"- {who}: {actions}" for who, actions in action_rows(acting, common, hidden))
    if design.versioned_decisions:
        rule = "Every action needs the version from item_get."
    else:
        rule = "Task and item actions need the version from item_get; relate, unrelate and the proposal actions do not."
    closing = ""
    if design.task_never_archived and any(k.name == "task" for k in acting):
        closing = " A task is closed with complete or by setting status canceled, never archived."
    decisions = ", approve or reject" if decisions_need_reason(design) else ""
    return make_tool(
        "item_action",
        f"Act on a {kinds_phrase(acting)}. Actions per kind:\n{rows}\n"
        f"{rule} "
        f"An action that does not apply to the item's kind is refused, naming the actions that do.{closing}",
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


def _item_delete(kinds: Sequence[Kind]) -> ToolData:
    deletable = [k for k in kinds if k.numbered and k.fields]
    return make_tool(
        "item_delete",
        f"Requests permanent deletion of a {kinds_phrase(deletable)}, or of one version, and locks its content "
        "immediately, e.g. a secret stored by mistake. A person decides in the web app.",
        Access.IRREVERSIBLE,
        {
            "projectId": project_id(),
            "number": prop("integer"),
            "ref": prop("string", "memory:<id> for a personal memory"),
            "version": prop("integer", "Delete only this version"),
            "reason": prop("string", "Shown to the person who decides"),
        },
    )


def build_eight(kinds: Sequence[Kind], design: Design) -> list[ToolData]:
    return [
        _recall(),
        _project_get(),
        _project_store(),
        _item_get(kinds),
        _item_list(kinds, design),
        _item_store(kinds, design),
        _item_action(kinds, design),
        _item_delete(kinds),
    ]


def _stub(design: Design, fixture: Path | None = None) -> HandlerStub[Project]:
    # Imported when a stub is made: listing or measuring the surface needs only its tools.
    from surfaces.conderis._eight_stub import eight_stub

    return eight_stub(design, fixture)


def eight_tool_surface(name: str, title: str, purpose: str, design: Design) -> SurfaceDefinition:
    """A v2 surface of `design`, with the server instructions that name the eight tools."""
    from surfaces.conderis.instructions import V2

    return study(name, title, purpose, partial(_build, design), partial(_stub, design), V2)


def _build(design: Design, kinds: Sequence[Kind]) -> list[ToolData]:
    return build_eight(kinds, design)
