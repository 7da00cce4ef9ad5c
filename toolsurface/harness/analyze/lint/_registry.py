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

from toolsurface.harness.analyze.lint._catalog import SEVERITIES, Rule
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["ENTRY_POINT_GROUP", "RuleLoadError", "registered_rules"]

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
