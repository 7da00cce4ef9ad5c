"""Can an on-demand client find the intended tool? Rank every tool of a surface for a query, two ways.

On-demand clients (Claude Code's ToolSearch) start with tool names only and load up to five tools per
search, found by keywords over names and descriptions. This module ranks a surface's tools for a query
with two scorers over three fields of each tool -- its name, the first sentence of its description and
the rest of the description:

- `keyword`: the seed's keyword score. Every distinct query term adds the weight of each field that
  contains it (once per field, however often it occurs there). Tools are ordered first by how many
  distinct query terms they match, then by that score: a tool that matches "recall" and "project" once
  each ranks above one that says "project" in all three fields but never "recall".
- `bm25`: Okapi BM25 over one field-weighted document per tool, ordered by its score alone.

Partial matches: a tool that matches only some of a query's terms still scores and is ranked (a keyword
search returns its best partial matches), below every tool that matches more terms in the keyword
scorer. Each row reports the query terms that no tool of the surface matches (`missing`) and how many
tools match every term (`full_matches`): a query "finds no tool" when no tool matches all its terms,
and finds nothing at all (top null) when every term is missing. A tool that matches no term scores 0
and has no rank. Ties keep list order. Library only: returns records and strings.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import ToolsurfaceError
from harness.files import read_json
from harness.snapshot_file import Snapshot
from harness.surface import SurfaceDefinition

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = [
    "BM25_B",
    "BM25_K1",
    "BUNDLED_QUERIES",
    "FIELD_WEIGHTS",
    "SCORERS",
    "Findability",
    "FindabilityRow",
    "Query",
    "QueryFileError",
    "QuerySet",
    "Ranked",
    "SurfaceFindability",
    "SurfaceTools",
    "ToolFields",
    "UnknownTool",
    "findability",
    "findability_csv",
    "findability_json",
    "findability_rich",
    "load_queries",
    "load_tools",
    "parse_queries",
    "rank_tools",
    "read_json_file",
    "split_description",
    "tokenise",
    "tool_fields",
]

# Field weights, name > first sentence > rest. The name is what an on-demand client shows before
# loading anything and says what the tool is; the first sentence states its purpose; the rest lists
# parameters, kinds and edge cases and mentions many words in passing ("use task_patch", "if the task
# changed"). Evenly spaced: a term in the name alone counts as much as the same term in both the first
# sentence and the rest (3 = 2 + 1), and a first-sentence mention outweighs a passing one in the rest.
NAME_WEIGHT = 3
FIRST_SENTENCE_WEIGHT = 2
REST_WEIGHT = 1
FIELD_WEIGHTS: dict[str, int] = {"name": NAME_WEIGHT, "first_sentence": FIRST_SENTENCE_WEIGHT, "rest": REST_WEIGHT}

# Okapi BM25 with the usual parameters. The document of a tool is field-weighted: each field's terms are
# repeated by its weight (term frequency and length both count the repeats). This is BM25F with one
# length normalisation shared by all fields, not per-field b.
BM25_K1 = 1.2
BM25_B = 0.75

SCORERS = ("keyword", "bm25")

BUNDLED_QUERIES = Path(__file__).resolve().parent.parent / "surfaces" / "conderis" / "queries.json"


class QueryFileError(ToolsurfaceError):
    """A queries or round-trip task file that cannot be read or lacks the expected shape."""


class UnknownTool(ToolsurfaceError):
    """A file names an intended tool that the surface does not have."""


# Tokens: split on case changes (taskNumber -> task number, HTTPServer -> http server), then lower-case
# runs of letters and digits; everything else (_, spaces, punctuation) separates. Whole words by default:
# "tasks" does not match "task", as in a word-boundary keyword search. The seed's recorded results are
# those of whole-word matching (with plurals folded, before-v2's system_memory would match "read page"
# through "pages" and push item_get to third). `use_stem` turns on the small suffix rule below.
_CASE_LOWER_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_CASE_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A small suffix rule, applied alike to queries and tools: memories -> memory, tasks -> task,
    stored/store -> stor, blocked -> block, pending -> pend. Short words (read, use, is) stay whole."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def tokenise(text: str, *, use_stem: bool = False) -> list[str]:
    spaced = _CASE_ACRONYM.sub(r"\1 \2", _CASE_LOWER_UPPER.sub(r"\1 \2", text))
    words = _WORD.findall(spaced.lower())
    return [stem(w) for w in words] if use_stem else words


# The first sentence ends at the first ".", "!" or "?" followed by whitespace or the end, or at the first
# line break, whichever comes first; "e.g." and "i.e." do not end a sentence.
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?](?=\s|$)|\n", re.IGNORECASE)


def split_description(description: str) -> tuple[str, str]:
    text = description.strip()
    end = _SENTENCE_END.search(text)
    if end is None:
        return text, ""
    return text[: end.end()].strip(), text[end.end() :].strip()


@dataclass(frozen=True)
class ToolFields:
    """One tool's terms per field, in FIELD_WEIGHTS order."""

    name: str
    fields: dict[str, list[str]]


def tool_fields(tool: Mapping[str, Any], *, use_stem: bool = False) -> ToolFields:
    name = str(tool.get("name", ""))
    description = tool.get("description")
    first, rest = split_description(description if isinstance(description, str) else "")
    return ToolFields(
        name=name,
        fields={
            "name": tokenise(name, use_stem=use_stem),
            "first_sentence": tokenise(first, use_stem=use_stem),
            "rest": tokenise(rest, use_stem=use_stem),
        },
    )


def _query_terms(query: str, use_stem: bool) -> list[str]:
    return list(dict.fromkeys(tokenise(query, use_stem=use_stem)))


@dataclass(frozen=True)
class _Index:
    """One surface's tools, tokenised once for every query: each tool's field words as sets, its
    field-weighted term counts and length, and in how many tools each term occurs."""

    docs: list[ToolFields]
    sets: list[dict[str, set[str]]]
    counts: list[Counter[str]]
    lengths: list[int]
    average: float
    having: Counter[str]

    @classmethod
    def of(cls, tools: Sequence[Mapping[str, Any]], use_stem: bool) -> _Index:
        docs = [tool_fields(tool, use_stem=use_stem) for tool in tools]
        counts = [_weighted_counts(doc) for doc in docs]
        lengths = [sum(c.values()) for c in counts]
        having: Counter[str] = Counter()
        for c in counts:
            having.update(c.keys())
        return cls(
            docs=docs,
            sets=[{f: set(words) for f, words in doc.fields.items()} for doc in docs],
            counts=counts,
            lengths=lengths,
            average=(sum(lengths) / len(lengths) if lengths else 0.0) or 1.0,
            having=having,
        )


def _terms_matched(terms: Sequence[str], index: _Index) -> list[int]:
    return [sum(1 for t in terms if any(t in words for words in sets.values())) for sets in index.sets]


def _keyword_scores(terms: Sequence[str], index: _Index) -> list[float]:
    return [
        float(sum(FIELD_WEIGHTS[f] for t in terms for f, words in sets.items() if t in words)) for sets in index.sets
    ]


def _weighted_counts(doc: ToolFields) -> Counter[str]:
    counts: Counter[str] = Counter()
    for f, words in doc.fields.items():
        for word in words:
            counts[word] += FIELD_WEIGHTS[f]
    return counts


def _bm25_scores(terms: Sequence[str], index: _Index) -> list[float]:
    total = len(index.docs)
    scores = []
    for tf_doc, length in zip(index.counts, index.lengths, strict=True):
        score = 0.0
        for term in terms:
            tf = tf_doc.get(term, 0)
            if not tf:
                continue
            having = index.having[term]
            # The non-negative IDF (as in Lucene): a term in most tools still counts a little.
            idf = math.log(1 + (total - having + 0.5) / (having + 0.5))
            norm = BM25_K1 * (1 - BM25_B + BM25_B * length / index.average)
            score += idf * tf * (BM25_K1 + 1) / (tf + norm)
        scores.append(score)
    return scores


@dataclass(frozen=True)
class Ranked:
    """The tools that score for a query, best first, their scores and distinct query terms matched,
    and the query terms no tool has."""

    tools: list[str]
    scores: list[float]
    matched: list[int]
    missing: list[str]
    full_matches: int

    def rank_of(self, tool: str | None) -> int | None:
        if tool is None or tool not in self.tools:
            return None
        return self.tools.index(tool) + 1

    @property
    def top(self) -> str | None:
        return self.tools[0] if self.tools else None


def rank_tools(tools: Sequence[Mapping[str, Any]], query: str, scorer: str, *, use_stem: bool = False) -> Ranked:
    """Rank tools for a query; only tools that score above 0 are ranked, ties broken by list order.

    keyword orders by (distinct query terms matched, score), bm25 by score alone."""
    return _rank(_Index.of(tools, use_stem), query, scorer, use_stem)


def _rank(index: _Index, query: str, scorer: str, use_stem: bool) -> Ranked:
    if scorer not in SCORERS:
        raise ValueError(f"unknown scorer {scorer!r}")
    terms = _query_terms(query, use_stem)
    docs = index.docs
    matched = _terms_matched(terms, index)
    if scorer == "keyword":
        scores = _keyword_scores(terms, index)
        order = sorted(range(len(docs)), key=lambda i: (-matched[i], -scores[i], i))
    else:
        scores = _bm25_scores(terms, index)
        order = sorted(range(len(docs)), key=lambda i: (-scores[i], i))
    kept = [i for i in order if scores[i] > 0]
    return Ranked(
        tools=[docs[i].name for i in kept],
        scores=[scores[i] for i in kept],
        matched=[matched[i] for i in kept],
        missing=[t for t in terms if t not in index.having],
        full_matches=sum(1 for m in matched if m == len(terms)),
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
    import anyio

    from harness.measure import wire_list

    async def run() -> list[SurfaceTools]:
        return [SurfaceTools(name=item.name, tools=(await wire_list(item)).tools) for item in items]

    return anyio.run(run)


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


def findability_json(result: Findability) -> str:
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def findability_csv(result: Findability) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["surface", "query", "scorer", "expected", "rank", "top", "missing", "full_matches"])
    for s in result.surfaces:
        for r in s.queries:
            writer.writerow(
                [
                    s.name,
                    r.query,
                    r.scorer,
                    r.expected or "",
                    r.rank or "",
                    r.top or "",
                    " ".join(r.missing),
                    r.full_matches,
                ]
            )
    return out.getvalue()


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def findability_rich(result: Findability) -> list[RenderableType]:
    from rich.table import Table

    weights = ", ".join(f"{k} {v}" for k, v in FIELD_WEIGHTS.items())
    table = Table(
        title=f"Findability (keyword weights: {weights}; bm25 k1 {BM25_K1}, b {BM25_B}; stem {result.stem})",
        caption="rank: the expected tool's place among the tools that score (- = it scores nothing); "
        "all terms: tools that match every query term; missing: terms no tool has",
    )
    columns = ["surface", "query", "expected", "keyword rank", "keyword top", "bm25 rank", "bm25 top"]
    for column in [*columns, "all terms", "missing"]:
        table.add_column(column, justify="right" if column.endswith(("rank", "terms")) else "left")
    for s in result.surfaces:
        for text in dict.fromkeys(r.query for r in s.queries):
            keyword, bm25 = s.row(text, "keyword"), s.row(text, "bm25")
            table.add_row(
                s.name,
                text,
                _cell(keyword.expected),
                _cell(keyword.rank),
                _cell(keyword.top),
                _cell(bm25.rank),
                _cell(bm25.top),
                str(keyword.full_matches),
                ", ".join(keyword.missing) or "-",
            )
        table.add_section()
    return [table]
