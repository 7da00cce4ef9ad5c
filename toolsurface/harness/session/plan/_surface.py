"""The planned surface: a surface named on the command line, resolved, built, listed and digested once. Every later
step (the stub starter, the fork server, each session's model endpoint and stub, the score) takes this record,
never the name again; each stub started for it checks that it builds to the same digest."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.agents.base import SERVER_NAME, ServerCommand
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.live import TakenSnapshot
    from toolsurface.harness.surface import Snapshot, SurfaceDefinition
    from toolsurface.stubs.start import ForkServer

__all__ = [
    "SERVED",
    "PlannedSurface",
    "place_listed",
    "plan_listed",
    "plan_surface",
    "run_folder_name",
    "server_name_of",
    "surface_spec",
]


# The folder, under the root of a batch of sessions, that holds the lists of servers listed here that their stubs
# serve (a leading dot: no run folder can be named so).
SERVED = ".served"


@dataclass(frozen=True)
class PlannedSurface:
    """One surface as planned. `spec` is what a stub's command line names (a file's path made absolute, since the
    stub starts in the run's own empty directory); `sha256` is of its tool list as a client receives it, which
    every stub started for it checks; `wire` its tools as a client lists them, to record each as each model
    request carried it; `instructions` the server's (None: it gives none), to be found in what the model reads;
    `initial_state` its stub's first state (None: a snapshot, served for listing only); `server_name` the name a
    client's config gives it (server_name_of); `scripts`, one per run of a study, those the agents that play
    scripts play (None: no agent of the study does). `listed`: a server listed here, whose list no file holds
    until its sessions place it in their own folder (place_listed; `spec` is empty until then)."""

    spec: str
    name: str
    source: str
    sha256: str
    tools: tuple[str, ...]
    instructions: str | None
    wire: tuple[dict[str, Any], ...]
    initial_state: dict[str, Any] | None = None
    server_name: str = SERVER_NAME
    scripts: tuple[Path, ...] | None = None
    listed: TakenSnapshot | None = field(default=None, compare=False, repr=False)

    @property
    def folder(self) -> str:
        """Its runs' folder under runs/."""
        return run_folder_name(self.name)

    def serve_args(self, log: Path | None = None, state: Path | None = None, errors: Path | None = None) -> list[str]:
        """The `toolsurface serve` arguments of a stub of this surface: it refuses to serve one that builds
        differently from the planned digest."""
        if not self.spec:
            raise ToolsurfaceError(f"{self.name}: a server listed here is served once placed (place_listed)")
        args = ["serve", self.spec, "--surface-sha256", self.sha256]
        for option, path in (("--log", log), ("--state", state), ("--errors", errors)):
            if path is not None:
                args += [option, str(path)]
        return args

    def serve_command(
        self,
        log: Path | None = None,
        state: Path | None = None,
        errors: Path | None = None,
        forks: ForkServer | None = None,
    ) -> ServerCommand:
        """How a client starts a stub of this surface: forked from `forks` through its launcher (which starts
        the stub itself when no fork server answers), else spawned: `python -m toolsurface serve ...`."""
        serve = self.serve_args(log, state, errors)
        return ServerCommand.toolsurface(forks.command(serve) if forks is not None else ["-m", "toolsurface", *serve])


def run_folder_name(surface: str) -> str:
    """The folder a surface's runs go in, from its name: one path component inside --out, whatever the name."""
    folder = re.sub(r"[^A-Za-z0-9._-]+", "-", surface).lstrip(".-")
    if not folder:
        raise ToolsurfaceError(f"surface name {surface!r} cannot name a run folder; give it letters or digits")
    return folder


def surface_spec(spec: str) -> str:
    """Paths become absolute, since the stub starts in the run's own empty directory."""
    from toolsurface.harness.surface import is_surface_path

    return str(Path(spec).resolve()) if is_surface_path(spec) else spec


def server_name_of(
    spec: str, item: SurfaceDefinition | Snapshot, given: str | None = None, *, beside: bool = False
) -> str:
    """What every client's config calls the server of the surface `spec` names (resolved as `item`), in every
    command: the name `given` (--server-name, a configuration's key); else a snapshot's own (the name it records,
    or its file's stem, made safe by the rule of `serverInfo.name`, harness.surface.safe_server_name); else a
    surface module's own name, made safe alike; else, for a bundled surface, `stub`, our stubs' name, or its
    surface's name where it is a server `beside` another one."""
    from toolsurface.harness.surface import Snapshot, is_surface_path, safe_server_name

    if given is not None:
        return given
    if isinstance(item, Snapshot):
        return item.name
    if is_surface_path(spec) or beside:
        return safe_server_name(item.name)
    return SERVER_NAME


def plan_surface(given: str, server_name: str | None = None, *, beside: bool = False) -> PlannedSurface:
    """Resolve, build and list the surface once, through a real MCP client in memory: its tools as listed, their
    digest, the server's instructions, its stub's first state where it has a stub, and its server's name in a
    client's config (server_name_of: `server_name` where given)."""
    from toolsurface.harness.surface import resolve

    spec = surface_spec(given)
    resolved = resolve(spec)
    return _planned(spec, resolved, server_name_of(spec, resolved, server_name, beside=beside))


def plan_listed(taken: TakenSnapshot, server_name: str | None = None) -> PlannedSurface:
    """A server listed here planned as a surface is, from its list in memory: served, once placed beside its
    sessions, as its snapshot is; its name in a client's config is its own unless `server_name` is given."""
    snapshot = taken.as_snapshot()
    planned = _planned("", snapshot, server_name_of("", snapshot, server_name))
    return replace(planned, source=taken.source_label, listed=taken)


def place_listed(surfaces: Sequence[PlannedSurface], folder: Path) -> list[PlannedSurface]:
    """Each planned surface, a server listed here with its list written in `folder` (the sessions' own), as the
    file its stubs serve."""
    placed = []
    for n, surface in enumerate(surfaces):
        if surface.listed is not None and not surface.spec:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{n}-{surface.folder}.json"
            surface.listed.write(path)
            surface = replace(surface, spec=str(path))
        placed.append(surface)
    return placed


def _planned(spec: str, resolved: SurfaceDefinition | Snapshot, server_name: str) -> PlannedSurface:
    import anyio

    from toolsurface.harness.errors import InvalidToolList
    from toolsurface.harness.measure import PROTOCOL_VERSION, list_surface
    from toolsurface.stubs.digest import tools_digest
    from toolsurface.stubs.serve import start_stub, surface_for_serving

    surface = surface_for_serving(resolved)
    wire = anyio.run(functools.partial(list_surface, surface, protocol=PROTOCOL_VERSION))
    if wire.protocol_version != PROTOCOL_VERSION:
        raise InvalidToolList(f"the MCP client negotiated protocol {wire.protocol_version}, not {PROTOCOL_VERSION}")
    stub = start_stub(surface, None)
    return PlannedSurface(
        spec=spec,
        name=surface.name,
        source=surface.source or spec,
        sha256=tools_digest(wire.tools),
        tools=tuple(str(tool.get("name")) for tool in wire.tools),
        instructions=wire.parts.instructions or None,
        wire=tuple(wire.tools),
        initial_state=stub.state() if stub is not None else None,
        server_name=server_name,
    )
