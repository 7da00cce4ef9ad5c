"""The surface model: kinds as data, a definition that builds tools from kinds, a built surface."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from toolsurface.harness.errors import InvalidToolList, SurfaceLoadError, ToolsurfaceError

if TYPE_CHECKING:
    from mcp.types import Tool

    from toolsurface.harness.surface._parts import SurfaceParts
    from toolsurface.harness.surface._skills import ServedSkills

__all__ = [
    "Access",
    "BuildFunction",
    "Kind",
    "KindAction",
    "KindField",
    "KindTool",
    "Stub",
    "StubFactory",
    "Surface",
    "SurfaceDefinition",
]


class Access(StrEnum):
    """The permission split clients grant per tool: read, write, irreversible."""

    READ = "read"
    WRITE = "write"
    IRREVERSIBLE = "irreversible"


@dataclass(frozen=True)
class KindField:
    """A field, filter or parameter of a kind: its name, JSON type and a short note.

    For the engine that serves kinds (`stubs.engine`): `choices` are the values allowed (the first is the
    default on create), `ref` names the kind whose item number the value is, `required` says a create
    must give it, and a `text` field is long text, read whole by get and left out of list entries.
    """

    name: str
    type: str = "string"
    note: str = ""
    choices: tuple[str, ...] = ()
    ref: str = ""
    required: bool = False
    text: bool = False


@dataclass(frozen=True)
class KindAction:
    """An action on an item. For the engine: `sets` the field values it writes, `when` the values of
    the kind's status field it applies from (any when empty), `records` the field the action's note is
    written into (then the note is required)."""

    name: str
    note: str = ""
    sets: tuple[tuple[str, str], ...] = ()
    when: tuple[str, ...] = ()
    records: str = ""


@dataclass(frozen=True)
class KindTool:
    """A tool a surface with one tool per operation spends on this kind (`commit_list`, ...)."""

    verb: str
    access: Access
    summary: str
    params: tuple[KindField, ...] = ()
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kind:
    """An item kind as data. Surfaces render it: a line in a description, a filter, a tool per verb.

    `refs` are the reference forms that address an item of this kind besides its number
    (`memory:<id>`); `numbered` says whether project items of the kind have a number. For the engine:
    `versioned` says a change, an action or a delete must pass the version it read; `closed` are the
    status values a list leaves out unless its filter `includeClosed` is true.
    """

    name: str
    plural: str
    noun: str = ""
    numbered: bool = True
    refs: tuple[str, ...] = ()
    reads: str = ""
    fields: tuple[KindField, ...] = ()
    filters: tuple[KindField, ...] = ()
    actions: tuple[KindAction, ...] = ()
    tools: tuple[KindTool, ...] = ()
    versioned: bool = False
    closed: tuple[str, ...] = ()

    @property
    def phrase(self) -> str:
        """How a sentence names one item of the kind."""
        return self.noun or self.name


def _as_tool(value: object, origin: str) -> Tool:
    """A Tool, or a dict in wire form (camelCase keys) that validates as one."""
    import mcp.types as types
    from pydantic import ValidationError

    if isinstance(value, types.Tool):
        return value
    if not isinstance(value, dict):
        raise InvalidToolList(f"{origin}: build() returned a {type(value).__name__} where a Tool was expected")
    try:
        return types.Tool.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise InvalidToolList(
            f"{origin}: tool {value.get('name')!r} is not an MCP Tool: {where}: {first['msg']}"
        ) from None


BuildFunction = Callable[[Sequence[Kind]], Sequence["Tool | dict[str, Any]"]]
"""Builds a surface's tools for the kinds given: MCP Tools, or dicts in wire form validated as Tools."""


class Stub(Protocol):
    """What answers a surface's calls in a stub server: one fixed project, changed only by calls.

    `call` returns the answer (text or JSON-ready data) or raises a refusal that names what is allowed.
    """

    def call(self, tool: str, arguments: dict[str, Any]) -> Any: ...

    def state(self) -> dict[str, Any]: ...


StubFactory = Callable[[Path | None], Stub]
"""Builds a fresh stub from a fixture file (None: the surface's own fixture)."""


@dataclass(frozen=True)
class SurfaceDefinition:
    """A candidate tool list that can be built for any set of kinds.

    `kinds` are the kinds the surface is measured with; `growth_kind` is the one more kind whose
    cost the growth figure reports. `instructions`, `prompts`, `resources`, `resource_templates` and `skills` are
    what the surface's server advertises beside the tools (prompts and resources in wire form, skills as served
    through the skills extension); None: none.
    """

    name: str
    title: str
    purpose: str
    build: BuildFunction
    kinds: tuple[Kind, ...] = ()
    growth_kind: Kind | None = None
    source: str = ""
    stub: StubFactory | None = None
    instructions: str | None = None
    prompts: list[dict[str, Any]] | None = None
    resources: list[dict[str, Any]] | None = None
    resource_templates: list[dict[str, Any]] | None = None
    skills: ServedSkills | None = None

    def parts(self) -> SurfaceParts:
        """What the surface's server advertises beside the tools, checked as a snapshot's parts are."""
        from toolsurface.harness.surface._parts import parts_from_wire

        declared = {
            "instructions": self.instructions,
            "prompts": self.prompts,
            "resources": self.resources,
            "resourceTemplates": self.resource_templates,
            "skills": self.skills.entries if self.skills is not None else None,
        }
        return parts_from_wire({k: v for k, v in declared.items() if v is not None}, self.source or self.name)

    def built_tools(self, kinds: Sequence[Kind] | None = None) -> list[Tool | dict[str, Any]]:
        """The tools `build` gives for `kinds` (default: the surface's own) as it gives them, its parts checked;
        a failing build is the surface's error."""
        chosen = tuple(self.kinds if kinds is None else kinds)
        try:
            built = list(self.build(chosen))
        except ToolsurfaceError:
            raise
        except Exception as error:
            where = self.source or self.name
            raise SurfaceLoadError(f"{where}: build() failed: {type(error).__name__}: {error}") from None
        self.parts()
        return built

    def build_surface(self, kinds: Sequence[Kind] | None = None) -> Surface:
        """Build the tools for `kinds` (default: the surface's own) as MCP Tools."""
        chosen = tuple(self.kinds if kinds is None else kinds)
        origin = self.source or self.name
        built = self.built_tools(chosen)
        return Surface(
            name=self.name,
            title=self.title,
            purpose=self.purpose,
            kinds=tuple(k.name for k in chosen),
            tools=tuple(_as_tool(tool, origin) for tool in built),
            source=self.source,
            stub=self.stub,
            instructions=self.instructions,
            prompts=self.prompts,
            resources=self.resources,
            resource_templates=self.resource_templates,
            skills=self.skills,
        )


@dataclass(frozen=True)
class Surface:
    """One built tool list, with what its server advertises beside it."""

    name: str
    title: str
    purpose: str
    kinds: tuple[str, ...]
    tools: tuple[Tool, ...] = field(default=())
    source: str = ""
    stub: StubFactory | None = None
    instructions: str | None = None
    prompts: list[dict[str, Any]] | None = None
    resources: list[dict[str, Any]] | None = None
    resource_templates: list[dict[str, Any]] | None = None
    skills: ServedSkills | None = None
