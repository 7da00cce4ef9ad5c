"""`toolsurface new surface`: the files a stub for one's own product starts from.

A surface module (its tools: a snapshot's exactly as listed, with what its server advertised beside them, or one
to begin with), a handler module with
one handler per tool that refuses "not written yet", a fixture skeleton and a scenario skeleton.
"""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import possessive
from toolsurface.harness.surface import Access, make_tool, prop

_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")


@dataclass(frozen=True)
class Starter:
    """The files `new_surface` wrote."""

    surface: Path
    handlers: Path
    fixture: Path
    scenario: Path
    tools: int

    @property
    def files(self) -> list[Path]:
        return [self.surface, self.handlers, self.fixture, self.scenario]


def _identifier(tool: str, taken: set[str]) -> str:
    name = re.sub(r"\W", "_", tool).strip("_") or "tool"
    if name[0].isdigit() or keyword.iskeyword(name):
        name = f"tool_{name}"
    base, n = name, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _literal(value: Any, depth: int = 0) -> str:
    """JSON data as a Python literal, one entry a line, keys in their order (the order a client received)."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        entries = [f"{inner}{_text(str(k))}: {_literal(v, depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(entries) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + "\n".join(f"{inner}{_literal(v, depth + 1)}," for v in value) + f"\n{pad}]"
    if isinstance(value, str):
        return _text(value)
    return repr(value)


def _text(value: str) -> str:
    """A string literal: JSON's escapes are Python's too."""
    return json.dumps(value, ensure_ascii=False)


def _in_docstring(text: str) -> str:
    """Text as it may stand inside a triple-quoted docstring: a file's name may hold quotes or backslashes."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _parts_lines(parts: dict[str, Any]) -> str:
    """What the snapshot's server advertised beside its tools, as the module's declarations."""
    names = {
        "instructions": "INSTRUCTIONS: str",
        "prompts": "PROMPTS: list[dict[str, Any]]",
        "resources": "RESOURCES: list[dict[str, Any]]",
        "resourceTemplates": "RESOURCE_TEMPLATES: list[dict[str, Any]]",
    }
    return "".join(f"{names[key]} = {_literal(parts[key])}\n" for key in names if key in parts)


def _surface_module(
    name: str, tools: list[dict[str, Any]], origin: str, files: dict[str, str], parts: dict[str, Any]
) -> str:
    return f'''"""{name}: {_in_docstring(origin)}.

Its handlers are in {files["handlers"]}, its fixture in {files["fixture"]};
`toolsurface check` lists what is still missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolsurface.harness.surface import Kind
from toolsurface.stubs.kit import load_fixture, load_handlers, stub_factory

NAME = {_text(name)}
TITLE = {_text(name)}
HERE = Path(__file__).parent
FIXTURE = HERE / {_text(files["fixture"])}
FIXTURE_SCHEMA: dict[str, Any] = {{
    "type": "object",
    "properties": {{
        "about": {{"type": "string"}},
        "items": {{"type": "array", "items": {{"type": "object"}}}},
    }},
    "required": ["items"],
}}

TOOLS: list[dict[str, Any]] = {_literal(tools)}
{_parts_lines(parts)}

def build(kinds: Sequence[Kind]) -> list[dict[str, Any]]:
    return TOOLS


def load(fixture: Path | None) -> dict[str, Any]:
    return load_fixture(fixture or FIXTURE, FIXTURE_SCHEMA)


STUB = stub_factory(load_handlers(HERE / {_text(files["handlers"])}), load, dict)
'''


def _handler_module(name: str, tools: list[dict[str, Any]]) -> str:
    taken: set[str] = set()
    parts = [
        f'''"""Handlers of {possessive(name)} tools: `(project, args) -> answer`, one per tool, registered by its name.
Each refuses with "not written yet" until it is written; `toolsurface check` lists the ones left.
A refusal names what is allowed: `raise Refusal("status 'x' is not allowed; statuses: a, b", ["a", "b"])`."""

from __future__ import annotations

from typing import Any

from toolsurface.stubs.kit import Args, Handlers, not_written

Project = dict[str, Any]
"""The fixture as loaded: a JSON object."""

handlers: Handlers[Project] = Handlers()
'''
    ]
    for tool in tools:
        tool_name = str(tool["name"])
        parts.append(
            f"""

@handlers.tool({_text(tool_name)})
def {_identifier(tool_name, taken)}(project: Project, args: Args) -> Any:
    raise not_written({_text(tool_name)})
"""
        )
    return "".join(parts)


def _first_tool(name: str) -> dict[str, Any]:
    ident = re.sub(r"\W", "_", name)
    return make_tool(
        f"{ident}_get", f"Read one {name} item by its id.", Access.READ, {"id": prop("string", "The item's id")}, ["id"]
    )


def new_surface(name: str, out: Path, snapshot: Path | None = None) -> Starter:
    """Write NAME.py, NAME_handlers.py, NAME.fixture.json and NAME.scenario.json into `out`, replacing none."""
    from toolsurface.harness.surface import load_snapshot

    if not _NAME.match(name):
        raise ToolsurfaceError(
            f"surface name {name!r}: use lower-case letters, digits, - and _, starting with a letter"
        )
    stem = name.replace("-", "_")
    files = {
        "surface": f"{stem}.py",
        "handlers": f"{stem}_handlers.py",
        "fixture": f"{stem}.fixture.json",
        "scenario": f"{stem}.scenario.json",
    }
    paths = {key: out / file for key, file in files.items()}
    existing = [p for p in paths.values() if p.exists()]
    if existing:
        raise ToolsurfaceError(f"{existing[0]}: exists; new surface replaces no file")
    parts: dict[str, Any] = {}
    if snapshot is not None:
        recorded = load_snapshot(snapshot)
        tools, parts = list(recorded.tools), recorded.parts.to_wire()
        origin = f"the tools of {snapshot.name} exactly as listed, written by `toolsurface new surface`"
    else:
        tools = [_first_tool(name)]
        origin = "a surface written by `toolsurface new surface`"
    fixture = {
        "about": f"The fixed data {possessive(name)} handlers answer from; every start loads it fresh.",
        "items": [],
    }
    scenario = {
        "format": "toolsurface-scenario/1",
        "name": name,
        "about": f"What an agent is asked to do with {name}, and the checks of the final state.",
        "prompt": [f"You are connected to {name}. Ask here, as a user would, for the work the tools exist for."],
        "checks": [],
    }
    from toolsurface.harness.files import ensure_directory, write_atomic_all

    ensure_directory(out, f"write the new surface into {out}")
    write_atomic_all(
        [
            (paths["surface"], _surface_module(name, tools, origin, files, parts)),
            (paths["handlers"], _handler_module(name, tools)),
            (paths["fixture"], json.dumps(fixture, indent=2) + "\n"),
            (paths["scenario"], json.dumps(scenario, indent=2) + "\n"),
        ]
    )
    return Starter(paths["surface"], paths["handlers"], paths["fixture"], paths["scenario"], len(tools))
