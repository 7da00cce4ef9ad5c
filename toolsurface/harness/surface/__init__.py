"""The surface model: kinds as data, tool lists built from them, where surfaces come from, and their validation.

The names load when first used (PEP 562): a command imports only the modules whose names it uses."""

from typing import TYPE_CHECKING

from toolsurface.harness.lazy_names import lazy_names

if TYPE_CHECKING:
    from toolsurface.harness.surface._answers import (
        ANSWERS_KEY,
        AnswerSizes,
        SnapshotAnswers,
        ToolAnswers,
        answers_from_wire,
        size_summary,
        whole_median,
    )
    from toolsurface.harness.surface._authoring import (
        ToolData,
        annotations_for,
        join_words,
        make_tool,
        object_schema,
        prop,
    )
    from toolsurface.harness.surface._model import (
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
    from toolsurface.harness.surface._module_file import import_module_file
    from toolsurface.harness.surface._parts import (
        INCLUDABLE_PARTS,
        PART_KEYS,
        PART_WORDS,
        SurfaceParts,
        included_keys,
        item_key,
        parse_include,
        parts_from_wire,
    )
    from toolsurface.harness.surface._registry import (
        ENTRY_POINT_GROUP,
        bundled_definitions,
        default_surfaces,
        is_surface_path,
        known_names,
        own_study,
        own_study_file,
        resolve,
        resolve_all,
        studies,
        study_calls,
        study_file,
        study_for,
    )
    from toolsurface.harness.surface._server_name import (
        MAX_NAME_CHARS,
        file_server_name,
        given_server_name,
        safe_server_name,
    )
    from toolsurface.harness.surface._snapshot_file import (
        META_FORMAT,
        Snapshot,
        SnapshotMeta,
        load_snapshot,
        meta_path,
        read_snapshot_meta,
        snapshot_text,
        write_snapshot,
    )
    from toolsurface.harness.surface._study import Study
    from toolsurface.harness.surface._validate import (
        ToolProblem,
        check_input_schema,
        prepare_check,
        ref_cycle,
        tool_problems,
        validate_wire_tools,
    )

# The modules a name is looked for in, in the order they build on each other, so that looking a name up imports
# little beyond what its own module needs; each one's own __all__ says which names it holds.
_MODULES = (
    "_server_name",
    "_parts",
    "_model",
    "_validate",
    "_answers",
    "_snapshot_file",
    "_authoring",
    "_module_file",
    "_study",
    "_registry",
)

__all__ = [
    "ANSWERS_KEY",
    "ENTRY_POINT_GROUP",
    "INCLUDABLE_PARTS",
    "MAX_NAME_CHARS",
    "META_FORMAT",
    "PART_KEYS",
    "PART_WORDS",
    "Access",
    "AnswerSizes",
    "BuildFunction",
    "Kind",
    "KindAction",
    "KindField",
    "KindTool",
    "Snapshot",
    "SnapshotAnswers",
    "SnapshotMeta",
    "Stub",
    "StubFactory",
    "Study",
    "Surface",
    "SurfaceDefinition",
    "SurfaceParts",
    "ToolAnswers",
    "ToolData",
    "ToolProblem",
    "annotations_for",
    "answers_from_wire",
    "bundled_definitions",
    "check_input_schema",
    "default_surfaces",
    "file_server_name",
    "given_server_name",
    "import_module_file",
    "included_keys",
    "is_surface_path",
    "item_key",
    "join_words",
    "known_names",
    "load_snapshot",
    "make_tool",
    "meta_path",
    "object_schema",
    "own_study",
    "own_study_file",
    "parse_include",
    "parts_from_wire",
    "prepare_check",
    "prop",
    "read_snapshot_meta",
    "ref_cycle",
    "resolve",
    "resolve_all",
    "safe_server_name",
    "size_summary",
    "snapshot_text",
    "studies",
    "study_calls",
    "study_file",
    "study_for",
    "tool_problems",
    "validate_wire_tools",
    "whole_median",
    "write_snapshot",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULES)
