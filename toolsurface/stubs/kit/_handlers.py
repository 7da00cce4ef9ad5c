"""Handlers: `(project, args) -> answer`, registered by tool name, each with its tool's definition where the
surface declares it there; the stub that dispatches calls to them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from toolsurface.harness.surface import Kind, ToolData
from toolsurface.stubs.kit._args import Args
from toolsurface.stubs.refusal import Refusal

NOT_WRITTEN = "not written yet"
"""What a refusal of a handler still to be written allows: in a call log, it marks the missing handlers."""

P = TypeVar("P")

Handler = Callable[[P, Args], Any]
"""Answers one tool's call on the project: JSON-ready data or text, or raises a Refusal."""

Define = Callable[..., ToolData]
"""Builds a tool's definition for the surface's kinds (and what else its build passes, a design say)."""


@dataclass(frozen=True)
class Declared:
    """A tool's definition as its handler's registration carries it: the tool as listed, or `define`, which
    builds it for the kinds; `kinds` are those it serves (it is listed when any of them is, always if none)."""

    definition: ToolData | None = None
    define: Define | None = None
    kinds: tuple[str, ...] = ()

    def build(self, kinds: Sequence[Kind], context: Sequence[Any]) -> ToolData:
        if self.define is not None:
            return self.define(kinds, *context)
        assert self.definition is not None
        return self.definition


class Handlers(Generic[P]):
    """A surface's handlers by tool name. `@handlers.tool("ticket_get")` registers one; with the tool's
    definition in place of its name, `@handlers.tool(make_tool("ticket_get", ...), kinds=("ticket",))`, the
    tool is declared once, beside its handler, and `definitions(kinds)` lists it. `handlers | other` is both,
    `other`'s winning where both name a tool (hand-written handlers over generated ones)."""

    def __init__(
        self, table: Mapping[str, Handler[P]] | None = None, declared: Mapping[str, Declared] | None = None
    ) -> None:
        self.table: dict[str, Handler[P]] = dict(table or {})
        self.declared: dict[str, Declared] = dict(declared or {})

    def tool(
        self, tool: str | ToolData, *, define: Define | None = None, kinds: Sequence[str] = ()
    ) -> Callable[[Handler[P]], Handler[P]]:
        """Register the handler of `tool`: a name, or the tool's definition; `define` builds the definition
        for the kinds instead (the tool named by `tool`)."""
        name = tool if isinstance(tool, str) else str(tool["name"])
        if define is not None or not isinstance(tool, str):
            self.declared[name] = Declared(None if isinstance(tool, str) else tool, define, tuple(kinds))

        def register(handler: Handler[P]) -> Handler[P]:
            self.table[name] = handler
            return handler

        return register

    def definitions(self, kinds: Sequence[Kind], *context: Any) -> list[ToolData]:
        """The declared tools in the order they were registered, those of kinds among `kinds`, each built for
        `kinds` and `context` where its registration says how."""
        present = {k.name for k in kinds}
        return [
            declared.build(kinds, context)
            for declared in self.declared.values()
            if not declared.kinds or present.intersection(declared.kinds)
        ]

    def __or__(self, other: Handlers[P]) -> Handlers[P]:
        return Handlers({**self.table, **other.table}, {**self.declared, **other.declared})

    def __contains__(self, name: object) -> bool:
        return name in self.table

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def get(self, name: str) -> Handler[P] | None:
        return self.table.get(name)


def not_written(tool: str) -> Refusal:
    """The refusal of a handler the starter wrote and nobody has written yet."""
    return Refusal(f"{tool} is {NOT_WRITTEN}", [NOT_WRITTEN])


class HandlerStub(Generic[P]):
    """One project and the handlers of one surface: the `Stub` the server's gate calls. The handlers get the
    project, or `held`: the project with what the surface keeps beside it (a design, idempotency keys). Once
    the server has declared each tool's parameters (`declare_parameters`), a handler that reads another is the
    stub's error."""

    def __init__(
        self, project: Any, handlers: Handlers[P], dump: Callable[[Any], dict[str, Any]], held: P | None = None
    ) -> None:
        self.project = project
        self.held: P = project if held is None else held
        self.handlers = handlers
        self._dump = dump
        self.parameters: dict[str, tuple[str, ...]] | None = None

    def declare_parameters(self, parameters: Mapping[str, Collection[str]]) -> None:
        """The parameters each tool's inputSchema declares, as the server lists the tools."""
        self.parameters = {tool: tuple(names) for tool, names in parameters.items()}

    def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        handler = self.handlers.get(tool)
        if handler is None:
            raise Refusal(f"unknown tool {tool!r}; tools: {', '.join(self.handlers)}", list(self.handlers))
        declared = None if self.parameters is None else self.parameters.get(tool, ())
        return handler(self.held, Args(arguments, declared, tool))

    def state(self) -> dict[str, Any]:
        """The project as the outcome checks read it, written when the server stops."""
        return self._dump(self.project)
