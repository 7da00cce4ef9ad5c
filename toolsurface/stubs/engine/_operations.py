"""What a call does to the items, whatever the tool is named: get, list, create, change, act, delete.
Every refusal names the allowed fields, filters, actions, values or the current version."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolsurface.harness.surface import Kind
from toolsurface.stubs.engine._store import Item, ItemStore
from toolsurface.stubs.engine._values import check_value, field_names, status_field
from toolsurface.stubs.kit import Refusal, check_version, page, refuse_unknown

__all__ = ["act", "change", "create", "delete", "entry", "filter_names", "get", "list_items"]

INCLUDE_CLOSED = "includeClosed"


def filter_names(kind: Kind) -> list[str]:
    return [f.name for f in kind.filters]


def entry(store: ItemStore, item: Item) -> dict[str, Any]:
    """A list entry: the number and every field that is not long text."""
    kind = store.kinds[item.kind]
    short = [f.name for f in kind.fields if not f.text]
    return {"number": item.number, **{k: item.fields.get(k) for k in short}}


def get(store: ItemStore, item: Item) -> dict[str, Any]:
    """The item whole, with the items of other kinds that refer to it (`linked`, by kind)."""
    linked: dict[str, list[int]] = {}
    for other in store.items.values():
        for spec in store.kinds[other.kind].fields:
            if spec.ref == item.kind and other.fields.get(spec.name) == item.number:
                linked.setdefault(other.kind, []).append(other.number)
    view: dict[str, Any] = {"kind": item.kind, "number": item.number, "version": item.version, **item.fields}
    if linked:
        view["linked"] = linked
    return view


def _matches(item: Item, name: str, wanted: Any) -> bool:
    value = item.fields.get(name)
    if isinstance(value, list):
        return all(w in value for w in (wanted if isinstance(wanted, list) else [wanted]))
    return bool(value == wanted)


def list_items(
    store: ItemStore,
    kind: Kind,
    filters: Mapping[str, Any],
    query: str | None,
    limit: int | None,
    cursor: str | None,
) -> dict[str, Any]:
    """Filters compare a field's value (a list field: holds them all); closed items only with includeClosed."""
    allowed = filter_names(kind)
    refuse_unknown(filters, allowed, noun="filter", of=kind.name, label="allowed filters")
    by_name = {f.name: f for f in kind.fields}
    for name, value in filters.items():
        if name in by_name:
            check_value(store, kind, by_name[name], value)
        elif not isinstance(value, bool):
            raise Refusal(f"filter {name} must be true or false", ["true", "false"])
    items = store.of_kind(kind.name)
    status = status_field(kind)
    if status is not None and kind.closed and not filters.get(INCLUDE_CLOSED, False):
        items = [i for i in items if i.fields.get(status.name) not in kind.closed]
    for name, value in filters.items():
        if name in by_name and value is not None:
            items = [i for i in items if _matches(i, name, value)]
    if query:
        words = query.lower().split()
        texts = [f.name for f in kind.fields if f.type == "string"]
        items = [i for i in items if all(any(w in str(i.fields.get(t) or "").lower() for t in texts) for w in words)]
    return page([entry(store, i) for i in items], limit, cursor)


def _set_by_actions(kind: Kind) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for action in kind.actions:
        for name, _ in action.sets:
            found.setdefault(name, []).append(action.name)
        if action.records:
            found.setdefault(action.records, []).append(action.name)
    return found


def _check_fields(store: ItemStore, kind: Kind, fields: Mapping[str, Any]) -> None:
    refuse_unknown(fields, field_names(kind), noun="field", of=kind.name, label="fields")
    by_action = _set_by_actions(kind)
    for name, value in fields.items():
        if name in by_action:
            actions = by_action[name]
            raise Refusal(f"{kind.name} {name} is set by an action, not stored; actions: {', '.join(actions)}", actions)
        spec = next(f for f in kind.fields if f.name == name)
        if value is None and spec.required:
            raise Refusal(f"{kind.name} {name} cannot be cleared; give a value", [name])
        check_value(store, kind, spec, value)


def create(store: ItemStore, kind: Kind, fields: Mapping[str, Any]) -> dict[str, Any]:
    """A new item: required fields given, the first choice by default."""
    _check_fields(store, kind, fields)
    required = [f.name for f in kind.fields if f.required]
    missing = [name for name in required if fields.get(name) is None]
    if missing:
        raise Refusal(f"a new {kind.name} needs {missing[0]}; required: {', '.join(required)}", required)
    values = {
        f.name: fields.get(f.name, f.choices[0] if f.choices and f.type != "array" else None) for f in kind.fields
    }
    number = store.next_number
    store.items[number] = Item(kind.name, number, values)
    store.next_number += 1
    store.clock.tick()
    return {"outcome": "created", "kind": kind.name, "number": number, "version": 1}


def _versioned(item: Item, kind: Kind, version: int | None, what: str) -> None:
    if kind.versioned:
        check_version(f"#{item.number}", item.version, version, what)


def _changed(store: ItemStore, item: Item) -> dict[str, Any]:
    item.version += 1
    store.clock.tick()
    return {"outcome": "changed", "number": item.number, "version": item.version}


def change(store: ItemStore, item: Item, fields: Mapping[str, Any], version: int | None) -> dict[str, Any]:
    """Named fields change, omitted ones are kept, null clears."""
    kind = store.kinds[item.kind]
    if not fields:
        names = field_names(kind)
        raise Refusal(f"nothing to change; {kind.name} fields: {', '.join(names)}", names)
    _check_fields(store, kind, fields)
    _versioned(item, kind, version, "this change")
    item.fields.update(fields)
    return _changed(store, item)


def act(store: ItemStore, item: Item, action: str | None, version: int | None, note: str | None) -> dict[str, Any]:
    kind = store.kinds[item.kind]
    actions = {a.name: a for a in kind.actions}
    if action not in actions:
        allowed = list(actions) or ["(none)"]
        raise Refusal(f"{action!r} does not apply to a {kind.name}; {kind.name} actions: {', '.join(allowed)}", allowed)
    chosen = actions[action]
    status = status_field(kind)
    if chosen.when and status is not None and item.fields.get(status.name) not in chosen.when:
        current = item.fields.get(status.name)
        raise Refusal(
            f"#{item.number} is {current}; {action} applies to a {kind.name} that is {' or '.join(chosen.when)}",
            chosen.when,
        )
    if chosen.records and not note:
        raise Refusal(f"{action} needs a note, kept as the {kind.name}'s {chosen.records}", ["note"])
    _versioned(item, kind, version, action)
    item.fields.update(dict(chosen.sets))
    if chosen.records:
        item.fields[chosen.records] = note
    return {**_changed(store, item), "outcome": action}


def delete(store: ItemStore, item: Item, version: int | None) -> dict[str, Any]:
    """Only an item nothing refers to; the refusal names what does."""
    kind = store.kinds[item.kind]
    _versioned(item, kind, version, "a delete")
    referring = [
        f"#{other.number}"
        for other in store.items.values()
        for spec in store.kinds[other.kind].fields
        if spec.ref == item.kind and other.fields.get(spec.name) == item.number
    ]
    if referring:
        raise Refusal(f"#{item.number} cannot be deleted: {', '.join(referring)} refer to it", referring)
    del store.items[item.number]
    store.clock.tick()
    return {"outcome": "deleted", "number": item.number}
