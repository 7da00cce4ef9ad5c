"""The columns of measure's tables, each declared once: its key (measure's CSV files) and its label (the report's
tables and the page). A figure one counter counts is headed by its column and the counter: `tokens (harmony)`."""

from __future__ import annotations

from toolsurface.harness.output import Column

__all__ = [
    "BY_KINDS_COLUMNS",
    "COUNTERS_COLUMNS",
    "PARTS_COLUMNS",
    "PER_TOOL_COLUMNS",
    "STANDING_COLUMNS",
    "SURFACE_COLUMNS",
    "MeasureColumns",
]


class MeasureColumns:
    """Every column of measure's tables, by name (a namespace: `MeasureColumns.marginal_tokens`)."""

    surface = Column("surface")
    title = Column("title")
    tool = Column("tool")
    tools = Column("tools", numeric=True)
    chars = Column("chars", numeric=True)
    tokens = Column("tokens", numeric=True)
    marginal_tokens = Column("marginal_tokens", "marginal tokens", numeric=True)
    largest_tool = Column("largest_tool", "largest tool")
    kinds = Column("kinds", numeric=True)
    kind_added = Column("kind_added", "kind added")
    growth_kind = Column("growth_kind", "grown by")
    growth_tools = Column("growth_tools", "growth tools", numeric=True)
    growth_chars = Column("growth_chars", "growth chars", numeric=True)
    growth_tokens = Column("growth_tokens", "growth tokens", numeric=True)
    protocol = Column("protocol_version", "protocol")
    part = Column("part")
    advertised = Column("advertised")
    entries = Column("entries", numeric=True)
    counter = Column("counter")
    source = Column("source")
    framing = Column("framing", numeric=True)
    ratio_to_o200k = Column("ratio_to_o200k", "ratio to o200k", numeric=True)
    tokens_percentile = Column("tokens_percentile", "tokens percentile", numeric=True)
    tokens_per_tool = Column("tokens_per_tool", "tokens a tool", numeric=True)
    tokens_per_tool_percentile = Column("tokens_per_tool_percentile", "tokens a tool percentile", numeric=True)
    corpus_servers = Column("corpus_servers", "corpus servers", numeric=True)
    corpus_listed = Column("corpus_listed", "corpus listed")
    standing_counter = Column("standing_counter", "standing counter")


# measure.csv, a row per surface; per_tool.csv, a row per tool; by_kinds.csv, a row per number of kinds;
# parts.csv, a row per part of a surface; counters.csv, a row per surface and counter.
SURFACE_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.title,
    MeasureColumns.tools,
    MeasureColumns.chars,
    MeasureColumns.tokens,
    MeasureColumns.growth_kind,
    MeasureColumns.growth_tools,
    MeasureColumns.growth_chars,
    MeasureColumns.growth_tokens,
    MeasureColumns.protocol,
)
PER_TOOL_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.tool,
    MeasureColumns.chars,
    MeasureColumns.tokens,
    MeasureColumns.marginal_tokens,
)
BY_KINDS_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.kinds,
    MeasureColumns.kind_added,
    MeasureColumns.tools,
    MeasureColumns.chars,
    MeasureColumns.tokens,
)
PARTS_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.part,
    MeasureColumns.advertised,
    MeasureColumns.entries,
    MeasureColumns.chars,
    MeasureColumns.tokens,
)
COUNTERS_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.counter,
    MeasureColumns.source,
    MeasureColumns.tokens,
    MeasureColumns.framing,
    MeasureColumns.ratio_to_o200k,
    MeasureColumns.growth_tokens,
)
# Where each list stands among the corpus's (measure.with_standing): in measure.csv after SURFACE_COLUMNS, when asked.
STANDING_COLUMNS = (
    MeasureColumns.tokens_percentile,
    MeasureColumns.tokens_per_tool,
    MeasureColumns.tokens_per_tool_percentile,
    MeasureColumns.corpus_servers,
    MeasureColumns.corpus_listed,
    MeasureColumns.standing_counter,
)
