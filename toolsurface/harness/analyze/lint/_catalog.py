"""A lint rule is one unit, declared once: a stable id, its name (the category its findings name), its severity,
what it checks, why (with the study or the client behaviour behind it), a bad and a good example (which are its
tests: the bad one fires, the good one does not), the fix, and the check itself. Ids are grouped by family: TS0xx,
a tool a client cannot take as published; TS1xx, what the tools say inconsistently across the list; TS2xx, what
one tool's annotations and description say; TS3xx, what a client breaks, cuts or drops; TS4xx, what clashes
among the servers a client's configuration runs together (lint --mcp-config). An id is never given to another
rule, and a rule keeps its id.

Rules are registered in the entry-point group `toolsurface.lint_rules` (toolsurface's own as an outside
package's: `NAME = "package.module:RULES"`, naming a Rule or a sequence of them), read by
toolsurface.harness.analyze.lint._registry."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint._model import Finding
    from toolsurface.harness.analyze.lint._view import LintView

Severity = Literal["error", "warning", "info"]
# Worst first: a severity given to --fail-on fails on it and on every one before it.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
# What a rule judges: one server's list, or the servers of one configuration together.
Scope = Literal["server", "servers"]


@dataclass(frozen=True)
class ServerTools:
    """What a rule of one server is given: its tools as a client receives them (wire form), its instructions,
    whether it is a surface of ours built from kinds (its findings may speak of kinds), and the name the user
    gives the server (`--server-name`, a configuration's key) where it is known: a finding that holds only for
    some names bites or not by it."""

    tools: tuple[Mapping[str, Any], ...]
    instructions: str | None = None
    ours: bool = False
    server_name: str | None = None

    @functools.cached_property
    def view(self) -> LintView:
        from toolsurface.harness.analyze.lint._view import build_surface

        return build_surface(self.tools, ours=self.ours)


@dataclass(frozen=True)
class ServerSet:
    """What a rule among servers is given: each server's name and tool names in the configuration's order, each
    client's own tools by name (as the client cards record them), and each server's name and tools in wire form."""

    servers: tuple[tuple[str, tuple[str, ...]], ...]
    builtins: Mapping[str, Sequence[str]] = field(default_factory=dict)
    lists: tuple[tuple[str, tuple[Mapping[str, Any], ...]], ...] = ()


@dataclass(frozen=True)
class Example:
    """A list a rule is shown on: tools in wire form (and instructions, and the name the user gives the server,
    where the rule reads them), or for a rule among servers, each server's name and tools."""

    tools: tuple[Mapping[str, Any], ...] = ()
    instructions: str | None = None
    server_name: str | None = None
    servers: tuple[tuple[str, tuple[Mapping[str, Any], ...]], ...] = ()

    @classmethod
    def of(cls, *tools: Mapping[str, Any]) -> Example:
        """An example of one server's tools."""
        return cls(tools=tuple(tools))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.servers:
            data["servers"] = {name: [dict(t) for t in tools] for name, tools in self.servers}
        else:
            data["tools"] = [dict(t) for t in self.tools]
        if self.instructions is not None:
            data["instructions"] = self.instructions
        if self.server_name is not None:
            data["server_name"] = self.server_name
        return data


Check = Callable[[Any], Iterable["Finding"]]


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: Severity
    checks: str
    why: str
    fix: str
    bad: Example
    good: Example
    check: Check = field(repr=False, compare=False)
    # Where the rationale comes from: a study (arXiv id), a client's observed behaviour, the seed's design page.
    source: str = ""
    scope: Scope = "server"
    # The distribution that declared it, filled in by the registry.
    origin: str = "toolsurface"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "severity": self.severity,
            "checks": self.checks,
            "why": self.why,
            "source": self.source,
            "fix": self.fix,
            "scope": self.scope,
            "origin": self.origin,
            "examples": {"bad": self.bad.to_json(), "good": self.good.to_json()},
        }

    @property
    def among_servers(self) -> bool:
        """A rule found only among the servers of a configuration linted together."""
        return self.scope == "servers"

    def run(self, given: ServerTools | ServerSet) -> list[Finding]:
        """This rule's findings on what it is given (nothing when the scope is another)."""
        wanted = ServerSet if self.among_servers else ServerTools
        return list(self.check(given)) if isinstance(given, wanted) else []

    def on_example(self, example: Example) -> list[Finding]:
        """This rule's findings on one of its examples."""
        given: ServerTools | ServerSet
        if self.among_servers:
            from toolsurface.harness.agents import builtin_tools

            named = tuple((name, tuple(str(t.get("name")) for t in tools)) for name, tools in example.servers)
            given = ServerSet(named, builtin_tools(), example.servers)
        else:
            given = ServerTools(example.tools, example.instructions, server_name=example.server_name)
        return [f for f in self.run(given) if f.category == self.name]


def rule(
    id: str,
    name: str,
    severity: Severity,
    *,
    checks: str,
    why: str,
    fix: str,
    bad: Example,
    good: Example,
    source: str = "",
    scope: Scope = "server",
) -> Callable[[Check], Rule]:
    """Declares a rule around its check: `@rule("TS101", "addressing", "warning", checks=..., ...)` over a
    function of ServerTools (or of ServerSet, for `scope="servers"`) that yields its findings."""

    def declare(check: Check) -> Rule:
        return Rule(id, name, severity, checks, why, fix, bad, good, check, source, scope)

    return declare


def example_tool(
    name: str,
    description: str = "",
    params: Mapping[str, Mapping[str, Any] | str] | None = None,
    *,
    required: Sequence[str] = (),
    read_only: bool | None = None,
    destructive: bool | None = None,
    schema: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A tool in wire form for a rule's example: `params` maps each name to its schema, or to a type name."""
    properties = {
        key: ({"type": value} if isinstance(value, str) else dict(value)) for key, value in (params or {}).items()
    }
    input_schema: dict[str, Any] = dict(schema) if schema is not None else {"type": "object", "properties": properties}
    if required and schema is None:
        input_schema["required"] = list(required)
    found: dict[str, Any] = {"name": name}
    if description:
        found["description"] = description
    found["inputSchema"] = input_schema
    annotations = {
        key: value
        for key, value in (("readOnlyHint", read_only), ("destructiveHint", destructive))
        if value is not None
    }
    if annotations:
        found["annotations"] = annotations
    return found


# ---------------------------------------------------------------------------------------------------------------
# The registry's rules by key


def rules() -> tuple[Rule, ...]:
    """Every registered rule, by id."""
    from toolsurface.harness.analyze.lint._registry import registered_rules

    return registered_rules()


def categories() -> tuple[str, ...]:
    return tuple(r.name for r in rules())


def _by_key() -> dict[str, Rule]:
    return {key: r for r in rules() for key in (r.id.lower(), r.name)}


def find_rule(key: str) -> Rule | None:
    """A rule by its id (any case) or its name."""
    return _by_key().get(key.strip().lower())


def rule_of(category: str) -> Rule:
    """The rule a finding's category names."""
    return _by_key()[category]


def known_rules() -> str:
    """Every rule as `TS101 (addressing)`, for a message that names a key no rule has."""
    return ", ".join(f"{r.id} ({r.name})" for r in rules())


def unknown_rule(key: str) -> str:
    return f"unknown lint rule {key!r}; the rules are {known_rules()}"


def rules_at_least(severity: Severity) -> tuple[str, ...]:
    """The categories of the rules of this severity or a worse one."""
    worst = SEVERITIES[: SEVERITIES.index(severity) + 1]
    return tuple(r.name for r in rules() if r.severity in worst)


# The severities --fail-on takes (information is `any`).
_GATED: dict[str, Severity] = {"error": "error", "warning": "warning"}


@dataclass(frozen=True)
class FailOn:
    """What fails a lint (`--fail-on`): a finding of one of these rules (by category), or one whose own severity
    is `severity` or worse (a finding may be milder than its rule: a name too long only for names not given)."""

    categories: tuple[str, ...] = ()
    severity: Severity | None = None

    def fails(self, finding: Finding) -> bool:
        if finding.category in self.categories:
            return True
        return self.severity is not None and SEVERITIES.index(finding.severity) <= SEVERITIES.index(self.severity)

    def __bool__(self) -> bool:
        return bool(self.categories) or self.severity is not None


def parse_fail_on(text: str) -> FailOn:
    """`--fail-on` -> what fails a lint: `error` or `warning` (a finding of that severity or a worse one), rule
    names or ids (comma-separated, mixed with a severity as well), or `any` (every rule)."""
    from toolsurface.harness.errors import ToolsurfaceError

    names = [part.strip() for part in text.split(",") if part.strip()]
    choices = f"error, warning, rules by name or id ({known_rules()}), or any"
    if not names:
        raise ToolsurfaceError(f"--fail-on {text!r}: name a severity, lint rules or any: {choices}")
    if "any" in names:
        return FailOn(categories())
    failing: set[str] = set()
    severity: Severity | None = None
    for name in names:
        if name in _GATED:
            gated = _GATED[name]
            severity = gated if severity is None or SEVERITIES.index(gated) > SEVERITIES.index(severity) else severity
            continue
        found = find_rule(name)
        if found is None:
            raise ToolsurfaceError(f"--fail-on: unknown lint rule or severity {name!r}; choose from {choices}")
        failing.add(found.name)
    return FailOn(tuple(c for c in categories() if c in failing), severity)


def parse_select(text: str, option: str = "--select") -> tuple[str, ...]:
    """`--select TS101,first-sentence,TS2` -> the categories of the rules named by id, name or id prefix (a
    family: `TS2`), in the registry's order."""
    from toolsurface.harness.errors import ToolsurfaceError

    keys = [part.strip() for part in text.split(",") if part.strip()]
    if not keys:
        raise ToolsurfaceError(f"{option} {text!r}: name lint rules by id, name or family ({known_rules()})")
    chosen: set[str] = set()
    for key in keys:
        found = find_rule(key)
        family = [r.name for r in rules() if key.upper().startswith("TS") and r.id.startswith(key.upper())]
        if found is None and not family:
            raise ToolsurfaceError(f"{option}: {unknown_rule(key)}")
        chosen.update([found.name] if found is not None else family)
    return tuple(c for c in categories() if c in chosen)
