"""Findability scoring: a tool's words per field, and the scorers that rank tools for a query: keyword and BM25 by
the query's words (its stop words left out), embedding by its meaning."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze._text import first_sentence, name_words, split_description, stem, tokenise
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    import numpy as np


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

# The scorers toolsurface computes itself (the default): two by the query's words and one by its meaning.
WORD_SCORERS = ("keyword", "bm25")
SCORERS = (*WORD_SCORERS, "embedding")


def client_scorers() -> tuple[str, ...]:
    """The scorers that are a real client's own search, each by the client's name: those whose cards read it."""
    from toolsurface.harness.agents import search_clients

    return search_clients()


def all_scorers() -> tuple[str, ...]:
    return (*SCORERS, *client_scorers())


class QueryFileError(ToolsurfaceError):
    """A queries or round-trip task file that cannot be read or lacks the expected shape."""


class UnknownTool(ToolsurfaceError):
    """A file names an intended tool that the surface does not have."""


# Tokens: split on case changes (taskNumber -> task number, HTTPServer -> http server), then lower-case
# runs of letters and digits; everything else (_, spaces, punctuation) separates. Whole words by default:
# "tasks" does not match "task", as in a word-boundary keyword search. The seed's recorded results are
# those of whole-word matching (with plurals folded, before-v2's system_memory would match "read page"
# through "pages" and push item_get to third). `use_stem` turns on the small suffix rule below.


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


# The most characters of a text the embedding scorer reads. The model's tokenizer does not truncate and pads a
# batch to its longest text: one description of a megabyte with no full stop would take gigabytes.
EMBEDDED_CHARS = 1_000


def embedding_text(tool: Mapping[str, Any]) -> str:
    """What the embedding scorer reads of a tool: its name's words, then its description's first sentence (its
    purpose, as FIELD_WEIGHTS has it; the rest lists parameters and cases, which pull a long description's
    vector away from what the tool is for), the first EMBEDDED_CHARS characters."""
    name = " ".join(name_words(str(tool.get("name", ""))))
    description = tool.get("description")
    first = first_sentence(description[:EMBEDDED_CHARS]) if isinstance(description, str) else ""
    return (f"{name}. {first}" if first else name)[:EMBEDDED_CHARS]


@dataclass(frozen=True)
class _Index:
    """One surface's tools, read once for every query: each tool's field words as sets, its field-weighted term
    counts and length, in how many tools each term occurs, the words of the tools' names (a stop word that is
    one still matches), and each tool's text for the embedding scorer (embedded when first asked for)."""

    docs: list[ToolFields]
    sets: list[dict[str, set[str]]]
    counts: list[Counter[str]]
    lengths: list[int]
    average: float
    having: Counter[str]
    named: frozenset[str]
    texts: list[str]

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
            named=frozenset(word for doc in docs for word in tokenise(doc.name)),
            texts=[embedding_text(tool) for tool in tools],
        )

    @functools.cached_property
    def vectors(self) -> np.ndarray:
        from toolsurface.harness.analyze._embed import embedder

        return embedder().vectors(self.texts)


def _query_words(query: str, index: _Index) -> list[str]:
    """The query's distinct words less its stop words (a word of a tool's name is none here)."""
    from toolsurface.harness.analyze.findability._stop_words import stop_words

    listed = stop_words().words
    return [w for w in dict.fromkeys(tokenise(query)) if w not in listed or w in index.named]


def _query_terms(query: str, use_stem: bool, index: _Index) -> list[str]:
    words = _query_words(query, index)
    return list(dict.fromkeys(stem(w) for w in words)) if use_stem else words


def embedding_query(query: str, index: _Index) -> str:
    """What the embedding scorer embeds of a query: its words less its stop words (an averaged embedding's
    vector is pulled toward every word), or the query as written when it has no other word."""
    return (" ".join(_query_words(query, index)) or query)[:EMBEDDED_CHARS]


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


def _embedding_scores(index: _Index, query: str, vector: np.ndarray | None) -> list[float]:
    """The cosine of the query's vector (embedded here unless given: `embedding_query`) and each tool's."""
    if vector is None:
        from toolsurface.harness.analyze._embed import embedder

        vector = embedder().vectors([embedding_query(query, index)])[0]
    return [float(score) for score in index.vectors @ vector] if index.docs else []


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

    def above(self, tool: str | None, most: int) -> list[str]:
        """The tools ranked above `tool` (every tool ranked, when it is not), the first `most` of them."""
        rank = self.rank_of(tool)
        return self.tools[: min(most, rank - 1 if rank is not None else len(self.tools))]


def rank_tools(tools: Sequence[Mapping[str, Any]], query: str, scorer: str, *, use_stem: bool = False) -> Ranked:
    """Rank tools for a query; only tools that score above 0 are ranked, ties broken by list order.

    keyword orders by (distinct query terms matched, score), bm25 by score alone, both over the query's words
    less its stop words; embedding by the cosine of the vectors of those words and of each tool's name words and
    first sentence. A `select:NAME,...` query ranks the tools it names, in its order, for every scorer."""
    return _rank(_Index.of(tools, use_stem), query, scorer, use_stem)


# `select:a,b` names tools outright, as in Claude Code's ToolSearch; a name may carry a client's
# `mcp__SERVER__` prefix.
_SELECT = re.compile(r"^select:(.+)$", re.I | re.S)
_CLIENT_PREFIX = re.compile(r"^mcp__[A-Za-z0-9._-]+?__")


def selected_names(query: str) -> list[str] | None:
    """The tool names a `select:` query names, in its order; None for a keyword query."""
    match = _SELECT.match(query.strip())
    if match is None:
        return None
    return [name.strip() for name in match.group(1).split(",") if name.strip()]


def _select(index: _Index, names: Sequence[str]) -> Ranked:
    """The named tools the surface has, in the query's order, each once; the names it lacks are missing."""
    tools = [doc.name for doc in index.docs]
    found: list[str] = []
    missing: list[str] = []
    for name in names:
        tool = name if name in tools else _CLIENT_PREFIX.sub("", name)
        if tool not in tools:
            missing.append(name)
        elif tool not in found:
            found.append(tool)
    return Ranked(
        tools=found, scores=[1.0] * len(found), matched=[1] * len(found), missing=missing, full_matches=len(found)
    )


def _rank(index: _Index, query: str, scorer: str, use_stem: bool, vector: np.ndarray | None = None) -> Ranked:
    """`vector`: the query's, embedded already (the embedding scorer embeds it otherwise)."""
    if scorer not in SCORERS:
        raise ValueError(f"unknown scorer {scorer!r}")
    selected = selected_names(query)
    if selected is not None:
        return _select(index, selected)
    terms = _query_terms(query, use_stem, index)
    docs = index.docs
    matched = _terms_matched(terms, index)
    if scorer == "keyword":
        scores = _keyword_scores(terms, index)
        order = sorted(range(len(docs)), key=lambda i: (-matched[i], -scores[i], i))
    elif scorer == "bm25":
        scores = _bm25_scores(terms, index)
        order = sorted(range(len(docs)), key=lambda i: (-scores[i], i))
    else:
        scores = _embedding_scores(index, query, vector)
        order = sorted(range(len(docs)), key=lambda i: (-scores[i], i))
    kept = [i for i in order if scores[i] > 0]
    return Ranked(
        tools=[docs[i].name for i in kept],
        scores=[scores[i] for i in kept],
        matched=[matched[i] for i in kept],
        missing=[t for t in terms if t not in index.having],
        full_matches=sum(1 for m in matched if m == len(terms)) if terms else 0,
    )


def bm25_pairs(
    tools: Sequence[Mapping[str, Any]], pairs: Sequence[tuple[int, int]], *, use_stem: bool = False
) -> list[float]:
    """For each (query, other) pair of indexes into `tools`, the BM25 score of the query tool's own words (each
    once, as a query's) against the other tool, with the whole list's document frequencies and mean length: how
    alike two tools read in words, scored for the pairs asked for only (a near-duplicate check asks for a few
    neighbours of each tool, never all pairs of a long list)."""
    import dataclasses

    index = _Index.of(tools, use_stem)
    asked: dict[int, list[int]] = {}
    for query, other in pairs:
        asked.setdefault(query, []).append(other)
    found: dict[tuple[int, int], float] = {}
    for query, others in asked.items():
        terms = list(dict.fromkeys(word for words in index.docs[query].fields.values() for word in words))
        # The same scorer on the asked tools alone: document frequencies, count and mean length stay the list's.
        some = dataclasses.replace(
            index, counts=[index.counts[o] for o in others], lengths=[index.lengths[o] for o in others]
        )
        found.update(zip(((query, o) for o in others), _bm25_scores(terms, some), strict=True))
    return [found[pair] for pair in pairs]
