"""Proposals: a change that waits for a moderator, how it reads, how it is decided and applied."""

from __future__ import annotations

import copy
from typing import Any

from toolsurface.stubs.refusal import Refusal
from toolsurface.surfaces.conderis.kinds import PROPOSAL_ACTIONS
from toolsurface.surfaces.conderis.project._records import HistoryEntry, Item, Proposal
from toolsurface.surfaces.conderis.project._state import ProjectState

__all__ = ["Proposals"]


class Proposals(ProjectState):
    """Proposing, listing and deciding proposals."""

    def proposal_entry(self, p: Proposal) -> dict[str, Any]:
        return {
            "ref": p.ref,
            "target": p.target,
            "author": p.author,
            "state": p.state,
            "reason": p.reason,
            "version": p.version,
        }

    def target_kind(self, p: Proposal) -> str:
        """The kind a proposal changes; a proposal to create an item names it as `new <kind>`."""
        if p.target.startswith("new "):
            return p.target.removeprefix("new ")
        target = self.resolve_ref(p.target)
        return target.kind if isinstance(target, Item) else "proposal"

    def proposal_view(self, p: Proposal) -> dict[str, Any]:
        target = None if p.target.startswith("new ") else self.resolve_ref(p.target)
        current = target.fields if isinstance(target, Item) else None
        return {
            **self.proposal_entry(p),
            "baseVersion": p.base_version,
            "changes": p.changes,
            "current": {k: current.get(k) for k in p.changes} if current is not None else None,
            "decisionReason": p.decision_reason,
            "time": p.time,
        }

    def proposal_list(
        self, *, state: str | None = "pending", author: str | None = None, target_kind: str | None = None
    ) -> list[Proposal]:
        out = []
        for p in self.proposals.values():
            kind = self.target_kind(p)
            if state is not None and p.state != state:
                continue
            if author is not None and p.author != author:
                continue
            if target_kind is not None and kind != target_kind:
                continue
            out.append(p)
        return out

    def _propose(self, target: str, changes: dict[str, Any], base: int, reason: str | None) -> dict[str, Any]:
        proposal_id = f"p-{len(self.proposals) + 101}"
        p = Proposal(
            proposal_id,
            target,
            self.caller.ref,
            reason or "",
            base,
            1,
            "pending",
            self.clock.tick(),
            copy.deepcopy(changes),
        )
        self.proposals[proposal_id] = p
        return {"outcome": "proposed", "ref": p.ref, "target": target}

    def decide(
        self, p: Proposal, action: str, *, reason: str | None, version: int | None = None, check_version: bool = False
    ) -> dict[str, Any]:
        if p.state != "pending":
            raise Refusal(f"{p.ref} is {p.state}; only pending proposals can be decided", ["pending"])
        if check_version:
            if version is None:
                raise Refusal(f"version is required to {action} {p.ref}; current version: {p.version}", [p.version])
            if version != p.version:
                raise Refusal(f"version {version} of {p.ref} is stale; current version: {p.version}", [p.version])
        if action == "withdraw":
            if p.author != self.caller.ref:
                raise Refusal(
                    f"only the author ({p.author}) can withdraw {p.ref}; a moderator approves or rejects",
                    ["approve", "reject"],
                )
            p.state = "withdrawn"
        elif action in ("approve", "reject"):
            if not self.caller.may_moderate:
                raise Refusal(f"deciding {p.ref} needs moderation rights; you may withdraw your own", ["withdraw"])
            if action == "approve":
                self._apply(p)
            p.state = "approved" if action == "approve" else "rejected"
            p.decision_reason = reason
        else:
            actions = PROPOSAL_ACTIONS
            raise Refusal(f"{action!r} is not a proposal action; proposal actions: {', '.join(actions)}", actions)
        p.version += 1
        self.clock.tick()
        return {"outcome": p.state, "ref": p.ref, "target": p.target}

    def _apply(self, p: Proposal) -> None:
        if p.target.startswith("new "):
            kind = p.target.removeprefix("new ")
            values = dict(p.changes)
            item = Item(kind, values, 1, number=self.next_number)
            self.items[self.next_number] = item
            self.next_number += 1
            item.history.append(HistoryEntry(1, p.author, self.clock.tick(), sorted(values), copy.deepcopy(values)))
            p.target = item.ref
            return
        target = self.resolve_ref(p.target)
        assert isinstance(target, Item)
        target.fields.update(p.changes)
        target.version += 1
        target.history.append(
            HistoryEntry(target.version, p.author, self.clock.tick(), sorted(p.changes), copy.deepcopy(target.fields))
        )
