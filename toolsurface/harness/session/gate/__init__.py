"""The seed's gate over a study: the candidate's list well below the baseline's, its refused calls per run not
rising."""

from toolsurface.harness.session.gate._gate import GateJudgement, GateVerdict, ImportedJudgement, judge_gate

__all__ = [
    "GateJudgement",
    "GateVerdict",
    "ImportedJudgement",
    "judge_gate",
]
