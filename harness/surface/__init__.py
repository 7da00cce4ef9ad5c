"""The surface model: kinds as data, tool lists built from them, where surfaces come from, and their validation."""

from harness.surface._authoring import ToolData, annotations_for, join_words, make_tool, object_schema, prop
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
from harness.surface._module_file import import_module_file
from harness.surface._registry import (
    BUNDLED_ORDER,
    ENTRY_POINT_GROUP,
    bundled_definitions,
    is_surface_path,
    known_names,
    resolve,
    resolve_all,
)
from harness.surface._snapshot_file import (
    META_FORMAT,
    Snapshot,
    SnapshotMeta,
    load_snapshot,
    meta_path,
    read_snapshot_meta,
    snapshot_text,
    write_snapshot,
)
from harness.surface._validate import check_input_schema, ref_cycle, validate_wire_tools

__all__ = [
    "BUNDLED_ORDER",
    "ENTRY_POINT_GROUP",
    "META_FORMAT",
    "Access",
    "BuildFunction",
    "Kind",
    "KindAction",
    "KindField",
    "KindTool",
    "Snapshot",
    "SnapshotMeta",
    "Stub",
    "StubFactory",
    "Surface",
    "SurfaceDefinition",
    "ToolData",
    "annotations_for",
    "bundled_definitions",
    "check_input_schema",
    "import_module_file",
    "is_surface_path",
    "join_words",
    "known_names",
    "load_snapshot",
    "make_tool",
    "meta_path",
    "object_schema",
    "prop",
    "read_snapshot_meta",
    "ref_cycle",
    "resolve",
    "resolve_all",
    "snapshot_text",
    "validate_wire_tools",
    "write_snapshot",
]
