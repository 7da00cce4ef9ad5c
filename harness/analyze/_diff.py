"""What changed between two tool lists as clients receive them: per tool and per parameter, classed by what it breaks.

A change is BREAKING when a client that worked with the old list can fail with the new one (a tool or parameter
removed, a parameter newly required, a type or enum narrowed), NON_BREAKING when the contract only grows or its
prose changes (a tool or optional parameter added, a type widened, a description or annotation edited), and
SIZE_ONLY when the text differs but the contract does not (keys in another order, the same `required` names in
another order, an unused `$defs` entry). Output schemas count the other way round: a narrower output is safe,
a wider one is not. A schema change whose direction cannot be told (allOf, oneOf with objects, patterns
replaced) counts as BREAKING, so a gate errs towards asking a person.

Builds results and renders them as JSON, markdown and rich renderables; never prints.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from harness.measure import ENCODING_NAME, count_tokens
from harness.measure._measure import Measurable, compact_json

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = [
    "AnnotationChange",
    "ChangeClass",
    "FieldChange",
    "ParameterChange",
    "Size",
    "SurfaceDiff",
    "ToolDiff",
    "diff_json",
    "diff_markdown",
    "diff_rich",
    "diff_surfaces",
    "diff_tools",
    "worst",
]


class ChangeClass(StrEnum):
    SIZE_ONLY = "SIZE_ONLY"
    NON_BREAKING = "NON_BREAKING"
    BREAKING = "BREAKING"


_RANK = {ChangeClass.SIZE_ONLY: 1, ChangeClass.NON_BREAKING: 2, ChangeClass.BREAKING: 3}
BREAKING, NON_BREAKING, SIZE_ONLY = ChangeClass.BREAKING, ChangeClass.NON_BREAKING, ChangeClass.SIZE_ONLY


def worst(classes: Iterable[ChangeClass | None]) -> ChangeClass | None:
    """The most severe class present; None when there is none."""
    found = [c for c in classes if c is not None]
    return max(found, key=_RANK.__getitem__) if found else None


@dataclass(frozen=True)
class Size:
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def to_json(self) -> dict[str, int]:
        return {"before": self.before, "after": self.after, "delta": self.delta}


# How one schema differs from another; `name` is the parameter's path ("filter.status", "tags[]", "(root)").
ParameterChangeKind = Literal[
    "added",
    "removed",
    "required",
    "optional",
    "type_narrowed",
    "type_widened",
    "type_changed",
    "enum_narrowed",
    "enum_widened",
    "enum_changed",
    "constraint_narrowed",
    "constraint_widened",
    "constraint_changed",
    "description",
    "metadata",
    "schema",
]


@dataclass(frozen=True)
class ParameterChange:
    name: str
    change: ParameterChangeKind
    before: Any
    after: Any
    cls: ChangeClass
    required: bool | None = None  # for an added parameter: whether it came in required

    @property
    def summary(self) -> str:
        return _parameter_summary(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "change": self.change,
            "before": self.before,
            "after": self.after,
            "class": self.cls.value,
            "required": self.required,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class ValueChange:
    """One tool annotation (readOnlyHint, destructiveHint, title…), or a tool-level field other than name,
    description, schemas and annotations (title, icons, _meta…); None means absent on that side."""

    name: str
    before: Any
    after: Any
    cls: ChangeClass = NON_BREAKING

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "before": self.before, "after": self.after, "class": self.cls.value}


AnnotationChange = ValueChange
FieldChange = ValueChange


@dataclass(frozen=True)
class ToolDiff:
    name: str
    change: Literal["added", "removed", "changed"]
    cls: ChangeClass
    chars: Size
    tokens: Size | None
    description_before: str | None = None
    description_after: str | None = None
    parameters: list[ParameterChange] = field(default_factory=list)
    output: list[ParameterChange] = field(default_factory=list)
    annotations: list[AnnotationChange] = field(default_factory=list)
    fields: list[FieldChange] = field(default_factory=list)
    note: str | None = None

    @property
    def description_changed(self) -> bool:
        return self.change == "changed" and self.description_before != self.description_after

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "change": self.change,
            "class": self.cls.value,
            "chars": self.chars.to_json(),
            "tokens": self.tokens.to_json() if self.tokens else None,
            "description_changed": self.description_changed,
            "description": (
                {"before": self.description_before, "after": self.description_after}
                if self.description_changed
                else None
            ),
            "parameters": [p.to_json() for p in self.parameters],
            "output": [p.to_json() for p in self.output],
            "annotations": [a.to_json() for a in self.annotations],
            "fields": [f.to_json() for f in self.fields],
            "note": self.note,
        }


@dataclass(frozen=True)
class SurfaceDiff:
    a: str
    b: str
    cls: ChangeClass | None
    tools_before: int
    tools_after: int
    chars: Size
    tokens: Size | None
    tools: list[ToolDiff]
    unchanged: int
    order_changed: bool
    encoding: str = ENCODING_NAME

    @property
    def added(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "added"]

    @property
    def removed(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "removed"]

    @property
    def changed(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "changed"]

    def fails(self, fail_on: str | None) -> bool:
        """Whether a gate with `--fail-on fail_on` (breaking, any, or None for never) should fail."""
        if fail_on is None:
            return False
        if fail_on == "breaking":
            return self.cls is BREAKING
        if fail_on == "any":
            return self.cls is not None
        raise ValueError(f"fail_on must be 'breaking', 'any' or None, not {fail_on!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "class": self.cls.value if self.cls else None,
            "encoding": self.encoding,
            "tools_before": self.tools_before,
            "tools_after": self.tools_after,
            "chars": self.chars.to_json(),
            "tokens": self.tokens.to_json() if self.tokens else None,
            "counts": {
                "added": len(self.added),
                "removed": len(self.removed),
                "changed": len(self.changed),
                "unchanged": self.unchanged,
            },
            "order_changed": self.order_changed,
            "tools": [t.to_json() for t in self.tools],
        }


# ---------------------------------------------------------------------------------------------------------------
# Comparing schemas

# Keywords that only describe; a change to them changes no contract.
_METADATA_KEYS = frozenset(
    {"title", "default", "examples", "deprecated", "$comment", "readOnly", "writeOnly", "$schema", "$id"}
)
# Bounds where a larger value admits fewer values, and where a smaller one does.
_LOWER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"})
_UPPER_BOUNDS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"})
# Restrictions that admit fewer values when added and more when removed; replaced, nobody can tell.
_RESTRICTIONS = frozenset({"pattern", "format", "multipleOf", "contentEncoding", "contentMediaType"})
_HANDLED = frozenset(
    {"type", "enum", "const", "properties", "required", "items", "additionalProperties", "description"}
)
_UNION_KEYS = ("anyOf", "oneOf")
_DEFS_KEYS = ("$defs", "definitions")


class _Unknown:
    """A type set that cannot be read off the schema (a union of object schemas, say)."""


_UNKNOWN = _Unknown()
_ABSENT = object()


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _type_set(schema: Mapping[str, Any]) -> frozenset[str] | _Unknown | None:
    """The JSON types a schema admits: from `type`, or from an anyOf/oneOf of bare types; None means any."""
    declared = schema.get("type")
    union = next((schema[k] for k in _UNION_KEYS if k in schema), None)
    if union is not None:
        simple = (
            declared is None
            and isinstance(union, list)
            and union
            and all(
                isinstance(m, dict) and isinstance(m.get("type"), str) and set(m) <= {"type"} | _METADATA_KEYS
                for m in union
            )
        )
        if not simple:
            return _UNKNOWN
        return frozenset(str(m["type"]) for m in union)
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return frozenset(declared)
    if declared is None:
        return None
    return _UNKNOWN


def _covers(wide: frozenset[str] | None, narrow: frozenset[str] | None) -> bool:
    """Whether every value `narrow` admits is admitted by `wide` (an integer is a number)."""
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _enum_values(schema: Mapping[str, Any]) -> list[Any] | None:
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


def _inline_refs(schema: Any) -> Any:
    """The schema with local `#/$defs/…` references replaced by what they name.

    `$defs` itself is then dropped, so an unused definition changes nothing; it stays when a reference could
    not be inlined (a recursive model, a remote reference) and is then compared like any other keyword.
    """
    if not isinstance(schema, dict):
        return schema
    defs: dict[str, Any] = {}
    for key in _DEFS_KEYS:
        if isinstance(schema.get(key), dict):
            defs.update({f"#/{key}/{name}": value for name, value in schema[key].items()})
    if not defs:
        return schema
    unresolved = False

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        nonlocal unresolved
        if isinstance(node, list):
            return [walk(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = defs.get(ref)
            if isinstance(target, dict) and ref not in seen:
                siblings = {k: v for k, v in node.items() if k != "$ref"}
                return walk({**target, **siblings}, (*seen, ref))
            unresolved = True
        return {k: walk(v, seen) for k, v in node.items()}

    inlined = walk({k: v for k, v in schema.items() if k not in _DEFS_KEYS}, ())
    if unresolved:
        inlined.update({k: schema[k] for k in _DEFS_KEYS if k in schema})
    return inlined


class _SchemaComparer:
    """Walks two schemas side by side and records each difference with its class.

    `side` is "input" (what a client sends: narrowing breaks it) or "output" (what it gets back: widening does).
    """

    def __init__(self, side: Literal["input", "output"]) -> None:
        self.side = side
        self.changes: list[ParameterChange] = []

    # Classes by direction ------------------------------------------------------------------------------------

    @property
    def narrowed(self) -> ChangeClass:
        return BREAKING if self.side == "input" else NON_BREAKING

    @property
    def widened(self) -> ChangeClass:
        return NON_BREAKING if self.side == "input" else BREAKING

    def add(
        self,
        name: str,
        change: ParameterChangeKind,
        before: Any,
        after: Any,
        cls: ChangeClass,
        required: bool | None = None,
    ) -> None:
        self.changes.append(ParameterChange(name or "(root)", change, before, after, cls, required))

    # The walk ------------------------------------------------------------------------------------------------

    def compare(self, path: str, before: Any, after: Any) -> None:
        if not isinstance(before, dict) or not isinstance(after, dict):
            if before != after:
                self._boolean_schema(path, before, after)
            return
        handled = set(_HANDLED)
        types = self._types(path, before, after)
        if types:
            handled |= {"type", *_UNION_KEYS}
        else:
            handled.discard("type")
        self._enum(path, before, after)
        self._properties(path, before, after)
        self._items(path, before, after)
        self._additional(path, before, after)
        if before.get("description") != after.get("description"):
            self.add(path, "description", before.get("description"), after.get("description"), NON_BREAKING)
        changed = [
            k
            for k in dict.fromkeys([*before, *after])
            if k not in handled and before.get(k, _ABSENT) != after.get(k, _ABSENT)
        ]
        metadata = [k for k in changed if k in _METADATA_KEYS]
        if metadata:
            self.add(path, "metadata", _pick(before, metadata), _pick(after, metadata), NON_BREAKING)
        for key in changed:
            if key in _LOWER_BOUNDS | _UPPER_BOUNDS | _RESTRICTIONS or key == "uniqueItems":
                self._constraint(path, key, before.get(key), after.get(key))
        other = [k for k in changed if k not in _METADATA_KEYS and not self._is_constraint(k, before, after)]
        if other:
            self.add(path, "schema", _pick(before, other), _pick(after, other), BREAKING)

    def _boolean_schema(self, path: str, before: Any, after: Any) -> None:
        # `true` admits anything and `false` nothing; any other pairing cannot be ordered here.
        if after is True or before is False:
            self.add(path, "type_widened", before, after, self.widened)
        elif after is False or before is True:
            self.add(path, "type_narrowed", before, after, self.narrowed)
        else:
            self.add(path, "schema", before, after, BREAKING)

    def _types(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Compare the admitted types; False when either side's types cannot be read (left to the generic check)."""
        old, new = _type_set(before), _type_set(after)
        if isinstance(old, _Unknown) or isinstance(new, _Unknown):
            return False
        if old == new:
            return True
        show_old = _type_repr(before, old)
        show_new = _type_repr(after, new)
        widens, narrows = _covers(new, old), _covers(old, new)
        if widens and narrows:
            return True  # the same values, spelled differently
        if widens:
            self.add(path, "type_widened", show_old, show_new, self.widened)
        elif narrows:
            self.add(path, "type_narrowed", show_old, show_new, self.narrowed)
        else:
            self.add(path, "type_changed", show_old, show_new, BREAKING)
        return True

    def _enum(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        old, new = _enum_values(before), _enum_values(after)
        if old is None and new is None:
            return
        if old is None:
            self.add(path, "enum_narrowed", None, new, self.narrowed)
            return
        if new is None:
            self.add(path, "enum_widened", old, None, self.widened)
            return
        old_keys, new_keys = {_key(v) for v in old}, {_key(v) for v in new}
        lost, gained = old_keys - new_keys, new_keys - old_keys
        if lost and gained:
            self.add(path, "enum_changed", old, new, BREAKING)
        elif lost:
            self.add(path, "enum_narrowed", old, new, self.narrowed)
        elif gained:
            self.add(path, "enum_widened", old, new, self.widened)

    def _properties(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        old = before.get("properties") if isinstance(before.get("properties"), dict) else {}
        new = after.get("properties") if isinstance(after.get("properties"), dict) else {}
        assert isinstance(old, dict) and isinstance(new, dict)
        old_required = {str(r) for r in before.get("required") or [] if isinstance(r, str)}
        new_required = {str(r) for r in after.get("required") or [] if isinstance(r, str)}
        names = dict.fromkeys([*old, *new, *sorted(old_required | new_required)])
        for name in names:
            child = f"{path}.{name}" if path else name
            if name in old and name not in new:
                self.add(child, "removed", old[name], None, BREAKING)
                continue
            if name in new and name not in old:
                required = name in new_required
                cls = BREAKING if self.side == "input" and required else NON_BREAKING
                self.add(child, "added", None, new[name], cls, required)
                continue
            if name in old:
                self.compare(child, old[name], new[name])
            was, now = name in old_required, name in new_required
            if now and not was:
                self.add(child, "required", False, True, self.narrowed)
            elif was and not now:
                self.add(child, "optional", True, False, self.widened)

    def _items(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        self._subschema(path, "items", before.get("items", True), after.get("items", True), f"{path}[]")

    def _additional(self, path: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        old, new = before.get("additionalProperties", True), after.get("additionalProperties", True)
        self._subschema(path, "additionalProperties", old, new, f"{path}.*" if path else "*")

    def _subschema(self, path: str, key: str, old: Any, new: Any, child: str) -> None:
        """A keyword holding a schema, where absent or `true` admits anything, `false` nothing, a schema some."""
        old = True if old == {} else old
        new = True if new == {} else new
        if old == new:
            return
        if isinstance(old, dict) and isinstance(new, dict):
            self.compare(child, old, new)
            return
        if not isinstance(old, dict | bool) or not isinstance(new, dict | bool):
            self.add(path, "schema", {key: old}, {key: new}, BREAKING)  # e.g. the tuple form of items
            return
        old_rank = 1 if isinstance(old, dict) else 2 if old else 0
        new_rank = 1 if isinstance(new, dict) else 2 if new else 0
        if new_rank > old_rank:
            self.add(path, "constraint_widened", {key: old}, {key: new}, self.widened)
        elif new_rank < old_rank:
            self.add(path, "constraint_narrowed", {key: old}, {key: new}, self.narrowed)

    @staticmethod
    def _is_constraint(key: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        if key in _RESTRICTIONS or key == "uniqueItems":
            return True
        if key in _LOWER_BOUNDS | _UPPER_BOUNDS:
            # draft-4 boolean exclusiveMinimum/Maximum are not bounds; those go to the generic check
            return all(v is None or _is_number(v) for v in (before.get(key), after.get(key)))
        return False

    def _constraint(self, path: str, key: str, old: Any, new: Any) -> None:
        if not self._is_constraint(key, {key: old}, {key: new}):
            return
        before = {key: old} if old is not None else {}
        after = {key: new} if new is not None else {}
        if key == "uniqueItems":
            narrower = bool(new) and not bool(old)
            self.add(
                path,
                "constraint_narrowed" if narrower else "constraint_widened",
                before,
                after,
                self.narrowed if narrower else self.widened,
            )
            return
        if old is None or new is None:
            # A bound or restriction added admits fewer values; removed, more.
            if new is not None:
                self.add(path, "constraint_narrowed", before, after, self.narrowed)
            else:
                self.add(path, "constraint_widened", before, after, self.widened)
            return
        if key in _RESTRICTIONS:
            self.add(path, "constraint_changed", before, after, BREAKING)
            return
        narrower = new > old if key in _LOWER_BOUNDS else new < old
        if narrower:
            self.add(path, "constraint_narrowed", before, after, self.narrowed)
        else:
            self.add(path, "constraint_widened", before, after, self.widened)


def _pick(schema: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The keywords of `keys` the schema has; an absent one is left out."""
    return {k: schema[k] for k in keys if k in schema}


def _type_repr(schema: Mapping[str, Any], types: frozenset[str] | None) -> Any:
    """The type as the schema spells it, for before/after: a string, a list, or the anyOf's types."""
    if "type" in schema:
        return schema["type"]
    union = next((schema[k] for k in _UNION_KEYS if k in schema), None)
    if isinstance(union, list) and types is not None:
        return [m["type"] for m in union]
    return None


def _compare_schemas(side: Literal["input", "output"], before: Any, after: Any) -> list[ParameterChange]:
    old, new = _inline_refs(before), _inline_refs(after)
    comparer = _SchemaComparer(side)
    comparer.compare("", old, new)
    return comparer.changes


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
    unchanged = 0
    for name, tool in old.items():
        if name not in new:
            tools.append(_whole_tool(name, tool, added=False, with_tokens=tokens))
            continue
        changed = _tool_diff(name, tool, new[name], tokens)
        if changed is None:
            unchanged += 1
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
        unchanged=unchanged,
        order_changed=order_changed,
    )


def diff_surfaces(
    a: Measurable, b: Measurable, *, a_label: str | None = None, b_label: str | None = None, tokens: bool = True
) -> SurfaceDiff:
    """Compare two surfaces (definitions are built and listed through a client; snapshots are read as recorded)."""
    from harness.measure import listed

    old, new = (wire.tools for wire in listed([a, b]))
    return diff_tools(old, new, a=a_label or a.name, b=b_label or b.name, tokens=tokens)


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def _cut(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(value: Any) -> str:
    """A value as compact JSON on one line, cut short."""
    return _cut(compact_json(value))


def _values(values: Iterable[Any]) -> str:
    return _cut(", ".join(compact_json(v) for v in values))


def _parameter_summary(p: ParameterChange) -> str:
    name = f"`{p.name}`"
    direction = {BREAKING: "breaking", NON_BREAKING: "non-breaking", SIZE_ONLY: "size only"}[p.cls]
    if p.change == "added":
        kind = p.after.get("type") if isinstance(p.after, dict) else None
        kinds = "|".join(str(k) for k in kind) if isinstance(kind, list) else kind
        words = [] if p.required is None else ["required" if p.required else "optional"]
        words += [kinds] if isinstance(kinds, str) else []
        return f"{name} added" + (f" ({', '.join(words)})" if words else "")
    if p.change == "removed":
        return f"{name} removed"
    if p.change == "required":
        return f"{name} now required"
    if p.change == "optional":
        return f"{name} no longer required"
    if p.change.startswith("type_"):
        verb = p.change.removeprefix("type_")
        shown = ["any" if v is None else _short(v) for v in (p.before, p.after)]
        return f"{name} type {shown[0]} → {shown[1]} ({verb})"
    if p.change.startswith("enum_"):
        old = {_key(v): v for v in p.before or []}
        new = {_key(v): v for v in p.after or []}
        if p.before is None:
            return f"{name} now limited to {_values(new.values())} ({direction})"
        if p.after is None:
            return f"{name} no longer limited to listed values ({direction})"
        parts = []
        if lost := [v for k, v in old.items() if k not in new]:
            parts.append(f"lost {_values(lost)}")
        if gained := [v for k, v in new.items() if k not in old]:
            parts.append(f"gained {_values(gained)}")
        return f"{name} enum {' and '.join(parts)} ({direction})"
    if p.change.startswith("constraint_"):
        return f"{name} {_keywords(p.before, p.after)} ({p.change.removeprefix('constraint_')})"
    if p.change == "description":
        return f"{name} description changed"
    if p.change == "metadata":
        return f"{name} {_keywords(p.before, p.after)}"
    if isinstance(p.before, dict) and isinstance(p.after, dict):
        keys = ", ".join(dict.fromkeys([*p.before, *p.after]))
    else:
        keys = "schema"
    return f"{name} {keys} changed (cannot tell whether it narrows; counted as breaking)"


def _keywords(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """`maximum 100 → 50, default absent → 20`: each keyword either side has."""

    def show(side: Mapping[str, Any], key: str) -> str:
        return _short(side[key]) if key in side else "absent"

    return ", ".join(f"{k} {show(before, k)} → {show(after, k)}" for k in dict.fromkeys([*before, *after]))


def tool_details(t: ToolDiff) -> list[tuple[ChangeClass, str]]:
    """One short line per difference in a tool with its class, the breaking ones first; parameter
    descriptions are folded into one line."""
    if t.change != "changed":
        return []
    lines: list[tuple[ChangeClass, str]] = [(p.cls, p.summary) for p in t.parameters if p.change != "description"]
    lines += [(p.cls, f"output {p.summary}") for p in t.output]
    if t.description_changed:
        lines.append((NON_BREAKING, "description changed"))
    described = [f"`{p.name}`" for p in t.parameters if p.change == "description"]
    if described:
        lines.append(
            (NON_BREAKING, f"parameter description{'s' if len(described) > 1 else ''} changed: " + ", ".join(described))
        )
    lines += [
        (
            a.cls,
            f"{a.name} {'absent' if a.before is None else _short(a.before)} → "
            f"{'absent' if a.after is None else _short(a.after)}",
        )
        for a in t.annotations
    ]
    lines += [(f.cls, f"{f.name} changed") for f in t.fields]
    if t.note:
        lines.append((t.cls, t.note))
    return sorted(lines, key=lambda line: -_RANK[line[0]])


def _n(value: int, signed: bool = False) -> str:
    return f"{value:+,}" if signed else f"{value:,}"


def _size(size: Size | None, unit: str = "") -> str:
    if size is None:
        return "-"
    return f"{_n(size.before)} → {_n(size.after)}{unit} ({_n(size.delta, True)})"


def _headline(d: SurfaceDiff) -> str:
    counts = [f"{len(x)} {word}" for x, word in ((d.changed, "changed"), (d.added, "added"), (d.removed, "removed"))]
    counts = [c for c in counts if not c.startswith("0 ")] or ["none changed"]
    order = "; tools reordered" if d.order_changed else ""
    tokens = f", {_size(d.tokens, ' tokens')} ({d.encoding})" if d.tokens else ""
    return f"{d.tools_before} → {d.tools_after} tools ({', '.join(counts)}{order}); {_size(d.chars, ' chars')}{tokens}"


def diff_json(d: SurfaceDiff) -> str:
    return json.dumps(d.to_json(), indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def diff_markdown(d: SurfaceDiff) -> str:
    """A summary and one table row per tool that differs, short enough for a pull request comment."""
    title = f"### Tool list diff: `{d.a}` → `{d.b}`\n\n"
    if d.cls is None:
        return title + f"No differences: {d.tools_after} tools, {_n(d.chars.after)} chars.\n"
    lines = [title, f"**{d.cls.value}**: {_headline(d)}\n"]
    if d.tools:
        lines.append("\n| Tool | Change | Class | Chars | Tokens | What changed |\n")
        lines.append("| --- | --- | --- | ---: | ---: | --- |\n")
        for t in d.tools:
            details = "<br>".join(
                f"**{_cell(text)}**" if cls is BREAKING else _cell(text) for cls, text in tool_details(t)
            )
            lines.append(
                f"| `{_cell(t.name)}` | {t.change} | {t.cls.value} | {_size(t.chars)} | {_size(t.tokens)} | {details or '-'} |\n"
            )
    return "".join(lines)


def diff_rich(d: SurfaceDiff) -> list[RenderableType]:
    """A headline, a table of the tools that differ with their sizes, then what changed in each."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from harness.terminal import escape_controls as shown

    style = {BREAKING: "bold red", NON_BREAKING: "yellow", SIZE_ONLY: "cyan"}
    if d.cls is None:
        return [Text(shown(f"{d.a} → {d.b}: no differences ({d.tools_after} tools, {_n(d.chars.after)} chars)"))]
    headline = Text(shown(f"{d.a} → {d.b}: "))
    headline.append(d.cls.value, style=style[d.cls])
    headline.append(shown(f"; {_headline(d)}"))
    renderables: list[RenderableType] = [headline]
    if not d.tools:
        return renderables
    table = Table(title=f"Tools that differ ({d.unchanged} unchanged)", box=box.SIMPLE_HEAD)
    table.add_column("tool", overflow="fold")
    table.add_column("change", no_wrap=True)
    table.add_column("class", no_wrap=True)
    for column in ("chars", "Δ chars", "Δ tokens"):
        table.add_column(column, justify="right", no_wrap=True)
    for t in d.tools:
        table.add_row(
            t.name,
            t.change,
            Text(t.cls.value, style=style[t.cls]),
            _n(t.chars.after),
            _n(t.chars.delta, True),
            _n(t.tokens.delta, True) if t.tokens else "-",
        )
    renderables.append(table)
    details = Text()
    for t in d.tools:
        lines = tool_details(t)
        if not lines:
            continue
        details.append(f"{shown(t.name)} ", style="bold")
        details.append(t.cls.value, style=style[t.cls])
        for cls, text in lines:
            details.append(f"\n  {shown(text)}", style=style[cls] if cls is BREAKING else "")
        details.append("\n")
    if details:
        renderables.append(details)
    return renderables
