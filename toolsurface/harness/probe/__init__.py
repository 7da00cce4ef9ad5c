"""probe: calls of a live server's tools to measure their answers; read-only tools (by their annotations) only,
unless the user's calls file names another.

The plan (which tools, with what arguments: the calls file's, else made from each tool's schema), the calls
made on one connection within their bounds, each answer measured (an answer that was an error marked so and
kept out of the sizes), the answers part a snapshot records, and a starter calls file.
The bounds load at once; every other name when first used, so the CLI declares its probe options without
loading what a probe needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names
from toolsurface.harness.probe._bounds import (
    DEFAULT_CALL_TIMEOUT_S,
    DEFAULT_MAX_ANSWER_BYTES,
    DEFAULT_MAX_CALLS,
    ProbeBounds,
)

if TYPE_CHECKING:
    from toolsurface.harness.probe._answer import AnswerFigures, answer_texts, measure_answer
    from toolsurface.harness.probe._arguments import MadeArguments, NoArguments, schema_arguments
    from toolsurface.harness.probe._calls import CallsFile, CallsFileError, CallSpec, load_calls, parse_calls
    from toolsurface.harness.probe._plan import (
        PlannedCall,
        ProbePlan,
        SkippedTool,
        destructive,
        plan_probe,
        read_only,
    )
    from toolsurface.harness.probe._render import probe_lines, probe_view
    from toolsurface.harness.probe._run import (
        Probe,
        ProbedCall,
        ProbedLive,
        probe_connection,
        probe_live,
        probe_surface,
    )
    from toolsurface.harness.probe._source import ProbedSource, chosen_calls, probe_source
    from toolsurface.harness.probe._starter import starter_calls

# The modules a name is looked for in; each one's own __all__ says which names it holds.
_MODULES = ("_answer", "_arguments", "_calls", "_plan", "_render", "_run", "_source", "_starter")

__all__ = [
    "DEFAULT_CALL_TIMEOUT_S",
    "DEFAULT_MAX_ANSWER_BYTES",
    "DEFAULT_MAX_CALLS",
    "AnswerFigures",
    "CallSpec",
    "CallsFile",
    "CallsFileError",
    "MadeArguments",
    "NoArguments",
    "PlannedCall",
    "Probe",
    "ProbeBounds",
    "ProbePlan",
    "ProbedCall",
    "ProbedLive",
    "ProbedSource",
    "SkippedTool",
    "answer_texts",
    "chosen_calls",
    "destructive",
    "load_calls",
    "measure_answer",
    "parse_calls",
    "plan_probe",
    "probe_connection",
    "probe_lines",
    "probe_live",
    "probe_source",
    "probe_surface",
    "probe_view",
    "read_only",
    "schema_arguments",
    "starter_calls",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULES)
