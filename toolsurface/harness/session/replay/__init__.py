"""Replay: the tool calls of recorded runs, played against another surface's stub, without an agent."""

from toolsurface.harness.session.replay._replay import Replay, ReplayedCall, ReplayedRun, replay_runs, replay_table

__all__ = [
    "Replay",
    "ReplayedCall",
    "ReplayedRun",
    "replay_runs",
    "replay_table",
]
