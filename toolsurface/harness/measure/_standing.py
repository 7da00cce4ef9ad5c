"""Where each measured list stands among the corpus of public servers' lists (harness.corpus): its o200k tokens
and its tokens a tool ranked among the figures counted when the corpus was refreshed. Nothing of the corpus is
read but its index and its figures, and nothing of it is counted here; a list's own figures as the corpus keeps
them are made here too, so the corpus's and measure's are one count."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING

from toolsurface.harness.measure._measure import Measurement, SurfaceMeasurement
from toolsurface.harness.measure._tokens import ENCODING_NAME, count_tokens

if TYPE_CHECKING:
    from toolsurface.harness.corpus import CorpusFigures, ServerFigures

__all__ = ["server_figures", "with_standing"]


def _o200k_tokens(m: Measurement, s: SurfaceMeasurement) -> int:
    """The list's o200k tokens, whichever counter gave its `tokens`."""
    if m.encoding == ENCODING_NAME and s.tokens is not None:
        return s.tokens
    return count_tokens(s.text)


def _digest(s: SurfaceMeasurement) -> str:
    """The sha256 of the list's text, the compact JSON of its tools array: the corpus index's tools_sha256."""
    return hashlib.sha256(s.text.encode("utf-8")).hexdigest()


def with_standing(m: Measurement, figures: CorpusFigures | None = None) -> Measurement:
    """`m` with each surface's standing among the corpus's lists (`figures`, default: the corpus's, read once);
    a CorpusError naming the file when they cannot be read or are counted by another encoding."""
    from toolsurface.harness.corpus import CorpusError, corpus_figures, stand

    figures = corpus_figures() if figures is None else figures
    if figures.counter != ENCODING_NAME:
        raise CorpusError(f"{figures.path}: its tokens are counted by {figures.counter}, not {ENCODING_NAME}")
    surfaces = [replace(s, standing=stand(figures, _o200k_tokens(m, s), s.tools, _digest(s))) for s in m.surfaces]
    return replace(m, surfaces=surfaces)


def server_figures(m: Measurement, s: SurfaceMeasurement) -> ServerFigures:
    """A list's figures as the corpus keeps them, from its measurement by o200k (benchmarks.corpus writes them,
    the tests count the snapshots again): the largest tool by its own chars, as the report's tables name it."""
    from toolsurface.harness.corpus import ServerFigures

    if m.encoding != ENCODING_NAME or s.tokens is None:
        raise ValueError(f"the corpus keeps {ENCODING_NAME} figures, and {s.name} was counted by {m.encoding}")
    largest = s.largest(1)[0] if s.per_tool else None
    return ServerFigures(
        name=s.name,
        tools_sha256=_digest(s),
        tools=s.tools,
        chars=s.chars,
        tokens=s.tokens,
        tokens_per_tool=round(s.tokens / s.tools, 2) if s.tools else None,
        largest_tool=largest.name if largest is not None else None,
        largest_tool_chars=largest.chars if largest is not None else None,
        largest_tool_tokens=largest.tokens if largest is not None else None,
    )
