"""The outcome checks of the Conderis scenarios that read Conderis state: a task blocked with its reason as
its block reason (not in its description), the active tasks of the answer, a proposal's state. The state is
read back as the project's records (`ProjectDump`). The harness finds them through `STUDY.checks`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolsurface.harness.scenario import Check, CheckInput, answer_lists_items
from toolsurface.surfaces.conderis.kinds import ACTIVE, STATUSES
from toolsurface.surfaces.conderis.project import ProjectDump

__all__ = ["CHECKS", "answer_lists_active_tasks", "proposal_state", "task_blocked"]

CLOSED = tuple(s for s in STATUSES if s not in ACTIVE)


def task_blocked(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    number = int(params["number"])
    task = ProjectDump.from_json(given.state or {}).item(number)
    if task is None:
        return False, f"#{number} is missing"
    reason = str(params["reason"]).lower()
    status = task.fields.get("status")
    block_reason = str(task.block_reason or "")
    in_content = reason in str(task.fields.get("content") or "").lower()
    if status != "blocked":
        return False, f"#{number} is {status}, not blocked"
    if reason not in block_reason.lower():
        where = " (the reason was written into its description)" if in_content else ""
        return False, f"#{number} is blocked without the reason as its block reason{where}"
    if in_content:
        return False, f"#{number} is blocked with the reason, and the reason was also written into its description"
    return True, f"#{number} blocked: {block_reason}"


def answer_lists_active_tasks(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    return answer_lists_items({"kind": "task", "values": ACTIVE, "excludes": CLOSED}, given)


def proposal_state(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    found = ProjectDump.from_json(given.state or {}).proposal(params["id"])
    if found is None:
        return False, f"proposal:{params['id']} is missing"
    if found.state != params["state"]:
        return False, f"proposal:{params['id']} is {found.state}, not {params['state']}"
    return True, f"proposal:{params['id']} {params['state']}"


CHECKS: dict[str, Check] = {
    "task_blocked": task_blocked,
    "answer_lists_active_tasks": answer_lists_active_tasks,
    "proposal_state": proposal_state,
}
