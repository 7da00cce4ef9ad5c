"""Loading the fixed project from its JSON fixture (format documented in fixtures/README.md beside this module)."""

from __future__ import annotations

from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import read_json
from toolsurface.surfaces.conderis.kinds import KIND_FIELDS
from toolsurface.surfaces.conderis.project import (
    Caller,
    HistoryEntry,
    Item,
    Person,
    Project,
    ProjectInfo,
    Proposal,
    Relation,
)

__all__ = ["DEFAULT_FIXTURE", "FixtureError", "load_project"]

DEFAULT_FIXTURE = Path(str(resources.files("toolsurface.surfaces.conderis") / "fixtures" / "conderis.json"))
FORMAT = "toolsurface-fixture/1"


class FixtureError(ToolsurfaceError):
    """A fixture file that cannot be read as a project."""


TEXT_FIELDS = ("content",)


def _text(name: str, value: Any) -> Any:
    """Long text may be written as a list of lines, for people who read the fixture."""
    if name in TEXT_FIELDS and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return value


def _item(raw: dict[str, Any], where: str) -> Item:
    kind = raw.get("kind")
    if kind not in KIND_FIELDS:
        raise FixtureError(f"{where}: kind must be one of {', '.join(KIND_FIELDS)}, got {kind!r}")
    fields = {name: _text(name, raw.get(name)) for name in KIND_FIELDS[kind]}
    history = [
        HistoryEntry(
            h["version"], h["author"], h["time"], sorted(h["fields"]), {k: _text(k, v) for k, v in h["fields"].items()}
        )
        for h in raw.get("history", [])
    ]
    return Item(
        kind=kind,
        fields=fields,
        version=int(raw.get("version", 1)),
        number=raw.get("number"),
        id=raw.get("id"),
        archived=bool(raw.get("archived", False)),
        block_reason=raw.get("blockReason"),
        history=history,
    )


def load_project(path: Path | None = None) -> Project:
    """A fresh project from the fixture; every server start gets its own."""
    source = path or DEFAULT_FIXTURE
    data = read_json(source, FixtureError, "fixture file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FixtureError(f'{source}: not a toolsurface fixture (expected "format": "{FORMAT}")')
    try:
        p, c = data["project"], data["caller"]
        items = [_item(raw, f"{source}: items[{n}]") for n, raw in enumerate(data["items"])]
        if "instructions" in data:
            ins = data["instructions"]
            items.append(
                Item("instructions", {"content": _text("content", ins["content"])}, int(ins.get("version", 1)))
            )
        return Project(
            info=ProjectInfo(
                id=p["id"],
                name=p["name"],
                description=p.get("description", ""),
                remote=p.get("remote"),
                remote_verified=bool(p.get("remoteVerified", False)),
                public=bool(p.get("public", False)),
                upstream=p.get("upstream"),
            ),
            caller=Caller(c["ref"], c["name"], bool(c.get("mayWrite", True)), bool(c.get("mayModerate", False))),
            people=[Person(x["ref"], x["name"], bool(x.get("agent", False))) for x in data.get("people", [])],
            items=items,
            proposals=[
                Proposal(
                    id=x["id"],
                    target=_target(x["target"]),
                    author=x["author"],
                    reason=x.get("reason", ""),
                    base_version=int(x.get("baseVersion", 1)),
                    version=int(x.get("version", 1)),
                    state=x.get("state", "pending"),
                    time=x.get("time", data["now"]),
                    changes={k: _text(k, v) for k, v in x.get("changes", {}).items()},
                )
                for x in data.get("proposals", [])
            ],
            relations=[Relation(r["source"], r["target"], r["relation"]) for r in data.get("relations", [])],
            now=datetime.fromisoformat(data["now"].replace("Z", "+00:00")),
            next_number=int(data.get("nextNumber", 1 + max([i.number or 0 for i in items], default=0))),
            other_projects=list(data.get("otherProjects", [])),
        )
    except FixtureError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise FixtureError(f"{source}: missing or malformed field: {type(error).__name__}: {error}") from None


def _target(raw: dict[str, Any]) -> str:
    if raw.get("number") is not None:
        return f"#{raw['number']}"
    if raw.get("kind") == "instructions":
        return "instructions"
    return f"{raw['kind']}:{raw['id']}"
