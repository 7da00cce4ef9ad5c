"""Findability as JSON, CSV and rich tables."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType
from toolsurface.harness.analyze.findability._model import Findability
from toolsurface.harness.analyze.findability._scoring import BM25_B, BM25_K1, FIELD_WEIGHTS, SCORERS

__all__ = ["findability_csv", "findability_json", "findability_rich"]


def findability_json(result: Findability) -> str:
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def findability_csv(result: Findability) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    client = result.client is not None
    writer.writerow(
        ["surface", "query", "scorer", "expected", "rank", "top", "missing", "full_matches"]
        + (["returned"] if client else [])
    )
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
                + ([" ".join(r.returned or [])] if client else [])
            )
    return out.getvalue()


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def findability_rich(result: Findability) -> list[RenderableType]:
    if result.scorers != SCORERS:
        return _scorers_rich(result)
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


def _title(result: Findability) -> str:
    parts = []
    if "keyword" in result.scorers:
        parts.append("keyword weights: " + ", ".join(f"{k} {v}" for k, v in FIELD_WEIGHTS.items()))
    if "bm25" in result.scorers:
        parts.append(f"bm25 k1 {BM25_K1}, b {BM25_B}")
    if result.client is not None:
        sent = result.client.max_results
        limit = f"max_results {sent}" if sent is not None else "its default max_results"
        parts.append(f"{result.client.name} {result.client.version} {result.client.mode}, {limit}")
    return f"Findability ({'; '.join(parts)}; stem {result.stem})"


def _scorers_rich(result: Findability) -> list[RenderableType]:
    """Any choice of scorers but the default pair: each scorer's rank and top tool, a client's returned tools
    in its order, and with more than one scorer whether they agree."""
    from rich.table import Table

    many = len(result.scorers) > 1
    table = Table(
        title=_title(result),
        caption="rank: the expected tool's place (- = not found); a client's rank is its place among the tools the "
        "client's search returned, in its order" + ("; agree: every scorer gives it the same rank" if many else ""),
    )
    columns = ["surface", "query", "expected"]
    for scorer in result.scorers:
        columns += [
            f"{scorer} rank",
            f"{scorer} returned" if result.client and scorer == result.client.name else f"{scorer} top",
        ]
    columns += ["missing"] + (["agree"] if many else [])
    for column in columns:
        table.add_column(column, justify="right" if column.endswith("rank") else "left")
    for s in result.surfaces:
        for agreement in s.agreement(result.scorers):
            cells = [s.name, agreement.query, _cell(agreement.expected)]
            for scorer in result.scorers:
                row = s.row(agreement.query, scorer)
                shown = ", ".join(row.returned) or "(none)" if row.returned is not None else _cell(row.top)
                cells += [_cell(row.rank), shown]
            cells.append(", ".join(s.row(agreement.query, result.scorers[0]).missing) or "-")
            if many:
                cells.append("yes" if agreement.same_rank else "no")
            table.add_row(*cells)
        table.add_section()
    if not many or result.client is None:
        return [table]
    pairs = Table(title="Agreement over every surface and query")
    for column in ("scorers", "queries", "same rank", "same top tool", "both first or both not"):
        pairs.add_column(column, justify="left" if column == "scorers" else "right")
    for p in result.pairs():
        pairs.add_row(f"{p.a} / {p.b}", str(p.queries), str(p.same_rank), str(p.same_top), str(p.same_first))
    return [table, pairs]
