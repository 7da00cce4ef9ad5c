"""Findability records: queries and their files, the tools per surface, and the ranks found."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze._text import tokenise
from toolsurface.harness.analyze.findability._scoring import (
    BM25_B,
    BM25_K1,
    FIELD_WEIGHTS,
    SCORERS,
    WORD_SCORERS,
    QueryFileError,
    UnknownTool,
)
from toolsurface.harness.files import read_json
from toolsurface.harness.surface import Snapshot, SurfaceDefinition, study_file

# The tools above the expected one a row keeps (what --confusion shows); its rank says how many there are.
ABOVE_KEPT = 10


@dataclass(frozen=True)
class Query:
    """A query and, per surface name, the tool a user asking it needs (None: no intended tool)."""

    text: str
    expected: dict[str, str | None] = field(default_factory=dict)

    def expected_for(self, surface: str) -> str | None:
        return self.expected.get(surface)

    def expected_of(self, surface: SurfaceTools) -> str | None:
        """The tool expected of this surface, keyed by its name or an alias (surface_aliases)."""
        key = surface.key_in(self.expected)
        return self.expected[key] if key is not None else None

    def names(self, surface: SurfaceTools) -> bool:
        """Whether this query says what it expects of the surface (a tool, or null: none)."""
        return surface.key_in(self.expected) is not None


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
    """A surface's name and its tools exactly as a client received them. `aliases`: what else a user's file may
    key it by (a snapshot file's own name, where it differs from the server's)."""

    name: str
    tools: list[dict[str, Any]]
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools]

    def key_in(self, expected: Mapping[str, Any]) -> str | None:
        """The key of `expected` that stands for this surface: its name, else an alias."""
        return next((key for key in (self.name, *self.aliases) if key in expected), None)

    def check_expected(self, queries: Sequence[Query], source: str) -> None:
        names = self.names
        for query in queries:
            wanted = query.expected_of(self)
            if wanted is not None and wanted not in names:
                raise UnknownTool(
                    f"{source}: query {query.text!r} expects {wanted!r}, "
                    f"which surface {self.name!r} does not have ({len(names)} tools: {', '.join(names)})"
                )


def surface_aliases(item: SurfaceDefinition | Snapshot) -> tuple[str, ...]:
    """What a user's file may key a surface by beside its name: its server's name where the surface goes by its
    file's (resolve_all), and a snapshot file's stem (`own.snap` for own.snap.json), the name it had before
    snapshots recorded their server's."""
    if isinstance(item, Snapshot) and item.origin is None:
        stem = item.path.name.removesuffix(".json")
        return tuple(dict.fromkeys(name for name in (*item.aliases, stem) if name != item.name))
    return ()


def load_tools(items: Sequence[SurfaceDefinition | Snapshot]) -> list[SurfaceTools]:
    """Every surface's tools as received: a definition is built and served, a snapshot read as recorded."""
    from toolsurface.harness.measure import listed

    return [
        SurfaceTools(name=item.name, tools=wire.tools, aliases=surface_aliases(item))
        for item, wire in zip(items, listed(items), strict=True)
    ]


def keyed_surfaces(queries: Sequence[Query], surfaces: Sequence[SurfaceTools], source: str, what: str) -> list[str]:
    """A user's file keys what it expects by surface: a file none of whose keys names a surface given checks
    nothing, so it is refused (it was written for another server, or before the server was renamed). Returns
    the keys that name no surface given, for a line saying so when some do."""
    keys = list(dict.fromkeys(key for query in queries for key in query.expected))
    matched = {key for surface in surfaces for key in keys if key in (surface.name, *surface.aliases)}
    if keys and not matched:
        given = ", ".join(surface.name for surface in surfaces)
        raise QueryFileError(
            f"{source}: its {what} expect tools of {_listed(keys)}, which names none of the surfaces given"
            f" ({given}): key each expected tool by a surface's name"
        )
    return [key for key in keys if key not in matched]


def _listed(keys: Sequence[str]) -> str:
    shown = ", ".join(repr(key) for key in keys[:5])
    return shown + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


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
    # The expected tool is not on the surface at all (renamed, removed, or misspelt in the file): a miss.
    unlisted: bool = False
    # The tools ranked above the expected one, best first (every tool ranked when it is not): the first
    # ABOVE_KEPT of them, and how many there are; what this scorer would take for it.
    above: list[str] = field(default_factory=list)
    above_count: int = 0

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
        if self.unlisted:
            data["unlisted"] = True
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
class FailingQuery:
    """A query on a surface whose expected tool some scorer asked for does not find at the rank checked: `rows`,
    one per such scorer, in the scorers' order."""

    surface: str
    query: str
    expected: str
    rows: list[FindabilityRow]

    @property
    def scorers(self) -> list[str]:
        return [r.scorer for r in self.rows]


@dataclass(frozen=True)
class SearchClient:
    """The client whose own search scored (by its name): its version, mode, and the max_results sent (None: not
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

    def checked(self) -> int:
        """How many rows expect a tool: what a gate rests on."""
        return sum(1 for s in self.surfaces for r in s.queries if r.expected is not None)

    def below(self, rank: int) -> list[tuple[str, FindabilityRow]]:
        """(surface, row) for every row whose expected tool is not found at `rank` or better."""
        return [(s.name, r) for s in self.surfaces for r in s.queries if r.misses(rank)]

    def checked_queries(self) -> int:
        """How many queries, each on each surface, expect a tool: what a gate counts."""
        return sum(
            1 for s in self.surfaces for row in {r.query: r for r in s.queries}.values() if row.expected is not None
        )

    def failing(self, rank: int) -> list[FailingQuery]:
        """Each query (on each surface) whose expected tool any scorer misses at `rank` or better, once, with the
        scorers that miss it."""
        found: dict[tuple[str, str], list[FindabilityRow]] = {}
        for name, row in self.below(rank):
            found.setdefault((name, row.query), []).append(row)
        return [FailingQuery(name, query, str(rows[0].expected), rows) for (name, query), rows in found.items()]

    def settings(self) -> dict[str, Any]:
        """How the ranks were made: each scorer's settings, the stop words, stemming, ties and the queries file."""
        data: dict[str, Any] = {
            "weights": dict(FIELD_WEIGHTS),
            "bm25": {"k1": BM25_K1, "b": BM25_B, "document": "field-weighted (terms repeated by field weight)"},
            "stem": self.stem,
            "ties": "list order",
            "queries": self.source,
        }
        if any(s in WORD_SCORERS for s in self.scorers):
            from toolsurface.harness.analyze.findability._stop_words import stop_words

            data["stop_words"] = stop_words().to_json()
        if "embedding" in self.scorers:
            from toolsurface.harness.analyze._embed import embedding_label

            data["embedding"] = {
                "model": embedding_label(),
                "tool": "its name's words, then its description's first sentence",
                "query": "its words less the stop words",
                "score": "cosine of the two vectors",
            }
        return data

    def to_json(self) -> dict[str, Any]:
        data = self.settings()
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
