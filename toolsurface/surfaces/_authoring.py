"""The authoring helpers, where the bundled surfaces have always imported them from; their home is
`harness.surface` (the engine in `stubs.engine` builds tools with them too)."""

from toolsurface.harness.surface import ToolData, annotations_for, join_words, make_tool, object_schema, prop

__all__ = ["ToolData", "annotations_for", "join_words", "make_tool", "object_schema", "prop"]
