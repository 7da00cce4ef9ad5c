"""An imported study beside the server's current tool list: the tools its sessions never called, and the calls of
tools the list no longer has. The list comes from where every verb takes one (a surface, a snapshot file, a live
server); an imported study scored without one says that these need it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toolsurface.harness.output import Column, Table

if TYPE_CHECKING:
    from toolsurface.harness.measure import Measurable

__all__ = ["NEEDS_A_LIST", "ServerTools", "listed_names", "server_tools_table"]

NEEDS_A_LIST = (
    "Tools never called and calls of tools the server no longer lists need its current list: score or report"
    " with --surface NAME|FILE, --url URL or -- CMD ARGS..."
)


@dataclass(frozen=True)
class ServerTools:
    """One imported server's sessions against its list as given (`listed_as`: the surface, snapshot or live
    server it was read from): the calls per tool they made, in order of first call."""

    server: str
    listed_as: str
    listed: list[str]
    calls: dict[str, int] = field(default_factory=dict)

    @property
    def never_called(self) -> list[str]:
        return [tool for tool in self.listed if tool not in self.calls]

    @property
    def not_listed(self) -> dict[str, int]:
        return {tool: n for tool, n in self.calls.items() if tool not in self.listed}


def listed_names(item: Measurable) -> list[str]:
    """The names of the tools a surface, a snapshot or a live server's listing has, in its order."""
    from toolsurface.harness.surface import Snapshot

    if isinstance(item, Snapshot):
        return [str(tool.get("name")) for tool in item.tools]
    return [tool.name for tool in item.build_surface().tools]


SERVER_TOOLS_HEADER = ("Server", "Listed as", "Tools listed", "Tools never called", "Called, no longer listed")


def server_tools_table(rows: Sequence[ServerTools]) -> Table:
    """Per imported server: its list's source and size, the tools never called, the tools called that the list no
    longer has (with their calls)."""
    cells = []
    for row in rows:
        gone = ", ".join(f"{tool} ({n} call{'' if n == 1 else 's'})" for tool, n in row.not_listed.items())
        cells.append(
            [row.server, row.listed_as, str(len(row.listed)), ", ".join(row.never_called) or "none", gone or "none"]
        )
    columns = [Column(label, numeric=n == 2) for n, label in enumerate(SERVER_TOOLS_HEADER)]
    return Table(columns, cells, breaks="kept", heading="")
