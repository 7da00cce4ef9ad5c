"""The surface model: kinds as data, tool lists built from them, where surfaces come from, and their validation."""

from harness.surface._model import (
    Access,
    BuildFunction,
    Kind,
    KindAction,
    KindField,
    KindTool,
    Stub,
    StubFactory,
    Surface,
    SurfaceDefinition,
)
from harness.surface._registry import (
    BUNDLED_ORDER,
    ENTRY_POINT_GROUP,
    bundled_definitions,
    is_surface_path,
    known_names,
    resolve,
    resolve_all,
)
from harness.surface._snapshot_file import Snapshot, load_snapshot, meta_path, snapshot_text, write_snapshot
from harness.surface._validate import check_input_schema, ref_cycle, validate_wire_tools

__all__ = [
    "BUNDLED_ORDER",
    "ENTRY_POINT_GROUP",
    "Access",
    "BuildFunction",
    "Kind",
    "KindAction",
    "KindField",
    "KindTool",
    "Snapshot",
    "Stub",
    "StubFactory",
    "Surface",
    "SurfaceDefinition",
    "bundled_definitions",
    "check_input_schema",
    "is_surface_path",
    "known_names",
    "load_snapshot",
    "meta_path",
    "ref_cycle",
    "resolve",
    "resolve_all",
    "snapshot_text",
    "validate_wire_tools",
    "write_snapshot",
]
