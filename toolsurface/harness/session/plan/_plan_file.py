"""plan.json: what a study is (scenario, surfaces with their digests, agents in their modes, model, runs per
surface, toolsurface's version) and which shard of it a folder holds. Each `session run` writes it beside its
runs; `session merge` reads it to refuse folders of different studies."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import read_json, write_json_atomic
from toolsurface.harness.run_folder import PLAN

PLAN_FORMAT = "toolsurface-plan/1"


@dataclass(frozen=True)
class StudyPlan:
    """What a study is, and which of its shards a folder holds (None: the whole matrix)."""

    scenario: str
    scenario_sha256: str
    surfaces: dict[str, str]  # name -> sha256 of its tool list
    agents: list[str]  # NAME-MODE
    model: str | None
    runs: int
    toolsurface: str
    shard: tuple[int, int] | None
    format: str = PLAN_FORMAT
    # Told by the runs of a folder written before plans were: it knows only the surfaces and agents it ran.
    from_runs: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["shard"] = list(self.shard) if self.shard else None
        del data["from_runs"]
        return data

    def identity(self) -> list[tuple[str, Any]]:
        """The fields two shards of one study share, in the order a difference is reported."""
        return [
            ("scenario", f"{self.scenario} (sha256 {self.scenario_sha256[:12]})"),
            ("surfaces", ", ".join(f"{n} ({d[:12]})" for n, d in sorted(self.surfaces.items()))),
            ("agents", ", ".join(sorted(self.agents))),
            ("model", self.model or "(the agent's default)"),
            ("runs per surface", self.runs),
            ("toolsurface version", self.toolsurface),
            ("shard count", self.shard[1] if self.shard else 1),
        ]


def write_plan(out: Path, plan: StudyPlan) -> Path:
    return write_json_atomic(out / PLAN, plan.to_json())


def read_plan(folder: Path) -> StudyPlan | None:
    path = folder / PLAN
    if not os.path.lexists(path):
        return None
    data = read_json(path, what="study plan", follow_links=False)
    try:
        if not isinstance(data, dict) or data.get("format") != PLAN_FORMAT:
            raise ValueError(f"format is not {PLAN_FORMAT!r}")
        shard = data.get("shard")
        return StudyPlan(**{**data, "shard": tuple(shard) if shard else None})
    except (ValueError, TypeError) as error:
        raise ToolsurfaceError(f"{path}: not a study plan: {error}") from None
