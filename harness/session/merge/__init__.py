"""Merging the shards of one study, run apart, into one study folder."""

from harness.session.merge._merge import MergeOutcome, merge_shards

__all__ = [
    "MergeOutcome",
    "merge_shards",
]
