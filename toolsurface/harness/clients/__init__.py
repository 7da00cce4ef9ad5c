"""What a surface costs in each client: one short session per installed agent CLI, version and mode, on the
scripted model, and the first request's tools apart (the stub's shown, the stub's deferred, the client's own)."""

from toolsurface.harness.clients._anatomy import ClientAnatomy, KeptPart, ToolKept, client_anatomy, surface_wires
from toolsurface.harness.clients._anatomy_render import clients_anatomy_view
from toolsurface.harness.clients._model import ClientRow, NameRefused, NeighbourRow, Part
from toolsurface.harness.clients._observe import ClientChoice, observe_clients, plan_clients
from toolsurface.harness.clients._render import (
    CLIENTS_FORMAT,
    clients_blocks,
    clients_data,
    clients_view,
    describe_description,
    describe_schema,
    tool_cells,
    unjudged_note,
)

__all__ = [
    "CLIENTS_FORMAT",
    "ClientAnatomy",
    "ClientChoice",
    "ClientRow",
    "KeptPart",
    "NameRefused",
    "NeighbourRow",
    "Part",
    "ToolKept",
    "client_anatomy",
    "clients_anatomy_view",
    "clients_blocks",
    "clients_data",
    "clients_view",
    "describe_description",
    "describe_schema",
    "observe_clients",
    "plan_clients",
    "surface_wires",
    "tool_cells",
    "unjudged_note",
]
