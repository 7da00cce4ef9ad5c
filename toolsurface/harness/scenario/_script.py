"""A scenario script: the steps both script players follow, the scripted agent (a real MCP client) and the
scripted model endpoint (which plays them as a model inside a real agent CLI).

A script (`toolsurface-script/1`) is a list of steps:
- `{"call": TOOL, "arguments": {...}}` calls a tool. An argument `{"$from": STEP_ID, "path": "a.b"}` takes a
  value from an earlier step's JSON answer, and `{"$concat": [...]}` joins values into one text; `"report"`
  adds the answer to the final answer: `true` for all of it, or `{"path", "from", "to"}` for one part
  (`from`/`to` cut the text at the first occurrence of each).
- `{"search": QUERY}` (optional `"max_results": N`) is a call of the agent's own tool search, such as Claude
  Code's ToolSearch. Only the scripted model can make it, and only when the agent offers a search tool; the
  scripted agent and an agent without one skip it.
- `{"say": TEXT}` adds text to the final answer; `{"wait": SECONDS}` pauses, as a slow agent would.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import read_json
from toolsurface.harness.scenario._scenario import sessions_dir

FORMAT = "toolsurface-script/1"
_KINDS = ("call", "search", "say", "wait")


class ScriptError(ToolsurfaceError):
    """A script file that cannot be played."""


@dataclass(frozen=True)
class Step:
    index: int
    raw: dict[str, Any]

    @property
    def kind(self) -> str:
        return next(k for k in _KINDS if k in self.raw)

    @property
    def id(self) -> str | None:
        value = self.raw.get("id")
        return str(value) if value is not None else None


def script_path(scenario: str, surface: str, run: int | None = None) -> Path:
    """Where a scenario's script for a surface lies: `scripts/SCENARIO/SURFACE.json`, played by every run; with
    `run` (from 0), `scripts/SCENARIO/SURFACE/rN.json`, that run's own (replays of recorded runs)."""
    folder = sessions_dir() / "scripts" / scenario
    return folder / f"{surface}.json" if run is None else folder / surface / f"r{run + 1}.json"


def load_script(path: Path) -> list[Step]:
    data = read_json(path, ScriptError, "script")
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("steps"), list):
        raise ScriptError(f'{path}: not a script (expected "format": "{FORMAT}" and "steps": [...])')
    steps = []
    for n, step in enumerate(data["steps"]):
        if not isinstance(step, dict) or not (set(_KINDS) & set(step)):
            raise ScriptError(f"{path}: steps[{n}] needs a call, a search, a say or a wait")
        if "call" in step and not isinstance(step["call"], str):
            raise ScriptError(f"{path}: steps[{n}].call must be a tool name")
        if "search" in step and not isinstance(step["search"], str):
            raise ScriptError(f"{path}: steps[{n}].search must be the query text")
        steps.append(Step(n, step))
    return steps


def dig(value: Any, path: str) -> Any:
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            raise KeyError(part)
    return value


def resolve_arguments(value: Any, answers: Mapping[str, Any]) -> Any:
    """`value` with every `$from` and `$concat` replaced from the earlier steps' answers."""
    if isinstance(value, dict) and "$concat" in value:
        return "".join(str(resolve_arguments(part, answers)) for part in value["$concat"])
    if isinstance(value, dict) and "$from" in value:
        source = answers.get(value["$from"])
        if source is None:
            raise ScriptError(f"$from {value['$from']!r}: no earlier step with that id answered with JSON")
        try:
            return dig(source, str(value.get("path", "")))
        except (KeyError, IndexError, ValueError):
            raise ScriptError(f"$from {value['$from']!r}: no {value.get('path')!r} in its answer") from None
    if isinstance(value, dict):
        return {k: resolve_arguments(v, answers) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_arguments(v, answers) for v in value]
    return value


def answer_value(text: str) -> Any:
    """What a later `$from` reads from an answer: its JSON, or the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def report_part(text: str, how: Any) -> str:
    """The part of an answer a step's `report` adds to the final answer."""
    if how is True:
        return text
    if not isinstance(how, dict):
        return ""
    part = text
    if how.get("path"):
        try:
            found = dig(json.loads(text), str(how["path"]))
        except (json.JSONDecodeError, KeyError, IndexError, ValueError):
            return ""
        part = found if isinstance(found, str) else json.dumps(found, ensure_ascii=False)
    if how.get("from") and how["from"] in part:
        part = part[part.index(how["from"]) :]
    if how.get("to") and how["to"] in part:
        part = part[: part.index(how["to"])]
    return part
