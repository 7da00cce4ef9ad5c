"""Outcome checks: predicates over the stub's final project state and the agent's final answer.

They catch what refusals cannot show, like a list of "open tasks" that quietly misses blocked #14.
Each check type reads its parameters from the scenario; each result keeps its name and a detail. The checks
here read any state of items with numbers and fields; a study adds those that read its own domain (the
module its `Study.checks` names, with a `CHECKS` of its own).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from toolsurface.harness.surface import studies


@dataclass(frozen=True)
class CheckSpec:
    """One named check of a scenario: its type and the parameters that type reads."""

    name: str
    type: str
    params: dict[str, Any]
    about: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CheckSpec:
        return cls(str(data["name"]), str(data["type"]), dict(data), str(data.get("about", "")))


@dataclass(frozen=True)
class CheckInput:
    state: dict[str, Any] | None
    initial: dict[str, Any]
    answer: str | None


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    detail: str


Check = Callable[[Mapping[str, Any], CheckInput], tuple[bool, str]]


def state_items(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = state.get("items", [])
    return items


def state_item(state: Mapping[str, Any], number: int) -> dict[str, Any] | None:
    return next((i for i in state_items(state) if i.get("number") == number), None)


def _mentions(answer: str, item: Mapping[str, Any]) -> bool:
    """An item is mentioned by its title, or by its number: `#14`, `"number": 14`, or a list line `14. …`."""
    title = str(item["fields"].get("title") or "")
    number = item.get("number")
    if title and title.lower() in answer.lower():
        return True
    if number is None:
        return False
    forms = (rf"#{number}\b", rf"\bnumber\W{{0,3}}\s*[:=]\s*{number}\b", rf"(?m)^\s*[-*]?\s*{number}[.):]\s")
    return any(re.search(form, answer) for form in forms)


def item_exists(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    state = given.state or {}
    wanted = dict(params.get("fields", {}))
    found = [
        i
        for i in state_items(state)
        if i.get("kind") == params.get("kind")
        and str(i["fields"].get("title", "")).strip().lower() == str(params["title"]).lower()
    ]
    if not found:
        return False, f"no {params.get('kind')} titled {params['title']!r}"
    matching = [i for i in found if all(i["fields"].get(k) == v for k, v in wanted.items())]
    if not matching:
        got = {k: found[0]["fields"].get(k) for k in wanted}
        return False, f"#{found[0].get('number')} {params['title']!r} has {got}, expected {wanted}"
    if len(matching) > 1:
        return False, f"{len(matching)} items titled {params['title']!r}, expected one"
    return True, f"#{matching[0].get('number')} {params['title']!r} with {wanted}"


def fields_changed(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    number = int(params["number"])
    now, before = state_item(given.state or {}, number), state_item(given.initial, number)
    if now is None or before is None:
        return False, f"#{number} is missing"
    wrong = {k: now["fields"].get(k) for k, v in params.get("changed", {}).items() if now["fields"].get(k) != v}
    if wrong:
        return False, f"#{number} has {wrong}, expected {dict(params['changed'])}"
    lost = [k for k in params.get("kept", []) if now["fields"].get(k) != before["fields"].get(k)]
    if lost:
        return False, f"#{number} also changed {', '.join(lost)}"
    return True, f"#{number} changed {', '.join(params.get('changed', {}))}, kept the rest"


def answer_lists_items(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    """Every item of `kind` whose `field` is one of `values` is in the answer, none whose field is one of
    `excludes` (a list of "open tickets" that quietly misses the pending ones fails here)."""
    if not given.answer:
        return False, "no final answer"
    kind, field = str(params["kind"]), str(params.get("field", "status"))
    plural, wanted, unwanted = str(params.get("plural", f"{kind}s")), str(params.get("wanted", "active")), "closed"
    items = [i for i in state_items(given.state or given.initial) if i.get("kind") == kind]
    active = [t for t in items if t["fields"].get(field) in params["values"]]
    closed = [t for t in items if t["fields"].get(field) in params.get("excludes", [])]
    missing = [t for t in active if not _mentions(given.answer, t)]
    listed_closed = [t for t in closed if str(t["fields"].get("title", "")).lower() in given.answer.lower()]
    problems = []
    if missing:
        names = ", ".join(f"#{t['number']} {t['fields']['title']} ({t['fields'][field]})" for t in missing)
        problems.append(f"missing {names}")
    if listed_closed:
        problems.append(
            f"lists {unwanted} " + ", ".join(f"#{t['number']} {t['fields']['title']}" for t in listed_closed)
        )
    if problems:
        return False, "; ".join(problems)
    return True, f"all {len(active)} {wanted} {plural}, no {unwanted} one"


def item_matches(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    """Exactly one item of `kind` has all of `fields` (strings compared without case and outer spaces)."""

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, str) and isinstance(b, str):
            return a.strip().lower() == b.strip().lower()
        return bool(a == b)

    wanted = dict(params.get("fields", {}))
    kind = params.get("kind")
    found = [
        i
        for i in state_items(given.state or {})
        if i.get("kind") == kind and all(same(i["fields"].get(k), v) for k, v in wanted.items())
    ]
    if len(found) != 1:
        return False, f"{len(found)} {kind} items with {wanted}, expected one"
    return True, f"#{found[0].get('number')} {kind} with {wanted}"


def answer_contains(params: Mapping[str, Any], given: CheckInput) -> tuple[bool, str]:
    if not given.answer:
        return False, "no final answer"
    text = given.answer
    absent = [s for s in params.get("contains", []) if s not in text]
    present = [s for s in params.get("excludes", []) if s in text]
    if absent or present:
        parts = []
        if absent:
            parts.append("does not hold " + "; ".join(repr(s) for s in absent))
        if present:
            parts.append("also holds " + "; ".join(repr(s) for s in present))
        return False, "the answer " + " and ".join(parts)
    return True, "the answer holds the expected text only"


CHECKS: dict[str, Check] = {
    "item_exists": item_exists,
    "fields_changed": fields_changed,
    "answer_lists_items": answer_lists_items,
    "item_matches": item_matches,
    "answer_contains": answer_contains,
}
"""The check types every scenario may use."""


def check_types() -> dict[str, Check]:
    """The harness's check types, then those of every installed study (`Study.checks`)."""
    found = dict(CHECKS)
    for study in studies():
        if study.checks:
            found.update(getattr(import_module(study.checks), "CHECKS", {}))
    return found


def evaluate(checks: Sequence[CheckSpec], given: CheckInput) -> list[CheckResult]:
    """Every check by name; a run without a final state fails the state checks and says why."""
    results = []
    types = check_types()
    for spec in checks:
        if given.state is None and spec.type not in ("answer_contains",):
            results.append(CheckResult(spec.name, False, "no final state from the stub"))
            continue
        try:
            passed, detail = types[spec.type](spec.params, given)
        except (KeyError, TypeError, ValueError) as error:
            passed, detail = False, f"check could not be evaluated: {type(error).__name__}: {error}"
        results.append(CheckResult(spec.name, passed, detail))
    return results
