"""Deletion requests: filed by an agent with a reason, the content locked at once, decided by a person."""

from __future__ import annotations

from typing import Any

from toolsurface.stubs.kit import Refusal, names
from toolsurface.surfaces.conderis.project._records import DeletionRequest, Item
from toolsurface.surfaces.conderis.project._state import ProjectState

__all__ = ["Deletions"]


class Deletions(ProjectState):
    """Requesting and deciding deletions."""

    def deletion(self, request_id: str) -> DeletionRequest:
        found = self.deletions.get(request_id)
        if found is None:
            ids = list(self.deletions) or ["(no pending requests)"]
            raise Refusal(f"there is no deletion request {request_id!r}; requests: {names(ids)}", ids)
        return found

    def request_deletion(self, item: Item, *, version: int | None, reason: str | None) -> dict[str, Any]:
        if not reason:
            raise Refusal("a deletion request needs a reason, shown to the person who decides", ["reason"])
        if version is not None and version not in [h.version for h in item.history]:
            versions = [h.version for h in item.history]
            raise Refusal(f"{item.ref} has no version {version}; versions: {names(versions)}", versions)
        request_id = f"d-{len(self.deletions) + 1}"
        self.deletions[request_id] = DeletionRequest(
            request_id, item.ref, version, reason, self.caller.ref, self.clock.tick()
        )
        item.locked = True
        return {"outcome": "requested", "request": request_id, "ref": item.ref, "locked": True}

    def decide_deletion(self, request: DeletionRequest, approve: bool, reason: str | None) -> dict[str, Any]:
        if request.state != "pending":
            raise Refusal(
                f"deletion request {request.id} is {request.state}; only pending requests are decided", ["pending"]
            )
        if not self.caller.may_moderate:
            raise Refusal("deciding a deletion needs moderation rights", ["moderator"])
        target = self.resolve_ref(request.target)
        assert isinstance(target, Item)
        if approve:
            if request.version is None:
                if target.number is not None:
                    del self.items[target.number]
                    self.relations = [r for r in self.relations if target.number not in (r.source, r.target)]
                elif target.id is not None:
                    self.personal.pop(target.id, None)
                else:
                    target.fields = {k: None for k in target.fields}
                    target.locked = False
            else:
                target.history = [h for h in target.history if h.version != request.version]
                target.locked = False
        else:
            target.locked = False
        request.state = "approved" if approve else "rejected"
        request.decision_reason = reason
        self.clock.tick()
        return {"outcome": request.state, "request": request.id, "ref": request.target}
