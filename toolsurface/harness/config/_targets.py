"""Listing a configured target: a surface as it is built and served, a command or URL through a live client."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolsurface.harness.config._model import Target
from toolsurface.harness.measure import Measurable

if TYPE_CHECKING:
    from toolsurface.harness.live import HttpServer, StdioServer, TakenSnapshot


@dataclass(frozen=True)
class ListedTarget:
    """A target ready to measure; `source` names a live server's command or URL (None for a surface)."""

    target: Target
    item: Measurable
    source: str | None

    @property
    def live(self) -> bool:
        return self.source is not None


def list_target(
    target: Target,
    *,
    capabilities: Sequence[str] | None = None,
    timeout: float | None = None,
    protocol: str | None = None,
) -> ListedTarget:
    """The target's list; `capabilities`, `timeout` and `protocol` given on the command line override the
    configured ones (the protocol a surface is measured in is the caller's: `protocol_of`)."""
    if target.surface is not None:
        from toolsurface.harness.surface import resolve

        return ListedTarget(target, resolve(target.surface), None)
    taken = snapshot_target(target, capabilities=capabilities, timeout=timeout, protocol=protocol)
    return ListedTarget(target, taken.as_snapshot(), taken.source_label)


def protocol_of(target: Target, protocol: str | None = None) -> str | None:
    """The protocol version the target is listed in: the one given on the command line, else its own."""
    return protocol if protocol is not None else target.protocol


def target_server(target: Target) -> StdioServer | HttpServer:
    """The live server a command or url target names."""
    from toolsurface.harness.live import HttpServer, StdioServer

    if target.command is not None:
        return StdioServer(argv=target.command, env=dict(target.env), cwd=target.cwd, name=target.server_name)
    assert target.url is not None
    return HttpServer(url=target.url, headers=dict(target.headers), transport=target.transport, name=target.server_name)


def snapshot_target(
    target: Target,
    *,
    capabilities: Sequence[str] | None = None,
    timeout: float | None = None,
    protocol: str | None = None,
) -> TakenSnapshot:
    """The target's list as a snapshot with its sidecar record (how it was listed)."""
    from toolsurface.harness.live import snapshot_surface, take_snapshot

    if target.surface is not None:
        return snapshot_surface(target.surface, protocol=protocol_of(target, protocol))
    server = target_server(target)
    declared = target.client_capabilities if capabilities is None else tuple(capabilities)
    return take_snapshot(
        None,
        server,
        capabilities=",".join(declared) or None,
        timeout=timeout if timeout is not None else target.timeout,
        protocol=protocol_of(target, protocol),
    )
