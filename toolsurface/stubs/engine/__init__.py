"""The engine driven by kinds: for a surface built the v2 way, its tools and handlers both come from `Kind`
declarations over a fixture of items, with no handler code.

    KINDS = (TICKET, CUSTOMER)
    build = partial(consolidated_tools, prefix="item")      # item_get/list/store/action/delete
    STUB = engine_stub(KINDS, FIXTURE, consolidated_handlers("item"))

What the kinds declare is what the stub does (`harness.surface.Kind`): fields with their JSON type,
`choices`, `ref` (the number of an item of another kind) and `required`; filters (a field's value; the
list leaves out `closed` status values unless `includeClosed`); actions with the values they `set`, the
statuses they apply `when`, the field their note `records`; `versioned` (a change, action or delete needs
the version read). Every refusal names what is allowed. `per_kind_tools` / `per_kind_handlers` spend one
tool per kind and verb instead. Hand-written handlers override or add: `engine_handlers | mine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolsurface.harness.surface import Kind, StubFactory
from toolsurface.stubs.engine._operations import act, change, create, delete, entry, get, list_items
from toolsurface.stubs.engine._shapes import (
    consolidated_handlers,
    consolidated_tools,
    per_kind_handlers,
    per_kind_tools,
    settable,
)
from toolsurface.stubs.engine._store import FIXTURE_FORMAT, Item, ItemStore, load_items
from toolsurface.stubs.kit import Handlers, stub_factory

__all__ = [
    "FIXTURE_FORMAT",
    "Item",
    "ItemStore",
    "act",
    "change",
    "consolidated_handlers",
    "consolidated_tools",
    "create",
    "delete",
    "engine_stub",
    "entry",
    "get",
    "list_items",
    "load_items",
    "per_kind_handlers",
    "per_kind_tools",
    "settable",
]


def engine_stub(kinds: Sequence[Kind], fixture: Path, handlers: Handlers[ItemStore]) -> StubFactory:
    """A fresh store of `kinds` from `fixture` (or the file `serve --fixture` names) at every start."""
    chosen = tuple(kinds)
    return stub_factory(handlers, lambda given: load_items(given or fixture, chosen), ItemStore.dump)
