"""Lint results as rich tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table
from toolsurface.harness.analyze.lint._model import Finding, LintResult

__all__ = ["lint_github", "lint_junit", "lint_rich", "lint_summary"]


def lint_rich(result: LintResult) -> list[Table]:
    """One table per surface: category, tools, parameters, message."""
    from rich.table import Table

    tables = []
    for surface in result.surfaces:
        categories = surface.categories
        title = f"{surface.name}: {len(surface.findings)} findings in {len(categories)} categories"
        table = Table(title=title, caption=None if surface.findings else "no inconsistencies found", expand=True)
        table.add_column("category", no_wrap=True)
        table.add_column("tools", ratio=2, overflow="fold")
        table.add_column("parameters", ratio=2, overflow="fold")
        table.add_column("message", ratio=5, overflow="fold")
        for f in surface.findings:
            table.add_row(f.category, ", ".join(f.tools), ", ".join(f.parameters), f.message)
        tables.append(table)
    return tables


def _finding_text(finding: Finding) -> str:
    tools = f" ({', '.join(finding.tools)})" if finding.tools else ""
    return f"{finding.category}{tools}: {finding.message}"


def lint_github(result: LintResult, fail_on: tuple[str, ...] = ()) -> list[str]:
    """One workflow annotation per finding: `::error` for a category --fail-on names, `::warning` otherwise."""
    from toolsurface.harness.measure import github_escape

    lines = []
    for surface in result.surfaces:
        for finding in surface.findings:
            level = "error" if finding.category in fail_on else "warning"
            title = github_escape(f"{surface.name}: lint {finding.category}", property_value=True)
            lines.append(f"::{level} title={title}::{github_escape(_finding_text(finding))}")
        if not surface.findings:
            title = github_escape(f"{surface.name}: lint", property_value=True)
            lines.append(f"::notice title={title}::{github_escape(f'{surface.name}: no inconsistencies found')}")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def lint_summary(result: LintResult, fail_on: tuple[str, ...] = ()) -> str:
    """A markdown job summary: per surface, one row per finding."""
    lines = []
    for surface in result.surfaces:
        failing = len(surface.failing(fail_on))
        verdict = f", **{failing} failing**" if failing else ""
        lines += [f"### Tool list lint: {_cell(surface.name)}", ""]
        lines += [f"{len(surface.findings)} findings in {len(surface.categories)} categories{verdict}", ""]
        if surface.findings:
            lines += ["| category | tools | parameters | message |", "|---|---|---|---|"]
            for f in surface.findings:
                category = f"**{f.category}**" if f.category in fail_on else f.category
                row = [
                    category,
                    _cell(", ".join(f.tools)) or "-",
                    _cell(", ".join(f.parameters)) or "-",
                    _cell(f.message),
                ]
                lines.append("| " + " | ".join(row) + " |")
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
