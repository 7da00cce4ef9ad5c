"""A model judges what text rules cannot (`lint --judge ENDPOINT`): each tool's definition scored on a rubric
(rubric.json, prompt.md beside this module) by the user's own model, cached by the definition's digest, a row per
tool whatever the judge answers."""

from toolsurface.harness.analyze.lint.judge._ask import Answered, Failed, read_verdict
from toolsurface.harness.analyze.lint.judge._judge import GIVE_UP, JOBS, SurfaceJudgement, ToolJudgement, judge_surfaces
from toolsurface.harness.analyze.lint.judge._rubric import Criterion, Rubric, definition_digest, rubric, tool_message
from toolsurface.harness.analyze.lint.judge._spec import DEFAULT_MODELS, JudgeSpec, parse_judge

__all__ = [
    "DEFAULT_MODELS",
    "GIVE_UP",
    "JOBS",
    "Answered",
    "Criterion",
    "Failed",
    "JudgeSpec",
    "Rubric",
    "SurfaceJudgement",
    "ToolJudgement",
    "definition_digest",
    "judge_surfaces",
    "parse_judge",
    "read_verdict",
    "rubric",
    "tool_message",
]
