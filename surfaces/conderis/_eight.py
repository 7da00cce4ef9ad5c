"""The eight tools of tool surface v2, built for any set of kinds, for both designs on the page
(`_eight_design`); their handlers are `_eight_stub`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from harness.surface import Access, Kind, SurfaceDefinition
from surfaces._authoring import ToolData, make_tool, prop
from surfaces.conderis._eight_design import BATCH_LIMIT, Design, filter_fields, listed, stored
from surfaces.conderis._eight_stub import eight_stub
from surfaces.conderis._lines import action_rows, address, field_list, kind_lines, kinds_phrase
from surfaces.conderis._shared import cursor_paging, project_id, study, version
from surfaces.conderis.kinds import ACTIVE

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


def _item_store(kinds: Sequence[Kind]) -> ToolData:
    stored_kinds = stored(kinds)
    return make_tool(
        "item_store",
        f"Create or change a {kinds_phrase(stored_kinds)}. fields is one JSON object; allowed fields per kind:\n"
        f"{kind_lines(stored_kinds, lambda k: field_list(k.fields))}\n"
        "An omitted field is kept, null clears it, an unknown field is refused. A move (parent, position only) "
        "needs no version. Without write permission, or with propose, the change becomes a proposal.",
        Access.WRITE,
        {
            "kind": prop("string", "Kind, see above"),
            "projectId": project_id("Omit for a personal memory"),
            "number": prop("integer", "Item to change; omit to create"),
            "version": version("Version read with item_get; required when content changes"),
            "fields": prop("object", "Fields for the kind, see above"),
            "reason": prop("string", "Shown to the moderator when the change becomes a proposal"),
            "propose": prop("boolean", "Ask for review instead of publishing"),
            "batch": prop(
                "object",
                f"Up to {BATCH_LIMIT} items instead of fields: "
                "{idempotencyKey, source, items: [{key, kind, fields}]}; "
                "parent may name an earlier key",
            ),
        },
        required=["kind"],
    )


def _item_action(kinds: Sequence[Kind], design: Design) -> ToolData:
    acting = [k for k in kinds if k.actions]
    rows = "\n".join(f"- {who}: {actions}" for who, actions in action_rows(acting, design.common_actions))
    if design.versioned_decisions:
        rule = "Every action needs the version from item_get."
    else:
        rule = "Task and item actions need the version from item_get; relate, unrelate and proposal actions do not."
    closing = ""
    if any(k.name == "task" for k in acting) and not design.common_actions:
        closing = " A task is closed with complete or by status canceled, never archived."
    return make_tool(
        "item_action",
        f"Act on a {kinds_phrase(acting)}. Actions per kind:\n{rows}\n"
        f"{rule} "
        f"An action that does not apply is refused, naming the ones that do.{closing}",
        Access.WRITE,
        {
            "projectId": project_id(),
            "number": prop("integer"),
            "ref": prop("string", "proposal:<id> for a proposal"),
            "action": prop("string", "Action, see above"),
            "version": version(),
            "reason": prop("string", "Why; required to block, approve or reject"),
            "target": prop("integer", "Other item for relate, unrelate"),
            "relation": prop("string", "Relation type for relate, unrelate, e.g. blocks, duplicates"),
        },
        required=["action"],
    )


def _item_delete(kinds: Sequence[Kind]) -> ToolData:
    deletable = [k for k in kinds if k.numbered and k.fields]
    return make_tool(
        "item_delete",
        f"Request permanent deletion of a {kinds_phrase(deletable)}, or of one version, and lock its content "
        "at once, e.g. a secret stored by mistake. A person decides in the web app.",
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
        _item_store(kinds),
        _item_action(kinds, design),
        _item_delete(kinds),
    ]


def eight_tool_surface(name: str, title: str, purpose: str, design: Design) -> SurfaceDefinition:
    return study(name, title, purpose, partial(_build, design), partial(eight_stub, design))


def _build(design: Design, kinds: Sequence[Kind]) -> list[ToolData]:
    return build_eight(kinds, design)
