"""What a server advertises beside its tools: its instructions, prompts, resources and resource templates, and
the capabilities it declared. Together with the tools they are the whole surface a client is handed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError

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
PART_KEYS = ("instructions", "prompts", "resources", "resourceTemplates")
CAPABILITIES_KEY = "capabilities"
# Each part in words, as tables and messages name it.
PART_WORDS = {
    "instructions": "instructions",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resource templates",
}
# What `budget --include` and the configuration's `include` name; `resources` counts the templates too.
INCLUDABLE_PARTS = ("instructions", "prompts", "resources")
# The field that names an entry of each list: how entries of two lists are matched.
_IDENTITY = {"prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}


@dataclass(frozen=True)
class SurfaceParts:
    """Each part as received: None where the server advertises none (no instructions, no prompts capability).

    `recorded` is False for a snapshot written before snapshots held these parts: nothing is known of them.
    """

    instructions: str | None = None
    prompts: list[dict[str, Any]] | None = None
    resources: list[dict[str, Any]] | None = None
    resource_templates: list[dict[str, Any]] | None = None
    capabilities: dict[str, Any] | None = None
    recorded: bool = True

    def get(self, key: str) -> Any:
        """A part by its wire key (`resourceTemplates`)."""
        return {
            "instructions": self.instructions,
            "prompts": self.prompts,
            "resources": self.resources,
            "resourceTemplates": self.resource_templates,
        }[key]

    @property
    def empty(self) -> bool:
        return all(self.get(key) is None for key in PART_KEYS)

    def to_wire(self) -> dict[str, Any]:
        """The parts a server advertised, under their wire keys, then its capabilities (when recorded)."""
        data = {key: self.get(key) for key in PART_KEYS if self.get(key) is not None}
        if self.capabilities is not None:
            data[CAPABILITIES_KEY] = self.capabilities
        return data


def item_key(part: str, item: Mapping[str, Any]) -> str:
    """What names an entry of a list part: a prompt's name, a resource's uri, a template's uriTemplate."""
    return str(item.get(_IDENTITY[part]))


_ONE = {"prompts": "prompt", "resources": "resource", "resourceTemplates": "resource template"}


def _entries(value: Any, key: str, needed: Sequence[str], origin: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise SurfaceLoadError(f"{origin}: {key} is not a JSON array")
    # An entry is named by its identity (a prompt by name, a resource by uri): two of one name are refused as
    # two tools of one name are, since a client could address only one of them.
    seen: dict[str, int] = {}
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise SurfaceLoadError(f"{origin}: {key}[{index}] is not a JSON object")
        for field in needed:
            if not isinstance(item.get(field), str):
                raise SurfaceLoadError(f"{origin}: {key}[{index}] has no string {field!r}")
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
    if not any(key in data for key in (*PART_KEYS, CAPABILITIES_KEY)):
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

    return SurfaceParts(
        instructions=instructions,
        prompts=entries("prompts", ("name",)),
        resources=entries("resources", ("uri", "name")),
        resource_templates=entries("resourceTemplates", ("uriTemplate", "name")),
        capabilities=capabilities,
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
