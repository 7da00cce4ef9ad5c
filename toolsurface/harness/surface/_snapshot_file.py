"""A snapshot on disk, `{"tools": [...]}` and the other parts a server advertised beside them
(`instructions`, `prompts`, `resources`, `resourceTemplates`, its `capabilities`), read as the surface it
recorded. A file with the tools alone (written before snapshots held the other parts) reads as before."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.errors import SurfaceLoadError
from toolsurface.harness.files import read_json, write_atomic_all
from toolsurface.harness.output import json_document
from toolsurface.harness.surface._answers import ANSWERS_KEY, SnapshotAnswers, answers_from_wire
from toolsurface.harness.surface._parts import SurfaceParts, parts_from_wire
from toolsurface.harness.surface._validate import validate_wire_tools

__all__ = [
    "META_FORMAT",
    "Snapshot",
    "SnapshotMeta",
    "load_snapshot",
    "meta_path",
    "read_snapshot_meta",
    "snapshot_text",
    "write_snapshot",
]

META_FORMAT = "toolsurface-snapshot-meta/1"


@dataclass(frozen=True)
class SnapshotMeta:
    """What the sidecar FILE.meta.json says about a listing: the server, the protocol, the capabilities the
    client declared, when, and where the list came from."""

    server: dict[str, Any] | None
    protocol_version: str | None
    client_capabilities: list[str]
    time: str
    tool_count: int
    source: dict[str, Any]
    toolsurface: str
    duration_s: float | None = None
    pages: int | None = None
    stdout_noise: list[str] | None = None
    # ttlMs and cacheScope of the tools/list result, where the server sent them (2026-07-28).
    list_cache: dict[str, Any] | None = None
    # Whether the list held still over two connections and twice in one (`snapshot --check-stable`): its
    # findings, none when it did.
    stability: dict[str, Any] | None = None
    # What every command calls the server (harness.surface.safe_server_name); a sidecar written before names
    # were recorded has none, and its file's name made safe stands in (harness.surface.file_server_name).
    name: str | None = None
    format: str = META_FORMAT

    @property
    def server_label(self) -> str | None:
        if isinstance(self.server, dict) and isinstance(self.server.get("name"), str):
            return f"{self.server['name']} {self.server.get('version') or ''}".strip()
        return None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **({"name": self.name} if self.name is not None else {}),
            "server": self.server,
            "protocol_version": self.protocol_version,
            "client_capabilities": list(self.client_capabilities),
            "time": self.time,
            "tool_count": self.tool_count,
        }
        for key in ("duration_s", "pages", "stdout_noise", "list_cache", "stability"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return {**data, "source": self.source, "toolsurface": self.toolsurface, "format": self.format}


@dataclass(frozen=True)
class Snapshot:
    """Tools exactly as a client once received them, with what the sidecar says about that listing."""

    name: str
    path: Path
    tools: list[dict[str, Any]]
    protocol_version: str | None = None
    server: str | None = None
    parts: SurfaceParts = field(default_factory=lambda: SurfaceParts(recorded=False))
    # What its tools' answers cost, when it was taken with --probe.
    answers: SnapshotAnswers | None = None
    # Where its list came from, in words, when it is not a file (a live server's command or URL).
    origin: str | None = None
    # What else a user's file may key it by: its server's name, where another surface of the same command took
    # that name and this file goes by its own.
    aliases: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return self.origin or str(self.path)


def meta_path(path: Path) -> Path:
    return path.with_name(path.name + ".meta.json") if path.suffix != ".json" else path.with_suffix(".meta.json")


def _read_json(path: Path) -> Any:
    return read_json(path, SurfaceLoadError)


def load_snapshot(path: Path) -> Snapshot:
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise SurfaceLoadError(f'{path}: not a tools list: expected a JSON object {{"tools": [...]}}')
    tools: list[dict[str, Any]] = data["tools"]
    # A published list is read as it is: a tool a client would refuse or repair is marked, not refused.
    validate_wire_tools(tools, str(path), published=True)
    parts = parts_from_wire(data, str(path))
    protocol_version: str | None = None
    server: str | None = None
    recorded: str | None = None
    sidecar = meta_path(path)
    if sidecar.is_file():
        meta = read_snapshot_meta(sidecar)
        protocol_version, server, recorded = meta.protocol_version, meta.server_label, meta.name
    from toolsurface.harness.surface._server_name import file_server_name, safe_server_name

    name = safe_server_name(recorded) if recorded is not None else file_server_name(path)
    return Snapshot(
        name=name,
        path=path,
        tools=tools,
        protocol_version=protocol_version,
        server=server,
        parts=parts,
        answers=answers_from_wire(data, str(path)),
        # A name recorded by the rule before it kept only what every client takes ('.', letters of any script)
        # still keys the user's files.
        aliases=(recorded,) if recorded is not None and recorded != name else (),
    )


def read_snapshot_meta(path: Path) -> SnapshotMeta:
    """A sidecar; one written before its format was named is read as the first version."""
    data = _read_json(path)
    if not isinstance(data, dict):
        raise SurfaceLoadError(f"{path}: not a snapshot's meta file")
    found = data.get("format", META_FORMAT)
    if found != META_FORMAT:
        raise SurfaceLoadError(f"{path}: meta format {found!r} is not {META_FORMAT!r}")
    try:
        return SnapshotMeta(
            server=data.get("server") if isinstance(data.get("server"), dict) else None,
            protocol_version=data.get("protocol_version") if isinstance(data.get("protocol_version"), str) else None,
            client_capabilities=[str(c) for c in data.get("client_capabilities") or []],
            time=str(data.get("time") or ""),
            tool_count=int(data.get("tool_count") or 0),
            source=dict(data.get("source") or {}),
            toolsurface=str(data.get("toolsurface") or ""),
            duration_s=data.get("duration_s"),
            pages=data.get("pages"),
            stdout_noise=data.get("stdout_noise"),
            list_cache=data.get("list_cache") if isinstance(data.get("list_cache"), dict) else None,
            stability=data.get("stability") if isinstance(data.get("stability"), dict) else None,
            name=_recorded_name(data.get("name"), path),
        )
    except (TypeError, ValueError) as error:
        raise SurfaceLoadError(f"{path}: does not match {META_FORMAT}: {error}") from None


# What a recorded name may hold: what the rule keeps now, and the dots and letters of any script it kept before.
_RECORDED = re.compile(r"[\w.-]+")


def _recorded_name(value: Any, path: Path) -> str | None:
    """The server's name as a sidecar records it: one no rule ever made (a slash, a space) is refused."""
    if value is None:
        return None
    if not isinstance(value, str) or _RECORDED.fullmatch(value) is None or value.strip("-._") != value:
        raise SurfaceLoadError(f"{path}: name {value!r} is not a server's name (letters, digits, '_', '-')")
    return value


def snapshot_text(
    tools: Sequence[dict[str, Any]], parts: SurfaceParts | None = None, answers: SnapshotAnswers | None = None
) -> str:
    """The file form: `{"tools": [...]}`, each tool's keys in the order received, non-ASCII kept, then the other
    parts the server advertised and its capabilities, then what its answers cost when they were probed."""
    whole = {"tools": list(tools), **(parts.to_wire() if parts is not None else {})}
    if answers is not None:
        whole[ANSWERS_KEY] = answers.to_wire()
    return json_document(whole)


def write_snapshot(
    path: Path,
    tools: Sequence[dict[str, Any]],
    meta: SnapshotMeta | None = None,
    parts: SurfaceParts | None = None,
    answers: SnapshotAnswers | None = None,
) -> list[Path]:
    """Write the snapshot (and the sidecar) atomically, the sidecar first, so a reader never sees half a file
    or a list without the sidecar it was written with."""
    files: list[tuple[Path, str | bytes]] = [(path, snapshot_text(tools, parts, answers))]
    if meta is not None:
        files.insert(0, (meta_path(path), json_document(meta.to_json())))
    write_atomic_all(files, sync=True)
    return [path] + ([meta_path(path)] if meta is not None else [])
