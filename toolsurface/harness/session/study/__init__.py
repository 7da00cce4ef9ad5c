"""A study from start to end: plan, run, score, and study.json."""

from toolsurface.harness.session.study._study import StudyOutcome, agent_choices, run_session_study

__all__ = [
    "StudyOutcome",
    "agent_choices",
    "run_session_study",
]
