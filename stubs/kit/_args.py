"""The arguments of one call, read with the type the handler needs; a wrong type is a refusal."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from stubs.refusal import Refusal

__all__ = ["Args"]


class Args:
    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    def has(self, name: str) -> bool:
        return name in self.values and self.values[name] is not None

    def given(self, name: str) -> bool:
        """Present, even as null (null clears a field)."""
        return name in self.values

    def _typed(self, name: str, kinds: tuple[type, ...], label: str) -> Any:
        value = self.values.get(name)
        if value is None:
            return None
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            raise Refusal(f"{name} must be {label}, got {type(value).__name__}", [label])
        return value

    def str(self, name: str) -> str | None:
        value: str | None = self._typed(name, (str,), "a string")
        return value

    def int(self, name: builtins.str) -> builtins.int | None:
        value: builtins.int | None = self._typed(name, (builtins.int,), "an integer")
        return value

    def bool(self, name: builtins.str) -> builtins.bool:
        return builtins.bool(self._typed(name, (builtins.bool,), "true or false"))

    def obj(self, name: builtins.str) -> dict[builtins.str, Any] | None:
        value: dict[builtins.str, Any] | None = self._typed(name, (dict,), "a JSON object")
        return value

    def need(self, name: builtins.str, value: Any) -> Any:
        if value is None or value == "":
            raise Refusal(f"{name} is required here", [name])
        return value

    def one_of(self, names: Sequence[builtins.str]) -> builtins.str:
        present = [n for n in names if self.has(n)]
        if len(present) != 1:
            problem = "both" if present else "neither"
            raise Refusal(f"give exactly one of {' or '.join(names)} ({problem} given)", names)
        return present[0]

    def picked(self, names: Sequence[builtins.str], *, nulls: builtins.bool = False) -> dict[builtins.str, Any]:
        """The named arguments the call sets; with `nulls`, a null one too (it clears the field)."""
        return {name: self.values[name] for name in names if (self.given(name) if nulls else self.has(name))}
