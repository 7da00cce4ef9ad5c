"""Lint records: a finding, a surface's findings (and those the configuration suppressed), a result."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.lint._catalog import SEVERITIES, FailOn, Rule, Severity, categories, rule_of

# ---------------------------------------------------------------------------------------------------------------
# Records across the boundary


@dataclass(frozen=True)
class Finding:
    category: str
    tools: list[str]
    parameters: list[str]
    message: str
    # A severity below the rule's, for a finding that holds only in some cases (a name too long only for server
    # names the user did not give): the rule's severity where None.
    level: Severity | None = None
    # What tells this finding apart from another of its rule on the same tools and parameters (part of its key).
    aspect: str = ""
    # What fixing it would add to the list, in o200k tokens (negative: what it would save), where a rule estimates
    # it from a typical fix's text (the description-quality rules: fuller descriptions cost every request).
    cost_tokens: int | None = None

    @property
    def rule(self) -> Rule:
        return rule_of(self.category)

    @property
    def severity(self) -> Severity:
        return self.level or self.rule.severity

    def key(self, server: str) -> str:
        """The finding's stable key on a server's list (a judgement file names findings by it): its rule, the
        server, its tools and parameters, and its aspect where a rule says several things of the same tools."""
        parts = [self.rule.id, server, ",".join(self.tools), ",".join(self.parameters)]
        return "/".join(parts + ([self.aspect] if self.aspect else []))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "category": self.category,
            "rule": self.rule.id,
            "severity": self.severity,
            "tools": self.tools,
            "parameters": self.parameters,
            "message": self.message,
        }
        if self.cost_tokens is not None:
            data["cost_tokens"] = self.cost_tokens
        return data


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
