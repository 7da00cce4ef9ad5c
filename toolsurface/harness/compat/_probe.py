"""The probe surfaces: tools made to hit each limit a client may have (names of 40 to 70 characters, dots,
spaces and non-ASCII in names, names that clean alike, descriptions of 1k to 10k characters, the schema
keywords clients rewrite, deep nesting, the MCP-only fields), padded to 100 tools, and plain lists of 130 and
200 tools; written as snapshot files a stub serves."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["COUNTS", "FEATURES", "Feature", "write_alone", "write_probes"]

# The tool counts probed: the main probe is padded to the first.
COUNTS = (100, 130, 200)
_OBJECT: dict[str, Any] = {"type": "object", "properties": {"id": {"type": "string"}}}


@dataclass(frozen=True)
class Feature:
    """One limit probed: its key, what it is in words, and the tool that carries it."""

    key: str
    label: str
    tool: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.tool["name"])


def _tool(
    name: str, description: str = "Probe tool.", schema: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": schema or _OBJECT, **extra}


def _sized(name: str, length: int) -> str:
    return (name + "_" + "x" * length)[:length]


def _text(length: int) -> str:
    return ("Probe text that is long on purpose, to see where a client cuts it. " * (length // 60 + 1))[:length]


def _nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"inner": schema}}
    return schema


FEATURES: tuple[Feature, ...] = (
    Feature("name-40", "name of 40 chars", _tool(_sized("name_40", 40))),
    Feature("name-50", "name of 50 chars", _tool(_sized("name_50", 50))),
    Feature("name-60", "name of 60 chars", _tool(_sized("name_60", 60))),
    Feature("name-64", "name of 64 chars", _tool(_sized("name_64", 64))),
    Feature("name-70", "name of 70 chars", _tool(_sized("name_70", 70))),
    Feature("name-dot", "dot in the name", _tool("name.with.dots")),
    Feature("name-clash", "name that cleans to another's", _tool("name_with_dots")),
    Feature("name-space", "space in the name", _tool("name with space")),
    Feature("name-non-ascii", "non-ASCII in the name", _tool("name_na\u00efve_\U0001f600")),
    Feature("description-1k", "description of 1,000 chars", _tool("description_1k", _text(1000))),
    Feature("description-2k", "description of 2,100 chars", _tool("description_2k", _text(2100))),
    Feature("description-4k", "description of 4,200 chars", _tool("description_4k", _text(4200))),
    Feature("description-10k", "description of 10,000 chars", _tool("description_10k", _text(10000))),
    Feature(
        "schema-ref",
        "$ref and $defs",
        _tool(
            "schema_ref",
            schema={
                "type": "object",
                "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "string"}}}},
                "properties": {"item": {"$ref": "#/$defs/Item"}},
            },
        ),
    ),
    Feature(
        "schema-oneof",
        "oneOf, anyOf and allOf in a property",
        _tool(
            "schema_oneof",
            schema={
                "type": "object",
                "properties": {
                    "a": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                    "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "c": {"allOf": [{"type": "string"}, {"minLength": 1}]},
                },
            },
        ),
    ),
    Feature(
        "schema-top-oneof",
        "oneOf at the schema's top",
        _tool(
            "schema_top_oneof",
            schema={
                "type": "object",
                "oneOf": [
                    {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "string"}}, "required": ["b"]},
                ],
            },
        ),
    ),
    Feature(
        "schema-format",
        "format",
        _tool(
            "schema_format",
            schema={"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}},
        ),
    ),
    Feature(
        "schema-additional",
        "additionalProperties: false",
        _tool("schema_additional", schema={**_OBJECT, "additionalProperties": False}),
    ),
    Feature("schema-title", "title in the schema", _tool("schema_title", schema={**_OBJECT, "title": "Probe"})),
    Feature(
        "schema-deep",
        "nesting 10 deep",
        _tool("schema_deep", schema={"type": "object", "properties": {"a": _nested(10)}}),
    ),
    Feature(
        "annotations",
        "annotations",
        _tool("with_annotations", annotations={"title": "Annotated", "readOnlyHint": True, "destructiveHint": False}),
    ),
    Feature("title", "title", _tool("with_title", title="A probe tool with a title")),
    Feature(
        "icons", "icons", _tool("with_icons", icons=[{"src": "data:image/png;base64,AA==", "mimeType": "image/png"}])
    ),
    Feature(
        "output-schema",
        "outputSchema",
        _tool("with_output_schema", outputSchema={"type": "object", "properties": {"ok": {"type": "boolean"}}}),
    ),
)


def _padding(count: int, start: int = 0) -> list[dict[str, Any]]:
    return [_tool(f"pad_{n:03d}", f"Plain probe tool {n}.") for n in range(start, start + count)]


def _write(path: Path, tools: Sequence[dict[str, Any]]) -> Path:
    import json

    path.write_text(json.dumps({"tools": list(tools)}, ensure_ascii=False), encoding="utf-8")
    return path


def write_probes(folder: Path) -> dict[int, Path]:
    """The probe surfaces as snapshot files in `folder`: the main probe (every feature, padded to the first
    count) and a plain list per other count, by their tool count."""
    folder.mkdir(parents=True, exist_ok=True)
    main: list[dict[str, Any]] = [f.tool for f in FEATURES]
    lists: dict[int, Sequence[dict[str, Any]]] = {COUNTS[0]: main + _padding(COUNTS[0] - len(main))}
    lists.update({count: _padding(count) for count in COUNTS[1:]})
    return {count: _write(folder / f"probe-{count}.json", tools) for count, tools in lists.items()}


def write_alone(folder: Path, feature: Feature, without: Collection[str]) -> Path:
    """The main probe with the tools named in `without` but `feature`'s each put as a plain tool, so that of
    those only `feature`'s tool is in its requests (`alone-KEY.json` in `folder`)."""
    main = [f.tool for f in FEATURES if f.name == feature.name or f.name not in without]
    tools = main + _padding(COUNTS[0] - len(main))
    return _write(folder / f"alone-{feature.key}.json", tools)
