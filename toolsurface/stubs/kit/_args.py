"""The arguments of one call, read with the type the handler needs; a wrong type is a refusal, and a read of a
parameter the tool's schema does not declare is an error of the stub."""

from __future__ import annotations

import builtins
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from toolsurface.stubs.refusal import Refusal


class UndeclaredParameter(Exception):
    """A handler read a parameter its tool's schema does not declare: the stub's mistake, never the caller's
    (the server answers it as an internal error; `toolsurface check` and the tests find it)."""

    def __init__(self, tool: str, name: str, declared: Collection[str]) -> None:
        super().__init__(
            f"{tool} reads {name!r}, a parameter its schema does not declare; "
            f"parameters: {', '.join(declared) or '(none)'}"
        )
        self.tool = tool
        self.name = name


class _Values(Mapping[str, Any]):
    """The arguments as given; a look-up of an undeclared name is the stub's error, as every read of Args is."""

    def __init__(self, values: Mapping[str, Any], args: Args) -> None:
        self._values = dict(values)
        self._args = args

    def __getitem__(self, name: str) -> Any:
        self._args.declared_or_raise(name)
        return self._values[name]

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            self._args.declared_or_raise(name)
        return name in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


class Args:
    """`declared`: the parameters the tool's schema declares (None: not known, every read allowed)."""

    def __init__(self, values: Mapping[str, Any], declared: Collection[str] | None = None, tool: str = "") -> None:
        self.declared = None if declared is None else tuple(declared)
        self.tool = tool
        self.values: Mapping[str, Any] = _Values(values, self)

    def declared_or_raise(self, name: builtins.str) -> None:
        if self.declared is not None and name not in self.declared:
            raise UndeclaredParameter(self.tool or "the tool", name, self.declared)

    def has(self, name: builtins.str) -> builtins.bool:
        return name in self.values and self.values[name] is not None

    def given(self, name: builtins.str) -> builtins.bool:
        """Present, even as null (null clears a field)."""
        return name in self.values

    def _typed(self, name: builtins.str, kinds: tuple[type, ...], label: builtins.str) -> Any:
        value = self.values.get(name)
        if value is None:
            return None
        if not isinstance(value, kinds) or (builtins.bool not in kinds and isinstance(value, builtins.bool)):
            raise Refusal(f"{name} must be {label}, got {type(value).__name__}", [label])
        return value

    def str(self, name: builtins.str) -> builtins.str | None:
        value: builtins.str | None = self._typed(name, (builtins.str,), "a string")
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
