"""Findability: the intended tool's rank for each query on each surface, by our scorers and by a client's own
search (its search tool, observed in a real session)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from toolsurface.harness.analyze.findability._model import (
    ABOVE_KEPT,
    Findability,
    FindabilityRow,
    Query,
    QuerySet,
    SearchClient,
    SurfaceFindability,
    SurfaceTools,
    keyed_surfaces,
    load_tools,
)
from toolsurface.harness.analyze.findability._scoring import (
    SCORERS,
    _Index,
    _rank,
    all_scorers,
    client_scorers,
    embedding_query,
)
from toolsurface.harness.surface import Snapshot, SurfaceDefinition

if TYPE_CHECKING:
    import numpy as np

    from toolsurface.harness.session.tool_search import SearchRequest, ToolSearchRun

# Runs searches through a client's own tool search: one run per surface, in the order of the surfaces.
SearchObserver = Callable[[Sequence["SearchRequest"]], Sequence["ToolSearchRun"]]


def search_requests(texts: Sequence[str], max_results: int | None = None) -> list[SearchRequest]:
    """One search per query text, the text exactly as given."""
    from toolsurface.harness.session.tool_search import SearchRequest

    return [SearchRequest(text, max_results) for text in texts]


def _client_rows(
    query: Query, expected: str | None, run: ToolSearchRun, n: int, keyword: FindabilityRow
) -> FindabilityRow:
    search = run.searches[n]
    returned = search.returned
    rank = returned.index(expected) + 1 if expected is not None and expected in returned else None
    above = returned[: rank - 1] if rank is not None else returned if expected is not None else []
    return FindabilityRow(
        query=query.text,
        scorer=run.client,
        expected=expected,
        rank=rank,
        top=returned[0] if returned else None,
        missing=keyword.missing,
        full_matches=keyword.full_matches,
        returned=list(returned),
        next_tools=list(search.tools_after),
        answer=search.answer,
        unlisted=keyword.unlisted,
        above=list(above[:ABOVE_KEPT]),
        above_count=len(above),
    )


def _surface_findability(
    surface: SurfaceTools,
    queries: Sequence[Query],
    use_stem: bool,
    scorers: Sequence[str],
    run: ToolSearchRun | None,
) -> SurfaceFindability:
    """Each query's row per scorer; keyword's is made for a client's rows too (they take its words missing)."""
    rows = []
    index = _Index.of(surface.tools, use_stem)
    names = set(surface.names)
    ours = [s for s in SCORERS if s in scorers or (s == "keyword" and run is not None)]
    vectors = _query_vectors(queries, index) if "embedding" in ours else None
    for n, query in enumerate(queries):
        expected = query.expected_of(surface)
        unlisted = expected is not None and expected not in names
        computed: dict[str, FindabilityRow] = {}
        for scorer in ours:
            ranked = _rank(index, query.text, scorer, use_stem, vectors[n] if vectors is not None else None)
            rank = ranked.rank_of(expected)
            computed[scorer] = FindabilityRow(
                query=query.text,
                scorer=scorer,
                expected=expected,
                rank=rank,
                top=ranked.top,
                missing=ranked.missing,
                full_matches=ranked.full_matches,
                unlisted=unlisted,
                above=ranked.above(expected, ABOVE_KEPT) if expected is not None else [],
                above_count=(rank - 1 if rank is not None else len(ranked.tools)) if expected is not None else 0,
            )
        for scorer in scorers:
            if scorer in computed:
                rows.append(computed[scorer])
            else:
                assert run is not None
                rows.append(_client_rows(query, expected, run, n, computed["keyword"]))
    return SurfaceFindability(name=surface.name, queries=rows)


def _query_vectors(queries: Sequence[Query], index: _Index) -> np.ndarray:
    """Every query's vector for the embedding scorer on one surface, embedded at once."""
    from toolsurface.harness.analyze._embed import embedder

    return embedder().vectors([embedding_query(q.text, index) for q in queries])


def _say_unmatched(keys: Sequence[str], source: str) -> None:
    """Keys of a user's file that name no surface given and none installed: most likely a name misspelt, or
    the server renamed since the file was written."""
    from toolsurface.harness.notices import notice
    from toolsurface.harness.surface import known_names

    known = set(known_names())
    strays = [key for key in keys if key not in known]
    if strays:
        notice(f"{source}: {', '.join(map(repr, strays))} {'names' if len(strays) == 1 else 'name'} no surface given")


def findability(
    items: Sequence[SurfaceDefinition | Snapshot],
    queries: QuerySet,
    *,
    use_stem: bool = False,
    scorers: Sequence[str] = SCORERS,
    observe: SearchObserver | None = None,
    max_results: int | None = None,
) -> Findability:
    """Rank each surface's tools for every query with each scorer (default: keyword, bm25 and embedding).

    A client's name (one of `client_scorers()`) is its own search: `observe` runs the queries, exactly as given
    (with `max_results` if given), through it once per surface, after the surfaces and the queries are checked."""
    searching = [s for s in scorers if s not in SCORERS]
    if [s for s in searching if s not in client_scorers()] or not scorers:
        raise ValueError(f"scorers {list(scorers)!r}: expected some of {', '.join(all_scorers())}")
    if len(searching) > 1:
        raise ValueError(f"scorers {list(scorers)!r}: one client's own search at a time")
    surfaces = load_tools(items)
    _say_unmatched(keyed_surfaces(queries.queries, surfaces, queries.source, "queries"), queries.source)
    runs: list[ToolSearchRun | None] = [None] * len(surfaces)
    client: SearchClient | None = None
    if searching:
        if observe is None:
            raise ValueError("a client's own search needs `observe` to run it")
        runs = list(observe(search_requests([q.text for q in queries.queries], max_results)))
        if len(runs) != len(surfaces) or any(r is None or len(r.searches) != len(queries.queries) for r in runs):
            raise ValueError("the observed searches do not match the surfaces and queries")
        first = runs[0]
        assert first is not None
        client = SearchClient(first.client, first.version, first.mode, max_results)
    return Findability(
        source=queries.source,
        stem=use_stem,
        surfaces=[
            _surface_findability(s, queries.queries, use_stem, scorers, run)
            for s, run in zip(surfaces, runs, strict=True)
        ],
        scorers=tuple(scorers),
        client=client,
    )
