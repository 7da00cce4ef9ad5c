"""Snapshots: the tools a surface or a live server lists, and the parts it advertises beside them (instructions,
prompts, resources, resource templates, its capabilities), exactly as received, with a sidecar saying how.

Also what `snapshot` and `budget` share at the command line: turning SURFACE / --url / -- CMD into
something to list, and rendering a budget for GitHub Actions. Module-level imports stay light: a budget
of a bundled surface must not pay for the live client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.live._options import LiveServerOptions
from toolsurface.harness.protocol import AUTO
from toolsurface.harness.redact import redacted_text
from toolsurface.harness.surface import (
    Snapshot,
    SnapshotAnswers,
    SnapshotMeta,
    SurfaceParts,
    meta_path,
    read_snapshot_meta,
    snapshot_text,
    write_snapshot,
)

if TYPE_CHECKING:
    from toolsurface.harness.live._servers import HttpServer, LiveListing, StdioServer

__all__ = [
    "TakenSnapshot",
    "live_target",
    "skip_final_collection",
    "snapshot_live",
    "snapshot_surface",
    "take_snapshot",
]


@dataclass(frozen=True)
class TakenSnapshot:
    """A tool list just taken: `name` is what reports call it (the server's name for a live server)."""

    name: str
    tools: list[dict[str, Any]]
    meta: SnapshotMeta
    parts: SurfaceParts = field(default_factory=lambda: SurfaceParts(recorded=False))
    # What its tools' answers cost, when they were probed (`snapshot --probe`).
    answers: SnapshotAnswers | None = None

    @property
    def protocol_version(self) -> str | None:
        return self.meta.protocol_version

    @property
    def server(self) -> str | None:
        return self.meta.server_label

    @property
    def source_label(self) -> str:
        source = self.meta.source
        if source.get("kind") == "command":
            import shlex

            return shlex.join(source.get("argv", []))
        return str(source.get("url") or source.get("surface") or source.get("path") or self.name)

    def as_snapshot(self, path: Path | None = None) -> Snapshot:
        """As the measurable a snapshot file would load into; `path` only names where it came from."""
        return Snapshot(
            name=self.name,
            path=path or Path(self.source_label),
            tools=self.tools,
            protocol_version=self.protocol_version,
            server=self.server,
            parts=self.parts,
            answers=self.answers,
            origin=self.source_label if path is None else None,
        )

    def write(self, path: Path) -> list[Path]:
        return write_snapshot(path, self.tools, self.meta, self.parts, self.answers)

    def text(self) -> str:
        return snapshot_text(self.tools, self.parts, self.answers)


def live_target(surface: str | None, options: LiveServerOptions) -> StdioServer | HttpServer | None:
    """The live server the options name, or None for SURFACE; exactly one of the three must be given."""
    argv, url, headers, envs, cwd = options.argv, options.url, options.headers, options.envs, options.cwd
    capabilities, name = options.capabilities, options.name
    given = [name for name, value in (("SURFACE", surface), ("--url", url), ("-- CMD", argv)) if value is not None]
    if not given:
        raise ToolsurfaceError("give a SURFACE, --url URL, or -- CMD ARGS... (the server command after --)")
    if len(given) > 1:
        raise ToolsurfaceError(f"give one of SURFACE, --url or -- CMD, not {' and '.join(given)}")
    if headers and url is None:
        raise ToolsurfaceError("--header applies to --url only")
    if options.transport != AUTO and url is None:
        raise ToolsurfaceError("--transport applies to --url only")
    if (envs or cwd is not None) and argv is None:
        raise ToolsurfaceError(f"{'--env' if envs else '--cwd'} applies to a server command (-- CMD ARGS...) only")
    if surface is not None:
        if name is not None:
            raise ToolsurfaceError("--name names a live server (--url or -- CMD); a surface has its own name")
        if capabilities:
            raise ToolsurfaceError(
                "--client-capabilities applies to live servers (--url or -- CMD); a surface lists the same to every client"
            )
        return None
    from toolsurface.harness.live._arguments import parse_capabilities, parse_env, parse_header
    from toolsurface.harness.live._servers import HttpServer, StdioServer

    parse_capabilities(capabilities)
    if url is not None:
        return HttpServer(
            url=url, headers=dict(parse_header(h) for h in headers), transport=options.transport, name=name
        )
    assert argv is not None
    if not argv:
        raise ToolsurfaceError("no server command after --")
    return StdioServer(argv=tuple(argv), env=dict(parse_env(e) for e in envs), cwd=cwd, name=name)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _meta(
    name: str,
    server: Mapping[str, Any] | None,
    protocol_version: str | None,
    capabilities: Sequence[str],
    time: str,
    tools: int,
    source: Mapping[str, Any],
    **extra: Any,
) -> SnapshotMeta:
    from toolsurface import __version__

    return SnapshotMeta(
        server=dict(server) if server is not None else None,
        protocol_version=protocol_version,
        client_capabilities=list(capabilities),
        time=time,
        tool_count=tools,
        source=dict(source),
        toolsurface=__version__,
        name=name,
        **extra,
    )


def snapshot_live(listing: LiveListing) -> TakenSnapshot:
    return TakenSnapshot(
        name=listing.name,
        tools=listing.tools,
        meta=_meta(
            listing.name,
            {"name": listing.server_name, "version": listing.server_version},
            listing.protocol_version,
            listing.client_capabilities,
            listing.listed_at,
            len(listing.tools),
            listing.source,
            duration_s=listing.duration_s,
            pages=listing.pages,
            **({"list_cache": dict(listing.cache)} if listing.cache else {}),
            **(
                {"stdout_noise": [redacted_text(line) for line in listing.stdout_noise]} if listing.stdout_noise else {}
            ),
        ),
        parts=listing.parts,
    )


def snapshot_surface(spec: str, protocol: str | None = None) -> TakenSnapshot:
    """A bundled or module surface as the in-memory client lists it in `protocol` (None: the default); a
    snapshot file as recorded (refused when asked for a version it was not taken in)."""

    from toolsurface.harness.measure import listed, snapshot_protocol
    from toolsurface.harness.surface import resolve

    item = resolve(spec)
    if isinstance(item, Snapshot):
        snapshot_protocol(item, protocol)
        sidecar = meta_path(item.path)
        recorded = read_snapshot_meta(sidecar) if sidecar.is_file() else None
        return TakenSnapshot(
            name=item.name,
            tools=item.tools,
            meta=_meta(
                item.name,
                recorded.server if recorded else None,
                item.protocol_version,
                recorded.client_capabilities if recorded else [],
                (recorded.time if recorded else "") or _now(),
                len(item.tools),
                {"kind": "snapshot", "path": str(item.path), "recorded_source": recorded.source if recorded else None},
            ),
            parts=item.parts,
            answers=item.answers,
        )
    from toolsurface.stubs.mcp_server import build_server

    time = _now()
    [wire] = listed([item], protocol)
    stub = build_server(item.build_surface())
    return TakenSnapshot(
        name=item.name,
        tools=wire.tools,
        meta=_meta(
            item.name,
            {"name": stub.name, "version": stub.version},
            wire.protocol_version,
            [],
            time,
            len(wire.tools),
            {"kind": "surface", "surface": item.name, "origin": item.source},
            pages=wire.pages,
        ),
        parts=wire.parts,
    )


def take_snapshot(
    surface: str | None,
    server: StdioServer | HttpServer | None,
    *,
    capabilities: str | None = None,
    timeout: float | None = None,
    protocol: str | None = None,
    drafts: bool = False,
) -> TakenSnapshot:
    if server is None:
        assert surface is not None
        return snapshot_surface(surface, protocol)
    from toolsurface.harness.live._arguments import parse_capabilities
    from toolsurface.harness.live._listing import DEFAULT_TIMEOUT_S, list_live

    listing = list_live(
        server,
        capabilities=parse_capabilities(capabilities),
        timeout=DEFAULT_TIMEOUT_S if timeout is None else timeout,
        protocol=protocol,
        drafts=drafts,
    )
    return snapshot_live(listing)


def skip_final_collection() -> None:
    """For a command about to exit after a live listing: freeze what is allocated, so the interpreter does
    not walk the SDK's hundred thousand objects in its final collections (a tenth of a second)."""
    import gc

    gc.freeze()
