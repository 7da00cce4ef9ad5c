"""Handlers of the 27 tools Conderis served before v2, with the old surface's inconsistencies kept.

Revision ids. The domain keeps one version per item; the old surface read and changed memories, page
text and the instructions by revision instead. A revision id is derived from the item and one of its
versions, so every version is exactly one revision and no extra state is needed:

- project memories and pages: ``rev-<number>-<version>``, e.g. ``rev-4-2`` for #4 at version 2;
- personal memories: ``rev-<id>-<version>``, e.g. ``rev-m-7f3a-1``;
- the instructions: ``rev-instructions-<version>``.

memory_get and item_get return the current one as ``revisionId``; item_history lists them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stubs.kit import HandlerStub, Refusal, check_limit, choose
from surfaces.conderis._before_v2_rules import (
    DEFAULT_DEPTH,
    ITEM_GET_REFS,
    MAX_DEPTH,
    MEMORY_FIELDS,
    PAGE_MOVE,
    PAGE_TEXT,
    QUEUE_LIMIT,
    REVISIONED,
    SCOPES,
    SEARCH_KINDS,
    SEARCH_LIMIT,
    TASK_CREATE_FIELDS,
    TASK_LIST_LIMIT,
    TASK_PATCH_FIELDS,
    VERIFIED_HOSTS,
)
from surfaces.conderis._stub import Args, conderis_stub, recall
from surfaces.conderis.fixture import load_project
from surfaces.conderis.kinds import PRIORITIES, PROJECT_FIELDS, RELATIONS
from surfaces.conderis.project import HistoryEntry, Item, Project, Proposal

__all__ = [
    "DEFAULT_DEPTH",
    "ITEM_GET_REFS",
    "MAX_DEPTH",
    "QUEUE_LIMIT",
    "SCOPES",
    "SEARCH_KINDS",
    "SEARCH_LIMIT",
    "TASK_LIST_LIMIT",
    "TASK_PATCH_FIELDS",
    "before_v2_stub",
    "revision_id",
]


GUIDE = (
    "Conderis system guide (stub of the surface before v2). A project holds memories, pages, tasks and "
    "proposals; project items have a number. Start with memory_recall. Read with item_get (by number; ref "
    "instructions or proposal:<id>), memory_get (a memory and its revisionId; personal memories by id), task_list, "
    "item_search and proposal_queue. Memories and page text are changed with the baseRevisionId you read; tasks, "
    "proposals and page moves with their version. memory_store keeps the fields you omit; task_patch takes a "
    "patch object. Without moderation rights, or with propose, a change becomes a proposal that a moderator "
    "decides with proposal_review. Tasks are closed with task_complete or status canceled, never archived."
)


def before_v2_stub(fixture: Path | None = None) -> HandlerStub[Project]:
    project = load_project(fixture)
    return conderis_stub(project, _Handlers(project))


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


def _hide_block_reason(data: dict[str, Any]) -> dict[str, Any]:
    """The old surface had no block reason; agents wrote it into the content."""
    data.pop("blockReason", None)
    return data


class _Handlers:
    def __init__(self, project: Project) -> None:
        self.p = project
        # What the domain does not keep: explanations per revision id, task_complete comments per version.
        self.explanations: dict[str, str] = {}
        self.comments: dict[tuple[int, int], str] = {}

    def _project(self, args: Args) -> None:
        self.p.check_project(args.str("projectId"))

    def _numbered(self, args: Args, name: str, kinds: Sequence[str] = ()) -> Item:
        self._project(args)
        return self.p.item(args.need(name, args.int(name)), kinds)

    def _personal(self, memory_id: str) -> Item:
        bare = memory_id.removeprefix("memory:")
        if bare not in self.p.personal:
            ids = list(self.p.personal)
            raise Refusal(
                f"there is no personal memory with id {memory_id!r}; your ids: {', '.join(ids)}", [*ids, "id"]
            )
        return self.p.personal_memory(bare)

    def _memory(self, args: Args, what: str) -> Item:
        """A project memory by projectId and number, or a personal one by id."""
        if args.one_of(["number", "id"]) == "id":
            if args.has("projectId"):
                self._project(args)
            return self._personal(args.need("id", args.str("id")))
        if not args.has("projectId"):
            ids = ", ".join(self.p.personal)
            raise Refusal(
                f"{what} a project memory by number needs projectId ({self.p.info.id}); "
                f"personal memories are addressed by id ({ids}) instead",
                ["projectId", "id"],
            )
        return self._numbered(args, "number", ["memory"])

    def _proposal(self, args: Args) -> Proposal:
        self._project(args)
        proposal_id = args.need("proposalId", args.str("proposalId")).removeprefix("proposal:")
        if proposal_id not in self.p.proposals:
            ids = list(self.p.proposals)
            raise Refusal(
                f"there is no proposal {proposal_id!r}; proposal ids: {', '.join(ids)} (pending ones: proposal_queue)",
                [*ids, "proposal_queue"],
            )
        return self.p.proposal(proposal_id)

    def _check_revision(self, item: Item, base: str | None, what: str) -> None:
        if base != revision_id(item):
            raise _revision_refusal(item, base, what)

    def _check_move_version(self, item: Item, version: int | None) -> None:
        if version is None:
            raise Refusal(
                f"moving {item.ref} (parent or position) needs its version, not baseRevisionId; "
                f"current version: {item.version}",
                ["version", item.version],
            )
        self.p.check_version(item, version, "a move")

    # -- views -----------------------------------------------------------------------------------

    def _view(self, item: Item) -> dict[str, Any]:
        data = _hide_block_reason(self.p.view(item))
        if item.kind in REVISIONED:
            data["revisionId"] = revision_id(item)
        return data

    def _entry(self, item: Item) -> dict[str, Any]:
        return _hide_block_reason(self.p.entry(item))

    def _relations(self, number: int, depth: int) -> list[dict[str, Any]]:
        entries = self.p.relations_of(number)
        if depth > 1:
            for entry in entries:
                entry["relations"] = (
                    self._relations(entry["number"], depth - 1) if entry["number"] in self.p.items else []
                )
        return entries

    def _memory_data(self, item: Item, revision: str | None) -> dict[str, Any]:
        current = revision_id(item)
        fields = self.p.view(item)["fields"]
        if revision is not None and revision != current:
            fields = self._old_revision(item, revision)
        where = (
            {"number": item.number, "scope": "project"}
            if item.number is not None
            else {"id": item.id, "scope": "personal"}
        )
        data: dict[str, Any] = {"ref": item.ref, **where, **fields, "revisionId": revision or current}
        if revision is not None and revision != current:
            data["currentRevisionId"] = current
        if item.archived:
            data["archived"] = True
        return data

    def _old_revision(self, item: Item, revision: str) -> dict[str, Any]:
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
        fields: dict[str, Any] = self.p.at_version(item, revisions[revision])["fields"]
        return fields

    # -- read: project ---------------------------------------------------------------------------

    def memory_recall(self, args: Args) -> Any:
        # The fixture project is no fork, so includeUpstream adds nothing.
        return recall(self.p, args)

    def system_memory(self, args: Args) -> Any:
        return GUIDE

    def project_list(self, args: Args) -> Any:
        view = self.p.project_view()
        mine = {k: view[k] for k in ("id", "name", "description", "remote", "remoteVerified", "visibility", "upstream")}
        return {"projects": [{**mine, "permissions": view["permissions"]}, *self.p.other_projects]}

    def task_assignee_list(self, args: Args) -> Any:
        self._project(args)
        # The domain has no e-mail addresses: people are assigned by name, agents by reference.
        names = self.p.assignee_names()
        people = [{"assignee": n, "name": p.name, "agent": p.agent} for n, p in zip(names, self.p.people, strict=True)]
        return {"assignees": people}

    # -- write: project --------------------------------------------------------------------------

    def project_create(self, args: Args) -> Any:
        name = args.need("name", args.str("name")).strip()
        new_id = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        if not new_id:
            raise Refusal("name needs at least one letter or digit, e.g. acme-api", ["name"])
        taken = [str(x["id"]) for x in self.p.project_entries()]
        if new_id in taken:
            raise Refusal(f"a project {new_id!r} exists; pick another name (taken: {', '.join(taken)})", ["name"])
        remote = args.str("remote")
        self.p.other_projects.append(
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

    def project_update(self, args: Args) -> Any:
        self._project(args)
        if not self.p.caller.may_moderate:
            raise Refusal("project_update requires moderation rights in the project; ask a moderator", ["project_list"])
        values = args.picked(PROJECT_FIELDS)
        if not values:
            raise Refusal("nothing to update; give name, description or remote", PROJECT_FIELDS)
        if "name" in values and not str(values["name"]).strip():
            raise Refusal("a project needs a name; give a non-empty name", ["name"])
        return self.p.store_project(values)

    # -- read: items -----------------------------------------------------------------------------

    def item_get(self, args: Args) -> Any:
        self._project(args)
        depth = args.int("depth")
        depth = DEFAULT_DEPTH if depth is None else depth
        if not 1 <= depth <= MAX_DEPTH:
            raise Refusal(f"depth must be between 1 and {MAX_DEPTH}", [1, MAX_DEPTH])
        if args.one_of(["number", "ref"]) == "ref":
            return self._get_ref(args.need("ref", args.str("ref")))
        item = self._numbered(args, "number")
        data = self._view(item)
        data["relations"] = self._relations(item.number or 0, depth)
        return data

    def _get_ref(self, ref: str) -> Any:
        text = ref.strip()
        if text == "instructions":
            return self._view(self.p.instructions)
        if text.startswith("proposal:"):
            proposal = self.p.proposals.get(text.removeprefix("proposal:"))
            if proposal is not None:
                return {"proposalId": proposal.id, **self.p.proposal_view(proposal)}
            refs = [p.ref for p in self.p.proposals.values()]
            raise Refusal(f"there is no {text}; proposals: {', '.join(refs)}", [*refs, "proposal_queue"])
        raise Refusal(
            f"ref {ref!r} is not a ref of item_get; refs: {', '.join(ITEM_GET_REFS)}; project items are read "
            "by number, personal memories with memory_get",
            [*ITEM_GET_REFS, "number", "memory_get"],
        )

    def memory_get(self, args: Args) -> Any:
        item = self._memory(args, "reading")
        return self._memory_data(item, args.str("revisionId"))

    def relation_list(self, args: Args) -> Any:
        item = self._numbered(args, "number")
        kind = _choice(args, "kind", RELATIONS)
        assert item.number is not None
        entries = [
            {"number": r["number"], "title": r["title"], "kind": r["relation"], "direction": r["direction"]}
            for r in self.p.relations_of(item.number)
            if kind is None or r["relation"] == kind
        ]
        return {"number": item.number, "relations": entries}

    def item_history(self, args: Args) -> Any:
        item = self._numbered(args, "number")
        if item.kind == "task":
            return {"number": item.number, "version": item.version, "changes": self._task_changes(item)}
        revisions = [self._revision_entry(revision_id(item, h.version), h) for h in item.history]
        return {"number": item.number, "revisionId": revision_id(item), "revisions": revisions}

    def _revision_entry(self, rid: str, h: HistoryEntry) -> dict[str, Any]:
        return {"revisionId": rid, "author": h.author, "time": h.time, "explanation": self.explanations.get(rid)}

    def _task_changes(self, item: Item) -> list[dict[str, Any]]:
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
            comment = self.comments.get((item.number or 0, h.version))
            if comment:
                entry["comment"] = comment
            out.append(entry)
            previous = h.fields
        return out

    # -- read: lists -----------------------------------------------------------------------------

    def task_list(self, args: Args) -> Any:
        self._project(args)
        priority = _choice(args, "priority", PRIORITIES)
        assignee = _choice(args, "assignee", self.p.assignee_names())
        parent = args.int("parent")
        if parent is not None:
            self.p.item(parent, ["task"])
        limit = check_limit(args.int("limit"), TASK_LIST_LIMIT)
        found = self.p.tasks(
            include_closed=args.bool("includeClosed"), priority=priority, assignee=assignee, parent=parent
        )
        return {"tasks": [self._entry(i) for i in found[:limit]], "total": len(found)}

    def item_search(self, args: Args) -> Any:
        self._project(args)
        query = args.need("query", args.str("query"))
        if not any(c.isalnum() for c in query):
            raise Refusal("query needs at least one word to search for", ["query"])
        kind = _choice(args, "kind", SEARCH_KINDS)
        offset = args.int("offset") or 0
        if offset < 0:
            raise Refusal("offset must be 0 or more", [0])
        limit = check_limit(args.int("limit"), SEARCH_LIMIT)
        archived = args.bool("includeArchived")
        found = self.p.search(
            query, [kind] if kind else SEARCH_KINDS, include_archived=archived, include_closed=archived
        )
        entries = [self._entry(i) for i in found[offset : offset + limit]]
        return {"results": entries, "total": len(found), "offset": offset, "limit": limit}

    def proposal_queue(self, args: Args) -> Any:
        self._project(args)
        pending = self.p.proposal_list(state="pending")
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

    # -- write: memories and pages ---------------------------------------------------------------

    def _scope(self, args: Args) -> str | None:
        scope = _choice(args, "scope", SCOPES)
        if scope == "organization" or args.has("organizationId"):
            raise Refusal(
                "this project belongs to no organization, so there are no organization memories; scope: project, personal",
                ["project", "personal", "scope"],
            )
        return scope

    def _memory_fields(self, args: Args) -> dict[str, Any]:
        fields = args.picked(MEMORY_FIELDS)
        if args.bool("clearExpiry"):
            if "expiresAt" in fields:
                raise Refusal("give expiresAt or clearExpiry, not both", ["expiresAt", "clearExpiry"])
            fields["expiresAt"] = None
        return fields

    def memory_store(self, args: Args) -> Any:
        scope = self._scope(args)
        fields = self._memory_fields(args)
        if args.has("number") or args.has("id"):
            return self._change_memory(args, scope, fields)
        propose, explanation = args.bool("propose"), args.str("explanation")
        if scope == "personal":
            if fields.get("visibility", "private") != "private":
                raise Refusal("a personal memory is visible to you only; visibility: private", ["private"])
            done = self.p.create("memory", {**fields, "visibility": "private"}, personal=True)
        else:
            if not args.has("projectId"):
                raise Refusal(
                    "a project memory needs projectId; for a memory of your own use scope personal",
                    ["projectId", "personal"],
                )
            self._project(args)
            done = self.p.create("memory", fields, propose=propose, reason=explanation)
        return self._stored(done, explanation)

    def _change_memory(self, args: Args, scope: str | None, fields: dict[str, Any]) -> Any:
        item = self._memory(args, "changing")
        own = "project" if item.number is not None else "personal"
        if scope is not None and scope != own:
            raise Refusal(f"{item.ref} is a {own} memory; its scope stays {own}", [own])
        self._check_revision(item, args.str("baseRevisionId"), f"changing {item.ref}")
        if not fields:
            raise Refusal(
                f"nothing to change in {item.ref}; give {', '.join(MEMORY_FIELDS)} or clearExpiry", MEMORY_FIELDS
            )
        explanation = args.str("explanation")
        done = self.p.change(item, fields, version=item.version, propose=args.bool("propose"), reason=explanation)
        return self._stored(done, explanation)

    def _stored(self, done: dict[str, Any], explanation: str | None) -> dict[str, Any]:
        """The domain's answer in the old words: revisionId when published, proposalId when proposed."""
        if done["outcome"] == "proposed":
            return {**done, "proposalId": str(done["ref"]).removeprefix("proposal:")}
        target = self.p.resolve_ref(str(done["ref"]))
        assert isinstance(target, Item)
        rid = revision_id(target)
        if explanation:
            self.explanations[rid] = explanation
        extra = {"id": target.id} if target.number is None and target.id else {}
        return {**done, **extra, "revisionId": rid}

    def page_store(self, args: Args) -> Any:
        self._project(args)
        fields = args.picked((*PAGE_TEXT, *PAGE_MOVE))
        propose, explanation = args.bool("propose"), args.str("explanation")
        if not args.has("ref") and not args.has("number"):
            return self._stored(self.p.create("page", fields, propose=propose, reason=explanation), explanation)
        if args.one_of(["number", "ref"]) == "ref":
            return self._store_instructions(args, fields)
        item = self._numbered(args, "number", ["page"])
        if not fields:
            raise Refusal(
                f"nothing to change in {item.ref}; give {', '.join((*PAGE_TEXT, *PAGE_MOVE))}", [*PAGE_TEXT, *PAGE_MOVE]
            )
        if any(k in fields for k in PAGE_TEXT):
            self._check_revision(item, args.str("baseRevisionId"), f"changing the text of {item.ref}")
        if any(k in fields for k in PAGE_MOVE):
            self._check_move_version(item, args.int("version"))
        done = self.p.change(item, fields, version=item.version, propose=propose, reason=explanation)
        return self._stored(done, explanation)

    def _store_instructions(self, args: Args, fields: dict[str, Any]) -> Any:
        ref = args.need("ref", args.str("ref"))
        if ref.strip() != "instructions":
            raise Refusal(
                f"ref {ref!r} is not a ref of page_store; ref: instructions; pages by number",
                ["instructions", "number"],
            )
        if set(fields) != {"content"}:
            raise Refusal(
                "the instructions have content only; give content (no title, parent or position)", ["content"]
            )
        item = self.p.instructions
        self._check_revision(item, args.str("baseRevisionId"), "changing the instructions")
        explanation = args.str("explanation")
        done = self.p.change(item, fields, version=item.version, propose=args.bool("propose"), reason=explanation)
        return self._stored(done, explanation)

    # -- write: tasks ----------------------------------------------------------------------------

    def task_create(self, args: Args) -> Any:
        self._project(args)
        return self.p.create("task", args.picked(TASK_CREATE_FIELDS))

    def task_patch(self, args: Args) -> Any:
        item = self._numbered(args, "taskNumber", ["task"])
        patch = args.obj("patch") or {}
        if not patch:
            raise Refusal(f"patch is empty; give fields to change: {', '.join(TASK_PATCH_FIELDS)}", TASK_PATCH_FIELDS)
        self.p.check_fields("task", patch, TASK_PATCH_FIELDS)
        # The old surface checked the version on every patch, a parent-only one too.
        self.p.check_version(item, args.int("version"), "task_patch")
        return self.p.change(item, patch, version=item.version)

    def task_claim(self, args: Args) -> Any:
        item = self._numbered(args, "taskNumber", ["task"])
        return self.p.task_action(item, "claim", version=args.int("version"), reason=None)

    def task_complete(self, args: Args) -> Any:
        item = self._numbered(args, "taskNumber", ["task"])
        done = self.p.task_action(item, "complete", version=args.int("version"), reason=None)
        comment = args.str("comment")
        if comment:
            self.comments[(item.number or 0, item.version)] = comment
            done["comment"] = comment
        return done

    # -- write: proposals, archive, relations ----------------------------------------------------

    def proposal_review(self, args: Args) -> Any:
        proposal = self._proposal(args)
        action = "approve" if args.bool("approve") else "reject"
        done = self.p.decide(
            proposal, action, reason=args.str("reason"), version=args.int("version"), check_version=True
        )
        if action == "approve":
            target = self.p.resolve_ref(proposal.target)
            if isinstance(target, Item) and target.kind in REVISIONED and proposal.reason:
                self.explanations[revision_id(target)] = proposal.reason
        return {**done, "proposalId": proposal.id}

    def proposal_withdraw(self, args: Args) -> Any:
        proposal = self._proposal(args)
        done = self.p.decide(proposal, "withdraw", reason=None, version=args.int("version"), check_version=True)
        return {**done, "proposalId": proposal.id}

    def item_archive(self, args: Args) -> Any:
        item = self._numbered(args, "number")
        return self.p.archive(item, args.bool("restore"))

    def relation_create(self, args: Args) -> Any:
        return self._relate(args, remove=False)

    def relation_remove(self, args: Args) -> Any:
        return self._relate(args, remove=True)

    def _relate(self, args: Args, remove: bool) -> Any:
        self._project(args)
        kind = args.need("kind", _choice(args, "kind", RELATIONS))
        source = args.need("sourceNumber", args.int("sourceNumber"))
        target = args.need("targetNumber", args.int("targetNumber"))
        self._check_relation(source, target, kind, remove)
        done = self.p.relate(source, target, kind, remove=remove)
        return {
            "outcome": done["outcome"],
            "sourceNumber": source,
            "targetNumber": target,
            "kind": kind,
            "removed": remove,
        }

    def _check_relation(self, source: int, target: int, kind: str, remove: bool) -> None:
        """Refusals in the old words (sourceNumber, targetNumber, kind) before the domain's own."""
        self.p.item(source)
        self.p.item(target)
        if source == target:
            raise Refusal("an item cannot relate to itself; give another targetNumber", ["targetNumber"])
        present = [r for r in self.p.relations if r.source == source]
        if remove and not any((r.target, r.relation) == (target, kind) for r in present):
            listed = ", ".join(f"targetNumber {r.target} kind {r.relation}" for r in present) or "none"
            raise Refusal(
                f"#{source} has no {kind} relation to #{target}; its relations as source: {listed}",
                [*(str(r.target) for r in present), "relation_list"],
            )

    # -- deletion --------------------------------------------------------------------------------

    def item_delete(self, args: Args) -> Any:
        item = self._numbered(args, "number")
        reason = args.str("reason")
        if item.kind == "task":
            if args.has("baseRevisionId"):
                raise Refusal(f"{item.ref} is a task: tasks have no revisions; pass its version", ["version"])
            self.p.check_version(item, args.int("version"), "deleting a task")
            done = self.p.request_deletion(item, version=None, reason=reason)
        else:
            done = self._request_revision_deletion(item, args.str("baseRevisionId"), args.has("version"), reason)
        return {"outcome": done["outcome"], "requestId": done["request"], "number": item.number, "locked": True}

    def _request_revision_deletion(self, item: Item, base: str | None, version_given: bool, reason: str | None) -> Any:
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
        return self.p.request_deletion(item, version=version, reason=reason)

    def privacy_deletion_queue(self, args: Args) -> Any:
        self._project(args)
        pending = [d for d in self.p.deletions.values() if d.state == "pending"]
        return {
            "requests": [
                {
                    "requestId": d.id,
                    "item": d.target,
                    "revisionId": self._deleted_revision(d.target, d.version),
                    "requester": d.requester,
                    "reason": d.reason,
                    "time": d.time,
                }
                for d in pending
            ]
        }

    def _deleted_revision(self, target: str, version: int | None) -> str | None:
        if version is None:
            return None
        try:
            item = self.p.resolve_ref(target)
        except Refusal:  # deleted meanwhile by an earlier approved request
            return None
        return revision_id(item, version) if isinstance(item, Item) else None

    def privacy_deletion_review(self, args: Args) -> Any:
        self._project(args)
        request_id = args.need("requestId", args.str("requestId"))
        if request_id not in self.p.deletions:
            ids = list(self.p.deletions)
            raise Refusal(
                f"there is no deletion request {request_id!r}; requests: {', '.join(ids) or '(none)'}",
                [*ids, "privacy_deletion_queue"],
            )
        request = self.p.deletion(request_id)
        done = self.p.decide_deletion(request, args.bool("approve"), args.str("reason"))
        return {"outcome": done["outcome"], "requestId": request.id, "item": request.target}
