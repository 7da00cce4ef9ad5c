"""The lint rules, each described once: a stable id, its name (the category a finding names), its severity and
what it checks. Ids are grouped by family: TS1xx, what the tools say inconsistently across the list; TS2xx,
what one tool's annotations and description say; TS3xx, what a client breaks, cuts or drops; TS4xx, what clashes
among the servers a client's configuration runs together (lint --mcp-config). An id is never
given to another rule, and a rule keeps its id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from toolsurface.harness.errors import ToolsurfaceError

Severity = Literal["error", "warning", "info"]
# Worst first: a severity given to --fail-on fails on it and on every one before it.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: Severity
    checks: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "severity": self.severity, "checks": self.checks}

    @property
    def among_servers(self) -> bool:
        """A rule of the TS4xx family, found only among the servers of a configuration linted together."""
        return self.id.startswith("TS4")


RULES: tuple[Rule, ...] = (
    Rule(
        "TS101",
        "addressing",
        "warning",
        "One item addressed under several parameter names (number next to taskNumber, id next to ref); a scope"
        " such as projectId is a concept of its own.",
    ),
    Rule(
        "TS102",
        "concurrency",
        "warning",
        "Several names for the token that guards a change (version, etag, revisionId), or a tool that takes two.",
    ),
    Rule(
        "TS103",
        "patch-rule",
        "warning",
        "Two rules for changing an item: a patch object in some tools, top-level fields with clear flags or"
        " where null clears in others.",
    ),
    Rule(
        "TS104",
        "decision-flag",
        "warning",
        "A boolean parameter that turns an action into its opposite (approve true or false); an action value"
        " would name both.",
    ),
    Rule("TS105", "reason", "warning", "Several parameter names for why a change is made (reason, comment, note)."),
    Rule(
        "TS106",
        "filter-paging",
        "warning",
        "Include flags whose meanings overlap, or read-only list tools that page in different ways (cursor,"
        " offset and limit, none).",
    ),
    Rule("TS107", "overloaded-word", "warning", "One parameter name that means two things in different tools."),
    Rule(
        "TS201",
        "permission-split",
        "warning",
        "A tool a client can only allow or refuse whole though one choice picks an irreversible or a reversible"
        " action, or whose readOnlyHint or destructiveHint annotation is missing or contradicts its name.",
    ),
    Rule(
        "TS202",
        "first-sentence",
        "info",
        "A description whose first sentence names none of the things the tool works on, the words a client's"
        " tool search matches.",
    ),
    Rule(
        "TS301",
        "client-limit",
        "error",
        "What a client breaks, drops or cuts, as toolsurface compat saw each client do: a name that with the"
        " client's prefix and the server's name passes what its API takes or what it keeps, names it cleans"
        " alike, a schema with oneOf, anyOf or allOf at its top, a description or server instructions longer"
        " than it keeps.",
    ),
    Rule(
        "TS302",
        "x-mcp-header",
        "error",
        "An invalid x-mcp-header annotation in a tool's inputSchema, for which a Streamable HTTP client of MCP"
        " 2026-07-28 must drop the tool.",
    ),
    Rule(
        "TS401",
        "shared-name",
        "warning",
        "A tool name two servers of one configuration share: a client that prefixes the server's name keeps them"
        " apart, but its model is shown two tools called alike; one that does not sends only one.",
    ),
    Rule(
        "TS402",
        "joined-name",
        "error",
        "Tools of two servers that a client's prefix and cleaning rule name alike (server a's b_c and server a_b's"
        " c both mcp_a_b_c in gemini-cli): its request carries two tools of one name, or only one.",
    ),
    Rule(
        "TS403",
        "builtin-name",
        "warning",
        "A server's tool named like a client's own tool: a setting that names the client's tool (an exclusion, a"
        " permission) reaches the server's tool too.",
    ),
)

CATEGORIES = tuple(r.name for r in RULES)
_BY_KEY = {key: r for r in RULES for key in (r.id.lower(), r.name)}


def find_rule(key: str) -> Rule | None:
    """A rule by its id (any case) or its name."""
    return _BY_KEY.get(key.strip().lower())


def rule_of(category: str) -> Rule:
    """The rule a finding's category names."""
    return _BY_KEY[category]


def known_rules() -> str:
    """Every rule as `TS101 (addressing)`, for a message that names a key no rule has."""
    return ", ".join(f"{r.id} ({r.name})" for r in RULES)


def unknown_rule(key: str) -> str:
    return f"unknown lint rule {key!r}; the rules are {known_rules()}"


def rules_at_least(severity: Severity) -> tuple[str, ...]:
    """The categories of the rules of this severity or a worse one."""
    worst = SEVERITIES[: SEVERITIES.index(severity) + 1]
    return tuple(r.name for r in RULES if r.severity in worst)


# The severities --fail-on takes (information is `any`).
_GATED: dict[str, Severity] = {"error": "error", "warning": "warning"}


def parse_fail_on(text: str) -> tuple[str, ...]:
    """`--fail-on` -> the categories whose findings fail a lint: `error` or `warning` (that severity or a worse
    one), rule names or ids (comma-separated, mixed with a severity as well), or `any` (every rule)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    choices = f"error, warning, rules by name or id ({known_rules()}), or any"
    if not names:
        raise ToolsurfaceError(f"--fail-on {text!r}: name a severity, lint rules or any: {choices}")
    if "any" in names:
        return CATEGORIES
    failing: set[str] = set()
    for name in names:
        if name in _GATED:
            failing.update(rules_at_least(_GATED[name]))
            continue
        found = find_rule(name)
        if found is None:
            raise ToolsurfaceError(f"--fail-on: unknown lint rule or severity {name!r}; choose from {choices}")
        failing.add(found.name)
    return tuple(c for c in CATEGORIES if c in failing)
