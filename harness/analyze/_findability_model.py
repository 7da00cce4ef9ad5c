"""Findability records: queries and their files, the tools per surface, and the ranks found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.analyze._text import tokenise
from harness.files import read_json
from harness.surface import Snapshot, SurfaceDefinition

if TYPE_CHECKING:
    pass
from harness.analyze._findability_scoring import (
    BM25_B,
    BM25_K1,
    BUNDLED_QUERIES,
    FIELD_WEIGHTS,
    QueryFileError,
    UnknownTool,
)

__all__ = [
    "Findability",
    "FindabilityRow",
    "Query",
    "QuerySet",
    "SurfaceFindability",
    "SurfaceTools",
    "load_queries",
    "load_tools",
    "parse_queries",
    "read_json_file",
]


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
    """A queries file {"queries": [...]}; without a path, the bundled Conderis queries."""
    path = path or BUNDLED_QUERIES
    data = read_json_file(path)
    if not isinstance(data, dict) or "queries" not in data:
        raise QueryFileError(f'{path}: not a queries file: expected a JSON object {{"queries": [...]}}')
    return QuerySet(source=str(path), queries=parse_queries(data["queries"], f"{path}: queries"))


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
    from harness.measure import listed

    return [SurfaceTools(name=item.name, tools=wire.tools) for item, wire in zip(items, listed(items), strict=True)]


@dataclass(frozen=True)
class FindabilityRow:
    query: str
    scorer: str
    expected: str | None
    rank: int | None
    top: str | None
    missing: list[str]
    full_matches: int


@dataclass(frozen=True)
class SurfaceFindability:
    name: str
    queries: list[FindabilityRow]

    def row(self, query: str, scorer: str) -> FindabilityRow:
        return next(r for r in self.queries if r.query == query and r.scorer == scorer)


@dataclass(frozen=True)
class Findability:
    source: str
    stem: bool
    surfaces: list[SurfaceFindability]

    def surface(self, name: str) -> SurfaceFindability:
        return next(s for s in self.surfaces if s.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "weights": dict(FIELD_WEIGHTS),
            "bm25": {"k1": BM25_K1, "b": BM25_B, "document": "field-weighted (terms repeated by field weight)"},
            "stem": self.stem,
            "ties": "list order",
            "queries": self.source,
            "surfaces": [
                {
                    "name": s.name,
                    "queries": [
                        {
                            "query": r.query,
                            "scorer": r.scorer,
                            "expected": r.expected,
                            "rank": r.rank,
                            "top": r.top,
                            "missing": r.missing,
                            "full_matches": r.full_matches,
                        }
                        for r in s.queries
                    ],
                }
                for s in self.surfaces
            ],
        }
