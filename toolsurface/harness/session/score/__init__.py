"""Scoring a study: the seed's table per surface, pass^k, the runs a difference needs, what the model was shown
and what tool answers cost."""

from toolsurface.harness.session.score._answers import (
    ALL_TOOLS,
    AnswerRow,
    answer_rows,
    answers_markdown,
    run_answers,
)
from toolsurface.harness.session.score._scoring import (
    Comparison,
    ErrorGroup,
    OutcomeFailure,
    RefusalGroup,
    ShownPart,
    ShownRow,
    Study,
    SurfaceScore,
    UndeliveredGroup,
    find_runs,
    pass_hat_k,
    runs_needed,
    score_study,
    shown_markdown,
    study_markdown,
)

__all__ = [
    "ALL_TOOLS",
    "AnswerRow",
    "Comparison",
    "ErrorGroup",
    "OutcomeFailure",
    "RefusalGroup",
    "ShownPart",
    "ShownRow",
    "Study",
    "SurfaceScore",
    "UndeliveredGroup",
    "answer_rows",
    "answers_markdown",
    "find_runs",
    "pass_hat_k",
    "run_answers",
    "runs_needed",
    "score_study",
    "shown_markdown",
    "study_markdown",
]
