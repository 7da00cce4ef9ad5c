"""Sessions: studies of agents against the stubs. One subpackage per concept: plan (what a study is and its run
matrix), run (the runs), record (a run on disk), score (the study's tables), merge (shards), replay, gate (the
seed's), study (from start to end), tool_search (Claude Code's own). Stubs are started by
toolsurface.stubs.start.

Each subpackage's face says what it offers; this package re-exports none of them.
"""

__all__: list[str] = []
