"""A study's run matrix: every surface resolved, built and served once (its tool list's digest, its stub's first
state, its scripts), every agent checked, one planned run per surface, agent and run index; then the shard
this invocation runs. Everything that can stop a study is found here, before the first run starts."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from toolsurface.harness.agents import CliAgent, check_server_name
from toolsurface.harness.agents.base import AgentUnavailable, EndpointKind
from toolsurface.harness.endpoint import code_mode_problem
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import check_writable
from toolsurface.harness.run_folder import PLAN, RUNS, STUDY
from toolsurface.harness.scenario import load_script, script_path
from toolsurface.harness.session.plan._beside import check_beside_names
from toolsurface.harness.session.plan._config import AgentChoice, StudyConfig, run_label
from toolsurface.harness.session.plan._surface import PlannedSurface, plan_surface


@dataclass(frozen=True)
class PlannedRun:
    surface: PlannedSurface
    choice: AgentChoice
    index: int
    run_dir: Path
    script: Path | None


@dataclass(frozen=True)
class RunMatrix:
    """A study as planned: each surface once, in the order given, and every run (every shard's)."""

    surfaces: tuple[PlannedSurface, ...]
    runs: tuple[PlannedRun, ...]


def _plan_surface(config: StudyConfig, given: str, folders: dict[str, str]) -> PlannedSurface:
    """The surface planned (plan_surface), which a study needs with a stub; then its run folder (`folders`: the
    surfaces planned so far, by folder) and its scripts."""
    surface = plan_surface(given, config.server_name)
    if surface.initial_state is None:
        raise ToolsurfaceError(f"surface {surface.spec!r} has no stub, so no session can run against it")
    if folders.setdefault(surface.folder, surface.name) != surface.name:
        raise ToolsurfaceError(
            f"surfaces {folders[surface.folder]!r} and {surface.name!r} would share the run folder {surface.folder!r}"
        )
    return replace(surface, scripts=_scripts_for(config, surface.name))


def _plays_scripts(config: StudyConfig, choice: AgentChoice) -> bool:
    """Whether the agent plays the scenario's script: the script agent itself, another through the scripted model
    endpoint."""
    scripted = config.model_endpoint is not None and config.model_endpoint.kind == EndpointKind.SCRIPTED
    return not choice.agent.card.calls_model or scripted


def _scripts_for(config: StudyConfig, surface: str) -> tuple[Path, ...] | None:
    """The scripts a surface's runs play, for the agents that play them (the script agent itself, the scripted
    model endpoint inside the agent): the scenario's script for the surface for every run, or one per run
    (replays of recorded runs) where the scenario has them (`script_path`)."""
    if not any(_plays_scripts(config, choice) for choice in config.agents):
        return None
    who = "--model-endpoint scripted" if config.model_endpoint is not None else "script"
    scenario = config.scenario.name
    if config.script is not None:
        paths = [config.script] * config.runs
    elif (replays := script_path(scenario, surface, 0).parent).is_dir():
        paths = [script_path(scenario, surface, index) for index in range(config.runs)]
        recorded = len(list(replays.glob("r*.json")))
        if not all(path.is_file() for path in paths):
            raise AgentUnavailable(
                f"{who}: {replays} replays {recorded} recorded runs of {surface}; --runs {config.runs} asks for more"
            )
    else:
        paths = [script_path(scenario, surface)] * config.runs
    if not paths[0].is_file():
        raise AgentUnavailable(
            f"{who}: no script {paths[0]} for scenario {scenario} and surface {surface}; pass --script FILE"
        )
    for path in dict.fromkeys(paths):
        load_script(path)  # a script that cannot be played stops the study before it starts
    return tuple(paths)


def _check_code_mode(config: StudyConfig, choice: AgentChoice, surface: PlannedSurface) -> None:
    """A script the scripted model would play through the agent's code mode (its `exec`) is played only when
    every step can be: otherwise the study stops before it starts, naming the step and why."""
    agent = choice.agent
    scripted = config.model_endpoint is not None and config.model_endpoint.kind == EndpointKind.SCRIPTED
    if not scripted or not isinstance(agent, CliAgent) or choice.mode not in agent.code_modes:
        return
    for path in dict.fromkeys(surface.scripts or ()):
        problem = code_mode_problem(load_script(path), surface.tools, agent.naming.prefix(surface.server_name))
        if problem is not None:
            others = [f"{choice.name}:{mode}" for mode in agent.modes if mode not in agent.code_modes]
            instead = f"; play it with --agent {' or '.join(others)}" if others else ""
            raise AgentUnavailable(
                f"{choice.name}:{choice.mode} (code mode) cannot play {path} on {surface.name}: {problem}{instead}"
            )


def _check_agents(config: StudyConfig) -> None:
    endpoint = config.model_endpoint.kind if config.model_endpoint is not None else None
    for choice in config.agents:
        if choice.mode not in choice.agent.modes:
            raise ToolsurfaceError(
                f"agent {choice.name} has no mode {choice.mode!r}; modes: {', '.join(choice.agent.modes)}"
            )
        if endpoint is not None and not choice.agent.card.calls_model:
            raise ToolsurfaceError(
                f"--model-endpoint is for agents that call a model; {choice.agent.card.title} ({choice.name})"
                " plays its script itself"
            )
        if config.server_name is not None:
            check_server_name(config.server_name, [choice.name])
        choice.agent.check_available(os.environ, endpoint, config.agent_home)


def shard_of(planned: Sequence[PlannedRun], shard: tuple[int, int] | None) -> list[PlannedRun]:
    """The I-th of N slices of the run matrix: every N-th run, from the I-th on."""
    if shard is None:
        return list(planned)
    part, total = shard
    return [p for n, p in enumerate(planned) if n % total == part - 1]


def plan_matrix(config: StudyConfig, on_planned: Callable[[PlannedSurface], None] | None = None) -> RunMatrix:
    """Resolve and check everything first; then the whole run matrix (every shard's runs). `on_planned` is given
    each surface as soon as it is planned (the stub fork server builds it meanwhile)."""
    if not config.agents:
        raise ToolsurfaceError("no agent given")
    labels = [choice.label for choice in config.agents]
    if len(set(labels)) != len(labels):
        raise ToolsurfaceError(f"an agent and mode is given twice: {', '.join(labels)}")
    _check_agents(config)
    surfaces: list[PlannedSurface] = []
    runs = []
    folders: dict[str, str] = {}
    for spec in config.surfaces:
        surface = _plan_surface(config, spec, folders)
        if config.server_name is None:
            for choice in config.agents:
                check_server_name(surface.server_name, [choice.name])
        check_beside_names(config.neighbours, [surface.server_name])
        if on_planned is not None:
            on_planned(surface)
        surfaces.append(surface)
        for choice in config.agents:
            _check_code_mode(config, choice, surface)
            scripts = surface.scripts if _plays_scripts(config, choice) else None
            for index in range(config.runs):
                run_dir = config.out / RUNS / surface.folder / run_label(choice, config.scenario.name, index)
                runs.append(PlannedRun(surface, choice, index, run_dir, scripts[index] if scripts else None))
    try:
        (config.out / RUNS).mkdir(parents=True, exist_ok=True)
        probe = config.out / f".write-probe-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        raise ToolsurfaceError(f"cannot write to {config.out}: {error.strerror or error}") from None
    for record in (STUDY, PLAN):
        check_writable(config.out / record)  # a FIFO or a folder there is refused now, not after every run
    return RunMatrix(tuple(surfaces), tuple(runs))
