"""How the suite is spread over pytest-xdist's workers (tests/conftest.py holds the hooks).

Tests that share a fixture made once per module or class, or once per session by their own module, run on
one worker, so the fixture is made once; tests marked `whole_core` run one after another on one worker; every
other test goes to whichever worker is free. Each worker writes the groups it collected into a folder the
controller names in its `workerinput`, and the controller's scheduler reads them. (xdist's own loadgroup
carries a group as a suffix of the node id, which pytest 9.2's structured node ids no longer let it add: its
groups are silently dropped.)"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

__all__ = ["FOLDER_KEY", "GroupScheduling", "groups_of", "write_groups"]

FOLDER_KEY = "toolsurface_groups"
WHOLE_CORE = "whole core"


def _shared(item: pytest.Item) -> list[str]:
    """The fixtures `item` shares with other tests that are made once per module or class (else the first made
    once per session by its own module); a mark names a group of its own."""
    marked = item.get_closest_marker("xdist_group")
    if marked is not None:
        return [str(marked.args[0] if marked.args else marked.kwargs.get("name", "default"))]
    if item.get_closest_marker("whole_core") is not None:
        return [WHOLE_CORE]
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    module = item.nodeid.partition("::")[0]
    made: dict[str, list[str]] = {"module": [], "session": []}
    for name in sorted(info.name2fixturedefs):
        definition = info.name2fixturedefs[name][-1]
        if definition.scope in ("module", "class"):
            made["module"].append(f"fixture {module}::{name}")
        elif definition.scope in ("session", "package") and definition.baseid == module:
            made["session"].append(f"fixture {module}::{name}")
    # A module's own session fixture (a path, a server) joins its tests only where no module fixture does.
    return made["module"] or made["session"][:1]


def groups_of(items: Sequence[pytest.Item]) -> dict[str, str]:
    """The group each test runs in (tests in no group go to any worker): tests that share a fixture are in one
    group, and so are two tests linked through a third (one using `imported`, which is made from `sessions`, and one
    using `sessions` alone), so that no fixture is made on two workers."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    shared = {item.nodeid: _shared(item) for item in items}
    for keys in shared.values():
        for key in keys[1:]:
            first, other = root(keys[0]), root(key)
            if first != other:
                parent[max(first, other)] = min(first, other)
    return {nodeid: root(keys[0]) for nodeid, keys in shared.items() if keys}


def write_groups(folder: Path, worker: str, items: Sequence[pytest.Item]) -> None:
    (folder / f"{worker}.json").write_text(json.dumps(groups_of(items)), encoding="utf-8")


class GroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with a scope per group, and a scope of its own for every other test."""

    def __init__(self, config: pytest.Config, folder: Path, log: object = None) -> None:
        super().__init__(config, log)  # type: ignore[arg-type]
        self._folder = folder
        self._groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._groups is None:
            # Read once every worker has collected: the scheduler splits scopes only then.
            self._groups = {}
            for written in sorted(self._folder.glob("*.json")):
                self._groups |= json.loads(written.read_text(encoding="utf-8"))
        return self._groups.get(nodeid, nodeid)
