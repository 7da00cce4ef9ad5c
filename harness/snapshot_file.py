"""A tools/list snapshot on disk, `{"tools": [...]}`, read as the surface it recorded."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import SurfaceLoadError
from harness.validate import validate_wire_tools

__all__ = ["Snapshot", "load_snapshot", "meta_path"]


@dataclass(frozen=True)
class Snapshot:
    """Tools exactly as a client once received them, with what the sidecar says about that listing."""

    name: str
    path: Path
    tools: list[dict[str, Any]]
    protocol_version: str | None = None
    server: str | None = None


def meta_path(path: Path) -> Path:
    return path.with_name(path.name + ".meta.json") if path.suffix != ".json" else path.with_suffix(".meta.json")


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SurfaceLoadError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SurfaceLoadError(f"{path}: cannot read: {error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SurfaceLoadError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None


def load_snapshot(path: Path) -> Snapshot:
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise SurfaceLoadError(f'{path}: not a tools list: expected a JSON object {{"tools": [...]}}')
    tools: list[dict[str, Any]] = data["tools"]
    validate_wire_tools(tools, str(path))
    protocol_version: str | None = None
    server: str | None = None
    sidecar = meta_path(path)
    if sidecar.is_file():
        meta = _read_json(sidecar)
        if isinstance(meta, dict):
            if isinstance(meta.get("protocol_version"), str):
                protocol_version = meta["protocol_version"]
            info = meta.get("server")
            if isinstance(info, dict) and isinstance(info.get("name"), str):
                server = f"{info['name']} {info.get('version', '')}".strip()
    name = path.name.removesuffix(".json")
    return Snapshot(name=name, path=path, tools=tools, protocol_version=protocol_version, server=server)
