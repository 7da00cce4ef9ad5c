"""Replay: the tool calls of recorded runs, played against a candidate (a surface's stub, a live server) or checked by
shape against its tools (a snapshot; runs that kept no values), without an agent."""

from toolsurface.harness.session.replay._by_shape import ShapeCheck, check_by_shape
from toolsurface.harness.session.replay._mapping import (
    MAPPING_FORMAT,
    CallMapping,
    MappingClash,
    ToolMapping,
    read_mapping,
    starter_mapping,
)
from toolsurface.harness.session.replay._replay import (
    BY_SHAPE,
    PLAYED,
    Candidate,
    Replay,
    ReplayedCall,
    ReplayedRun,
    replay_live,
    replay_runs,
    replay_table,
)

__all__ = [
    "BY_SHAPE",
    "MAPPING_FORMAT",
    "PLAYED",
    "CallMapping",
    "Candidate",
    "MappingClash",
    "Replay",
    "ReplayedCall",
    "ReplayedRun",
    "ShapeCheck",
    "ToolMapping",
    "check_by_shape",
    "read_mapping",
    "replay_live",
    "replay_runs",
    "replay_table",
    "starter_mapping",
]
