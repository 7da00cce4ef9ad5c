"""Lint results: a surface's findings (and those the configuration suppressed), and a result of several."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.lint._catalog import FailOn
from toolsurface.harness.analyze.lint._model import SEVERITIES, Finding
from toolsurface.harness.analyze.lint._registry import categories

__all__ = ["LintResult", "SurfaceLint"]


@dataclass(frozen=True)
class SurfaceLint:
    name: str
    findings: list[Finding]
    # Every tool of the surface, in list order (for reports with a line per tool).
    tools: list[str] = field(default_factory=list)
    # What the project's configuration turned off ([tool.toolsurface.lint]): found, and not reported.
    suppressed: list[Finding] = field(default_factory=list)
    # The file the surface was read from (a snapshot or a module; a live server's script), when there is one.
    file: Path | None = None

    def failing(self, fail_on: FailOn) -> list[Finding]:
        return [f for f in self.findings if fail_on.fails(f)]

    @property
    def categories(self) -> list[str]:
        found = {f.category for f in self.findings}
        return [c for c in categories() if c in found]

    def counts(self) -> dict[str, int]:
        """Findings per category, every category named."""
        return {c: sum(1 for f in self.findings if f.category == c) for c in categories()}

    def severities(self) -> dict[str, int]:
        """Findings per severity, every severity named."""
        return {s: sum(1 for f in self.findings if f.severity == s) for s in SEVERITIES}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "findings": [f.to_json() for f in self.findings],
            "counts": self.counts(),
            "categories_with_findings": len(self.categories),
            "severities": self.severities(),
            "suppressed": len(self.suppressed),
        }


@dataclass(frozen=True)
class LintResult:
    surfaces: list[SurfaceLint]

    def fails(self, fail_on: FailOn) -> bool:
        """Whether a finding that fails the lint was made (`--fail-on`)."""
        return any(s.failing(fail_on) for s in self.surfaces)

    @property
    def suppressed(self) -> int:
        return sum(len(s.suppressed) for s in self.surfaces)

    def to_json(self) -> dict[str, Any]:
        return {"surfaces": [s.to_json() for s in self.surfaces]}
