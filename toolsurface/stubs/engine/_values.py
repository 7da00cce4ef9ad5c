"""A kind's field values as declared: JSON type, allowed choices, references to items of another kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from toolsurface.harness.surface import Kind, KindField
from toolsurface.stubs.kit import Refusal, choose, names

__all__ = ["check_value", "field_names", "status_field"]

_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "string": ((str,), "a string"),
    "integer": ((int,), "an integer"),
    "boolean": ((bool,), "true or false"),
    "array": ((list,), "a list of strings"),
}


class _Numbered(Protocol):
    number: int


class _Items(Protocol):
    """What a reference is checked against: the items of a kind (the store, which imports this module)."""

    def of_kind(self, kind: str) -> Sequence[_Numbered]: ...


def field_names(kind: Kind) -> list[str]:
    return [f.name for f in kind.fields]


def status_field(kind: Kind) -> KindField | None:
    """The field whose values `closed` and the actions' `when` name."""
    wanted = set(kind.closed) | {v for a in kind.actions for v in a.when}
    return next((f for f in kind.fields if f.choices and wanted and wanted <= set(f.choices)), None)


def check_value(store: _Items, kind: Kind, spec: KindField, value: Any) -> None:
    if value is None:
        return
    types, label = _TYPES.get(spec.type, ((object,), spec.type))
    wrong_int = spec.type == "integer" and isinstance(value, bool)
    bad_entries = isinstance(value, list) and not all(isinstance(v, str) for v in value)
    if not isinstance(value, types) or wrong_int or bad_entries:
        raise Refusal(f"{kind.name} {spec.name} must be {label}, got {type(value).__name__}", [label])
    if spec.choices:
        for one in value if isinstance(value, list) else [value]:
            choose(f"{kind.name} {spec.name}", one, spec.choices, label="allowed values")
    if spec.ref:
        numbers = [i.number for i in store.of_kind(spec.ref)]
        if value not in numbers:
            raise Refusal(
                f"{kind.name} {spec.name} {value!r} is not the number of a {spec.ref}; {spec.ref} numbers: {names(numbers)}",
                numbers or ["(none)"],
            )
