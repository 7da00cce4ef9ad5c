"""The on-demand round trip: what a client that searches for its tools loads for a named task, against what
loading the whole list costs."""

from toolsurface.harness.analyze.roundtrip._render import (
    ROUNDTRIP_COLUMNS,
    roundtrip_view,
)
from toolsurface.harness.analyze.roundtrip._roundtrip import (
    ObservedRoundTrip,
    ObservedStep,
    RoundTrip,
    RoundTripTask,
    SurfaceRoundTrip,
    load_task,
    queries_task,
    roundtrip,
)

__all__ = [
    "ROUNDTRIP_COLUMNS",
    "ObservedRoundTrip",
    "ObservedStep",
    "RoundTrip",
    "RoundTripTask",
    "SurfaceRoundTrip",
    "load_task",
    "queries_task",
    "roundtrip",
    "roundtrip_view",
]
