"""The seed's gate, over a study: the candidate's list lands well below the baseline's, and its refused calls
per run do not rise. Judged per scenario of the study; the gate is met when every scenario meets it.

"Well below" is read as at most half the baseline's characters (the seed's 6,386 against 19,014 is a third),
unless a budget in characters is given.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.session.record import RunRecord
from toolsurface.harness.session.score import runs_needed

WELL_BELOW = 0.5


@dataclass(frozen=True)
class _Sizes:
    """What every judgement of a scenario holds: the two surfaces and their lists' sizes, judged."""

    scenario: str
    baseline: str
    candidate: str
    baseline_chars: int
    candidate_chars: int
    max_chars: int

    @property
    def size_met(self) -> bool:
        return self.candidate_chars <= self.max_chars

    def size(self) -> str:
        said = f"The list is {self.candidate_chars:,} characters against {self.baseline_chars:,}"
        return said + (f", over the {self.max_chars:,} it may have" if not self.size_met else "")


@dataclass(frozen=True)
class GateJudgement(_Sizes):
    baseline_refused: list[int]
    candidate_refused: list[int]
    runs_needed: int | None

    @property
    def refusals_met(self) -> bool:
        return statistics.fmean(self.candidate_refused) <= statistics.fmean(self.baseline_refused)

    @property
    def met(self) -> bool:
        return self.size_met and self.refusals_met

    def sentence(self) -> str:
        verdict = "met" if self.met else "not met"
        size = self.size()
        refused = (
            f"{self.candidate} needed {_calls(sum(self.candidate_refused))} in {_runs(len(self.candidate_refused))}"
            f" against {sum(self.baseline_refused)} in {_runs(len(self.baseline_refused))} for {self.baseline}"
        )
        if not self.refusals_met:
            refused += ": refused calls per run rose"
        noise = (
            f" The difference in refused calls per run needs {self.runs_needed} runs per surface to exceed the noise (95 %)."
            if self.runs_needed is not None
            else " The refused calls per run do not differ."
        )
        return f"Gate ({self.scenario}): {verdict}. {size}, and {refused}.{noise}"


def _calls(n: int) -> str:
    return f"{n} refused call" + ("" if n == 1 else "s")


def _runs(n: int) -> str:
    return f"{n} run" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class ImportedJudgement(_Sizes):
    """The gate over sessions imported from the clients' files (`session import`): they ran against the server
    only, never against the candidate, so the list sizes are judged and the refused calls per run are not."""

    server: str
    error_answers: list[int]

    @property
    def met(self) -> bool:
        return self.size_met

    def sentence(self) -> str:
        size = self.size()
        sessions = len(self.error_answers)
        errors = sum(self.error_answers)
        return (
            f"Gate ({self.scenario}): {'met' if self.met else 'not met'} on the list's size alone. {size}. Refused"
            f" calls per run do not apply to an import: its {_plural(sessions, 'session')} called {self.server}, none"
            f" {self.candidate} ({_plural(errors, 'error answer')} in them); `toolsurface session replay` plays"
            " their calls against the candidate."
        )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class GateVerdict:
    judgements: list[GateJudgement | ImportedJudgement]

    @property
    def met(self) -> bool:
        return all(j.met for j in self.judgements)

    def lines(self) -> list[str]:
        last = f"Gate: {'met' if self.met else 'not met'}."
        if any(isinstance(j, ImportedJudgement) for j in self.judgements):
            last += " (Refused calls per run were not judged for the imported sessions.)"
        return [j.sentence() for j in self.judgements] + [last]


def judge_gate(
    records: Sequence[RunRecord],
    baseline: str,
    candidate: str,
    chars_of: Callable[[str], int],
    max_chars: int | None = None,
) -> GateVerdict:
    """Judge each scenario that has runs of both surfaces, and sessions imported from the clients' files by the
    lists' sizes alone (their runs are the baseline's: the server's as it is listed now); `chars_of` measures a
    surface's list."""
    scenarios = sorted({r.spec.scenario for r in records})
    judgements: list[GateJudgement | ImportedJudgement] = []
    base_chars, cand_chars = chars_of(baseline), chars_of(candidate)
    most = max_chars if max_chars is not None else int(base_chars * WELL_BELOW)
    for scenario in scenarios:
        of = [r for r in records if r.spec.scenario == scenario]
        if all(r.spec.source is not None for r in of):
            servers = ", ".join(sorted({r.spec.surface for r in of}))
            errors = [r.result.refused for r in of]
            judgements.append(
                ImportedJudgement(scenario, baseline, candidate, base_chars, cand_chars, most, servers, errors)
            )
            continue
        base = [r.result.refused for r in of if r.spec.surface == baseline]
        cand = [r.result.refused for r in of if r.spec.surface == candidate]
        if not base or not cand:
            continue
        judgements.append(
            GateJudgement(
                scenario=scenario,
                baseline=baseline,
                candidate=candidate,
                baseline_chars=base_chars,
                candidate_chars=cand_chars,
                max_chars=most,
                baseline_refused=base,
                candidate_refused=cand,
                runs_needed=runs_needed([float(x) for x in cand], [float(x) for x in base]),
            )
        )
    if not judgements:
        found = sorted({r.spec.surface for r in records})
        raise ToolsurfaceError(
            f"cannot judge: no scenario of the study has runs of both {baseline} and {candidate} "
            f"(surfaces with runs: {', '.join(found) or 'none'})"
        )
    return GateVerdict(judgements)
