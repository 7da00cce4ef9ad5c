"""Running the lint rules over surfaces as clients receive them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolsurface.harness.analyze.lint._client_limits import check_client_limits, check_x_mcp_headers
from toolsurface.harness.analyze.lint._model import Finding, LintResult, SurfaceLint
from toolsurface.harness.analyze.lint._rules import (
    check_addressing,
    check_concurrency,
    check_decision_flag,
    check_filter_paging,
    check_first_sentence,
    check_overloaded_word,
    check_patch_rule,
    check_permission_split,
    check_reason,
)
from toolsurface.harness.analyze.lint._view import LintView, build_surface
from toolsurface.harness.surface import Snapshot, SurfaceDefinition

# ---------------------------------------------------------------------------------------------------------------
# Running the rules

RULES: tuple[Callable[[LintView], list[Finding]], ...] = (
    check_addressing,
    check_concurrency,
    check_patch_rule,
    check_decision_flag,
    check_reason,
    check_filter_paging,
    check_overloaded_word,
    check_permission_split,
    check_first_sentence,
)


def lint_tools(name: str, tools: Sequence[dict[str, Any]], instructions: str | None = None) -> SurfaceLint:
    """Lint one surface's tools in wire form (name, description, inputSchema, annotations), and its server
    instructions where it has them."""
    surface = build_surface(tools)
    return SurfaceLint(
        name=name,
        findings=[f for rule in RULES for f in rule(surface)]
        + check_client_limits(tools, instructions)
        + check_x_mcp_headers(tools),
        tools=[str(t.get("name")) for t in tools],
    )


def lint(items: Sequence[SurfaceDefinition | Snapshot]) -> LintResult:
    """Lint each surface as a client receives it: a definition is built and served, a snapshot is as recorded."""
    from toolsurface.harness.measure import listed

    return LintResult(
        surfaces=[
            lint_tools(item.name, wire.tools, wire.parts.instructions)
            for item, wire in zip(items, listed(items), strict=True)
        ]
    )
