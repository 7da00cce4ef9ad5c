"""A fixture of the user's own domain: JSON read once per start, checked against its JSON Schema."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError


class FixtureError(ToolsurfaceError):
    """A fixture that cannot be served: one line naming the file, where in it, and the problem."""


def read_fixture_json(path: Path) -> Any:
    """From a regular file only (a FIFO would hold the stub's start for ever), nested within MAX_DEPTH."""
    from toolsurface.harness.files import read_json

    return read_json(path, FixtureError, "fixture")


def load_fixture(path: Path, schema: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The fixture as a dict; one that fails `schema` is a FixtureError naming the first place that fails."""
    data = read_fixture_json(path)
    if schema is not None:
        from jsonschema import Draft202012Validator

        errors = sorted(Draft202012Validator(dict(schema)).iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(the whole fixture)"
            raise FixtureError(f"{path}: {where}: {errors[0].message} (against the surface's FIXTURE_SCHEMA)")
    if not isinstance(data, dict):
        raise FixtureError(f"{path}: a fixture is a JSON object, not {type(data).__name__}")
    return data
