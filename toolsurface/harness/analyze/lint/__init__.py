"""The linter: rules over a surface's tools as clients receive them (addressing, concurrency, patches, decision
flags, reasons, filters and paging, overloaded words, permissions, first sentences, client limits)."""

from toolsurface.harness.analyze.lint._lint import lint, lint_tools
from toolsurface.harness.analyze.lint._model import CATEGORIES, Finding, LintResult, SurfaceLint, parse_fail_on
from toolsurface.harness.analyze.lint._render import (
    FINDING_COLUMNS,
    lint_csv,
    lint_github,
    lint_junit,
    lint_rich,
    lint_rows,
    lint_summary,
)

__all__ = [
    "CATEGORIES",
    "FINDING_COLUMNS",
    "Finding",
    "LintResult",
    "SurfaceLint",
    "lint",
    "lint_csv",
    "lint_github",
    "lint_junit",
    "lint_rich",
    "lint_rows",
    "lint_summary",
    "lint_tools",
    "parse_fail_on",
]
