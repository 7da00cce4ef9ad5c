"""The lint rules: every Rule registered in the entry-point group `toolsurface.lint_rules`. toolsurface registers
its own there as any outside package registers one (`[project.entry-points."toolsurface.lint_rules"]`,
`NAME = "package.module:RULES"`, naming a Rule or a sequence of Rules), so `lint --rules`, the docs' rule list,
`--select`, `--fail-on`, suppressions and SARIF's rules all read one list.

An entry point that cannot be loaded, an object that is not a rule, two rules of one id or one name, and a rule
whose declaration does not hold (an id not `TS` and digits, an unknown severity, an empty rationale or fix) are
each one line naming the package that declared it."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from importlib.metadata import EntryPoint, entry_points

from toolsurface.harness.analyze.lint._catalog import FailOn, Rule
from toolsurface.harness.analyze.lint._model import SEVERITIES, Severity
from toolsurface.harness.errors import ToolsurfaceError

__all__ = [
    "ENTRY_POINT_GROUP",
    "RuleLoadError",
    "categories",
    "find_rule",
    "known_rules",
    "parse_fail_on",
    "parse_select",
    "registered_rules",
    "rule_of",
    "rules",
    "rules_at_least",
    "unknown_rule",
]

ENTRY_POINT_GROUP = "toolsurface.lint_rules"
_ID = re.compile(r"^[A-Z]{2,}\d{3}$")
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class RuleLoadError(ToolsurfaceError):
    """A registered lint rule cannot be used: its entry point or its declaration is wrong."""


def _origin(ep: EntryPoint) -> str:
    dist = ep.dist
    where = f"{dist.name} {dist.version}" if dist is not None else "an unknown package"
    return f"{where} ({ep.value})"


def _problems(rule: Rule) -> list[str]:
    problems = []
    if not _ID.match(rule.id):
        problems.append(f"id {rule.id!r} is not letters then three digits (TS101)")
    if not _NAME.match(rule.name):
        problems.append(f"name {rule.name!r} is not lower-case words joined by '-'")
    if rule.severity not in SEVERITIES:
        problems.append(f"severity {rule.severity!r} is none of {', '.join(SEVERITIES)}")
    for field in ("checks", "why", "fix"):
        if not str(getattr(rule, field)).strip():
            problems.append(f"says nothing under {field!r}")
    if not callable(rule.check):
        problems.append("has no check to run")
    return problems


def _load(ep: EntryPoint) -> list[Rule]:
    origin = _origin(ep)
    said = f"lint rules {ep.name!r} of {origin}"
    try:
        loaded = ep.load()
    except Exception as error:  # a package of the user's: whatever its import raised is the line
        raise RuleLoadError(f"{said}: cannot be loaded: {type(error).__name__}: {error}") from None
    items = [loaded] if isinstance(loaded, Rule) else loaded
    if not isinstance(items, Sequence) or isinstance(items, str) or not all(isinstance(r, Rule) for r in items):
        raise RuleLoadError(f"{said}: names a {type(loaded).__name__}, not a Rule or a sequence of Rules")
    found = []
    for item in items:
        problems = _problems(item)
        if problems:
            raise RuleLoadError(f"{said}: rule {item.id} ({item.name}) {'; '.join(problems)}")
        dist = ep.dist
        found.append(replace(item, origin=dist.name if dist is not None else item.origin))
    return found


def registered_rules() -> tuple[Rule, ...]:
    """Every registered rule, by id."""
    return _registered_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _registered_on(path: tuple[str, ...]) -> tuple[Rule, ...]:
    """Read once per import path: reading walks every installed distribution and imports every rule module."""
    found = [r for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name) for r in _load(ep)]
    for key in ("id", "name"):
        seen: dict[str, Rule] = {}
        for item in found:
            value = getattr(item, key)
            if value in seen:
                first = seen[value]
                raise RuleLoadError(
                    f"two lint rules of {key} {value!r}: {first.id} of {first.origin} and {item.id} of {item.origin}"
                )
            seen[value] = item
    return tuple(sorted(found, key=lambda r: r.id))


# ---------------------------------------------------------------------------------------------------------------
# The registry's rules by key


def rules() -> tuple[Rule, ...]:
    """Every registered rule, by id."""
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


def parse_fail_on(text: str) -> FailOn:
    """`--fail-on` -> what fails a lint: `error` or `warning` (a finding of that severity or a worse one), rule
    names or ids (comma-separated, mixed with a severity as well), or `any` (every rule)."""
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
