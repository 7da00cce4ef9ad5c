"""What every Conderis stub shares on top of the kit: the stub over the project, the guide text, and the
handler functions more than one surface calls (the project check, an item by number, recall, the memory
rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from toolsurface.stubs.kit import Args, Handlers, HandlerStub, Refusal
from toolsurface.surfaces.conderis.kinds import CURRENT_VISIBILITIES
from toolsurface.surfaces.conderis.project import Item, Project

__all__ = [
    "GUIDE",
    "Args",
    "check_project",
    "conderis_stub",
    "new_project_id",
    "no_public_visibility",
    "numbered",
    "personal_memory_fields",
    "recall",
]

S = TypeVar("S")

GUIDE = (
    "Conderis system guide (stub). A project holds tasks, memories, pages and proposals, each item with a "
    "number (#N) or a ref (memory:<id>, proposal:<id>, instructions). Every item has one version; read it "
    "before a content change and pass it back. An omitted field is kept, null clears it. Without write "
    "permission, or with propose, a change becomes a proposal a moderator approves or rejects. Tasks are "
    "closed with complete or status canceled, never archived. A blocked task carries a reason."
)


def conderis_stub(project: Project, handlers: Handlers[S], held: S | None = None) -> HandlerStub[S]:
    """The project and the surface's handlers, which get `held` (the project with what the surface keeps
    beside it) where given; the state written on shutdown is the project's."""
    return HandlerStub(project, handlers, Project.dump, held)


def check_project(project: Project, args: Args) -> None:
    """The call's projectId names the project."""
    project.check_project(args.str("projectId"))


def numbered(project: Project, args: Args, kinds: Sequence[str] = (), name: str = "number") -> Item:
    """The item of the project the parameter `name` numbers, of one of `kinds` (any if none)."""
    check_project(project, args)
    return project.item(args.need(name, args.int(name)), kinds)


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
