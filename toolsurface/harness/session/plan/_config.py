"""What a study is asked to do: its surfaces, its agents in their modes, the scenario, how many runs, where."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.agents.base import Agent, AgentHome
from toolsurface.harness.endpoint import EndpointSpec
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.scenario import Scenario
from toolsurface.harness.session.plan._surface import run_folder_name

if TYPE_CHECKING:
    from toolsurface.harness.session.plan._beside import Beside

DEFAULT_SCENARIO = "six-tasks"


@dataclass(frozen=True)
class AgentChoice:
    """One agent of a study, in one mode."""

    name: str
    agent: Agent
    mode: str
    # The client's own tools stay beside the stub's (--builtins on).
    builtins: bool = False

    @property
    def label(self) -> str:
        return f"{self.name}-{self.mode}" + ("-builtins" if self.builtins else "")


def parse_agent_choice(text: str) -> tuple[str, str | None]:
    """`NAME` or `NAME:MODE` (e.g. claude:full-list)."""
    name, _, mode = text.partition(":")
    if not name or (":" in text and not mode):
        raise ToolsurfaceError(f"--agent {text!r}: expected NAME or NAME:MODE, e.g. claude:full-list")
    return name, mode or None


@dataclass(frozen=True)
class StudyConfig:
    surfaces: Sequence[str]
    agents: Sequence[AgentChoice]
    scenario: Scenario
    runs: int
    out: Path
    jobs: int = 1
    timeout: float = 600.0
    model: str | None = None
    max_turns: int = 30
    script: Path | None = None
    shard: tuple[int, int] | None = None
    stub_start: str = "auto"
    model_endpoint: EndpointSpec | None = None
    keep_agent_files: bool = False
    # The name every agent's MCP config gives each surface's server, which goes into its tools' names (None: each
    # surface's own, harness.session.plan.server_name_of).
    server_name: str | None = None
    # Servers beside the surface's in every agent's config, each served and named (harness.clients).
    neighbours: tuple[Beside, ...] = ()
    # Whose home each agent CLI runs in: folders of the run's own, or the user's (to use a login kept there).
    agent_home: AgentHome = "run"

    def __post_init__(self) -> None:
        own = sorted({choice.name for choice in self.agents if choice.agent.harness_client})
        if self.neighbours and own:
            raise ToolsurfaceError(
                f"--with: {', '.join(own)} reach the surface through toolsurface's own MCP client, one server at a"
                " time; run an agent CLI beside other servers"
            )
        # Resolved once, against the directory the study started in: agents and stubs run elsewhere.
        object.__setattr__(self, "out", Path(os.path.abspath(self.out)))
        if self.script is not None:
            object.__setattr__(self, "script", Path(os.path.abspath(self.script)))


def run_label(choice: AgentChoice, scenario: str, index: int) -> str:
    """A run's folder under its surface's: AGENT-MODE-rNNN, with the scenario named unless it is the default, so
    one study folder holds the runs of several scenarios (six-tasks and the seed's replays, say)."""
    named = "" if scenario == DEFAULT_SCENARIO else f"-{run_folder_name(scenario)}"
    return f"{choice.label}{named}-r{index + 1:03d}"


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N`, 1-based: the I-th of N slices of the run matrix."""
    part, _, total = text.partition("/")
    if not (part.isdigit() and total.isdigit()) or not 1 <= int(part) <= int(total):
        raise ToolsurfaceError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. 1/4")
    return int(part), int(total)
