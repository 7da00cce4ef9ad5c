"""The linter: rules over a surface's tools as clients receive them (addressing, concurrency, patches, decision
flags, reasons, filters and paging, overloaded words, permissions, first sentences, client limits), each with a
stable id and a severity; the rules a project turns off; results as tables, CSV, markdown, GitHub annotations,
JUnit XML and SARIF."""

from typing import Any

from toolsurface.harness.analyze.lint._catalog import (
    Example,
    FailOn,
    Rule,
    ServerSet,
    ServerTools,
    example_tool,
    rule,
)
from toolsurface.harness.analyze.lint._lint import lint, lint_configuration, lint_together, lint_tools
from toolsurface.harness.analyze.lint._model import SEVERITIES, Finding, Severity
from toolsurface.harness.analyze.lint._registry import (
    ENTRY_POINT_GROUP,
    RuleLoadError,
    categories,
    find_rule,
    parse_fail_on,
    parse_select,
    rules,
    unknown_rule,
)
from toolsurface.harness.analyze.lint._render import (
    FINDING_COLUMNS,
    RULE_COLUMNS,
    lint_github,
    lint_junit,
    lint_rows,
    lint_sarif_scored,
    lint_summary,
    lint_view,
    rules_junit,
    rules_view,
    surface_line,
)
from toolsurface.harness.analyze.lint._result import LintResult, SurfaceLint
from toolsurface.harness.analyze.lint._sarif import SARIF_SCHEMA, lint_sarif, lint_sarif_log, rules_sarif, unplaced
from toolsurface.harness.analyze.lint._score import (
    QUALITY_RULES,
    WEIGHTING,
    LintQuality,
    SurfaceScore,
    ToolScore,
    lint_quality,
    score_surface,
)
from toolsurface.harness.analyze.lint._settings import LintSettings
from toolsurface.harness.analyze.lint._view import DESTRUCTIVE_VERBS, LIST_WORDS, OTHER_VERBS, READ_VERBS, WRITE_VERBS


def __getattr__(name: str) -> Any:
    """RULES and CATEGORIES, read from the registry when first asked for (it loads every rule package)."""
    if name == "RULES":
        return rules()
    if name == "CATEGORIES":
        return categories()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CATEGORIES",
    "DESTRUCTIVE_VERBS",
    "ENTRY_POINT_GROUP",
    "FINDING_COLUMNS",
    "LIST_WORDS",
    "OTHER_VERBS",
    "QUALITY_RULES",
    "READ_VERBS",
    "RULES",
    "RULE_COLUMNS",
    "SARIF_SCHEMA",
    "SEVERITIES",
    "WEIGHTING",
    "WRITE_VERBS",
    "Example",
    "FailOn",
    "Finding",
    "LintQuality",
    "LintResult",
    "LintSettings",
    "Rule",
    "RuleLoadError",
    "ServerSet",
    "ServerTools",
    "Severity",
    "SurfaceLint",
    "SurfaceScore",
    "ToolScore",
    "categories",
    "example_tool",
    "find_rule",
    "lint",
    "lint_configuration",
    "lint_github",
    "lint_junit",
    "lint_quality",
    "lint_rows",
    "lint_sarif",
    "lint_sarif_log",
    "lint_sarif_scored",
    "lint_summary",
    "lint_together",
    "lint_tools",
    "lint_view",
    "parse_fail_on",
    "parse_select",
    "rule",
    "rules",
    "rules_junit",
    "rules_sarif",
    "rules_view",
    "score_surface",
    "surface_line",
    "unknown_rule",
    "unplaced",
]
