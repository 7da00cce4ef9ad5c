"""A finding: what a lint rule says of one or more tools, stamped with its rule's id and severity by the rule that
made it (Rule.run); and the severities."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["SEVERITIES", "Finding", "Severity"]

Severity = Literal["error", "warning", "info"]
# Worst first: a severity given to --fail-on fails on it and on every one before it.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


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
    # The rule that made it, stamped by Rule.run: its id and its severity.
    rule_id: str = ""
    rule_severity: Severity = "info"

    @property
    def severity(self) -> Severity:
        return self.level or self.rule_severity

    def key(self, server: str) -> str:
        """The finding's stable key on a server's list (a judgement file names findings by it): its rule, the
        server, its tools and parameters, and its aspect where a rule says several things of the same tools."""
        parts = [self.rule_id, server, ",".join(self.tools), ",".join(self.parameters)]
        return "/".join(parts + ([self.aspect] if self.aspect else []))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "category": self.category,
            "rule": self.rule_id,
            "severity": self.severity,
            "tools": self.tools,
            "parameters": self.parameters,
            "message": self.message,
        }
        if self.cost_tokens is not None:
            data["cost_tokens"] = self.cost_tokens
        return data
