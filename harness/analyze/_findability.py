"""Findability: the intended tool's rank for each query on each surface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.surface import Snapshot, SurfaceDefinition

if TYPE_CHECKING:
    pass
from harness.analyze._findability_model import (
    Findability,
    FindabilityRow,
    Query,
    QuerySet,
    SurfaceFindability,
    SurfaceTools,
    load_tools,
)
from harness.analyze._findability_scoring import SCORERS, _Index, _rank

__all__ = ["findability"]


def _surface_findability(surface: SurfaceTools, queries: Sequence[Query], use_stem: bool) -> SurfaceFindability:
    rows = []
    index = _Index.of(surface.tools, use_stem)
    for query in queries:
        expected = query.expected_for(surface.name)
        for scorer in SCORERS:
            ranked = _rank(index, query.text, scorer, use_stem)
            rows.append(
                FindabilityRow(
                    query=query.text,
                    scorer=scorer,
                    expected=expected,
                    rank=ranked.rank_of(expected),
                    top=ranked.top,
                    missing=ranked.missing,
                    full_matches=ranked.full_matches,
                )
            )
    return SurfaceFindability(name=surface.name, queries=rows)


def findability(
    items: Sequence[SurfaceDefinition | Snapshot], queries: QuerySet, *, use_stem: bool = False
) -> Findability:
    """Rank each surface's tools for every query with both scorers."""
    surfaces = load_tools(items)
    for surface in surfaces:
        surface.check_expected(queries.queries, queries.source)
    return Findability(
        source=queries.source,
        stem=use_stem,
        surfaces=[_surface_findability(s, queries.queries, use_stem) for s in surfaces],
    )
