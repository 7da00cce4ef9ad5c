"""Findability as JSON, CSV and rich tables."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType
from harness.analyze._findability_model import Findability
from harness.analyze._findability_scoring import BM25_B, BM25_K1, FIELD_WEIGHTS

__all__ = ["findability_csv", "findability_json", "findability_rich"]


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
