"""Running sessions: one session against a planned surface (`run_session`, which every command that runs an agent
calls), and a study's planned runs, J at a time, one directory per run, resumed where it stopped."""

from toolsurface.harness.session.run._at_once import first_cause, run_at_once, runs_root
from toolsurface.harness.session.run._runner import run_study, score_calls, study_stubs
from toolsurface.harness.session.run._session import Session, SessionEnd, run_session, warm_stubs
from toolsurface.harness.session.run._undelivered import undelivered_calls

__all__ = [
    "Session",
    "SessionEnd",
    "first_cause",
    "run_at_once",
    "run_session",
    "run_study",
    "runs_root",
    "score_calls",
    "study_stubs",
    "undelivered_calls",
    "warm_stubs",
]
