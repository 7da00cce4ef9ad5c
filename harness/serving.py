"""Turning anything that names a surface into a built surface a server can serve."""

from __future__ import annotations

from harness.errors import InvalidToolList
from harness.snapshot_file import Snapshot
from harness.surface import Surface, SurfaceDefinition

__all__ = ["surface_for_serving"]


def surface_for_serving(item: SurfaceDefinition | Snapshot) -> Surface:
    if isinstance(item, SurfaceDefinition):
        return item.build_surface()
    import mcp.types as types
    from pydantic import ValidationError

    try:
        tools = tuple(types.Tool.model_validate(tool) for tool in item.tools)
    except ValidationError as error:
        raise InvalidToolList(
            f"{item.path}: a tool does not fit the MCP Tool type: {error.errors()[0]['msg']}"
        ) from None
    return Surface(
        name=item.name,
        title=item.server or item.name,
        purpose="",
        kinds=(),
        tools=tools,
        source=str(item.path),
    )
