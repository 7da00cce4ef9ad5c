"""Comparing tools and lists: which tools were added, removed or changed, and the worst class of each change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.analyze._diff_model import (
    BREAKING,
    NON_BREAKING,
    SIZE_ONLY,
    AnnotationChange,
    FieldChange,
    ParameterChange,
    Size,
    SurfaceDiff,
    ToolDiff,
    worst,
)
from harness.analyze._schema_compare import _compare_schemas
from harness.measure import count_tokens
from harness.measure._measure import Measurable, compact_json

__all__ = ["diff_surfaces", "diff_tools"]

# ---------------------------------------------------------------------------------------------------------------
# Comparing tools and lists

_TOOL_KEYS = ("name", "description", "inputSchema", "outputSchema", "annotations")


def _annotation_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[AnnotationChange]:
    old = before.get("annotations") if isinstance(before.get("annotations"), dict) else {}
    new = after.get("annotations") if isinstance(after.get("annotations"), dict) else {}
    assert isinstance(old, dict) and isinstance(new, dict)
    return [
        AnnotationChange(name, old.get(name), new.get(name))
        for name in dict.fromkeys([*old, *new])
        if old.get(name) != new.get(name)
    ]


def _output_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[ParameterChange]:
    old, new = before.get("outputSchema"), after.get("outputSchema")
    if old == new:
        return []
    if old is None:
        return [ParameterChange("(root)", "added", None, new, NON_BREAKING)]
    if new is None:
        return [ParameterChange("(root)", "removed", old, None, BREAKING)]
    return _compare_schemas("output", old, new)


def _tool_diff(name: str, before: dict[str, Any], after: dict[str, Any], with_tokens: bool) -> ToolDiff | None:
    old_text, new_text = compact_json(before), compact_json(after)
    if old_text == new_text:
        return None
    chars = Size(len(old_text), len(new_text))
    tokens = Size(count_tokens(old_text), count_tokens(new_text)) if with_tokens else None
    parameters = _compare_schemas("input", before.get("inputSchema", {}), after.get("inputSchema", {}))
    output = _output_changes(before, after)
    annotations = _annotation_changes(before, after)
    fields = [
        FieldChange(key, before.get(key), after.get(key))
        for key in dict.fromkeys([*before, *after])
        if key not in _TOOL_KEYS and before.get(key) != after.get(key)
    ]
    description_changed = before.get("description") != after.get("description")
    cls = worst(
        [
            *(c.cls for c in [*parameters, *output]),
            *(a.cls for a in annotations),
            *(f.cls for f in fields),
            NON_BREAKING if description_changed else None,
        ]
    )
    note = None
    if cls is None:
        cls = SIZE_ONLY
        note = (
            "same JSON with keys in another order"
            if before == after
            else "same contract: only the order of set-like values or an equivalent spelling differs"
        )
    return ToolDiff(
        name=name,
        change="changed",
        cls=cls,
        chars=chars,
        tokens=tokens,
        description_before=before.get("description"),
        description_after=after.get("description"),
        parameters=parameters,
        output=output,
        annotations=annotations,
        fields=fields,
        note=note,
    )


def _whole_tool(name: str, tool: dict[str, Any], added: bool, with_tokens: bool) -> ToolDiff:
    text = compact_json(tool)
    size = len(text)
    tokens = count_tokens(text) if with_tokens else 0
    return ToolDiff(
        name=name,
        change="added" if added else "removed",
        cls=NON_BREAKING if added else BREAKING,
        chars=Size(0, size) if added else Size(size, 0),
        tokens=(Size(0, tokens) if added else Size(tokens, 0)) if with_tokens else None,
    )


def _by_name(tools: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(t.get("name")): dict(t) for t in tools}


def diff_tools(
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    *,
    a: str = "A",
    b: str = "B",
    tokens: bool = True,
) -> SurfaceDiff:
    """Compare two tools arrays in wire form. Tools are matched by name; their order in the output is A's,
    then the added ones in B's order. Sizes follow the counting rule of `measure` (compact JSON)."""
    old, new = _by_name(before), _by_name(after)
    tools: list[ToolDiff] = []
    unchanged: list[str] = []
    for name, tool in old.items():
        if name not in new:
            tools.append(_whole_tool(name, tool, added=False, with_tokens=tokens))
            continue
        changed = _tool_diff(name, tool, new[name], tokens)
        if changed is None:
            unchanged.append(name)
        else:
            tools.append(changed)
    tools += [_whole_tool(name, tool, added=True, with_tokens=tokens) for name, tool in new.items() if name not in old]
    common_old = [n for n in old if n in new]
    common_new = [n for n in new if n in old]
    order_changed = common_old != common_new
    old_text, new_text = compact_json(list(before)), compact_json(list(after))  # list_text of each side
    cls = worst(t.cls for t in tools)
    if cls is None and old_text != new_text:
        cls = SIZE_ONLY  # the same tools in another order
    return SurfaceDiff(
        a=a,
        b=b,
        cls=cls,
        tools_before=len(before),
        tools_after=len(after),
        chars=Size(len(old_text), len(new_text)),
        tokens=Size(count_tokens(old_text), count_tokens(new_text)) if tokens else None,
        tools=tools,
        unchanged=len(unchanged),
        order_changed=order_changed,
        unchanged_tools=unchanged,
    )


def diff_surfaces(
    a: Measurable,
    b: Measurable,
    *,
    a_label: str | None = None,
    b_label: str | None = None,
    tokens: bool = True,
    protocol: str | None = None,
) -> SurfaceDiff:
    """Compare two surfaces (definitions are built and listed through a client speaking `protocol`, None for
    the default; snapshots are read as recorded)."""
    from dataclasses import replace

    from harness.measure import listed

    old, new = listed([a, b], protocol)
    diff = diff_tools(old.tools, new.tools, a=a_label or a.name, b=b_label or b.name, tokens=tokens)
    return replace(diff, protocol_versions=(old.protocol_version, new.protocol_version))
