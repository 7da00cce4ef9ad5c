"""Merging the shards of one study, run apart, into one study folder."""

from toolsurface.harness.session.merge._merge import MergeOutcome, merge_shards

__all__ = [
    "MergeOutcome",
    "merge_shards",
]
