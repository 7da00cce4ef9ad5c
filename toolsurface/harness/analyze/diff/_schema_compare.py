"""Comparing two JSON Schemas: what a parameter gained or lost, and whether a client that worked before can fail now."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from toolsurface.harness.analyze.diff._model import (
    BREAKING,
    NON_BREAKING,
    ChangeClass,
    ParameterChange,
    ParameterChangeKind,
    value_key,
)

__all__ = []

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
        old_keys, new_keys = {value_key(v) for v in old}, {value_key(v) for v in new}
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
