"""A character (and optionally token) budget for one tool list: the check, and every way it is told (the
CLI's lines, JSON, CSV, a GitHub Actions annotation and job summary, a pytest failure, a JUnit test case). The tools
are counted alone unless the parts beside them are included (`include`: instructions, prompts, resources, skills)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml
from toolsurface.harness.measure._answers import AnswerCheck, count_of
from toolsurface.harness.measure._counts import O200K, ListCounter, is_o200k
from toolsurface.harness.measure._measure import Measurable, PartSize, SurfaceMeasurement, ToolSize, measure
from toolsurface.harness.output import (
    Column,
    counted,
    csv_table,
    github_line,
    json_document,
    keys,
    markdown_cell,
    markdown_row,
    markdown_rule,
)
from toolsurface.harness.surface import PART_WORDS, included_keys

__all__ = [
    "BUDGET_COLUMNS",
    "BUDGET_FORMAT",
    "BudgetResult",
    "GrownTool",
    "budget_csv",
    "budget_failure",
    "budget_json",
    "budget_junit",
    "budget_lines",
    "budget_markdown",
    "budget_of",
    "check_budget",
    "github_annotation",
    "github_summary",
    "grown_since",
]


@dataclass(frozen=True)
class GrownTool:
    """A tool larger than at an earlier measurement; `before` is None for a tool that was not there."""

    name: str
    before: int | None
    after: int

    @property
    def text(self) -> str:
        if self.before is None:
            return f"{self.name} new ({self.after:,} chars)"
        return f"{self.name} +{self.after - self.before:,} chars ({self.before:,} -> {self.after:,})"


@dataclass(frozen=True)
class BudgetResult:
    surface: str
    protocol_version: str | None
    tools: int
    chars: int
    max_chars: int | None
    tokens: int | None
    max_tokens: int | None
    largest: list[ToolSize]
    per_tool: tuple[ToolSize, ...] = ()
    # Set by whoever knows an earlier measurement (the budget log): which tools grew since, and since when.
    grown: tuple[GrownTool, ...] = ()
    grown_since: str | None = None
    # The counter of `tokens` (the first asked for), and the tokens of every counter asked for after it.
    counter: str = O200K
    other_counts: tuple[tuple[str, int], ...] = ()
    # The parts counted beside the tools (`chars` and `tokens` are then their sum with the tools'), and their sizes.
    include: tuple[str, ...] = ()
    parts: tuple[PartSize, ...] = ()
    # Its tools' answers, probed, against the answer budget (or each client's cap), when they were checked.
    answers: AnswerCheck | None = None

    @property
    def has_list_budget(self) -> bool:
        return self.max_chars is not None or self.max_tokens is not None

    @property
    def counted(self) -> str:
        """What the figure counts, in words: `8 tools`, or `13 tools + instructions + 4 prompts + ...`."""
        words = [counted(self.tools, "tool")]
        for part in self.parts:
            if part.part == "instructions":
                words.append("instructions" if part.advertised else "no instructions")
            else:
                words.append(f"{part.entries if part.advertised else 'no'} {PART_WORDS[part.part]}")
        return " + ".join(words)

    @property
    def chars_over(self) -> int:
        return 0 if self.max_chars is None else max(0, self.chars - self.max_chars)

    @property
    def tokens_over(self) -> int:
        if self.tokens is None or self.max_tokens is None:
            return 0
        return max(0, self.tokens - self.max_tokens)

    @property
    def list_within(self) -> bool:
        return self.chars_over == 0 and self.tokens_over == 0

    @property
    def within(self) -> bool:
        return self.list_within and (self.answers is None or self.answers.within)

    def to_json(self, source: str | None = None) -> dict[str, Any]:
        """The result as `budget --format json` prints it; `source` where a live server's list came from."""
        return {
            "surface": self.surface,
            "source": source,
            "protocol_version": self.protocol_version,
            "counted": self.counted,
            "tools": self.tools,
            "chars": self.chars,
            "max_chars": self.max_chars,
            "tokens": self.tokens,
            "max_tokens": self.max_tokens,
            "counter": self.counter,
            "other_counts": dict(self.other_counts),
            "within": self.within,
            "chars_over": self.chars_over,
            "tokens_over": self.tokens_over,
            "include": list(self.include),
            "parts": [asdict(p) for p in self.parts],
            "largest": [{"name": t.name, "chars": t.chars, "tokens": t.tokens} for t in self.largest],
            "grown_since": self.grown_since,
            "grown": [asdict(g) for g in self.grown],
            **({"answers": self.answers.to_json()} if self.answers is not None else {}),
        }


def check_budget(
    item: Measurable,
    max_chars: int | None,
    max_tokens: int | None = None,
    largest: int = 3,
    name: str | None = None,
    counters: Sequence[ListCounter] = (),
    include: Sequence[str] = (),
    protocol: str | None = None,
) -> BudgetResult:
    """Measure one list (in `protocol`, as `measure` does); tokens are counted only when a token budget or
    counters are given, to keep CI fast. A token budget is in the first counter's tokens."""
    if max_chars is None and max_tokens is None:
        raise TypeError("a budget needs max_chars, max_tokens or both")
    measured = measure(
        [item], tokens=max_tokens is not None, growth=False, counters=counters, protocol=protocol
    ).surfaces[0]
    return budget_of(measured, max_chars, max_tokens, largest, name, include)


def budget_of(
    measured: SurfaceMeasurement,
    max_chars: int | None,
    max_tokens: int | None = None,
    largest: int = 3,
    name: str | None = None,
    include: Sequence[str] = (),
) -> BudgetResult:
    """A measured list against its budget: the tools, with the parts `include` names added."""
    counts = measured.counts
    include = tuple(include)
    if include and not measured.parts_recorded:
        raise ToolsurfaceError(
            f"{measured.source or measured.name}: holds the tools alone (a snapshot taken before snapshots kept"
            f" the other parts), so --include {','.join(include)} cannot be counted; take the snapshot again"
        )
    chars, tokens = measured.counted(include)
    return BudgetResult(
        surface=name or measured.name,
        protocol_version=measured.protocol_version,
        tools=measured.tools,
        chars=chars,
        max_chars=max_chars,
        tokens=tokens,
        max_tokens=max_tokens,
        largest=measured.largest(largest),
        per_tool=tuple(measured.per_tool),
        counter=counts[0].counter if counts else O200K,
        other_counts=tuple((c.counter, c.tokens) for c in counts[1:]),
        include=include,
        parts=tuple(p for p in measured.parts if p.part in included_keys(include)),
    )


def grown_since(result: BudgetResult, before: Mapping[str, int], since: str) -> BudgetResult:
    """The result with the tools that grew (or are new) against `before` (tool name -> chars), largest first."""
    grown = [
        GrownTool(t.name, before.get(t.name), t.chars)
        for t in result.per_tool
        if t.name not in before or t.chars > before[t.name]
    ]
    grown.sort(key=lambda g: g.after - (g.before or 0), reverse=True)
    return replace(result, grown=tuple(grown), grown_since=since)


def _unit(result: BudgetResult) -> str:
    """Tokens, named by their counter unless it is o200k (whose figures read as they always have)."""
    return "tokens" if is_o200k(result.counter) else f"tokens ({result.counter})"


def _figures(result: BudgetResult) -> tuple[str, str]:
    """The list's figures and its budget, in the units the budget has."""
    figure, limit = [], []
    if result.max_chars is not None:
        figure.append(f"{result.chars:,} chars")
        limit.append(f"{result.max_chars:,} chars")
    if result.tokens is not None and (result.max_tokens is not None or not is_o200k(result.counter)):
        figure.append(f"{result.tokens:,} {_unit(result)}")
    if result.tokens is not None and result.max_tokens is not None:
        limit.append(f"{result.max_tokens:,} {_unit(result)}")
    figure += [f"{tokens:,} tokens ({counter})" for counter, tokens in result.other_counts]
    return ", ".join(figure), ", ".join(limit)


def _over(result: BudgetResult) -> str:
    over = []
    if result.chars_over and result.max_chars is not None:
        over.append(f"{result.chars_over:,} chars ({result.chars_over / max(result.max_chars, 1):.1%})")
    if result.tokens_over:
        over.append(f"{result.tokens_over:,} {_unit(result)}")
    return " and ".join(over)


def _largest_label(result: BudgetResult) -> str:
    return "largest tool" if len(result.largest) == 1 else "largest tools"


def _largest(result: BudgetResult, tokens: bool = False) -> str:
    return ", ".join(
        f"{t.name} {t.chars:,} chars" + (f" ({t.tokens:,} tokens)" if tokens and t.tokens is not None else "")
        for t in result.largest
    )


def _verdict(result: BudgetResult) -> str:
    figure, limit = _figures(result)
    if not result.has_list_budget:
        return f"{result.surface}: {result.counted}, {result.chars:,} chars (no list budget)"
    if result.list_within:
        return f"{result.surface}: {result.counted}, {figure}: within budget ({limit})"
    return f"{result.surface}: {result.counted}, {figure}: over budget ({limit}) by {_over(result)}"


def _answers_verdict(result: BudgetResult) -> str | None:
    """The answers' line: how many answers the sizes rest on (the error answers left out), the largest answer
    and the call that gave it, against the answer budget."""
    check = result.answers
    if check is None:
        return None
    failing = f"; failing: {count_of(check.errors, 'error answer')} (fail-on-error-answers)"
    failing = failing if check.failing_errors else ""
    largest = check.largest
    if not check.calls:
        return f"{result.surface}: answers: no tool was called ({check.limit_text})"
    if largest is None or largest.sizes.max_tokens is None:
        said = "the call" if check.calls == 1 else f"all {check.calls:,} calls"
        return f"{result.surface}: answers: none measured, {said} answered errors ({check.limit_text}){failing}"
    from toolsurface.harness.output import compact_json

    left_out = f", {count_of(check.errors, 'error answer')} left out" if check.errors else ""
    figure = (
        f"{count_of(check.answers, 'answer')} of {count_of(check.answered_tools, 'tool')}{left_out}, the largest"
        f" {largest.sizes.max_tokens:,} tokens ({check.counter}; {largest.tool} {compact_json(largest.largest_arguments)})"
    )
    if not check.over:
        return f"{result.surface}: answers: {figure}: within budget ({check.limit_text}){failing}"
    return f"{result.surface}: answers: {figure}: over budget ({check.limit_text}): {len(check.over)} over{failing}"


def _answer_lines(result: BudgetResult) -> list[str]:
    check = result.answers
    if check is None:
        return []
    lines = [f"answer over budget: {o.text}" for o in check.over] + [f"warning: {w}" for w in check.warned]
    said = check.errors_text
    if said is not None:
        lines.append(f"{'error answers' if check.failing_errors else 'warning'}: {said}")
    return lines


def _growth(result: BudgetResult) -> str | None:
    """Which tools grew since the earlier measurement, when one is known."""
    if result.grown_since is None:
        return None
    if not result.grown:
        return f"no tool grew since {result.grown_since}"
    return f"grew since {result.grown_since}: {', '.join(g.text for g in result.grown)}"


def _parts_line(result: BudgetResult) -> str | None:
    """The size of each part counted beside the tools, when any is."""
    if not result.parts:
        return None
    shown = ", ".join(f"{PART_WORDS[p.part]} {p.chars:,} chars" for p in result.parts if p.advertised)
    shown = shown or "none advertised"
    return f"counted beside the tools: {shown}"


def budget_lines(result: BudgetResult) -> list[str]:
    """The CLI's text: the largest tools (and what grew) when over, and a last line with the figure and budget,
    naming what it counted; with the answers checked, each answer over and a line for the answers first."""
    answers = _answer_lines(result)
    said = _answers_verdict(result)
    lines = [*answers, *([said] if said else [])]
    if result.list_within:
        return [*lines, _verdict(result)]
    growth, parts = _growth(result), _parts_line(result)
    return [
        *lines,
        f"{_largest_label(result)}: {_largest(result)}",
        *([parts] if parts else []),
        *([growth] if growth else []),
        _verdict(result),
    ]


def _exceeds(value: int, limit: int, unit: str) -> str:
    share = f", {(value - limit) / limit:.1%} over" if limit else ""
    return f"{value:,} {unit} > {limit:,} (+{value - limit:,}{share})"


def budget_failure(result: BudgetResult) -> str:
    """A test's failure message: each budget exceeded, and the largest tools."""
    over = []
    if result.chars_over and result.max_chars is not None:
        over.append(_exceeds(result.chars, result.max_chars, "chars"))
    if result.tokens_over and result.tokens is not None and result.max_tokens is not None:
        over.append(_exceeds(result.tokens, result.max_tokens, _unit(result)))
    growth = _growth(result)
    return (
        f"tool list {result.surface!r} ({counted(result.tools, 'tool')}) is over budget: {'; '.join(over)}\n"
        f"{_largest_label(result)}: {_largest(result, tokens=True)}" + (f"\n{growth}" if growth else "")
    )


def github_annotation(result: BudgetResult) -> str:
    """`::error` when over budget, `::notice` when within: one line the Actions log turns into an annotation."""
    if result.list_within and not result.within:
        message = "; ".join(line for line in [_answers_verdict(result), *_answer_lines(result)] if line)
        said = (
            "tool answers over budget"
            if result.answers is not None and result.answers.over
            else "tool calls answered errors"
        )
        return github_line("error", f"{result.surface}: {said}", message)
    if result.within:
        return github_line("notice", f"{result.surface}: tool list within budget", _verdict(result))
    growth = _growth(result)
    message = f"{_verdict(result)}; {_largest_label(result)}: {_largest(result)}" + (f"; {growth}" if growth else "")
    return github_line("error", f"{result.surface}: tool list over budget", message)


def github_summary(result: BudgetResult, source: str | None = None) -> str:
    """A markdown job summary: one row for the list, with the largest tools named."""
    tokens = f"{result.tokens:,}" if result.tokens is not None else "not counted"
    if result.tokens is not None and not is_o200k(result.counter):
        tokens += f" ({markdown_cell(result.counter, 'spaced')})"
    budget = _figures(result)[1] or "-"
    verdict = "within" if result.within else "**over**"
    row = [
        f"`{markdown_cell(result.surface, 'spaced')}`",
        str(result.tools),
        f"{result.chars:,}",
        tokens,
        budget,
        verdict,
        markdown_cell(_largest(result), "spaced") or "-",
    ]
    lines = [
        f"### Tool list budget: {markdown_cell(result.surface, 'spaced')}",
        "",
        markdown_row(["surface", "tools", "chars", "tokens", "budget", "result", "largest tools"]),
        markdown_rule(len(row), {1, 2, 3}, tight=True),
        markdown_row(row),
        "",
    ]
    details = []
    if source:
        details.append(f"source: `{markdown_cell(source, 'spaced')}`")
    if result.protocol_version:
        details.append(f"protocol {result.protocol_version}")
    growth = _growth(result)
    if growth and not result.list_within:
        lines += [markdown_cell(growth, "spaced"), ""]
    said = _answers_verdict(result)
    if said is not None:
        lines += [markdown_cell(line, "spaced") + "<br>" for line in _answer_lines(result)]
        lines += [markdown_cell(said, "spaced"), ""]
    if details:
        lines += ["<sub>" + "; ".join(details) + "</sub>", ""]
    return "\n".join(lines) + "\n"


BUDGET_FORMAT = "toolsurface-budget/1"

# A list against its budget as a CSV row; `largest`: the largest tools' names, largest first.
BUDGET_COLUMNS = tuple(
    Column(key)
    for key in (
        "surface", "source", "tools", "chars", "max_chars", "tokens", "max_tokens", "counter", "within",
        "chars_over", "tokens_over", "largest", "error_answers",
    )
)  # fmt: skip

Checked = Sequence[tuple[BudgetResult, str | None]]


def budget_json(checked: Checked) -> str:
    """Each list's result with where it came from."""
    return json_document({"format": BUDGET_FORMAT, "results": [r.to_json(source) for r, source in checked]})


def budget_csv(checked: Checked) -> str:
    rows = [
        [
            r.surface, source, r.tools, r.chars, r.max_chars, r.tokens, r.max_tokens, r.counter, r.within,
            r.chars_over, r.tokens_over, " ".join(t.name for t in r.largest),
            r.answers.errors if r.answers is not None else None,
        ]
        for r, source in checked
    ]  # fmt: skip
    return csv_table(keys(BUDGET_COLUMNS), rows)


def budget_markdown(checked: Checked) -> str:
    """Each list's job summary (the markdown `--format github` appends to $GITHUB_STEP_SUMMARY)."""
    return "".join(github_summary(r, source) for r, source in checked)


def _junit_message(result: BudgetResult) -> str:
    if result.within:
        return ""
    if not result.list_within:
        return f"over budget by {_over(result)}"
    check = result.answers
    assert check is not None
    if check.over:
        return f"{count_of(len(check.over), 'answer')} over budget"
    return f"{count_of(check.errors, 'error answer')} (fail-on-error-answers)"


def _junit_kind(result: BudgetResult) -> str:
    if result.within:
        return ""
    over = not result.list_within or (result.answers is not None and result.answers.over)
    return "over-budget" if over else "error-answers"


def budget_junit(results: Sequence[BudgetResult], suite: str = "toolsurface budget") -> str:
    """JUnit XML: one test case per list, failed when over its budget, the lines `budget` prints as its text."""
    cases = []
    for result in results:
        lines = budget_lines(result)
        cases.append(
            JUnitCase(
                name=result.surface,
                classname="toolsurface.budget",
                outcome="passed" if result.within else "failure",
                message=_junit_message(result),
                detail="\n".join(lines),
                kind=_junit_kind(result),
                output=lines[-1],
            )
        )
    return junit_xml([JUnitSuite(suite, cases)])
