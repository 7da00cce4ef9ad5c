"""Lint records: the categories, a finding, a surface's findings, a result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError

CATEGORIES = (
    "addressing",
    "concurrency",
    "patch-rule",
    "decision-flag",
    "reason",
    "filter-paging",
    "overloaded-word",
    "permission-split",
    "first-sentence",
    "client-limit",
    "x-mcp-header",
)


# ---------------------------------------------------------------------------------------------------------------
# Records across the boundary


@dataclass(frozen=True)
class Finding:
    category: str
    tools: list[str]
    parameters: list[str]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "tools": self.tools, "parameters": self.parameters, "message": self.message}


def parse_fail_on(text: str) -> tuple[str, ...]:
    """`--fail-on addressing,reason` or `any` (every category) -> the categories that fail a lint."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ToolsurfaceError(f"--fail-on {text!r}: name lint categories ({', '.join(CATEGORIES)}) or any")
    if "any" in names:
        return CATEGORIES
    unknown = [n for n in names if n not in CATEGORIES]
    if unknown:
        raise ToolsurfaceError(
            f"--fail-on: unknown lint category {unknown[0]!r}; choose from {', '.join(CATEGORIES)}, or any"
        )
    return tuple(c for c in CATEGORIES if c in names)


@dataclass(frozen=True)
class SurfaceLint:
    name: str
    findings: list[Finding]
    # Every tool of the surface, in list order (for reports with a line per tool).
    tools: list[str] = field(default_factory=list)

    def failing(self, categories: tuple[str, ...]) -> list[Finding]:
        return [f for f in self.findings if f.category in categories]

    @property
    def categories(self) -> list[str]:
        found = {f.category for f in self.findings}
        return [c for c in CATEGORIES if c in found]

    def counts(self) -> dict[str, int]:
        """Findings per category, every category named."""
        return {c: sum(1 for f in self.findings if f.category == c) for c in CATEGORIES}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "findings": [f.to_json() for f in self.findings],
            "counts": self.counts(),
            "categories_with_findings": len(self.categories),
        }


@dataclass(frozen=True)
class LintResult:
    surfaces: list[SurfaceLint]

    def fails(self, categories: tuple[str, ...]) -> bool:
        """Whether a finding of one of these categories was made (`--fail-on`)."""
        return any(s.failing(categories) for s in self.surfaces)

    def to_json(self) -> dict[str, Any]:
        return {"surfaces": [s.to_json() for s in self.surfaces]}
