"""Replay: the tool calls of recorded runs, played against another surface's stub, without an agent."""

from toolsurface.harness.session.replay._mapping import (
    MAPPING_FORMAT,
    CallMapping,
    ToolMapping,
    read_mapping,
    starter_mapping,
)
from toolsurface.harness.session.replay._replay import Replay, ReplayedCall, ReplayedRun, replay_runs, replay_table

__all__ = [
    "MAPPING_FORMAT",
    "CallMapping",
    "Replay",
    "ReplayedCall",
    "ReplayedRun",
    "ToolMapping",
    "read_mapping",
    "replay_runs",
    "replay_table",
    "starter_mapping",
]
