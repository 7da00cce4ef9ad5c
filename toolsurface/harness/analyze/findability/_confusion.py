"""Which tool is taken for which: for each query, the tools each scorer ranks above the expected one, and per pair of
tools of a surface, how often each was ranked first where the other was expected (a confusion matrix, its empty
cells left out)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolsurface.harness.analyze.findability._model import Findability

__all__ = ["ConfusedPair", "Confusion", "QueryConfusion", "confusion"]


@dataclass(frozen=True)
class QueryConfusion:
    """One query on one surface: each scorer's rank of the expected tool and the tools it ranks above it (every tool
    it ranks when it does not rank the expected one): the first few, and how many more there are."""

    surface: str
    query: str
    expected: str
    ranks: dict[str, int | None]
    above: dict[str, list[str]]
    more: dict[str, int]
    unlisted: bool = False

    def to_json(self) -> dict[str, Any]:
        data = {"surface": self.surface, "query": self.query, "expected": self.expected, "ranks": self.ranks}
        return {**data, "above": self.above, "more_above": self.more, **({"unlisted": True} if self.unlisted else {})}


@dataclass(frozen=True)
class ConfusedPair:
    """Two tools of a surface: how often a scorer ranked `a` first where `b` was expected (`a_for_b`) and the other
    way round; `scorers`: how many of those each scorer made; `queries`: the queries they were made for."""

    surface: str
    a: str
    b: str
    a_for_b: int
    b_for_a: int
    scorers: dict[str, int]
    queries: list[str]

    @property
    def times(self) -> int:
        return self.a_for_b + self.b_for_a

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "a": self.a,
            "b": self.b,
            "a_for_b": self.a_for_b,
            "b_for_a": self.b_for_a,
            "scorers": self.scorers,
            "queries": self.queries,
        }


@dataclass(frozen=True)
class Confusion:
    queries: list[QueryConfusion]
    pairs: list[ConfusedPair]

    def to_json(self) -> dict[str, Any]:
        return {"queries": [q.to_json() for q in self.queries], "pairs": [p.to_json() for p in self.pairs]}


def confusion(result: Findability) -> Confusion:
    """Every query that expects a tool of a surface, and the pairs of tools one was taken for the other, most
    often first (then by surface and the order they were first taken in). A tool not on the surface is taken
    for nothing: its queries are shown, and make no pair."""
    queries: list[QueryConfusion] = []
    taken: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for s in result.surfaces:
        for agreement in s.agreement(result.scorers):
            if agreement.expected is None:
                continue
            rows = [s.row(agreement.query, scorer) for scorer in result.scorers]
            queries.append(
                QueryConfusion(
                    surface=s.name,
                    query=agreement.query,
                    expected=agreement.expected,
                    ranks={r.scorer: r.rank for r in rows},
                    above={r.scorer: list(r.above) for r in rows},
                    more={r.scorer: r.above_count - len(r.above) for r in rows},
                    unlisted=rows[0].unlisted,
                )
            )
            for row in rows:
                if not row.unlisted and row.top is not None and row.top != row.expected:
                    taken.setdefault((s.name, row.top, agreement.expected), []).append((row.scorer, row.query))
    return Confusion(queries, _pairs(taken, result.scorers))


def _pairs(taken: dict[tuple[str, str, str], list[tuple[str, str]]], scorers: tuple[str, ...]) -> list[ConfusedPair]:
    """`taken`: per (surface, tool taken, tool expected), each (scorer, query) that took it. A pair's `a` is the
    tool taken the more often for the other (the one taken first, when as often)."""
    pairs: list[ConfusedPair] = []
    done: set[tuple[str, ...]] = set()
    for surface, first, second in taken:
        key = (surface, *sorted((first, second)))
        if key in done:
            continue
        done.add(key)
        one, other = taken.get((surface, first, second), []), taken.get((surface, second, first), [])
        a, b, a_for_b, b_for_a = (first, second, one, other) if len(one) >= len(other) else (second, first, other, one)
        made = [scorer for scorer, _ in a_for_b + b_for_a]
        pairs.append(
            ConfusedPair(
                surface=surface,
                a=a,
                b=b,
                a_for_b=len(a_for_b),
                b_for_a=len(b_for_a),
                scorers={scorer: made.count(scorer) for scorer in scorers if scorer in made},
                queries=list(dict.fromkeys(query for _, query in a_for_b + b_for_a)),
            )
        )
    return sorted(pairs, key=lambda p: -p.times)
