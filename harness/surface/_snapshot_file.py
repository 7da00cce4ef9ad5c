"""A tools/list snapshot on disk, `{"tools": [...]}`, read as the surface it recorded."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import SurfaceLoadError
from harness.files import read_json, write_atomic_all
from harness.surface._validate import validate_wire_tools

__all__ = ["Snapshot", "load_snapshot", "meta_path", "snapshot_text", "write_snapshot"]


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
    return read_json(path, SurfaceLoadError)


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


def snapshot_text(tools: Sequence[dict[str, Any]]) -> str:
    """The file form: `{"tools": [...]}`, each tool's keys in the order received, non-ASCII kept."""
    return json.dumps({"tools": list(tools)}, indent=2, ensure_ascii=False) + "\n"


def write_snapshot(path: Path, tools: Sequence[dict[str, Any]], meta: Mapping[str, Any] | None = None) -> list[Path]:
    """Write the tools (and the sidecar) atomically, the sidecar first, so a reader never sees half a file
    or a list without the sidecar it was written with."""
    files: list[tuple[Path, str | bytes]] = [(path, snapshot_text(tools))]
    if meta is not None:
        files.insert(0, (meta_path(path), json.dumps(dict(meta), indent=2, ensure_ascii=False) + "\n"))
    write_atomic_all(files, sync=True)
    return [path] + ([meta_path(path)] if meta is not None else [])
