"""Checking what a call sets: the names and values of a kind's fields, and the version of an item."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from toolsurface.stubs.kit import Refusal, check_version, choose, refuse_unknown
from toolsurface.surfaces.conderis.kinds import (
    KIND_FIELDS,
    MEMORY_TYPES,
    PRIORITIES,
    STATUSES,
    UNCLEARABLE,
    VISIBILITIES,
)
from toolsurface.surfaces.conderis.project._records import Item
from toolsurface.surfaces.conderis.project._state import ProjectState

__all__ = ["Values"]


class Values(ProjectState):
    """Field and version checks; every refusal names the allowed fields or values."""

    def check_fields(self, kind: str, fields: dict[str, Any], allowed: Sequence[str] | None = None) -> None:
        """Names and values of a kind's fields; null is allowed where it clears a field."""
        names = list(allowed if allowed is not None else KIND_FIELDS[kind])
        refuse_unknown(fields, names, noun="field", of=kind, label="allowed fields")
        for name, value in fields.items():
            self._check_value(kind, name, value)

    def _check_value(self, kind: str, name: str, value: Any) -> None:
        if value is None:
            if name in UNCLEARABLE.get(kind, ()):
                raise Refusal(f"{kind} {name} cannot be cleared; give a value", [name])
            return
        choices = {
            ("task", "status"): STATUSES,
            ("task", "priority"): PRIORITIES,
            ("memory", "type"): MEMORY_TYPES,
            ("memory", "visibility"): VISIBILITIES,
        }.get((kind, name))
        if choices is not None:
            choose(f"{kind} {name}", value, choices, label="allowed values")
            return
        if name == "assignee":
            names = self.assignee_names()
            if value not in names:
                raise Refusal(f"assignee {value!r} is not a member; assignees: {', '.join(names)}", names)
        elif name == "parent":
            if not isinstance(value, int) or isinstance(value, bool):
                raise Refusal(f"parent must be a {kind} number", [f"{kind} number"])
            self.item(value, [kind])
        elif name == "position":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise Refusal("position must be an integer, 0 or more", [0])
        elif name == "tags":
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise Refusal('tags must be a list of strings, e.g. ["build"]', ["list of strings"])
        elif name == "expiresAt":
            try:
                datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                raise Refusal(
                    f"expiresAt {value!r} is not an ISO 8601 time (e.g. 2026-12-31T00:00:00Z) or null",
                    ["ISO 8601", "null"],
                ) from None
        elif not isinstance(value, str):
            raise Refusal(f"{kind} {name} must be a string", ["string"])

    def check_version(self, item: Item, version: int | None, what: str = "this change") -> None:
        check_version(item.ref, item.version, version, what)
