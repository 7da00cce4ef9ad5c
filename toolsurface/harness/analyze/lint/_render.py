"""Lint results as rich tables, CSV, markdown (a job summary), GitHub annotations and JUnit XML."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table
from toolsurface.harness.analyze.lint._model import Finding, LintResult
from toolsurface.harness.output import (
    Column,
    Level,
    csv_table,
    github_line,
    keys,
    labels,
    markdown_cell,
    markdown_row,
    markdown_rule,
)

# A finding as a row: of lint's CSV, of the report's lint findings, and (the surface aside) of its tables.
FINDING_COLUMNS = (Column("surface"), Column("category"), Column("tools"), Column("parameters"), Column("message"))
_COLUMNS = labels(FINDING_COLUMNS[1:])


def lint_rich(result: LintResult) -> list[Table]:
    """One table per surface: category, tools, parameters, message."""
    from rich.table import Table

    tables = []
    for surface in result.surfaces:
        categories = surface.categories
        title = f"{surface.name}: {len(surface.findings)} findings in {len(categories)} categories"
        table = Table(title=title, caption=None if surface.findings else "no inconsistencies found", expand=True)
        category, tools, parameters, message = _COLUMNS
        table.add_column(category, no_wrap=True)
        table.add_column(tools, ratio=2, overflow="fold")
        table.add_column(parameters, ratio=2, overflow="fold")
        table.add_column(message, ratio=5, overflow="fold")
        for f in surface.findings:
            table.add_row(*_finding_row(f))
        tables.append(table)
    return tables


def _finding_row(finding: Finding) -> list[str]:
    """A finding's cells, the surface aside: its category, tools, parameters and message."""
    return [finding.category, ", ".join(finding.tools), ", ".join(finding.parameters), finding.message]


def lint_rows(result: LintResult) -> list[list[str]]:
    """A row per finding in FINDING_COLUMNS (a surface with none has no row)."""
    return [[s.name, *_finding_row(f)] for s in result.surfaces for f in s.findings]


def lint_csv(result: LintResult) -> str:
    return csv_table(keys(FINDING_COLUMNS), lint_rows(result))


def _finding_text(finding: Finding) -> str:
    tools = f" ({', '.join(finding.tools)})" if finding.tools else ""
    return f"{finding.category}{tools}: {finding.message}"


def lint_github(result: LintResult, fail_on: tuple[str, ...] = ()) -> list[str]:
    """One workflow annotation per finding: `::error` for a category --fail-on names, `::warning` otherwise."""
    lines = []
    for surface in result.surfaces:
        for finding in surface.findings:
            level: Level = "error" if finding.category in fail_on else "warning"
            lines.append(github_line(level, f"{surface.name}: lint {finding.category}", _finding_text(finding)))
        if not surface.findings:
            lines.append(github_line("notice", f"{surface.name}: lint", f"{surface.name}: no inconsistencies found"))
    return lines


def lint_summary(result: LintResult, fail_on: tuple[str, ...] = ()) -> str:
    """A markdown job summary: per surface, one row per finding."""
    lines = []
    for surface in result.surfaces:
        failing = len(surface.failing(fail_on))
        verdict = f", **{failing} failing**" if failing else ""
        lines += [f"### Tool list lint: {markdown_cell(surface.name, 'spaced')}", ""]
        lines += [f"{len(surface.findings)} findings in {len(surface.categories)} categories{verdict}", ""]
        if surface.findings:
            lines += [markdown_row(_COLUMNS), markdown_rule(len(_COLUMNS), tight=True)]
            for f in surface.findings:
                category, tools, parameters, message = (markdown_cell(cell, "spaced") for cell in _finding_row(f))
                category = f"**{category}**" if f.category in fail_on else category
                lines.append(markdown_row([category, tools or "-", parameters or "-", message]))
            lines.append("")
    return "\n".join(lines) + "\n"


def lint_junit(result: LintResult, fail_on: tuple[str, ...] = ()) -> str:
    """JUnit XML: a suite per surface, a test case per tool (and one for findings that name no tool). A finding
    fails its test cases when --fail-on names its category; the others are written as the case's output."""
    from toolsurface.harness.junit import JUnitCase, JUnitSuite, junit_xml

    suites = []
    for surface in result.surfaces:
        names = list(surface.tools) or sorted({t for f in surface.findings for t in f.tools})
        unnamed = [f for f in surface.findings if not f.tools]
        groups: list[tuple[str, list[Finding]]] = [(n, [f for f in surface.findings if n in f.tools]) for n in names]
        if unnamed:
            groups.append(("(the whole list)", unnamed))
        cases = []
        for name, findings in groups:
            failing = [f for f in findings if f.category in fail_on]
            other = [f for f in findings if f.category not in fail_on]
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
        suites.append(JUnitSuite(f"toolsurface lint {surface.name}", cases))
    return junit_xml(suites)
