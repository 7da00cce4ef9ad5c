"""The project as a whole: its own record, its overview, the recall and the whole state for outcome checks."""

from __future__ import annotations

from typing import Any

from toolsurface.surfaces.conderis.project._deletions import Deletions
from toolsurface.surfaces.conderis.project._dump import ProjectDump
from toolsurface.surfaces.conderis.project._notes import Notes
from toolsurface.surfaces.conderis.project._tasks import Tasks


class Project(Tasks, Notes, Deletions):
    """One project with its items, as loaded from a fixture, changed only by calls."""

    def store_project(self, values: dict[str, Any]) -> dict[str, Any]:
        for name, value in values.items():
            if name == "remote" and value != self.info.remote:
                self.info.remote_verified = False
            setattr(self.info, name, value)
        self.clock.tick()
        return {"outcome": "published", "projectId": self.info.id}

    def project_view(self) -> dict[str, Any]:
        counts = {
            "openTasks": len(self.tasks()),
            "memories": len(self.memories()),
            "pages": len(self.pages()),
            "pendingProposals": len(self.proposal_list()),
        }
        return {
            "id": self.info.id,
            "name": self.info.name,
            "description": self.info.description,
            "remote": self.info.remote,
            "remoteVerified": self.info.remote_verified,
            "visibility": "public" if self.info.public else "private",
            "upstream": self.info.upstream,
            "permissions": {"mayWrite": self.caller.may_write, "mayModerate": self.caller.may_moderate},
            "assignees": [{"name": p.name, "ref": p.ref, "agent": p.agent} for p in self.people],
            "counts": counts,
        }

    def project_entries(self) -> list[dict[str, Any]]:
        mine = {
            "id": self.info.id,
            "name": self.info.name,
            "description": self.info.description,
            "public": self.info.public,
        }
        return [mine, *self.other_projects]

    def recall(self, focus: str | None, max_chars: int | None, personal_only: bool = False) -> str:
        """Memories, active tasks and the instructions (or only personal memories), focus matches first."""
        memories = self.memories(personal=True) if personal_only else self.memories() + self.memories(personal=True)
        if focus:
            memories.sort(key=lambda i: -self._score(i, focus))
        entries = [f"- {m.ref} {m.fields['title']}: {m.fields['summary']}" for m in memories] or ["(none)"]
        if personal_only:
            lines = ["Personal memories:", *entries]
        else:
            lines = [
                f"Project {self.info.name}: {self.info.description}",
                "",
                "Instructions:",
                str(self.instructions.fields["content"]),
                "",
                "Memories:",
                *entries,
                "",
                "Active tasks:",
                *(f"- {t.ref} [{t.fields['status']}] {t.fields['title']}" for t in self.tasks()),
            ]
        text = "\n".join(lines)
        return text[:max_chars] if max_chars else text

    def snapshot(self) -> ProjectDump:
        """The whole state as records (the project's own, not copies)."""
        return ProjectDump(
            project=self.info,
            caller=self.caller,
            items=[i for _, i in sorted(self.items.items())],
            personal=list(self.personal.values()),
            instructions=self.instructions,
            proposals=list(self.proposals.values()),
            relations=list(self.relations),
            deletions=list(self.deletions.values()),
            next_number=self.next_number,
            time=self.clock.now(),
        )

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, for outcome checks."""
        return self.snapshot().to_json()
