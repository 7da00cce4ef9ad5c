"""Findability's view (every table format is rendered from it), GitHub annotations and JUnit XML, and what each scorer takes
for the expected tool (--confusion). A check (`fail_below`, the CLI's --fail-below-rank) fails each query whose
expected tool a scorer does not find at that rank or better."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolsurface.harness.analyze.findability._confusion import Confusion, QueryConfusion, confusion
from toolsurface.harness.analyze.findability._model import (
    Agreement,
    FailingQuery,
    Findability,
    FindabilityRow,
    SurfaceFindability,
)
from toolsurface.harness.analyze.findability._scoring import (
    BM25_B,
    BM25_K1,
    FIELD_WEIGHTS,
    WORD_SCORERS,
)
from toolsurface.harness.output import Column, Level, Table, Text, View, github_line, shown

# A row per surface, query and scorer; `returned` too when a client's own search was observed.
FINDABILITY_COLUMNS = tuple(
    Column(key) for key in ("surface", "query", "scorer", "expected", "rank", "top", "missing", "full_matches")
)
RETURNED = Column("returned")


def _records(result: Findability) -> Table:
    client = result.client is not None
    rows = [
        [s.name, r.query, r.scorer, r.expected, r.rank, r.top, " ".join(r.missing), r.full_matches]
        + ([" ".join(r.returned or [])] if client else [])
        for s in result.surfaces
        for r in s.queries
    ]
    return Table((*FINDABILITY_COLUMNS, *([RETURNED] if client else [])), rows)


def _default_columns(result: Findability) -> list[Column]:
    """Our own scorers only: each one's rank and top tool, the tools matching every query word, the words none has."""
    columns = [Column("surface"), Column("query"), Column("expected")]
    for scorer in result.scorers:
        columns += [Column(f"{scorer} rank", numeric=True), Column(f"{scorer} top")]
    return [*columns, Column("all terms", numeric=True), Column("missing")]


def _terminal_tables(result: Findability) -> list[Table]:
    if len(result.scorers) == 1 or result.client is not None:
        return _scorer_tables(result)
    rows: list[list[str]] = []
    ends = set()
    for s in result.surfaces:
        for text in dict.fromkeys(r.query for r in s.queries):
            found = [s.row(text, scorer) for scorer in result.scorers]
            first = found[0]
            cells = [s.name, text, _expected(first)]
            for row in found:
                cells += [shown(row.rank), shown(row.top)]
            rows.append([*cells, str(first.full_matches), ", ".join(first.missing) or "-"])
        ends.add(len(rows) - 1)
    caption = (
        "rank: the expected tool's place among the tools that score (- = it scores nothing); "
        "all terms: tools that match every query word; missing: words no tool has (stop words are no query words)"
    )
    title = _title(result, lines=True)
    return [Table(_default_columns(result), rows, title=title, caption=caption, sections=ends, markdown=False)]


def _title(result: Findability, *, lines: bool = False) -> str:
    """What the ranks were made with; `lines`: for a terminal, the model and the stop words on a line of their own
    (a one-line title would widen the table to its length)."""
    parts = []
    if "keyword" in result.scorers:
        parts.append("keyword weights: " + ", ".join(f"{k} {v}" for k, v in FIELD_WEIGHTS.items()))
    if "bm25" in result.scorers:
        parts.append(f"bm25 k1 {BM25_K1}, b {BM25_B}")
    if result.client is not None:
        sent = result.client.max_results
        limit = f"max_results {sent}" if sent is not None else "its default max_results"
        parts.append(f"{result.client.name} {result.client.version} {result.client.mode}, {limit}")
    reading = []
    if "embedding" in result.scorers:
        from toolsurface.harness.analyze._embed import embedding_label

        reading.append(f"embedding: {embedding_label()}, cosine")
    if any(scorer in WORD_SCORERS for scorer in result.scorers):
        from toolsurface.harness.analyze.findability._stop_words import stop_words

        reading.append(f"stop words: {stop_words().label} (a tool's name words kept)")
    if lines:
        return "\n".join(
            [f"Findability ({'; '.join([*parts, f'stem {result.stem}'])})", *(["; ".join(reading)] if reading else [])]
        )
    return f"Findability ({'; '.join([*parts, *reading])}; stem {result.stem})"


def _scorer_columns(result: Findability) -> list[Column]:
    """A query per row: each scorer's rank and top tool (a client's: the tools it returned), the terms no tool
    has, and with more than one scorer whether they agree."""
    columns = [Column("surface"), Column("query"), Column("expected")]
    for scorer in result.scorers:
        columns += [
            Column(f"{scorer} rank", numeric=True),
            Column(f"{scorer} returned" if result.client and scorer == result.client.name else f"{scorer} top"),
        ]
    return columns + [Column("missing")] + ([Column("agree")] if len(result.scorers) > 1 else [])


def _scorer_cells(result: Findability, s: SurfaceFindability, agreement: Agreement) -> list[str]:
    cells = [s.name, agreement.query, _expected(s.row(agreement.query, result.scorers[0]))]
    for scorer in result.scorers:
        row = s.row(agreement.query, scorer)
        found = ", ".join(row.returned) or "(none)" if row.returned is not None else shown(row.top)
        cells += [shown(row.rank), found]
    cells.append(", ".join(s.row(agreement.query, result.scorers[0]).missing) or "-")
    if len(result.scorers) > 1:
        cells.append("yes" if agreement.same_rank else "no")
    return cells


def _scorer_tables(result: Findability) -> list[Table]:
    """Any choice of scorers but the default pair: each scorer's rank and top tool, a client's returned tools
    in its order, and with more than one scorer whether they agree."""
    many = len(result.scorers) > 1
    caption = (
        "rank: the expected tool's place (- = not found); a client's rank is its place among the tools the "
        "client's search returned, in its order" + ("; agree: every scorer gives it the same rank" if many else "")
    )
    rows: list[list[str]] = []
    ends = set()
    for s in result.surfaces:
        rows += [_scorer_cells(result, s, agreement) for agreement in s.agreement(result.scorers)]
        ends.add(len(rows) - 1)
    title = _title(result, lines=True)
    table = Table(_scorer_columns(result), rows, title=title, caption=caption, sections=ends, markdown=False)
    if not many or result.client is None:
        return [table]
    pair_rows = [
        [f"{p.a} / {p.b}", str(p.queries), str(p.same_rank), str(p.same_top), str(p.same_first)] for p in result.pairs()
    ]
    agreement = Table(_PAIR_COLUMNS, pair_rows, title="Agreement over every surface and query", markdown=False)
    return [table, agreement]


_PAIR_COLUMNS = tuple(
    Column(label, numeric=label != "scorers")
    for label in ("scorers", "queries", "same rank", "same top tool", "both first or both not")
)


def _expected(row: FindabilityRow) -> str:
    return f"{row.expected} (not in the list)" if row.unlisted else shown(row.expected)


def rank_line(surface: str, row: FindabilityRow) -> str:
    """`v2 'read page': item_get keyword rank 2` (or `not found`, or `not in the list`)."""
    rank = f"rank {row.rank}" if row.rank is not None else "not in the list" if row.unlisted else "not found"
    return f"{surface} {row.query!r}: {row.expected} {row.scorer} {rank}"


def _by_scorer(failing: Sequence[FailingQuery], scorers: Sequence[str]) -> str:
    """`keyword 3, bm25 5`: how many of the failing queries each scorer misses."""
    missed = [scorer for query in failing for scorer in query.scorers]
    return ", ".join(f"{scorer} {missed.count(scorer)}" for scorer in scorers if scorer in missed)


def _query_line(query: FailingQuery) -> str:
    """`v2 'read page': item_get keyword rank 2, bm25 not found` (or `not in the list`)."""
    if query.rows[0].unlisted:
        return f"{query.surface} {query.query!r}: {query.expected} not in the list"
    ranks = [f"{r.scorer} rank {r.rank}" if r.rank is not None else f"{r.scorer} not found" for r in query.rows]
    return f"{query.surface} {query.query!r}: {query.expected} {', '.join(ranks)}"


def failing_line(result: Findability, fail_below: int) -> str | None:
    """One line naming the failing queries, how many there are of those checked, and which scorers miss them;
    None when none fails."""
    failing = result.failing(fail_below)
    if not failing:
        return None
    named = "; ".join(_query_line(query) for query in failing)
    return (
        f"{len(failing)} of {_queries(result.checked_queries())} failing (expected tool not found at rank"
        f" {fail_below} or better by {_by_scorer(failing, result.scorers)}): {named}"
    )


def _queries(count: int) -> str:
    return f"{count} {'query' if count == 1 else 'queries'}"


def _verdict(result: Findability, fail_below: int | None) -> str:
    if fail_below is None:
        return ""
    failing = result.failing(fail_below)
    if not failing:
        return f"Every expected tool found at rank {fail_below} or better.\n\n"
    return (
        f"**{len(failing)} of {_queries(result.checked_queries())} failing**: expected tool not found at rank"
        f" {fail_below} or better (in bold) by {_by_scorer(failing, result.scorers)}.\n\n"
    )


def _markdown_blocks(result: Findability, fail_below: int | None = None) -> list[Table | Text]:
    """A row per surface and query: each scorer's rank and top tool; with a check, whether it holds and the
    ranks that fail it in bold."""
    columns = _scorer_columns(result)
    rows = []
    for s in result.surfaces:
        for agreement in s.agreement(result.scorers):
            cells = _scorer_cells(result, s, agreement)
            for n, scorer in enumerate(result.scorers):
                if _below(s.row(agreement.query, scorer), fail_below):
                    cells[3 + 2 * n] = f"**{cells[3 + 2 * n]}**"
            rows.append(cells)
    return [
        Text(markdown=f"### {_title(result)}\n\n{_verdict(result, fail_below)}"),
        Table(columns, rows, terminal=False),
    ]


def _below(row: FindabilityRow, fail_below: int | None) -> bool:
    """Whether the row fails the check, when there is one."""
    return fail_below is not None and row.misses(fail_below)


def findability_github(result: Findability, fail_below: int | None = None) -> list[str]:
    """One annotation per expected tool not ranked first: `::error` when it fails the check, `::warning`
    otherwise; a `::notice` for a surface whose expected tools all rank first."""
    lines = []
    for s in result.surfaces:
        missed = [r for r in s.queries if r.expected is not None and r.rank != 1]
        for row in missed:
            level: Level = "error" if _below(row, fail_below) else "warning"
            lines.append(github_line(level, f"{s.name}: findability {row.scorer}", rank_line(s.name, row)))
        if not missed:
            lines.append(github_line("notice", f"{s.name}: findability", f"{s.name}: every expected tool ranks first"))
    return lines


def findability_junit(result: Findability, fail_below: int | None = None) -> str:
    """JUnit XML: a suite per surface, a test case per query, failed when a scorer's rank of its expected tool
    fails the check; every scorer's rank is the case's output."""
    from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml

    suites = []
    for s in result.surfaces:
        cases = []
        for query in dict.fromkeys(r.query for r in s.queries):
            rows = [s.row(query, scorer) for scorer in result.scorers]
            failing = [r for r in rows if _below(r, fail_below)]
            cases.append(
                JUnitCase(
                    name=query,
                    classname=f"toolsurface.findability.{s.name}",
                    outcome="failure" if failing else "passed",
                    message=f"not found at rank {fail_below} or better: {', '.join(r.scorer for r in failing)}"
                    if failing
                    else "",
                    detail="\n".join(rank_line(s.name, r) for r in failing),
                    kind="findability" if failing else "",
                    output="\n".join(rank_line(s.name, r) for r in rows),
                )
            )
        suites.append(JUnitSuite(f"toolsurface findability {s.name}", cases))
    return junit_xml(suites)


# --confusion: what each scorer takes for the expected tool, per query and per pair of tools.

_PAIR_COLUMNS_CONFUSED = (
    Column("surface"),
    Column("a", "tool a"),
    Column("b", "tool b"),
    Column("a_for_b", "a taken for b", numeric=True),
    Column("b_for_a", "b taken for a", numeric=True),
    Column("scorers", "by"),
    Column("queries"),
)
_CONFUSION_CAPTION = (
    "above: the tools a scorer ranks above the expected one (- = it ranks first; every tool it ranks, when it does"
    " not rank the expected one)"
)
_PAIRS_TITLE = "Tools taken for each other: how often a scorer ranked one first where the other was expected"


def _above(query: QueryConfusion, scorer: str) -> str:
    above, more = query.above[scorer], query.more[scorer]
    if query.unlisted:
        return "(not in the list)"
    if not above:
        return "-" if query.ranks[scorer] is not None else "(nothing scores)"
    return ", ".join(above) + (f" and {more} more" if more > 0 else "")


def _confusion_columns(result: Findability) -> list[Column]:
    columns = [Column("surface"), Column("query"), Column("expected")]
    for scorer in result.scorers:
        columns += [Column(f"{scorer} rank", numeric=True), Column(f"{scorer} above")]
    return columns


def _confusion_rows(result: Findability, found: Confusion, bold: int | None = None) -> list[list[Any]]:
    """A row per query; `bold`: the rank checked, each rank that fails it in bold (markdown)."""
    rows = []
    for query in found.queries:
        cells: list[Any] = [query.surface, query.query, query.expected]
        for scorer in result.scorers:
            rank = query.ranks[scorer]
            failing = bold is not None and (rank is None or rank > bold)
            cells += [f"**{shown(rank)}**" if failing else shown(rank), _above(query, scorer)]
        rows.append(cells)
    return rows


def _pair_rows(found: Confusion) -> list[list[Any]]:
    return [
        [
            p.surface,
            p.a,
            p.b,
            p.a_for_b,
            p.b_for_a,
            ", ".join(f"{scorer} {times}" for scorer, times in p.scorers.items()),
            "; ".join(p.queries),
        ]
        for p in found.pairs
    ]


def _confusion_blocks(result: Findability, found: Confusion, fail_below: int | None = None) -> list[Table | Text]:
    """The queries each scorer confuses (the ranks that fail a check in bold in markdown), then the pairs of tools
    taken for each other."""
    ends = {
        n
        for n, (q, after) in enumerate(zip(found.queries, found.queries[1:], strict=False))
        if q.surface != after.surface
    }
    blocks: list[Table | Text] = [
        Table(
            _confusion_columns(result),
            _confusion_rows(result, found),
            title=_title(result, lines=True),
            caption=_CONFUSION_CAPTION,
            sections=ends,
            markdown=False,
        ),
        Text(markdown=f"### {_title(result)}\n\n{_verdict(result, fail_below)}"),
        Table(
            _confusion_columns(result),
            _confusion_rows(result, found, fail_below),
            caption=f"{_CONFUSION_CAPTION}.",
            terminal=False,
        ),
    ]
    if found.pairs:
        blocks += [Text(markdown="\n"), Table(_PAIR_COLUMNS_CONFUSED, _pair_rows(found), title=_PAIRS_TITLE)]
    return blocks


def findability_view(result: Findability, fail_below: int | None = None, *, with_confusion: bool = False) -> View:
    """Findability as every format shows it; `fail_below`: the check markdown marks; `with_confusion`: what each
    scorer takes for the expected tool (its pairs the CSV)."""
    data = result.to_json()
    if not with_confusion:
        blocks = [*_terminal_tables(result), *_markdown_blocks(result, fail_below)]
        return View(blocks, data=data, records=_records(result), between="")
    found = confusion(result)
    data["confusion"] = found.to_json()
    records = Table(_PAIR_COLUMNS_CONFUSED, _pair_rows(found))
    return View(_confusion_blocks(result, found, fail_below), data=data, records=records, between="")
