"""Scenarios: a prompt as a user would write it, and named outcome checks (toolsurface/sessions/scenarios/*.json)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.scenario._checks import CheckSpec, check_types

FORMAT = "toolsurface-scenario/1"


class ScenarioError(ToolsurfaceError):
    """A scenario that cannot be found or read."""


@dataclass(frozen=True)
class Scenario:
    name: str
    prompt: str
    checks: list[CheckSpec]
    path: Path
    sha256: str
    about: str = ""


def sessions_dir() -> Path:
    """The project's toolsurface/sessions/ (scenarios, scripts); $TOOLSURFACE_SESSIONS points at another."""
    override = os.environ.get("TOOLSURFACE_SESSIONS")
    return Path(override) if override else Path(str(resources.files("toolsurface.sessions")))


def scenario_names() -> list[str]:
    folder = sessions_dir() / "scenarios"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _read(path: Path, raw: bytes) -> dict[str, Any]:
    from toolsurface.harness.bounded_json import MAX_DEPTH, DuplicateKey, JSONProblem, loads

    try:
        data = loads(raw.decode("utf-8"), MAX_DEPTH, unique_keys=True)
    except UnicodeDecodeError as error:
        raise ScenarioError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except DuplicateKey as error:
        raise ScenarioError(f"{path}: {error}") from None
    except JSONProblem as error:
        raise ScenarioError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ScenarioError(f'{path}: not a scenario (expected "format": "{FORMAT}")')
    return data


def load_scenario(spec: str) -> Scenario:
    """A bundled scenario by name, or a path to a scenario JSON file."""
    path = Path(spec) if spec.endswith(".json") or os.sep in spec else sessions_dir() / "scenarios" / f"{spec}.json"
    if not path.is_file():
        raise ScenarioError(f"unknown scenario {spec!r}; known: {', '.join(scenario_names()) or '(none)'}")
    raw = path.read_bytes()
    data = _read(path, raw)
    base = data.get("extends")
    if base is not None:
        # A scenario that only renames another (its scripts differ): the prompt and checks are the base's.
        if not isinstance(base, str) or base == data.get("name", path.stem):
            raise ScenarioError(f"{path}: extends must name another scenario")
        parent = load_scenario(str(path.parent / f"{base}.json")) if not base.endswith(".json") else load_scenario(base)
        checks_of_parent = [spec.params for spec in parent.checks]
        data = {**data, "prompt": data.get("prompt", parent.prompt), "checks": data.get("checks", checks_of_parent)}
        raw += parent.sha256.encode()
    prompt = data.get("prompt")
    if isinstance(prompt, list):
        prompt = "\n".join(str(line) for line in prompt)
    checks = data.get("checks", [])
    if not isinstance(prompt, str) or not prompt.strip():
        raise ScenarioError(f"{path}: a scenario needs a prompt")
    if not isinstance(checks, list) or not all(isinstance(c, dict) and c.get("name") and c.get("type") for c in checks):
        raise ScenarioError(f"{path}: every check needs a name and a type")
    types = check_types()
    unknown = [c["type"] for c in checks if c["type"] not in types]
    if unknown:
        raise ScenarioError(f"{path}: unknown check type {unknown[0]!r}; types: {', '.join(types)}")
    return Scenario(
        name=str(data.get("name", path.stem)),
        prompt=prompt,
        checks=[CheckSpec.from_json(c) for c in checks],
        path=path,
        sha256=hashlib.sha256(raw).hexdigest(),
        about=str(data.get("about", "")),
    )
