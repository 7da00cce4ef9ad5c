"""Handlers: `(project, args) -> answer`, registered by tool name; the stub that dispatches calls to them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from stubs.kit._args import Args
from stubs.refusal import Refusal

__all__ = ["NOT_WRITTEN", "Handler", "HandlerStub", "Handlers", "method_handlers", "not_written"]

NOT_WRITTEN = "not written yet"
"""What a refusal of a handler still to be written allows: in a call log, it marks the missing handlers."""

P = TypeVar("P")

Handler = Callable[[P, Args], Any]
"""Answers one tool's call on the project: JSON-ready data or text, or raises a Refusal."""


class Handlers(Generic[P]):
    """A surface's handlers by tool name. `@handlers.tool("ticket_get")` registers one; `handlers | other`
    is both, `other`'s winning where both name a tool (hand-written handlers over generated ones)."""

    def __init__(self, table: Mapping[str, Handler[P]] | None = None) -> None:
        self.table: dict[str, Handler[P]] = dict(table or {})

    def tool(self, name: str) -> Callable[[Handler[P]], Handler[P]]:
        def register(handler: Handler[P]) -> Handler[P]:
            self.table[name] = handler
            return handler

        return register

    def __or__(self, other: Handlers[P]) -> Handlers[P]:
        return Handlers({**self.table, **other.table})

    def __contains__(self, name: object) -> bool:
        return name in self.table

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def get(self, name: str) -> Handler[P] | None:
        return self.table.get(name)


def method_handlers(holder: object) -> Handlers[Any]:
    """Handlers kept as the public methods `(args)` of an object that holds a surface's own state besides
    the project (a design, idempotency keys): each registered under the method's name."""
    table: dict[str, Handler[Any]] = {}
    for name in vars(type(holder)):
        method = getattr(holder, name)
        if not name.startswith("_") and callable(method):
            table[name] = _ignoring_project(method)
    return Handlers(table)


def _ignoring_project(method: Callable[[Args], Any]) -> Handler[Any]:
    def handler(project: Any, args: Args) -> Any:
        return method(args)

    handler.__name__ = getattr(method, "__name__", "handler")
    handler.__wrapped__ = method  # type: ignore[attr-defined]
    return handler


def not_written(tool: str) -> Refusal:
    """The refusal of a handler the starter wrote and nobody has written yet."""
    return Refusal(f"{tool} is {NOT_WRITTEN}", [NOT_WRITTEN])


class HandlerStub(Generic[P]):
    """One project and the handlers of one surface: the `Stub` the server's gate calls."""

    def __init__(self, project: P, handlers: Handlers[P], dump: Callable[[P], dict[str, Any]]) -> None:
        self.project = project
        self.handlers = handlers
        self._dump = dump

    def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        handler = self.handlers.get(tool)
        if handler is None:
            raise Refusal(f"unknown tool {tool!r}; tools: {', '.join(self.handlers)}", list(self.handlers))
        return handler(self.project, Args(arguments))

    def state(self) -> dict[str, Any]:
        """The project as the outcome checks read it, written when the server stops."""
        return self._dump(self.project)
