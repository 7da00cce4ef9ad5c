"""The record of one run on disk: spec.json before it starts, result.json when it ends (versioned)."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.agents.base import SERVER_NAME, Usage
from toolsurface.harness.endpoint import Shown
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.run_folder import RESULT, SPEC
from toolsurface.harness.scenario import CheckResult

RUN_FORMAT = "toolsurface-run/3"
# /1 had no undelivered calls, model endpoint, agent version or "what the model was shown"; it reads as none.
# /3 is /2 read back whole: what the model was shown and the usage as their records, every field checked.
READABLE_FORMATS = ("toolsurface-run/1", "toolsurface-run/2", RUN_FORMAT)


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
    # The name the agent's MCP config gave the surface's server, which its tools' names carried.
    server_name: str = SERVER_NAME
    # The servers beside it in the agent's config, by their names there.
    neighbours: list[str] = field(default_factory=list)
    # Whose home an agent CLI ran in (`--agent-home`): `run`, folders of the run's own; `user`, the user's, where
    # its login is. None for toolsurface's own clients, and in older runs.
    agent_home: str | None = None
    # A run imported from a client's own session file (`session import`): that file, relative to the home
    # (`~/...`), and whether the arguments and answers were kept (else their sizes, kinds and digests).
    source: str | None = None
    content_kept: bool = True
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


@dataclass(frozen=True)
class SearchRecord:
    """A call of the client's own tool search, in a run imported from its session file: the query as kept (its
    kind, size and digest unless the import kept content) and the server's tools it found, by their own names."""

    query: str | None
    found: list[str]
    time: str | None = None


@dataclass(frozen=True)
class RunResult:
    status: str
    calls: int
    refusals: list[RefusalRecord]
    # Each check's outcome as the scenario's check made it.
    checks: list[CheckResult]
    passed: bool
    tokens: Usage | None
    cost_usd: float | None
    duration_s: float
    turns: int | None
    final_answer: str | None
    error: str | None
    tools_called: list[str] = field(default_factory=list)
    agent_duration_s: float | None = None
    undelivered: list[UndeliveredRecord] = field(default_factory=list)
    # What the model was shown, when the run had a model endpoint.
    shown: Shown | None = None
    # The client's own tool searches, where its session file recorded them (imported runs).
    searches: list[SearchRecord] = field(default_factory=list)
    format: str = RUN_FORMAT

    @property
    def refused(self) -> int:
        return len(self.refusals)

    def to_json(self) -> dict[str, Any]:
        """As result.json holds it."""
        data = asdict(self)
        if self.shown is not None:
            data["shown"] = self.shown.to_json()
        # Only an imported run has them: a run of ours reads back as it was written.
        if not self.searches:
            del data["searches"]
        return data


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
    """A run's spec and result, every part as its record (a run of any readable format)."""
    spec_data = _load(run_dir / SPEC)
    result_data = _load(run_dir / RESULT)
    try:
        spec = RunSpec(**spec_data)
        result_data = dict(result_data)
        result_data["refusals"] = [RefusalRecord(**r) for r in result_data.get("refusals", [])]
        result_data["checks"] = [CheckResult(**c) for c in result_data.get("checks", [])]
        result_data["undelivered"] = [UndeliveredRecord(**u) for u in result_data.get("undelivered", [])]
        result_data["searches"] = [SearchRecord(**found) for found in result_data.get("searches", [])]
        tokens = result_data.get("tokens")
        result_data["tokens"] = Usage(**tokens) if tokens is not None else None
        shown = result_data.get("shown")
        result_data["shown"] = Shown.from_json(shown) if shown is not None else None
        result = RunResult(**result_data)
    except (TypeError, AttributeError) as error:
        raise RunStateError(f"{run_dir}: run record does not match {RUN_FORMAT}: {error}") from None
    return RunRecord(run_dir, spec, result)
