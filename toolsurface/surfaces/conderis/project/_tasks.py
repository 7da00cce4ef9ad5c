"""Tasks: the list of tasks by status and the task actions (claim, complete, block, unblock)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolsurface.stubs.kit import names
from toolsurface.stubs.refusal import Refusal
from toolsurface.surfaces.conderis.kinds import ACTIVE, STATUSES, TASK_ACTION_NAMES
from toolsurface.surfaces.conderis.project._items import Items
from toolsurface.surfaces.conderis.project._records import Item

__all__ = ["Tasks"]


class Tasks(Items):
    """Listing tasks and acting on them."""

    def tasks(
        self,
        *,
        statuses: Sequence[str] | None = None,
        include_closed: bool = False,
        priority: str | None = None,
        assignee: str | None = None,
        parent: int | None = None,
        query: str | None = None,
    ) -> list[Item]:
        allowed = statuses if statuses is not None else (STATUSES if include_closed else ACTIVE)
        found = []
        for item in self._sorted("task"):
            f = item.fields
            if f["status"] not in allowed:
                continue
            if priority is not None and f["priority"] != priority:
                continue
            if assignee is not None and f["assignee"] != assignee:
                continue
            if parent is not None and f["parent"] != parent:
                continue
            if query and not self._matches(item, query):
                continue
            found.append(item)
        return found

    def task_action(
        self, item: Item, action: str, *, version: int | None, reason: str | None, check_version: bool = True
    ) -> dict[str, Any]:
        status = item.fields["status"]
        if check_version:
            self.check_version(item, version, f"{action}")
        if action == "claim":
            if status not in ("open", "in_progress"):
                raise Refusal(f"{item.ref} is {status}; only open tasks can be claimed; claimable: open", ["open"])
            assignee = item.fields["assignee"]
            if assignee not in (None, self.caller.ref):
                free = [t.number for t in self.tasks(statuses=("open",)) if t.fields["assignee"] is None]
                raise Refusal(
                    f"{item.ref} is assigned to {assignee}; unassigned open tasks to claim: {names(free)}",
                    free or ["open"],
                )
            item.fields.update(status="in_progress", assignee=self.caller.ref)
            changed = ["assignee", "status"]
        elif action == "complete":
            if status in ("completed", "canceled"):
                raise Refusal(f"{item.ref} is already {status}; active statuses: {', '.join(ACTIVE)}", ACTIVE)
            item.fields["status"] = "completed"
            changed = ["status"]
        elif action == "block":
            if not reason:
                raise Refusal("block needs a reason: what the task waits for", ["reason"])
            if status not in ("open", "in_progress"):
                raise Refusal(
                    f"{item.ref} is {status}; open or in_progress tasks can be blocked", ["open", "in_progress"]
                )
            item.fields["status"] = "blocked"
            item.block_reason = reason
            changed = ["status", "blockReason"]
        elif action == "unblock":
            if status != "blocked":
                raise Refusal(f"{item.ref} is {status}, not blocked; unblock applies to blocked tasks", ["blocked"])
            item.fields["status"] = "open"
            item.block_reason = None
            changed = ["status", "blockReason"]
        else:
            actions = TASK_ACTION_NAMES
            raise Refusal(f"{action!r} is not a task action; task actions: {', '.join(actions)}", actions)
        self._record(item, changed)
        return {"outcome": "published", "ref": item.ref, "status": item.fields["status"], "version": item.version}
