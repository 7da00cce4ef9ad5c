"""What every Conderis stub shares: the dispatch to handlers, typed argument access, the guide text."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stubs.refusal import Refusal
from surfaces.conderis.kinds import CURRENT_VISIBILITIES
from surfaces.conderis.project import Project

__all__ = [
    "GUIDE",
    "Args",
    "ConderisStub",
    "Handler",
    "handler_methods",
    "new_project_id",
    "no_public_visibility",
    "personal_memory_fields",
    "recall",
]

GUIDE = (
    "Conderis system guide (stub). A project holds tasks, memories, pages and proposals, each item with a "
    "number (#N) or a ref (memory:<id>, proposal:<id>, instructions). Every item has one version; read it "
    "before a content change and pass it back. An omitted field is kept, null clears it. Without write "
    "permission, or with propose, a change becomes a proposal a moderator approves or rejects. Tasks are "
    "closed with complete or status canceled, never archived. A blocked task carries a reason."
)


class Args:
    """The arguments of one call, read with the type the handler needs; a wrong type is a refusal."""

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


Handler = Callable[[Args], Any]


def handler_methods(handlers: object) -> dict[str, Handler]:
    """A surface's handlers are the public methods named like its tools."""
    return {
        name: getattr(handlers, name)
        for name in vars(type(handlers))
        if not name.startswith("_") and callable(getattr(handlers, name))
    }


class ConderisStub:
    """One project and the handlers of one surface; answers are JSON-ready data or text."""

    def __init__(self, project: Project, handlers: Mapping[str, Handler]) -> None:
        self.project = project
        self.handlers = dict(handlers)

    def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        handler = self.handlers.get(tool)
        if handler is None:
            raise Refusal(f"unknown tool {tool!r}; tools: {', '.join(self.handlers)}", self.handlers)
        return handler(Args(arguments))

    def state(self) -> dict[str, Any]:
        return self.project.dump()


def recall(project: Project, args: Args) -> str:
    """The recall every surface shares: with projectId the project's, without it the personal memories."""
    max_chars = args.int("maxChars")
    if max_chars is not None and max_chars < 1:
        raise Refusal("maxChars must be at least 1", [1])
    if not args.has("projectId"):
        return project.recall(args.str("focus"), max_chars, personal_only=True)
    project.check_project(args.str("projectId"))
    return project.recall(args.str("focus"), max_chars)


def new_project_id(name: str) -> str:
    """The id a project created by name gets: its letters and digits, lower case, the rest dashes."""
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "project"


def no_public_visibility(fields: Mapping[str, Any]) -> None:
    """The newer surfaces dropped visibility public: a memory is private or shared."""
    if fields.get("visibility") == "public":
        raise Refusal(
            f"visibility public is gone; visibility values: {', '.join(CURRENT_VISIBILITIES)}", CURRENT_VISIBILITIES
        )


def personal_memory_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A memory stored without projectId is personal, so private."""
    if fields.get("visibility", "private") != "private":
        raise Refusal("a memory without projectId is personal; visibility: private", ["private"])
    return {**fields, "visibility": "private"}
