"""The diff: which tools and parts changed between two lists, each change classed by what it breaks, and
every changed text an agent is told marked for review, with what changed in it word by word; as JSON, CSV,
markdown, rich, GitHub annotations and JUnit."""

from toolsurface.harness.analyze.diff._diff import diff_parts, diff_surfaces, diff_tools
from toolsurface.harness.analyze.diff._model import (
    AnnotationChange,
    ChangeClass,
    FieldChange,
    ParameterChange,
    PartDiff,
    ReviewItem,
    SecurityItem,
    Size,
    SurfaceDiff,
    ToolDiff,
    worst,
)
from toolsurface.harness.analyze.diff._render import (
    DIFF_COLUMNS,
    diff_github,
    diff_junit,
    diff_view,
)
from toolsurface.harness.analyze.diff._words import Segment, WordChange, marked_segments, marked_text, word_changes

__all__ = [
    "DIFF_COLUMNS",
    "AnnotationChange",
    "ChangeClass",
    "FieldChange",
    "ParameterChange",
    "PartDiff",
    "ReviewItem",
    "SecurityItem",
    "Segment",
    "Size",
    "SurfaceDiff",
    "ToolDiff",
    "WordChange",
    "diff_github",
    "diff_junit",
    "diff_parts",
    "diff_surfaces",
    "diff_tools",
    "diff_view",
    "marked_segments",
    "marked_text",
    "word_changes",
    "worst",
]
