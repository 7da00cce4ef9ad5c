"""Handlers of the consistent series: the 27 old tools with the inconsistencies fixed, plus task_block.

Items are addressed by number, or by ref where they have none; one version guards every content change
and every task, archive and proposal action; decisions are named values; every list pages with limit
and cursor. What a call does to the project is decided by `surfaces.conderis.project`, as for every
other surface.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stubs.kit import HandlerStub, Refusal, choose, page
from surfaces.conderis._consistent_rules import (
    ARCHIVE_ACTIONS,
    BLOCK_ACTIONS,
    DECISIONS,
    MEMORY_FIELDS,
    PAGE_FIELDS,
    SEARCH_KINDS,
    STATUS_TOOLS,
    TASK_CREATE_FIELDS,
    TASK_FIELDS,
)
from surfaces.conderis._stub import (
    GUIDE,
    Args,
    conderis_stub,
    new_project_id,
    no_public_visibility,
    personal_memory_fields,
    recall,
)
from surfaces.conderis.fixture import load_project
from surfaces.conderis.kinds import PROJECT_FIELDS, RELATIONS, SETTABLE_STATUSES
from surfaces.conderis.project import DeletionRequest, Item, Project, Proposal

__all__ = [
    "ARCHIVE_ACTIONS",
    "BLOCK_ACTIONS",
    "DECISIONS",
    "SEARCH_KINDS",
    "TASK_CREATE_FIELDS",
    "consistent_stub",
]


def consistent_stub(fixture: Path | None = None) -> HandlerStub[Project]:
    project = load_project(fixture)
    return conderis_stub(project, _Handlers(project))


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


class _Handlers:
    def __init__(self, project: Project) -> None:
        self.p = project

    def _project(self, args: Args) -> None:
        self.p.check_project(args.str("projectId"))

    def _numbered(self, args: Args, kinds: Sequence[str] = ()) -> Item:
        self._project(args)
        return self.p.item(args.need("number", args.int("number")), kinds)

    def _target(self, args: Args) -> Item | Proposal:
        """By number (in a project) or by ref; a personal memory's ref needs no projectId."""
        if args.one_of(["number", "ref"]) == "number":
            return self._numbered(args)
        ref: str = args.need("ref", args.str("ref"))
        personal = ref.strip().startswith("memory:")
        if args.has("projectId") or not personal:
            self.p.check_project(args.str("projectId"), required=not personal)
        return self.p.resolve_ref(ref)

    def _item_target(self, args: Args, what: str) -> Item:
        target = self._target(args)
        if isinstance(target, Proposal):
            forms = ["number", "memory:<id>", "instructions"]
            raise Refusal(f"{target.ref} is a proposal; {what} applies to items: {', '.join(forms)}", forms)
        return target

    def _paged(self, args: Args, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return page(entries, args.int("limit"), args.str("cursor"))

    def _proposal(self, args: Args) -> Proposal:
        self._project(args)
        ref: str = args.need("ref", args.str("ref"))
        known = [p.ref for p in self.p.proposal_list()]
        return self.p.proposal(_ref_id(ref.strip(), "proposal", known))

    # -- reading ---------------------------------------------------------------------------------

    def memory_recall(self, args: Args) -> Any:
        return recall(self.p, args)

    def system_memory(self, args: Args) -> Any:
        return GUIDE

    def project_list(self, args: Args) -> Any:
        return self._paged(args, self.p.project_entries())

    def task_assignee_list(self, args: Args) -> Any:
        self._project(args)
        entries = [
            {"assignee": value, "name": person.name, "agent": person.agent}
            for person, value in zip(self.p.people, self.p.assignee_names(), strict=True)
        ]
        return self._paged(args, entries)

    def item_get(self, args: Args) -> Any:
        target = self._target(args)
        if isinstance(target, Proposal):
            if args.has("offset") or args.has("take"):
                raise Refusal(f"{target.ref} is read whole; offset and take read an item's text", ["projectId", "ref"])
            return self.p.proposal_view(target)
        return self.p.view(target, args.int("offset"), args.int("take"))

    def memory_get(self, args: Args) -> Any:
        memory = self._memory(args)
        version = args.int("version")
        if version is not None:
            return self.p.at_version(memory, version)
        return self.p.view(memory)

    def _memory(self, args: Args) -> Item:
        if args.one_of(["number", "ref"]) == "number":
            return self._numbered(args, ["memory"])
        if args.has("projectId"):
            self.p.check_project(args.str("projectId"))
        ref: str = args.need("ref", args.str("ref"))
        known = [f"memory:{i}" for i in self.p.personal]
        return self.p.personal_memory(_ref_id(ref.strip(), "memory", known))

    def relation_list(self, args: Args) -> Any:
        item = self._numbered(args)
        relation = args.str("relation")
        if relation is not None and relation not in RELATIONS:
            raise Refusal(f"relation {relation!r} is unknown; relations: {', '.join(RELATIONS)}", RELATIONS)
        assert item.number is not None
        entries = [r for r in self.p.relations_of(item.number) if relation is None or r["relation"] == relation]
        return self._paged(args, entries)

    def item_history(self, args: Args) -> Any:
        item = self._item_target(args, "item_history")
        listed = self._paged(args, self.p.history(item))
        return {"ref": item.ref, "version": item.version, **listed}

    def task_list(self, args: Args) -> Any:
        self._project(args)
        filters = args.picked(["priority", "assignee", "parent"], nulls=True)
        # The task fields' own checks name the allowed priorities, assignees and task numbers.
        self.p.check_fields("task", {k: v for k, v in filters.items() if v is not None})
        tasks = self.p.tasks(
            include_closed=args.bool("includeClosed"),
            priority=args.str("priority"),
            assignee=args.str("assignee"),
            parent=args.int("parent"),
        )
        return self._paged(args, [self.p.entry(t) for t in tasks])

    def item_search(self, args: Args) -> Any:
        self._project(args)
        query: str = args.need("query", args.str("query"))
        kind = args.str("kind")
        if kind is not None and kind not in SEARCH_KINDS:
            raise Refusal(f"kind {kind!r} is not searched; kinds: {', '.join(SEARCH_KINDS)}", SEARCH_KINDS)
        found = self.p.search(
            query,
            [kind] if kind else SEARCH_KINDS,
            include_archived=args.bool("includeArchived"),
            include_closed=args.bool("includeClosed"),
        )
        return self._paged(args, [self.p.entry(i) for i in found])

    def proposal_queue(self, args: Args) -> Any:
        self._project(args)
        return self._paged(args, [self.p.proposal_entry(x) for x in self.p.proposal_list()])

    # -- projects --------------------------------------------------------------------------------

    def project_create(self, args: Args) -> Any:
        name: str = args.need("name", args.str("name"))
        new_id = new_project_id(name)
        if new_id in [x["id"] for x in self.p.project_entries()]:
            raise Refusal(
                f"a project {new_id!r} exists; change it with project_update or pick another name",
                ["project_update", "another name"],
            )
        values = args.picked(PROJECT_FIELDS, nulls=True)
        self.p.other_projects.append({"id": new_id, **values, "public": False})
        return {"outcome": "published", "projectId": new_id}

    def project_update(self, args: Args) -> Any:
        self._project(args)
        values = args.picked(PROJECT_FIELDS, nulls=True)
        if not values:
            raise Refusal(f"nothing to change; fields: {', '.join(PROJECT_FIELDS)}", PROJECT_FIELDS)
        if "name" in values and values["name"] is None:
            raise Refusal("a project needs a name; null clears description or remote only", ["description", "remote"])
        return self.p.store_project(values)

    # -- storing ---------------------------------------------------------------------------------

    def memory_store(self, args: Args) -> Any:
        fields = args.picked(MEMORY_FIELDS, nulls=True)
        no_public_visibility(fields)
        propose, reason = args.bool("propose"), args.str("reason")
        if args.has("number") and args.has("ref"):
            raise Refusal("give number (a project memory) or ref (a personal one), not both", ["number", "ref"])
        if not args.has("number") and not args.has("ref"):
            return self._create_memory(args, fields)
        if args.has("number") and not args.has("projectId"):
            raise Refusal(
                "number addresses a project memory and needs projectId; a personal memory is addressed by ref "
                "memory:<id>",
                ["projectId", "ref"],
            )
        memory = self._memory(args)
        self._need_changes(fields, MEMORY_FIELDS)
        return self.p.change(memory, fields, version=args.int("version"), propose=propose, reason=reason)

    def _create_memory(self, args: Args, fields: dict[str, Any]) -> Any:
        if args.has("projectId"):
            self._project(args)
            return self.p.create("memory", fields, propose=args.bool("propose"), reason=args.str("reason"))
        return self.p.create("memory", personal_memory_fields(fields), personal=True)

    def page_store(self, args: Args) -> Any:
        self._project(args)
        fields = args.picked(PAGE_FIELDS, nulls=True)
        propose, reason, version = args.bool("propose"), args.str("reason"), args.int("version")
        if args.has("number") and args.has("ref"):
            raise Refusal("give number (a page) or ref instructions, not both", ["number", "ref"])
        if args.has("ref"):
            ref: str = args.need("ref", args.str("ref"))
            if ref.strip() != "instructions":
                raise Refusal(f"ref {ref!r} is not a page ref; page_store takes ref instructions", ["instructions"])
            self._need_changes(fields, ["content"])
            return self.p.change(self.p.instructions, fields, version=version, propose=propose, reason=reason)
        if not args.has("number"):
            return self.p.create("page", fields, propose=propose, reason=reason)
        page = self.p.item(args.need("number", args.int("number")), ["page"])
        self._need_changes(fields, PAGE_FIELDS)
        return self.p.change(page, fields, version=version, propose=propose, reason=reason)

    @staticmethod
    def _need_changes(fields: dict[str, Any], names: Sequence[str]) -> None:
        if not fields:
            raise Refusal(f"nothing to change; fields: {', '.join(names)}", names)

    # -- tasks -----------------------------------------------------------------------------------

    def task_create(self, args: Args) -> Any:
        self._project(args)
        return self.p.create("task", args.picked(TASK_CREATE_FIELDS, nulls=True))

    def task_patch(self, args: Args) -> Any:
        task = self._numbered(args, ["task"])
        fields = args.picked(TASK_FIELDS, nulls=True)
        self._need_changes(fields, TASK_FIELDS)
        if "status" in fields:
            self._check_status(task, fields["status"])
        return self.p.change(task, fields, version=args.int("version"))

    def _check_status(self, task: Item, status: Any) -> None:
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

    def task_claim(self, args: Args) -> Any:
        return self._task_action(args, "claim")

    def task_complete(self, args: Args) -> Any:
        return self._task_action(args, "complete")

    def task_block(self, args: Args) -> Any:
        action = _choice(args, "action", BLOCK_ACTIONS)
        if action == "block" and not args.has("reason"):
            raise Refusal("block needs a reason: what the task waits for", ["reason"])
        return self._task_action(args, action)

    def _task_action(self, args: Args, action: str) -> Any:
        task = self._numbered(args, ["task"])
        return self.p.task_action(task, action, version=args.int("version"), reason=args.str("reason"))

    # -- proposals, archive, relations -----------------------------------------------------------

    def proposal_review(self, args: Args) -> Any:
        decision = _choice(args, "decision", DECISIONS)
        proposal = self._proposal(args)
        return self.p.decide(
            proposal, decision, reason=args.str("reason"), version=args.int("version"), check_version=True
        )

    def proposal_withdraw(self, args: Args) -> Any:
        proposal = self._proposal(args)
        return self.p.decide(proposal, "withdraw", reason=None, version=args.int("version"), check_version=True)

    def item_archive(self, args: Args) -> Any:
        action = _choice(args, "action", ARCHIVE_ACTIONS)
        item = self._numbered(args)
        return self.p.archive(item, action == "restore", version=args.int("version"), check_version=True)

    def relation_create(self, args: Args) -> Any:
        return self._relate(args, remove=False)

    def relation_remove(self, args: Args) -> Any:
        return self._relate(args, remove=True)

    def _relate(self, args: Args, remove: bool) -> Any:
        self._project(args)
        return self.p.relate(
            args.need("number", args.int("number")),
            args.need("target", args.int("target")),
            args.need("relation", args.str("relation")),
            remove=remove,
        )

    # -- deletion --------------------------------------------------------------------------------

    def item_delete(self, args: Args) -> Any:
        target = self._target(args)
        if isinstance(target, Proposal):
            raise Refusal(
                "a proposal is withdrawn or rejected, not deleted; tools: proposal_withdraw, proposal_review",
                ["proposal_withdraw", "proposal_review"],
            )
        return self.p.request_deletion(target, version=args.int("version"), reason=args.str("reason"))

    def privacy_deletion_queue(self, args: Args) -> Any:
        self._project(args)
        pending = [_deletion_entry(d) for d in self.p.deletions.values() if d.state == "pending"]
        return self._paged(args, pending)

    def privacy_deletion_review(self, args: Args) -> Any:
        decision = _choice(args, "decision", DECISIONS)
        self._project(args)
        ref: str = args.need("ref", args.str("ref"))
        known = [f"deletion:{i}" for i in self.p.deletions]
        request_id = _ref_id(ref.strip(), "deletion", known)
        if request_id not in self.p.deletions:
            refs = known or ["(no requests; item_delete files one)"]
            raise Refusal(f"there is no deletion request {ref!r}; requests: {', '.join(refs)}", refs)
        return self.p.decide_deletion(self.p.deletions[request_id], decision == "approve", args.str("reason"))
