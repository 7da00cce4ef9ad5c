"""The items a kinds-driven stub serves: loaded from a fixture checked against the kinds, changed only by
calls, dumped as the state the outcome checks read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Kind
from toolsurface.stubs.engine._values import check_value, field_names
from toolsurface.stubs.kit import Clock, FixtureError, Refusal, names, read_fixture_json

FIXTURE_FORMAT = "toolsurface-items/1"


@dataclass
class Item:
    kind: str
    number: int
    fields: dict[str, Any]
    version: int = 1

    def state(self) -> dict[str, Any]:
        return {"kind": self.kind, "number": self.number, "version": self.version, "fields": dict(self.fields)}


@dataclass
class ItemStore:
    """Numbered items of the given kinds (one numbering for all kinds, `#N`), a clock and what was read."""

    kinds: dict[str, Kind]
    items: dict[int, Item]
    clock: Clock
    next_number: int

    def kind(self, name: str | None, served: Sequence[str] | None = None) -> Kind:
        allowed = list(served if served is not None else self.kinds)
        if name not in allowed:
            raise Refusal(f"kind {name!r} is not served here; kinds: {', '.join(allowed)}", allowed)
        return self.kinds[str(name)]

    def item(self, number: int | None, kind: str | None = None) -> Item:
        candidates = [n for n, i in sorted(self.items.items()) if kind is None or i.kind == kind]
        what = kind or "item"
        found = self.items.get(number) if number is not None else None
        if found is None:
            raise Refusal(
                f"there is no {what} #{number}; {what} numbers: {names(candidates)}", candidates or ["(none)"]
            )
        if kind is not None and found.kind != kind:
            raise Refusal(f"#{number} is a {found.kind}, not a {kind}; {kind} numbers: {names(candidates)}", candidates)
        return found

    def of_kind(self, kind: str) -> list[Item]:
        return [i for _, i in sorted(self.items.items()) if i.kind == kind]

    def dump(self) -> dict[str, Any]:
        return {"items": [i.state() for _, i in sorted(self.items.items())], "time": self.clock.now()}


def _fail(path: Path, where: str, problem: str) -> FixtureError:
    return FixtureError(f"{path}: {where}: {problem}")


def load_items(path: Path, kinds: Sequence[Kind]) -> ItemStore:
    """The fixture `{"format", "start", "items": [{"kind", "number", "fields", "version"?}]}`, every item
    checked against its kind: known kind and fields, allowed values, references to existing items."""
    data = read_fixture_json(path)
    if not isinstance(data, dict) or data.get("format") != FIXTURE_FORMAT or not isinstance(data.get("items"), list):
        raise FixtureError(f'{path}: not an items fixture (expected "format": "{FIXTURE_FORMAT}" and "items": [...])')
    try:
        start = datetime.fromisoformat(str(data.get("start")).replace("Z", "+00:00"))
    except ValueError:
        what = "is missing" if "start" not in data else f"{data['start']!r} is not an ISO 8601 time"
        raise _fail(path, "start", f"the clock's start {what} (e.g. 2026-11-30T09:00:00Z)") from None
    by_name = {k.name: k for k in kinds}
    items: dict[int, Item] = {}
    for n, raw in enumerate(data["items"]):
        where = f"items[{n}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("fields"), dict):
            raise _fail(path, where, "an item is an object with kind, number and fields")
        kind = by_name.get(raw.get("kind"))  # type: ignore[arg-type]
        if kind is None:
            raise _fail(path, where, f"kind {raw.get('kind')!r} is not one of {', '.join(by_name)}")
        number = raw.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1 or number in items:
            raise _fail(path, where, f"number {number!r} must be a positive integer no other item has")
        unknown = [k for k in raw["fields"] if k not in field_names(kind)]
        if unknown:
            raise _fail(
                path,
                f"{where} ({kind.name} #{number})",
                f"unknown field {unknown[0]!r}; fields: {', '.join(field_names(kind))}",
            )
        items[number] = Item(kind.name, number, dict(raw["fields"]), int(raw.get("version", 1)))
    store = ItemStore(by_name, items, Clock(start), max(items, default=0) + 1)
    for item in items.values():
        kind = by_name[item.kind]
        for spec in kind.fields:
            value = item.fields.get(spec.name)
            if value is None and spec.required:
                raise _fail(path, f"{item.kind} #{item.number}", f"{spec.name} is required")
            try:
                check_value(store, kind, spec, value)
            except Refusal as refusal:
                raise _fail(path, f"{item.kind} #{item.number}", refusal.message) from None
    return store
