"""Findability records: queries and their files, the tools per surface, and the ranks found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze._text import tokenise
from toolsurface.harness.files import read_json
from toolsurface.harness.surface import Snapshot, SurfaceDefinition, study_file

if TYPE_CHECKING:
    pass
from toolsurface.harness.analyze.findability._scoring import (
    BM25_B,
    BM25_K1,
    FIELD_WEIGHTS,
    SCORERS,
    QueryFileError,
    UnknownTool,
)


@dataclass(frozen=True)
class Query:
    """A query and, per surface name, the tool a user asking it needs (None: no intended tool)."""

    text: str
    expected: dict[str, str | None] = field(default_factory=dict)

    def expected_for(self, surface: str) -> str | None:
        return self.expected.get(surface)


@dataclass(frozen=True)
class QuerySet:
    source: str
    queries: list[Query]


def read_json_file(path: Path) -> Any:
    """A JSON file, or a QueryFileError naming it."""
    return read_json(path, QueryFileError)


def parse_queries(items: Any, where: str) -> list[Query]:
    """A non-empty list of {"query": text, "expected": {surface: tool or null}}; `where` names the place."""
    if not isinstance(items, list) or not items:
        raise QueryFileError(f"{where}: expected a non-empty list of queries")
    queries = []
    for index, item in enumerate(items):
        at = f"{where}[{index}]"
        if not isinstance(item, dict):
            raise QueryFileError(f"{at}: expected an object with query and expected")
        text = item.get("query")
        if not isinstance(text, str) or not tokenise(text):
            raise QueryFileError(f"{at}: query must be a string with at least one word")
        expected = item.get("expected", {})
        if not isinstance(expected, dict) or not all(isinstance(v, str) or v is None for v in expected.values()):
            raise QueryFileError(f'{at}: expected must be an object {{"surface": "tool name" or null}}')
        queries.append(Query(text=text, expected=dict(expected)))
    return queries


def load_queries(path: Path | None = None) -> QuerySet:
    """A queries file {"queries": [...]}; without a path, the default study's queries."""
    path = path or study_file((), "queries")
    data = read_json_file(path)
    if not isinstance(data, dict) or "queries" not in data:
        raise QueryFileError(f'{path}: not a queries file: expected a JSON object {{"queries": [...]}}')
    queries = parse_queries(data["queries"], f"{path}: queries")
    drafts = sum(1 for item in data["queries"] if isinstance(item, dict) and item.get("draft") is True)
    if drafts:
        from toolsurface.harness.notices import notice

        notice(
            f"{path}: {drafts} of {len(queries)} queries are still drafts (toolsurface new queries made them of"
            " each tool's own words, so each finds its tool): rewrite them in your users' words"
        )
    return QuerySet(source=str(path), queries=queries)


@dataclass(frozen=True)
class SurfaceTools:
    """A surface's name and its tools exactly as a client received them."""

    name: str
    tools: list[dict[str, Any]]

    @property
    def names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools]

    def check_expected(self, queries: Sequence[Query], source: str) -> None:
        names = self.names
        for query in queries:
            wanted = query.expected_for(self.name)
            if wanted is not None and wanted not in names:
                raise UnknownTool(
                    f"{source}: query {query.text!r} expects {wanted!r}, "
                    f"which surface {self.name!r} does not have ({len(names)} tools: {', '.join(names)})"
                )


def load_tools(items: Sequence[SurfaceDefinition | Snapshot]) -> list[SurfaceTools]:
    """Every surface's tools as received: a definition is built and served, a snapshot read as recorded."""
    from toolsurface.harness.measure import listed

    return [SurfaceTools(name=item.name, tools=wire.tools) for item, wire in zip(items, listed(items), strict=True)]


@dataclass(frozen=True)
class FindabilityRow:
    """The expected tool's rank for one query by one scorer. `missing` and `full_matches` describe the query
    against the surface's words (the same for every scorer). A client's own search also keeps what it
    `returned`, in its order (its rank is the place there), the tools array of its `next_tools` request,
    and its `answer` when it returned none."""

    query: str
    scorer: str
    expected: str | None
    rank: int | None
    top: str | None
    missing: list[str]
    full_matches: int
    returned: list[str] | None = None
    next_tools: list[str] | None = None
    answer: str | None = None

    def misses(self, rank: int) -> bool:
        """Whether the expected tool is not found at `rank` or better (a query that expects none misses nothing)."""
        return self.expected is not None and (self.rank is None or self.rank > rank)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "query": self.query,
            "scorer": self.scorer,
            "expected": self.expected,
            "rank": self.rank,
            "top": self.top,
            "missing": self.missing,
            "full_matches": self.full_matches,
        }
        if self.returned is not None:
            data.update(returned=self.returned, next_tools=self.next_tools, answer=self.answer)
        return data


@dataclass(frozen=True)
class Agreement:
    """One query on one surface: every scorer's rank of the expected tool and its top tool."""

    query: str
    expected: str | None
    ranks: dict[str, int | None]
    tops: dict[str, str | None]

    @property
    def same_rank(self) -> bool:
        return len(set(self.ranks.values())) == 1

    @property
    def same_top(self) -> bool:
        return len(set(self.tops.values())) == 1

    @property
    def first(self) -> list[str]:
        """The scorers that rank the expected tool first."""
        return [scorer for scorer, rank in self.ranks.items() if rank == 1]


@dataclass(frozen=True)
class PairAgreement:
    """Two scorers over every surface and query: how often they give the expected tool the same rank, put the
    same tool on top, and agree whether the expected tool comes first."""

    a: str
    b: str
    queries: int
    same_rank: int
    same_top: int
    same_first: int


@dataclass(frozen=True)
class SearchClient:
    """The client whose own search scored (claude): its version, mode, and the max_results sent (None: not
    sent, the client's default)."""

    name: str
    version: str
    mode: str
    max_results: int | None = None


@dataclass(frozen=True)
class SurfaceFindability:
    name: str
    queries: list[FindabilityRow]

    def row(self, query: str, scorer: str) -> FindabilityRow:
        return next(r for r in self.queries if r.query == query and r.scorer == scorer)

    def agreement(self, scorers: Sequence[str]) -> list[Agreement]:
        found = []
        for text in dict.fromkeys(r.query for r in self.queries):
            rows = [self.row(text, scorer) for scorer in scorers]
            found.append(
                Agreement(
                    query=text,
                    expected=rows[0].expected,
                    ranks={r.scorer: r.rank for r in rows},
                    tops={r.scorer: r.top for r in rows},
                )
            )
        return found


@dataclass(frozen=True)
class Findability:
    source: str
    stem: bool
    surfaces: list[SurfaceFindability]
    scorers: tuple[str, ...] = SCORERS
    client: SearchClient | None = None

    def surface(self, name: str) -> SurfaceFindability:
        return next(s for s in self.surfaces if s.name == name)

    def pairs(self) -> list[PairAgreement]:
        """Every pair of this result's scorers, over all its surfaces and queries."""
        agreements = [a for s in self.surfaces for a in s.agreement(self.scorers)]
        return [
            PairAgreement(
                a=a,
                b=b,
                queries=len(agreements),
                same_rank=sum(1 for g in agreements if g.ranks[a] == g.ranks[b]),
                same_top=sum(1 for g in agreements if g.tops[a] == g.tops[b]),
                same_first=sum(1 for g in agreements if (g.ranks[a] == 1) == (g.ranks[b] == 1)),
            )
            for a, b in combinations(self.scorers, 2)
        ]

    def below(self, rank: int) -> list[tuple[str, FindabilityRow]]:
        """(surface, row) for every row whose expected tool is not found at `rank` or better."""
        return [(s.name, r) for s in self.surfaces for r in s.queries if r.misses(rank)]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "weights": dict(FIELD_WEIGHTS),
            "bm25": {"k1": BM25_K1, "b": BM25_B, "document": "field-weighted (terms repeated by field weight)"},
            "stem": self.stem,
            "ties": "list order",
            "queries": self.source,
        }
        if self.scorers != SCORERS:
            data["scorers"] = list(self.scorers)
        if self.client is not None:
            data[self.client.name] = {
                "version": self.client.version,
                "mode": self.client.mode,
                "max_results": self.client.max_results,
                "rank": "the expected tool's place among the tools its search returned, in its order",
            }
        data["surfaces"] = [{"name": s.name, "queries": [r.to_json() for r in s.queries]} for s in self.surfaces]
        if self.client is not None and len(self.scorers) > 1:
            data["agreement"] = {
                "pairs": [vars(p) for p in self.pairs()],
                "queries": [
                    {
                        "surface": s.name,
                        "query": g.query,
                        "expected": g.expected,
                        "ranks": g.ranks,
                        "tops": g.tops,
                        "same_rank": g.same_rank,
                        "same_top": g.same_top,
                        "first": g.first,
                    }
                    for s in self.surfaces
                    for g in s.agreement(self.scorers)
                ],
            }
        return data
