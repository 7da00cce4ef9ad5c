"""The record of one run on disk: spec.json before it starts, result.json when it ends (versioned)."""

from toolsurface.harness.session.record._record import (
    RUN_FORMAT,
    RefusalRecord,
    RunRecord,
    RunResult,
    RunSpec,
    RunStateError,
    SearchRecord,
    UndeliveredRecord,
    read_run,
)

__all__ = [
    "RUN_FORMAT",
    "RefusalRecord",
    "RunRecord",
    "RunResult",
    "RunSpec",
    "RunStateError",
    "SearchRecord",
    "UndeliveredRecord",
    "read_run",
]
