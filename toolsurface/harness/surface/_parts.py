"""What a server advertises beside its tools: its instructions, prompts, resources and resource templates, the
skills it lists through the skills extension (harness.surface._skills), and the capabilities it declared. Together
with the tools they are the whole surface a client is handed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError
from toolsurface.harness.surface._drafts import DRAFTS_KEY, DraftsRead, drafts_from_wire
from toolsurface.harness.surface._skills import SkillBody, bodies_from_wire

__all__ = [
    "INCLUDABLE_PARTS",
    "PART_KEYS",
    "PART_WORDS",
    "SurfaceParts",
    "included_keys",
    "item_key",
    "parse_include",
    "parts_from_wire",
]

# The keys beside "tools" in a snapshot file, in the order they are written, wire names as MCP spells them.
PART_KEYS = ("instructions", "prompts", "resources", "resourceTemplates", "skills")
CAPABILITIES_KEY = "capabilities"
# Beside the parts: each listed skill's SKILL.md as read (a cost on demand, not in a session's total), and why a part
# a server declared could not be read (the rest of it is measured).
BODIES_KEY = "skillBodies"
UNREAD_KEY = "unread"
# Each part in words, as tables and messages name it.
PART_WORDS = {
    "instructions": "instructions",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resource templates",
    "skills": "skills",
}
# What `budget --include` and the configuration's `include` name; `resources` counts the templates too.
INCLUDABLE_PARTS = ("instructions", "prompts", "resources", "skills")
# The field that names an entry of each list: how entries of two lists are matched.
_IDENTITY = {"prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate", "skills": "uri"}


@dataclass(frozen=True)
class SurfaceParts:
    """Each part as received: None where the server advertises none (no instructions, no prompts capability).

    `recorded` is False for a snapshot written before snapshots held these parts: nothing is known of them.
    """

    instructions: str | None = None
    prompts: list[dict[str, Any]] | None = None
    resources: list[dict[str, Any]] | None = None
    resource_templates: list[dict[str, Any]] | None = None
    # The skills/list entries, each as received: None where the server does not declare the skills extension.
    skills: list[dict[str, Any]] | None = None
    capabilities: dict[str, Any] | None = None
    recorded: bool = True
    # Each listed skill's SKILL.md as resources/read gave it, or why it could not be read.
    skill_bodies: tuple[SkillBody, ...] = ()
    # Why a part the server declared could not be read (`skills`: skills/list failed), by its key.
    unread: dict[str, str] = field(default_factory=dict)
    # What the drafts a server advertises gave (tool manifests, groups), where they were read (`--drafts`).
    drafts: DraftsRead | None = None

    def get(self, key: str) -> Any:
        """A part by its wire key (`resourceTemplates`)."""
        return {
            "instructions": self.instructions,
            "prompts": self.prompts,
            "resources": self.resources,
            "resourceTemplates": self.resource_templates,
            "skills": self.skills,
        }[key]

    def skill_body(self, uri: str) -> SkillBody | None:
        return next((b for b in self.skill_bodies if b.uri == uri), None)

    @property
    def empty(self) -> bool:
        return all(self.get(key) is None for key in PART_KEYS)

    def to_wire(self) -> dict[str, Any]:
        """The parts a server advertised, under their wire keys, then its capabilities (when recorded)."""
        data = {key: self.get(key) for key in PART_KEYS if self.get(key) is not None}
        if self.skill_bodies:
            data[BODIES_KEY] = [b.to_wire() for b in self.skill_bodies]
        if self.unread:
            data[UNREAD_KEY] = dict(self.unread)
        if self.drafts is not None:
            data[DRAFTS_KEY] = self.drafts.to_wire()
        if self.capabilities is not None:
            data[CAPABILITIES_KEY] = self.capabilities
        return data


def item_key(part: str, item: Mapping[str, Any]) -> str:
    """What names an entry of a list part: a prompt's name, a resource's uri, a template's uriTemplate."""
    return str(item.get(_IDENTITY[part]))


_ONE = {"prompts": "prompt", "resources": "resource", "resourceTemplates": "resource template", "skills": "skill"}


def _entries(value: Any, key: str, needed: Sequence[str], origin: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise SurfaceLoadError(f"{origin}: {key} is not a JSON array")
    # An entry is named by its identity (a prompt by name, a resource by uri): two of one name are refused as
    # two tools of one name are, since a client could address only one of them.
    seen: dict[str, int] = {}
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise SurfaceLoadError(f"{origin}: {key}[{index}] is not a JSON object")
        for name in needed:
            if not isinstance(item.get(name), str):
                raise SurfaceLoadError(f"{origin}: {key}[{index}] has no string {name!r}")
        identity = item_key(key, item)
        if identity in seen:
            raise SurfaceLoadError(
                f"{origin}: {key}[{seen[identity]}] and {key}[{index}] are two {_ONE[key]}s with the"
                f" {_IDENTITY[key]} {identity!r}"
            )
        seen[identity] = index
        if "description" in item and not isinstance(item["description"], str | None):
            raise SurfaceLoadError(f"{origin}: {key}[{index}].description is not a string")
        arguments = item.get("arguments")
        named = isinstance(arguments, list) and all(
            isinstance(a, dict) and isinstance(a.get("name"), str) for a in arguments
        )
        if key == "prompts" and arguments is not None and not named:
            raise SurfaceLoadError(f"{origin}: {key}[{index}].arguments is not an array of objects with a name")
    return value


def parts_from_wire(data: Mapping[str, Any], origin: str) -> SurfaceParts:
    """The parts of a snapshot file's object (or of a surface module's declarations); a malformed part is one
    line naming it. A file with none of the keys was written before snapshots held them: `recorded` False."""
    if not any(key in data for key in (*PART_KEYS, CAPABILITIES_KEY, UNREAD_KEY)):
        return SurfaceParts(recorded=False)
    instructions = data.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise SurfaceLoadError(f"{origin}: instructions is not a string")
    capabilities = data.get(CAPABILITIES_KEY)
    if capabilities is not None and not isinstance(capabilities, dict):
        raise SurfaceLoadError(f"{origin}: capabilities is not a JSON object")

    def entries(key: str, needed: Sequence[str]) -> list[dict[str, Any]] | None:
        value = data.get(key)
        return None if value is None else _entries(value, key, needed, origin)

    unread = data.get(UNREAD_KEY, {})
    if not isinstance(unread, dict) or not all(k in PART_KEYS and isinstance(v, str) for k, v in unread.items()):
        raise SurfaceLoadError(f"{origin}: unread is not an object of part names to reasons")
    return SurfaceParts(
        instructions=instructions,
        prompts=entries("prompts", ("name",)),
        resources=entries("resources", ("uri", "name")),
        resource_templates=entries("resourceTemplates", ("uriTemplate", "name")),
        # A skill's entry is checked against the extension where it is measured (skill_problem): one that is not
        # what a host may load is a row that says why, the others measured.
        skills=entries("skills", ("uri",)),
        capabilities=capabilities,
        skill_bodies=bodies_from_wire(data[BODIES_KEY], origin) if BODIES_KEY in data else (),
        unread=dict(unread),
        drafts=drafts_from_wire(data[DRAFTS_KEY], origin) if DRAFTS_KEY in data else None,
    )


def included_keys(include: Sequence[str]) -> frozenset[str]:
    """The part keys `include` names: `resources` takes the resource templates with it."""
    return frozenset([*include, *(["resourceTemplates"] if "resources" in include else [])])


def parse_include(value: str | Sequence[str] | None, where: str = "--include") -> tuple[str, ...]:
    """`instructions,prompts` (or a list of names) -> the parts to count, in INCLUDABLE_PARTS order."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else [p for v in value for p in str(v).split(",")]
    names = [item.strip() for item in items if item.strip()]
    unknown = [name for name in names if name not in INCLUDABLE_PARTS]
    if unknown:
        from toolsurface.harness.errors import ToolsurfaceError

        raise ToolsurfaceError(
            f"{where}: unknown part {unknown[0]!r}; choose from {', '.join(INCLUDABLE_PARTS)} (the tools always count)"
        )
    return tuple(name for name in INCLUDABLE_PARTS if name in names)
