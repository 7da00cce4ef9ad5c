"""The record of one run on disk: spec.json before it starts, result.json when it ends (versioned)."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import write_json_atomic
from toolsurface.harness.run_folder import RESULT, SPEC
from toolsurface.harness.scenario import CheckResult

__all__ = [
    "RUN_FORMAT",
    "CheckRecord",
    "RefusalRecord",
    "RunRecord",
    "RunResult",
    "RunSpec",
    "RunStateError",
    "UndeliveredRecord",
    "read_run",
    "write_json_atomic",
]

RUN_FORMAT = "toolsurface-run/2"
# /1 had no undelivered calls, model endpoint, agent version or "what the model was shown"; it reads as none.
READABLE_FORMATS = ("toolsurface-run/1", RUN_FORMAT)


class RunStateError(ToolsurfaceError):
    """A run directory that cannot be read as a run of this version."""


@dataclass(frozen=True)
class RunSpec:
    surface: str
    surface_source: str
    surface_sha256: str
    tools: int
    agent: str
    model: str | None
    mode: str
    scenario: str
    scenario_sha256: str
    run_index: int
    timeout: float
    packages: dict[str, str]
    git_revision: str | None
    python: str
    started: str
    stub_start: str = "spawn"
    model_endpoint: str | None = None
    agent_version: str | None = None
    builtins: bool = False
    # The MCP protocol version the agent's client spoke to the stub (from the stub's call log), written when
    # the run ends; None while it runs, for a client that never reached the stub, and in older runs.
    protocol: str | None = None
    format: str = RUN_FORMAT


@dataclass(frozen=True)
class RefusalRecord:
    seq: int
    tool: str
    message: str
    corrected_next: bool


@dataclass(frozen=True)
class UndeliveredRecord:
    """A call the agent made that never reached the stub, and why (unknown tool, invalid arguments, ...)."""

    tool: str
    reason: str
    message: str


# A check's outcome is kept in result.json as the scenario's check made it.
CheckRecord = CheckResult


@dataclass(frozen=True)
class RunResult:
    status: str
    calls: int
    refusals: list[RefusalRecord]
    checks: list[CheckRecord]
    passed: bool
    tokens: dict[str, int] | None
    cost_usd: float | None
    duration_s: float
    turns: int | None
    final_answer: str | None
    error: str | None
    tools_called: list[str] = field(default_factory=list)
    agent_duration_s: float | None = None
    undelivered: list[UndeliveredRecord] = field(default_factory=list)
    # What the model was shown (harness.endpoint.Shown), when the run had a model endpoint.
    shown: dict[str, Any] | None = None
    format: str = RUN_FORMAT

    @property
    def refused(self) -> int:
        return len(self.refusals)


@dataclass(frozen=True)
class RunRecord:
    path: Path
    spec: RunSpec
    result: RunResult


def _load(path: Path) -> dict[str, Any]:
    """A run's record: read only from a regular file in its folder, never through a link (a run folder is
    copied and shared; a link in it could show a file from anywhere), nested no deeper than MAX_DEPTH."""
    from toolsurface.harness.files import read_json

    if not os.path.lexists(path):
        raise RunStateError(f"{path.parent}: not a finished run (no {path.name})")
    data = read_json(path, RunStateError, "run record", follow_links=False)
    if not isinstance(data, dict):
        raise RunStateError(f"{path}: not a run record")
    found = data.get("format")
    if found not in READABLE_FORMATS:
        raise RunStateError(
            f"{path}: run format {found!r} is not {RUN_FORMAT!r}; rerun it with this version of toolsurface"
        )
    return data


def read_run(run_dir: Path) -> RunRecord:
    spec_data = _load(run_dir / SPEC)
    result_data = _load(run_dir / RESULT)
    try:
        spec = RunSpec(**spec_data)
        result_data = dict(result_data)
        result_data["refusals"] = [RefusalRecord(**r) for r in result_data.get("refusals", [])]
        result_data["checks"] = [CheckRecord(**c) for c in result_data.get("checks", [])]
        result_data["undelivered"] = [UndeliveredRecord(**u) for u in result_data.get("undelivered", [])]
        result = RunResult(**result_data)
    except TypeError as error:
        raise RunStateError(f"{run_dir}: run record does not match {RUN_FORMAT}: {error}") from None
    return RunRecord(run_dir, spec, result)


def to_json(record: RunSpec | RunResult) -> dict[str, Any]:
    data = asdict(record)
    return data
