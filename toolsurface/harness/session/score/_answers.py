"""What tool answers cost: per surface and tool, from the stubs' call logs of recorded runs, the calls, the median
and largest answer in chars and o200k tokens, and the share of the session's context the answers took.

An answer's size is its text as the client received it (`response_chars`; its tokens from the text the log keeps,
so logs written before the text was kept give chars alone). The session's context here is what the surface put
into it: its tools list once, as the stub logged the first listing, and every answer; the share is a tool's
answers over that, summed over the runs.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolsurface.harness.output import markdown_row, markdown_rule
from toolsurface.harness.surface import size_summary
from toolsurface.stubs.calllog import CallRecord

# The row of a surface that sums every tool.
ALL_TOOLS = "(all tools)"


@dataclass(frozen=True)
class AnswerRow:
    """One tool's answers on one surface under one agent, mode and scenario (or ALL_TOOLS: every answer), with
    `share` the part of the session's context they took (None when no run logged its tools list)."""

    surface: str
    agent: str
    mode: str
    scenario: str
    tool: str
    runs: int
    calls: int
    median_chars: float
    max_chars: int
    median_tokens: float | None
    max_tokens: int | None
    chars: int
    tokens: int | None
    share: float | None


@dataclass(frozen=True)
class RunAnswers:
    """One run's answers, tool by tool, and its tools list's chars as first listed (None: not logged)."""

    list_chars: int | None
    calls: list[tuple[str, int, int | None]]


def _first_listing(records: Sequence[CallRecord]) -> int | None:
    """The chars of the first complete tools/list: its first page and the pages its cursors fetched."""
    pages: list[int] = []
    for record in records:
        if record.method != "tools/list":
            continue
        cursor = (record.arguments or {}).get("cursor")
        if cursor is None and pages:
            break
        if cursor is None or pages:
            pages.append(record.response_chars)
    return sum(pages) if pages else None


def run_answers(calls_path: Path) -> RunAnswers:
    """A run's answers from its call log; a run without one answered nothing."""
    from toolsurface.harness.measure import count_tokens
    from toolsurface.stubs.calllog import read_log

    if not calls_path.is_file():
        return RunAnswers(None, [])
    records = read_log(calls_path)
    calls = [
        (str(r.tool), r.response_chars, count_tokens(r.response) if r.response is not None else None)
        for r in records
        if r.is_call
    ]
    return RunAnswers(_first_listing(records), calls)


def answer_rows(surface: str, agent: str, mode: str, scenario: str, runs: Iterable[RunAnswers]) -> list[AnswerRow]:
    """The all-tools row, then one row per tool, largest median answer first."""
    runs = list(runs)
    listed = [r for r in runs if r.list_chars is not None]
    context = sum(r.list_chars or 0 for r in listed) + sum(c for r in listed for _, c, _ in r.calls)
    by_tool: dict[str, list[tuple[int, int | None]]] = {}
    for run in runs:
        for tool, chars, tokens in run.calls:
            by_tool.setdefault(tool, []).append((chars, tokens))

    def row(tool: str, answers: Sequence[tuple[int, int | None]], in_listed: int) -> AnswerRow:
        sizes = size_summary([c for c, _ in answers], [t for _, t in answers])
        return AnswerRow(
            surface=surface,
            agent=agent,
            mode=mode,
            scenario=scenario,
            tool=tool,
            runs=len(runs),
            calls=sizes.calls,
            median_chars=sizes.median_chars,
            max_chars=sizes.max_chars,
            median_tokens=sizes.median_tokens,
            max_tokens=sizes.max_tokens,
            chars=sizes.chars,
            tokens=sizes.tokens,
            share=round(in_listed / context, 4) if context else None,
        )

    every = [answer for answers in by_tool.values() for answer in answers]
    rows = [row(ALL_TOOLS, every, sum(c for r in listed for _, c, _ in r.calls))]
    tools = sorted(by_tool, key=lambda t: (-statistics.median(c for c, _ in by_tool[t]), t))
    for tool in tools:
        rows.append(row(tool, by_tool[tool], sum(c for r in listed for name, c, _ in r.calls if name == tool)))
    return rows


def _number(value: float | int | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


ANSWERS_HEADER = (
    "Surface",
    "Tool",
    "Calls",
    "Median chars",
    "Largest chars",
    "Median tokens",
    "Largest tokens",
    "Share of context",
)


def answers_markdown(rows: Sequence[AnswerRow], labels: dict[tuple[str, str, str, str], str]) -> str:
    """The table: per surface (labelled as the study labels it) and tool."""
    header = ANSWERS_HEADER
    lines = [markdown_row(header), markdown_rule(len(header), range(2, len(header)))]
    for r in rows:
        share = f"{r.share:.1%}" if r.share is not None else "-"
        label = labels.get((r.surface, r.agent, r.mode, r.scenario), r.surface)
        sizes = [_number(v) for v in (r.median_chars, r.max_chars, r.median_tokens, r.max_tokens)]
        lines.append(markdown_row([label, r.tool, str(r.calls), *sizes, share]))
    return "\n".join(lines) + "\n"
