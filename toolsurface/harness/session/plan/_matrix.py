"""A study's run matrix: every surface resolved and served once (its tool list's digest, its stub's first
state), every agent and its script checked, one planned run per surface, agent and run index; then the shard
this invocation runs. Everything that can stop a study is found here, before the first run starts."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.agents.base import AgentUnavailable, EndpointKind
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import check_writable
from toolsurface.harness.run_folder import PLAN, RUNS, STUDY
from toolsurface.harness.scenario import load_script, sessions_dir
from toolsurface.harness.session.plan._config import AgentChoice, StudyConfig, run_folder_name, run_label
from toolsurface.harness.surface import SurfaceDefinition

__all__ = ["PlannedRun", "plan_matrix", "plan_study", "shard_of", "surface_spec"]


@dataclass(frozen=True)
class PlannedRun:
    surface: str
    name: str
    index: int
    run_dir: Path
    script: Path | None
    surface_sha256: str
    tools: int
    source: str
    initial_state: dict[str, Any]
    choice: AgentChoice
    tool_names: tuple[str, ...] = ()
    # The server instructions the stub serves, to be found in what the model reads.
    instructions: str | None = None


def surface_spec(spec: str) -> str:
    """Paths become absolute, since the stub starts in the run's own empty directory."""
    path = Path(spec)
    from toolsurface.harness.surface import is_surface_path

    return str(path.resolve()) if is_surface_path(spec) else spec


def _prepare_surface(spec: str) -> tuple[SurfaceDefinition, str, tuple[str, ...], dict[str, Any], str | None]:
    from toolsurface.harness.measure import list_text, listed
    from toolsurface.harness.surface import resolve

    item = resolve(spec)
    if not isinstance(item, SurfaceDefinition) or item.stub is None:
        raise ToolsurfaceError(f"surface {spec!r} has no stub, so no session can run against it")
    [wire] = listed([item])
    digest = hashlib.sha256(list_text(wire.tools).encode("utf-8")).hexdigest()
    from toolsurface.stubs.serve import start_stub

    stub = start_stub(item.build_surface(), None)
    assert stub is not None
    names = tuple(str(tool.get("name")) for tool in wire.tools)
    return item, digest, names, stub.state(), wire.parts.instructions


def _scripts_for(config: StudyConfig, choice: AgentChoice, surface: str) -> list[Path] | None:
    """The scripts a surface's runs play (the script agent plays them itself, the scripted model endpoint inside
    the agent): `scripts/SCENARIO/SURFACE.json` for every run, or `scripts/SCENARIO/SURFACE/rN.json`, one per
    run (replays of recorded runs)."""
    scripted = config.model_endpoint is not None and config.model_endpoint.kind == EndpointKind.SCRIPTED
    if choice.name != "script" and not scripted:
        return None
    who = "script" if choice.name == "script" else "--model-endpoint scripted"
    if config.script is not None:
        paths = [config.script] * config.runs
    else:
        folder = sessions_dir() / "scripts" / config.scenario.name
        if (folder / surface).is_dir():
            paths = [folder / surface / f"r{index + 1}.json" for index in range(config.runs)]
            recorded = len(list((folder / surface).glob("r*.json")))
            if not all(path.is_file() for path in paths):
                raise AgentUnavailable(
                    f"{who}: {folder / surface} replays {recorded} recorded runs of {surface}; --runs {config.runs} asks for more"
                )
        else:
            paths = [folder / f"{surface}.json"] * config.runs
    if not paths[0].is_file():
        raise AgentUnavailable(
            f"{who}: no script {paths[0]} for scenario {config.scenario.name} and surface {surface}; pass --script FILE"
        )
    for path in dict.fromkeys(paths):
        load_script(path)  # a script that cannot be played stops the study before it starts
    return paths


def _check_agents(config: StudyConfig) -> None:
    endpoint = config.model_endpoint.kind if config.model_endpoint is not None else None
    for choice in config.agents:
        if choice.mode not in choice.agent.modes:
            raise ToolsurfaceError(
                f"agent {choice.name} has no mode {choice.mode!r}; modes: {', '.join(choice.agent.modes)}"
            )
        if endpoint is not None and choice.name == "script":
            raise ToolsurfaceError(
                "--model-endpoint is for agents that call a model; the script agent plays its script itself"
            )
        choice.agent.check_available(os.environ, endpoint)


def plan_study(config: StudyConfig) -> list[PlannedRun]:
    """Resolve and check everything first; then the run matrix, or one shard of it."""
    return shard_of(plan_matrix(config), config.shard)


def shard_of(planned: list[PlannedRun], shard: tuple[int, int] | None) -> list[PlannedRun]:
    """The I-th of N slices of the run matrix: every N-th run, from the I-th on."""
    if shard is None:
        return planned
    part, total = shard
    return [p for n, p in enumerate(planned) if n % total == part - 1]


def plan_matrix(config: StudyConfig) -> list[PlannedRun]:
    """Resolve and check everything first; then the whole run matrix (every shard's runs)."""
    if not config.agents:
        raise ToolsurfaceError("no agent given")
    labels = [choice.label for choice in config.agents]
    if len(set(labels)) != len(labels):
        raise ToolsurfaceError(f"an agent and mode is given twice: {', '.join(labels)}")
    _check_agents(config)
    planned = []
    folders: dict[str, str] = {}
    for spec in config.surfaces:
        definition, digest, names, initial, instructions = _prepare_surface(surface_spec(spec))
        folder = run_folder_name(definition.name)
        if folders.setdefault(folder, definition.name) != definition.name:
            raise ToolsurfaceError(
                f"surfaces {folders[folder]!r} and {definition.name!r} would share the run folder {folder!r}"
            )
        for choice in config.agents:
            scripts = _scripts_for(config, choice, definition.name)
            for index in range(config.runs):
                script = scripts[index] if scripts is not None else None
                run_dir = config.out / RUNS / folder / run_label(choice, config.scenario.name, index)
                planned.append(
                    PlannedRun(
                        surface_spec(spec),
                        definition.name,
                        index,
                        run_dir,
                        script,
                        digest,
                        len(names),
                        definition.source,
                        initial,
                        choice,
                        names,
                        instructions,
                    )
                )
    try:
        (config.out / RUNS).mkdir(parents=True, exist_ok=True)
        probe = config.out / f".write-probe-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        raise ToolsurfaceError(f"cannot write to {config.out}: {error.strerror or error}") from None
    for record in (STUDY, PLAN):
        check_writable(config.out / record)  # a FIFO or a folder there is refused now, not after every run
    return planned
