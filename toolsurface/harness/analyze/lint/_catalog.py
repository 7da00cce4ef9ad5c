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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from toolsurface.harness.analyze.lint._model import SEVERITIES, Finding, Severity

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint._view import LintView

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
    # The name toolsurface knows the server by (its own, made safe), judged where the user gave none.
    listed_name: str | None = None

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


Check = Callable[[Any], Iterable[Finding]]


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
        """This rule's findings on what it is given (nothing when the scope is another), each stamped with the
        rule's id and severity."""
        wanted = ServerSet if self.among_servers else ServerTools
        if not isinstance(given, wanted):
            return []
        return [replace(f, rule_id=self.id, rule_severity=self.severity) for f in self.check(given)]

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
