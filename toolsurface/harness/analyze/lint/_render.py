"""Lint results as a view (every table format is rendered from it; markdown is the job summary), GitHub annotations
and JUnit XML; the rules as a view too (`lint --rules`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint.judge import SurfaceJudgement
from toolsurface.harness.analyze.lint._catalog import FailOn, Rule
from toolsurface.harness.analyze.lint._model import SEVERITIES, Finding
from toolsurface.harness.analyze.lint._registry import rules
from toolsurface.harness.analyze.lint._result import LintResult, SurfaceLint
from toolsurface.harness.analyze.lint._score import LintQuality, SurfaceScore
from toolsurface.harness.output import (
    Block,
    Column,
    Level,
    Table,
    Text,
    View,
    counted,
    github_line,
    json_document,
    labels,
    markdown_cell,
    markdown_row,
    markdown_rule,
)

# A finding as a row: of lint's CSV, of the report's lint findings, and (the surface aside) of its tables.
FINDING_COLUMNS = (
    Column("surface"),
    Column("rule"),
    Column("category"),
    Column("severity"),
    Column("tools"),
    Column("parameters"),
    Column("message"),
)
# The rules as rows (`lint --rules`).
RULE_COLUMNS = (
    Column("id", no_wrap=True, fold=True),
    Column("name", no_wrap=True, fold=True),
    Column("severity", no_wrap=True, fold=True),
    Column("checks", fold=True),
)
_COLUMNS = labels(FINDING_COLUMNS[1:])
# No --fail-on: nothing fails.
_NOTHING = FailOn()
# No --score, no --judge.
_NO_QUALITY = LintQuality()
# The widest a table's tools, parameters and message cells grow before they wrap (a long list of tools or a long
# message would otherwise make a line of hundreds of characters where no terminal sets the width).
_TOOLS_WIDTH, _PARAMETERS_WIDTH, _MESSAGE_WIDTH = 40, 30, 100


def _plural_severity(severity: str, count: int) -> str:
    return f"{count:,} {severity}" if severity == "info" or count == 1 else f"{count:,} {severity}s"


def surface_line(surface: SurfaceLint) -> str:
    """`acme: 3 findings in 2 rules (1 error, 2 warnings)`, or `acme: no findings`; and what the configuration
    suppressed."""
    if surface.findings:
        by_severity = [_plural_severity(s, n) for s, n in surface.severities().items() if n]
        text = (
            f"{counted(len(surface.findings), 'finding')} in {counted(len(surface.categories), 'rule')}"
            f" ({', '.join(by_severity)})"
        )
    else:
        text = "no findings"
    return f"{text}{_suppressed(surface)}"


def _suppressed(surface: SurfaceLint) -> str:
    count = len(surface.suppressed)
    return f"; {counted(count, 'finding')} suppressed by configuration" if count else ""


def _terminal_blocks(result: LintResult, quality: LintQuality) -> list[Block]:
    """One table per surface with findings: rule, severity, tools, parameters (where a finding names one) and
    message; a line for a surface with none. Columns take the width their cells need. With `quality`, each
    surface's tool scores (--score) and the judge's rows (--judge) after its findings."""
    shown: list[Block] = []
    for index, surface in enumerate(result.surfaces):
        shown.append(_findings_table(surface))
        score, judged = quality.of(index)
        if score is not None:
            rows = _score_rows(score)
            shown.append(Table(SCORE_COLUMNS[1:], rows, title=score.line(), caption=_WEIGHTS, markdown=False))
        if judged is not None:
            columns = _judge_columns()
            rows = [row[1:] for row in _judge_rows(judged)]
            shown.append(Table(columns[1:], rows, title=judged.line(), markdown=False))
    return shown


def _findings_table(surface: SurfaceLint) -> Block:
    """A surface's findings as a terminal's table, or the line that says it has none."""
    title = f"{surface.name}: {surface_line(surface)}"
    if not surface.findings:
        return Text(title)
    _, rule, _, severity, tools, parameters, message = FINDING_COLUMNS
    with_parameters = any(f.parameters for f in surface.findings)
    # A tool's name is never folded: the column is at least as wide as the longest.
    longest = max((len(t) for f in surface.findings for t in f.tools), default=0)
    columns = [
        replace(rule, no_wrap=True),
        replace(severity, no_wrap=True),
        replace(tools, fold=True, max_width=max(_TOOLS_WIDTH, longest)),
        *([replace(parameters, fold=True, max_width=_PARAMETERS_WIDTH)] if with_parameters else []),
        replace(message, fold=True, max_width=_MESSAGE_WIDTH),
    ]
    rows = [
        [
            f"{f.rule_id} {f.category}",
            f.severity,
            ", ".join(f.tools),
            *([", ".join(f.parameters)] if with_parameters else []),
            f.message,
        ]
        for f in surface.findings
    ]
    return Table(columns, rows, title=title, markdown=False)


# ---------------------------------------------------------------------------------------------------------------
# Scores (--score) and the judge's rows (--judge)

# A tool's score as a row: of the terminal's and markdown's tables, of CSV with --score.
SCORE_COLUMNS = (
    Column("surface"),
    Column("tool", no_wrap=True, fold=True),
    Column("score", numeric=True),
    Column("rules"),
    Column("cost_tokens", "fix tokens", numeric=True),
)
_WEIGHTS = (
    "100 less 30 for TS203, 20 TS204, 5 a parameter TS205 (20 at most), 15 TS206, 10 TS207, 5 TS208; no description"
    " scores 0. Server: 0.6 x mean + 0.4 x worst. Fix tokens: what the fixes add (o200k; negative saves)."
)
_SERVER_ROW = "(server)"


def _score_rows(score: SurfaceScore) -> list[list[Any]]:
    return [[t.tool, t.score, " ".join(t.rules) or "-", t.cost_tokens] for t in score.tools]


def _judge_columns() -> tuple[Column, ...]:
    from toolsurface.harness.analyze.lint.judge import rubric

    criteria = tuple(Column(f"judge_{key}", key, numeric=True) for key in rubric().keys)
    return (
        Column("surface"),
        Column("tool", no_wrap=True, fold=True),
        Column("judge_status", "status", no_wrap=True),
        Column("judge_score", "score", numeric=True, show=lambda v: "-" if v is None else str(v)),
        *(replace(c, show=lambda v: "-" if v is None else str(v)) for c in criteria),
        Column("judge_note", "summary or problem", fold=True, max_width=_MESSAGE_WIDTH),
    )


def _judge_rows(judged: SurfaceJudgement) -> list[list[Any]]:
    from toolsurface.harness.analyze.lint.judge import rubric

    keys = rubric().keys
    rows = []
    for t in judged.tools:
        values = {key: value for key, value, _ in t.scores}
        rows.append([judged.name, t.tool, t.status, t.score, *(values.get(k) for k in keys), t.note])
    return rows


def _quality_records(result: LintResult, quality: LintQuality) -> Table:
    """A row per tool (and one `(server)` row per surface): its score, the quality rules that found something of
    it and what fixing them adds (--score); the judge's status, score, criteria and summary (--judge)."""
    scored = any(s is not None for s in quality.scores)
    judged_any = any(j is not None for j in quality.judged)
    judge_columns = _judge_columns()[2:] if judged_any else ()
    columns = (*SCORE_COLUMNS[:2], *(SCORE_COLUMNS[2:] if scored else ()), *judge_columns)
    rows: list[list[Any]] = []
    for index, surface in enumerate(result.surfaces):
        score, judged = quality.of(index)
        if score is None and judged is None:
            continue
        by_tool = {t.tool: row[2:] for t, row in zip(judged.tools, _judge_rows(judged), strict=True)} if judged else {}
        empty = [None] * len(judge_columns)
        scores_of = {t.tool: t for t in score.tools} if score is not None else {}
        for name in dict.fromkeys(surface.tools):
            own = scores_of.get(name)
            scores = [own.score, " ".join(own.rules), own.cost_tokens] if own is not None else [None] * 3
            rows.append(
                [surface.name, name, *(scores if scored else []), *(by_tool.get(name, empty) if judged_any else [])]
            )
        server = [score.score, "", score.cost_tokens] if score is not None else [None] * 3
        judge_server = [None, judged.score, *[None] * (len(judge_columns) - 3), judged.line()] if judged else empty
        rows.append([surface.name, _SERVER_ROW, *(server if scored else []), *(judge_server if judged_any else [])])
    return Table(columns, rows)


def _quality_lines(score: SurfaceScore | None, judged: SurfaceJudgement | None) -> list[str]:
    lines: list[str] = []
    if score is not None:
        lines += [f"**{markdown_cell(score.line(), 'spaced')}**", ""]
        header = labels(SCORE_COLUMNS[1:])
        lines += [markdown_row(header), markdown_rule(len(header), {1, 3}, tight=True)]
        lines += [markdown_row([markdown_cell(str(c), "spaced") for c in row]) for row in _score_rows(score)]
        lines += ["", f"_{_WEIGHTS}_", ""]
    if judged is not None:
        columns = _judge_columns()[1:]
        lines += [f"**{markdown_cell(judged.line(), 'spaced')}**", ""]
        lines += [markdown_row(labels(columns)), markdown_rule(len(columns), tight=True)]
        for row in _judge_rows(judged):
            lines.append(
                markdown_row([markdown_cell(c.cell(v), "spaced") for c, v in zip(columns, row[1:], strict=True)])
            )
        lines.append("")
    return lines


def quality_properties(score: SurfaceScore | None, judged: SurfaceJudgement | None) -> dict[str, str]:
    """A surface's scores as name-value properties (JUnit's suite properties)."""
    found: dict[str, str] = {}
    if score is not None:
        found |= {
            "description-quality": str(score.score),
            "description-quality-mean": f"{score.mean:.1f}",
            "description-quality-worst": str(score.worst),
        }
    if judged is not None:
        found |= {"judge": judged.judge, "judge-model": judged.model, "judge-score": str(judged.score or "")}
    return found


def _lint_data(result: LintResult, quality: LintQuality) -> dict[str, Any]:
    """The result as JSON; with `quality`, each surface's `score` (per tool, and the server's) and `judge` rows."""
    data = result.to_json()
    for index, entry in enumerate(data["surfaces"]):
        score, judged = quality.of(index)
        if score is not None:
            entry["score"] = score.to_json()
        if judged is not None:
            entry["judge"] = judged.to_json()
    return data


def lint_sarif_scored(result: LintResult, quality: LintQuality = _NO_QUALITY) -> str:
    """SARIF with each surface's description-quality score and judge score in the run's properties."""
    from toolsurface.harness.analyze.lint._sarif import lint_sarif_log

    log = lint_sarif_log(result)
    quality_of: dict[str, Any] = {}
    for index, surface in enumerate(result.surfaces):
        score, judged = quality.of(index)
        if score is not None:
            quality_of[surface.name] = {"score": score.score, "mean": round(score.mean, 2), "worst": score.worst}
        if judged is not None:
            quality_of.setdefault(surface.name, {})["judge"] = {"model": judged.model, "score": judged.score}
    if quality_of:
        log["runs"][0]["properties"]["descriptionQuality"] = quality_of
    return json_document(log)


def _finding_row(finding: Finding) -> list[str]:
    """A finding's cells, the surface aside: its rule, category, severity, tools, parameters and message."""
    return [
        finding.rule_id,
        finding.category,
        finding.severity,
        ", ".join(finding.tools),
        ", ".join(finding.parameters),
        finding.message,
    ]


def lint_rows(result: LintResult) -> list[list[str]]:
    """A row per finding in FINDING_COLUMNS (a surface with none has no row)."""
    return [[s.name, *_finding_row(f)] for s in result.surfaces for f in s.findings]


def _lint_records(result: LintResult, quality: LintQuality) -> Table:
    """A row per finding; with `quality` (--score, --judge), a row per tool instead."""
    if quality:
        return _quality_records(result, quality)
    return Table(FINDING_COLUMNS, lint_rows(result))


def _finding_text(finding: Finding) -> str:
    tools = f" ({', '.join(finding.tools)})" if finding.tools else ""
    return f"{finding.category}{tools}: {finding.message}"


def _level(finding: Finding, fail_on: FailOn) -> Level:
    """`::error` for a finding that fails the lint or is an error, else as its severity."""
    if fail_on.fails(finding) or finding.severity == "error":
        return "error"
    return "warning" if finding.severity == "warning" else "notice"


def lint_github(result: LintResult, fail_on: FailOn = _NOTHING, quality: LintQuality = _NO_QUALITY) -> list[str]:
    """One workflow annotation per finding: `::error` where it fails the lint (--fail-on) or its rule is an
    error, `::warning` for a warning, `::notice` for information; a notice for a surface with none, and for each
    surface's scores (--score, --judge)."""
    lines = []
    for index, surface in enumerate(result.surfaces):
        for said in quality.of(index):
            if said is not None:
                lines.append(github_line("notice", f"{surface.name}: description quality", said.line()))
        for finding in surface.findings:
            title = f"{surface.name}: lint {finding.rule_id} {finding.category}"
            lines.append(github_line(_level(finding, fail_on), title, _finding_text(finding)))
        if not surface.findings:
            lines.append(github_line("notice", f"{surface.name}: lint", f"{surface.name}: {surface_line(surface)}"))
    return lines


def lint_summary(result: LintResult, fail_on: FailOn = _NOTHING, quality: LintQuality = _NO_QUALITY) -> str:
    """A markdown job summary: per surface, one row per finding; with `quality`, its tool scores and judge rows."""
    lines = []
    for index, surface in enumerate(result.surfaces):
        failing = len(surface.failing(fail_on))
        verdict = f", **{failing} failing**" if failing else ""
        lines += [f"### Tool list lint: {markdown_cell(surface.name, 'spaced')}", ""]
        lines += [f"{surface_line(surface)}{verdict}", ""]
        if surface.findings:
            header = [f"{_COLUMNS[0]}", *_COLUMNS[2:]]
            lines += [markdown_row(header), markdown_rule(len(header), tight=True)]
            for f in surface.findings:
                rule = markdown_cell(f"{f.rule_id} {f.category}", "spaced")
                rule = f"**{rule}**" if fail_on.fails(f) else rule
                severity, tools, parameters, message = (markdown_cell(cell, "spaced") for cell in _finding_row(f)[2:])
                lines.append(markdown_row([rule, severity, tools or "-", parameters or "-", message]))
            lines.append("")
        lines += _quality_lines(*quality.of(index))
    return "\n".join(lines) + "\n"


def lint_view(result: LintResult, fail_on: FailOn = _NOTHING, quality: LintQuality = _NO_QUALITY) -> View:
    """The result as every format shows it: markdown its job summary (lint_summary); `fail_on` marks what fails."""
    blocks = [*_terminal_blocks(result, quality), Text(markdown=lint_summary(result, fail_on, quality))]
    return View(blocks, data=_lint_data(result, quality), records=_lint_records(result, quality), ascii=True)


def lint_junit(result: LintResult, fail_on: FailOn = _NOTHING, quality: LintQuality = _NO_QUALITY) -> str:
    """JUnit XML: a suite per surface, a test case per tool (and one for findings that name no tool). A finding
    fails its test cases when --fail-on names its rule; the others are written as the case's output. With
    `quality`, the surface's scores are its suite's properties."""
    from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml

    suites = []
    for index, surface in enumerate(result.surfaces):
        names = list(surface.tools) or sorted({t for f in surface.findings for t in f.tools})
        unnamed = [f for f in surface.findings if not f.tools]
        groups: list[tuple[str, list[Finding]]] = [(n, [f for f in surface.findings if n in f.tools]) for n in names]
        if unnamed:
            groups.append(("(the whole list)", unnamed))
        cases = []
        for name, findings in groups:
            failing = [f for f in findings if fail_on.fails(f)]
            other = [f for f in findings if not fail_on.fails(f)]
            cases.append(
                JUnitCase(
                    name=name,
                    classname=f"toolsurface.lint.{surface.name}",
                    outcome="failure" if failing else "passed",
                    message="; ".join(sorted({f.category for f in failing})),
                    detail="\n".join(_finding_text(f) for f in failing),
                    kind="lint" if failing else "",
                    output="\n".join(_finding_text(f) for f in other),
                )
            )
        properties = quality_properties(*quality.of(index))
        suites.append(JUnitSuite(f"toolsurface lint {surface.name}", cases, properties))
    return junit_xml(suites)


# ---------------------------------------------------------------------------------------------------------------
# The rules (`lint --rules`)


def _rule_row(rule: Rule) -> list[str]:
    return [rule.id, rule.name, rule.severity, rule.checks]


def rules_view(whole: bool = True) -> View:
    """Every rule: a row each in a terminal and CSV, whole in JSON (what it checks, why and its source, the fix, its
    bad and good examples), and as markdown the table and (`whole`) a section per rule (docs/rules.md)."""
    every = rules()
    rows = [_rule_row(r) for r in every]
    data: dict[str, Any] = {"severities": list(SEVERITIES), "rules": [r.to_json() for r in every]}
    return View(
        [
            Table(RULE_COLUMNS, rows, title=f"lint rules: {counted(len(every), 'rule')}", markdown=False),
            Text(markdown=_rules_text(whole)),
        ],
        data=data,
        records=Table(RULE_COLUMNS, rows),
        ascii=True,
    )


def _rules_text(whole: bool = True) -> str:
    """The rules as markdown: a table of every rule, then (`whole`) a section per rule with why, its source, the
    fix and its examples. docs/rules.md is this text."""
    header = labels(RULE_COLUMNS)
    every = rules()
    lines = ["### toolsurface lint rules", "", markdown_row(header), markdown_rule(len(header), tight=True)]
    lines += [markdown_row([markdown_cell(cell, "spaced") for cell in _rule_row(r)]) for r in every]
    if whole:
        for r in every:
            lines += ["", f"#### {r.id} {r.name} ({r.severity})", "", r.checks, "", f"Why: {r.why}"]
            lines += ["", f"Source: {r.source}"] if r.source else []
            lines += ["", f"Fix: {r.fix}", ""]
            for label, example in (("Fires on", r.bad), ("Passes", r.good)):
                lines += [f"{label}:", "", "```json", _shown_example(example.to_json()), "```", ""]
            lines.pop()
    return "\n".join(lines) + "\n"


# An example's text longer than this is shown cut, with its length, in the rules' markdown.
_SHOWN_TEXT = 160


def _shown_example(data: Any) -> str:
    """An example's JSON, one tool a line, its long texts cut."""

    def cut(value: Any) -> Any:
        if isinstance(value, str) and len(value) > _SHOWN_TEXT:
            return f"{value[:_SHOWN_TEXT]}... ({len(value):,} characters)"
        if isinstance(value, dict):
            return {k: cut(v) for k, v in value.items()}
        if isinstance(value, list):
            return [cut(v) for v in value]
        return value

    import json

    shown = cut(data)
    if list(shown) == ["tools"]:
        return "\n".join(json.dumps(t) for t in shown["tools"])
    return json.dumps(shown, indent=1)


def rules_junit() -> str:
    """A suite of the rules, a passed test case per rule with what it checks as its output."""
    from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml

    cases = [
        JUnitCase(name=f"{r.id} {r.name}", classname="toolsurface.lint.rules", output=f"{r.severity}: {r.checks}")
        for r in rules()
    ]
    return junit_xml([JUnitSuite("toolsurface lint rules", cases)])
