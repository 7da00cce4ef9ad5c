"""A surface as its stub serves it to a client (Served: listed once through a real MCP client in memory), and the
servers beside it in a client's config (`--with`): each served, under the name the config gives it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsurface.harness.agents.base import SERVER_NAME, NamedServer, ServerCommand
from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["Beside", "NeighbourSpec", "Served", "beside_commands", "beside_servers", "served", "surface_spec"]


@dataclass(frozen=True)
class Served:
    """A surface as its stub serves it: the spec the stub is started with, its name, its tools' names, its
    instructions (None: it gives none), its tools as a client lists them, and the name a client's config gives
    it unless told another: a snapshot's own (a live server's), `stub` for a surface of ours."""

    spec: str
    name: str
    tools: tuple[str, ...]
    instructions: str | None
    wire: tuple[dict[str, Any], ...] = ()
    server_name: str = SERVER_NAME


def surface_spec(spec: str) -> str:
    """Paths become absolute, since the stub starts in the run's own empty directory."""
    from toolsurface.harness.surface import is_surface_path

    return str(Path(spec).resolve()) if is_surface_path(spec) else spec


def served(spec: str) -> Served:
    """List the surface through a real MCP client in memory: its tools' names and the server's instructions."""
    import anyio
    from mcp import Client

    from toolsurface.harness.surface import Snapshot, resolve
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import surface_for_serving

    path = surface_spec(spec)
    resolved = resolve(path)
    surface = surface_for_serving(resolved)
    server_name = resolved.name if isinstance(resolved, Snapshot) else SERVER_NAME

    async def listing() -> tuple[list[dict[str, Any]], str | None]:
        async with Client(build_server(surface), mode="legacy") as client:
            result = await client.list_tools()
            wire = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in result.tools]
            return wire, client.instructions

    wire, instructions = anyio.run(listing)
    names = tuple(str(tool["name"]) for tool in wire)
    return Served(path, surface.name, names, instructions or None, tuple(wire), server_name)


@dataclass(frozen=True)
class NeighbourSpec:
    """A server to put beside the surface's in every client's config (`--with`): a surface or a snapshot, and
    its name there (a configuration file's key), else its own."""

    spec: str
    name: str | None = None


@dataclass(frozen=True)
class Beside:
    """A neighbour as served, and its name in the clients' configs."""

    served: Served
    name: str


def beside_servers(neighbours: Sequence[NeighbourSpec], named_as: Sequence[str]) -> list[Beside]:
    """Each neighbour served, named by its given name, else its own (a surface of ours by its surface's name):
    two servers of one name in a config are a user error."""
    from toolsurface.harness.surface import safe_server_name

    found = []
    for neighbour in neighbours:
        surface = served(neighbour.spec)
        own = surface.server_name if surface.server_name != SERVER_NAME else safe_server_name(surface.name)
        found.append(Beside(surface, neighbour.name or own))
    names = [b.name for b in found]
    for taken in set(named_as):
        if taken in names:
            raise ToolsurfaceError(
                f"--with: a neighbour is named {taken!r}, as the surface's server is; name the server another"
                " way (--server-name)"
            )
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ToolsurfaceError(f"--with: two neighbours named {twice[0]!r}; each server needs its own name")
    return found


def beside_commands(beside: Sequence[Beside], run_dir: Path) -> tuple[NamedServer, ...]:
    """How each neighbour's stub starts for one session, its calls logged in the session's folder."""
    return tuple(
        NamedServer(
            b.name,
            ServerCommand.toolsurface(
                ["-m", "toolsurface", "serve", b.served.spec, "--log", str(run_dir / f"calls-beside-{n}.jsonl")]
            ),
        )
        for n, b in enumerate(beside)
    )
