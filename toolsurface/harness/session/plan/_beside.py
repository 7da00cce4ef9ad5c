"""The servers beside a surface in a client's config (`--with`): each planned, under the name the config gives it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.agents.base import NamedServer
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.session.plan._surface import PlannedSurface, plan_listed, plan_surface

if TYPE_CHECKING:
    from toolsurface.harness.live import TakenSnapshot
    from toolsurface.stubs.start import ForkServer

__all__ = ["Beside", "NeighbourSpec", "beside_commands", "beside_servers", "check_beside_names"]


@dataclass(frozen=True)
class NeighbourSpec:
    """A server to put beside the surface's in every client's config (`--with`): a surface or a snapshot, or a
    server listed here (`listed`, its list in memory; `spec` empty), and its name there (a configuration file's
    key), else its own."""

    spec: str
    name: str | None = None
    listed: TakenSnapshot | None = None


@dataclass(frozen=True)
class Beside:
    """A neighbour as planned, and its name in the clients' configs."""

    surface: PlannedSurface
    name: str


def beside_servers(neighbours: Sequence[NeighbourSpec], named_as: Sequence[str] = ()) -> list[Beside]:
    """Each neighbour planned, named by its given name, else its own (harness.session.plan.server_name_of, a surface
    of ours by its surface's name): two servers of one name in a config are a user error, `named_as` the names of
    the surfaces' servers."""
    found = []
    for neighbour in neighbours:
        if neighbour.listed is not None:
            surface = plan_listed(neighbour.listed, neighbour.name)
        else:
            surface = plan_surface(neighbour.spec, neighbour.name, beside=True)
        found.append(Beside(surface, surface.server_name))
    check_beside_names(found, named_as)
    names = [b.name for b in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ToolsurfaceError(f"--with: two neighbours named {twice[0]!r}; each server needs its own name")
    return found


def check_beside_names(beside: Sequence[Beside], named_as: Sequence[str]) -> None:
    """A user error where a neighbour has the name of a surface's server (`named_as`)."""
    names = [b.name for b in beside]
    for taken in dict.fromkeys(named_as):
        if taken in names:
            raise ToolsurfaceError(
                f"--with: a neighbour is named {taken!r}, as the surface's server is; name the server another"
                " way (--server-name)"
            )


def beside_commands(
    beside: Sequence[Beside], run_dir: Path, forks: ForkServer | None = None
) -> tuple[NamedServer, ...]:
    """How each neighbour's stub starts for one session (forked from `forks` where given), its calls logged in the
    session's folder."""
    return tuple(
        NamedServer(b.name, b.surface.serve_command(log=run_dir / f"calls-beside-{n}.jsonl", forks=forks))
        for n, b in enumerate(beside)
    )
