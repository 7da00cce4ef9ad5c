"""A study from start to end: plan it (everything that can stop it is found first), run what is left, score
every finished run under its folder, and write study.json. The CLI only parses and renders."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.files import write_json_atomic
from toolsurface.harness.run_folder import STUDY
from toolsurface.harness.session.plan import (
    AgentChoice,
    PlannedRun,
    RunMatrix,
    StudyConfig,
    StudyPlan,
    plan_matrix,
    shard_of,
    write_plan,
)
from toolsurface.harness.session.record import RunRecord
from toolsurface.harness.session.run import run_study, study_stubs
from toolsurface.harness.session.score import Study, find_runs, score_study


@dataclass(frozen=True)
class StudyOutcome:
    study: Study
    path: Path
    records: list[RunRecord]

    @property
    def failed(self) -> list[RunRecord]:
        """This invocation's runs that did not end ok (a rerun into the same folder runs them again)."""
        return [r for r in self.records if r.result.status != "ok"]

    def failure_line(self) -> str | None:
        if not self.failed:
            return None
        counts = ", ".join(
            f"{status} {sum(1 for r in self.failed if r.result.status == status)}"
            for status in sorted({r.result.status for r in self.failed})
        )
        return (
            f"{len(self.failed)} of {len(self.records)} runs did not end ok ({counts}): first error: "
            f"{self.failed[0].result.error}; a rerun into {self.path.parent} runs them again"
        )


def agent_choices(
    names: Sequence[str],
    *,
    mode: str | None = None,
    model: str | None = None,
    builtins: bool = False,
    **options: str | None,
) -> list[AgentChoice]:
    """`NAME` or `NAME:MODE` per agent; an agent without a mode gets `mode`, else its first (its default). An
    alias of a mode (`full-list` where its card declares one) is the mode it names."""
    from toolsurface.harness.agents import make_agent
    from toolsurface.harness.session.plan import parse_agent_choice

    choices = []
    for text in names:
        name, own_mode = parse_agent_choice(text)
        agent = make_agent(name, model=model, **options)
        chosen = own_mode or mode or agent.modes[0]
        aliases: Mapping[str, str] = getattr(agent, "mode_aliases", {})
        choices.append(AgentChoice(name, agent, aliases.get(chosen, chosen), builtins))
    return choices


def run_session_study(
    config: StudyConfig,
    on_planned: Callable[[int], None] | None = None,
    on_finished: Callable[[PlannedRun, RunRecord], None] | None = None,
) -> StudyOutcome:
    with study_stubs(config) as stubs:
        matrix = plan_matrix(config, lambda surface: stubs.warm(surface.spec, surface.sha256))
        for beside in config.neighbours:
            stubs.warm(beside.surface.spec, beside.surface.sha256)
        stubs.planned()
        write_plan(config.out, study_plan(config, matrix))
        planned = shard_of(matrix.runs, config.shard)
        if on_planned is not None:
            on_planned(len(planned))
        records = run_study(config, planned, on_finished, stubs)
    study = score_study(find_runs([config.out]))
    path = write_json_atomic(config.out / STUDY, study.to_json(config.out))
    return StudyOutcome(study, path, records)


def study_plan(config: StudyConfig, matrix: RunMatrix) -> StudyPlan:
    """What this study is, from its whole run matrix, and which shard this invocation runs."""
    from toolsurface import __version__

    return StudyPlan(
        scenario=config.scenario.name,
        scenario_sha256=config.scenario.sha256,
        surfaces={surface.name: surface.sha256 for surface in matrix.surfaces},
        agents=[choice.label for choice in config.agents],
        model=config.model,
        runs=config.runs,
        toolsurface=__version__,
        shard=config.shard,
    )
