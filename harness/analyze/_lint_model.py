"""Lint records: the categories, a finding, a surface's findings, a result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CATEGORIES", "Finding", "LintResult", "SurfaceLint"]

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


@dataclass(frozen=True)
class SurfaceLint:
    name: str
    findings: list[Finding]

    @property
    def categories(self) -> list[str]:
        found = {f.category for f in self.findings}
        return [c for c in CATEGORIES if c in found]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "findings": [f.to_json() for f in self.findings]}


@dataclass(frozen=True)
class LintResult:
    surfaces: list[SurfaceLint]

    def to_json(self) -> dict[str, Any]:
        return {"surfaces": [s.to_json() for s in self.surfaces]}
