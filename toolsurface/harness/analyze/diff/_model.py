"""What changed between two tool lists, as records: per tool and per parameter, classed by what it breaks, and
each changed text an agent is told (a description, an annotation, the server's instructions) marked for review.
The parts beside the tools (instructions, prompts, resources, resource templates, skills) are compared the same way."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from toolsurface.harness.analyze.diff._words import WordChange, word_changes
from toolsurface.harness.fail_on import FAIL_ON
from toolsurface.harness.measure import ENCODING_NAME
from toolsurface.harness.output import compact_json


class ChangeClass(StrEnum):
    SIZE_ONLY = "SIZE_ONLY"
    NON_BREAKING = "NON_BREAKING"
    BREAKING = "BREAKING"
    # Brings in text that works against the user (a lint TS5xx finding): worse than anything that breaks.
    SECURITY = "SECURITY"

    @property
    def at_least_breaking(self) -> bool:
        """BREAKING or SECURITY: what `--fail-on breaking` fails on."""
        return _RANK[self] >= _RANK[ChangeClass.BREAKING]


_RANK = {ChangeClass.SIZE_ONLY: 1, ChangeClass.NON_BREAKING: 2, ChangeClass.BREAKING: 3, ChangeClass.SECURITY: 4}
BREAKING, NON_BREAKING, SIZE_ONLY = ChangeClass.BREAKING, ChangeClass.NON_BREAKING, ChangeClass.SIZE_ONLY
SECURITY = ChangeClass.SECURITY


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
        return parameter_summary(self)

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


def reviewed_text(value: Any) -> str:
    """A reviewed value as the text compared word by word: a text as it is, anything else as compact JSON, an
    absent one as nothing."""
    if value is None:
        return ""
    return value if isinstance(value, str) else compact_json(value)


@dataclass(frozen=True)
class ReviewItem:
    """A text an agent is told that changed, and so is how a server changes what agents do (tool poisoning,
    OWASP MCP03): a description, an annotation, a parameter's description, the instructions. `what` names it;
    None is absent on that side. Its JSON's `changes` are the runs of words removed and added (a value that is
    not a text compared as its compact JSON)."""

    what: str
    before: Any
    after: Any

    @property
    def changes(self) -> list[WordChange]:
        return word_changes(reviewed_text(self.before), reviewed_text(self.after))

    def to_json(self) -> dict[str, Any]:
        changes = [c.to_json() for c in self.changes]
        return {"what": self.what, "before": self.before, "after": self.after, "changes": changes}


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
    review: list[ReviewItem] = field(default_factory=list)
    security: list[SecurityItem] = field(default_factory=list)

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
            "review": [r.to_json() for r in self.review],
            "security": [s.to_json() for s in self.security],
        }


@dataclass(frozen=True)
class PartDiff:
    """A part beside the tools that differs: the instructions, or one prompt (by name), resource (by uri) or
    resource template (by uriTemplate). Sizes follow the counting rule (compact JSON of the entry; the
    instructions by their text's characters)."""

    part: str
    name: str
    change: Literal["added", "removed", "changed"]
    cls: ChangeClass
    chars: Size
    tokens: Size | None
    details: list[tuple[ChangeClass, str]] = field(default_factory=list)
    review: list[ReviewItem] = field(default_factory=list)
    security: list[SecurityItem] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "name": self.name,
            "change": self.change,
            "class": self.cls.value,
            "chars": self.chars.to_json(),
            "tokens": self.tokens.to_json() if self.tokens else None,
            "details": [{"class": cls.value, "text": text} for cls, text in self.details],
            "review": [r.to_json() for r in self.review],
            "security": [s.to_json() for s in self.security],
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
    unchanged_tools: list[str] = field(default_factory=list)
    # Every counter's tokens for the whole list, when counters other than o200k were asked for (`tokens` and
    # `encoding` then are the first one's).
    counts: list[tuple[str, Size]] = field(default_factory=list)
    parts: list[PartDiff] = field(default_factory=list)
    # Whether the parts beside the tools were compared (not when a side recorded the tools alone), and why not.
    parts_compared: bool = False
    parts_note: str | None = None

    @property
    def review(self) -> list[tuple[str, ReviewItem]]:
        """Every changed text to review, with what it belongs to (a tool's name, `instructions`, a prompt...)."""
        found = [(t.name, r) for t in self.tools for r in t.review]
        return found + [(p.name, r) for p in self.parts for r in p.review]

    @property
    def security(self) -> list[tuple[str, SecurityItem]]:
        """Every finding of text that works against the user the change brings in, with the tool (or
        `instructions`) it is in."""
        found = [(t.name, s) for t in self.tools for s in t.security]
        return found + [(p.name, s) for p in self.parts for s in p.security]

    # The MCP protocol version each side was read in, where known (key order inside a tool differs by era).
    protocol_versions: tuple[str | None, str | None] = (None, None)

    @property
    def added(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "added"]

    @property
    def removed(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "removed"]

    @property
    def changed(self) -> list[ToolDiff]:
        return [t for t in self.tools if t.change == "changed"]

    def tool_fails(self, tool: ToolDiff | PartDiff, fail_on: str | None) -> bool:
        """Whether this tool's (or part's) change alone would fail a gate with `--fail-on fail_on`."""
        return (
            fail_on == "any"
            or (fail_on in ("breaking", "review") and tool.cls.at_least_breaking)
            or (fail_on == "review" and bool(tool.review))
        )

    def fails(self, fail_on: str | None) -> bool:
        """Whether a gate with `--fail-on fail_on` (breaking, review, any, or None for never) should fail: a
        security change fails every gate."""
        if fail_on is None:
            return False
        breaks = self.cls is not None and self.cls.at_least_breaking
        if fail_on == "breaking":
            return breaks
        if fail_on == "review":  # a changed text to review, and what breaks as well
            return bool(self.review) or breaks
        if fail_on == "any":
            return self.cls is not None
        raise ValueError(f"fail_on must be {', '.join(map(repr, FAIL_ON))} or None, not {fail_on!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "class": self.cls.value if self.cls else None,
            "encoding": self.encoding,
            "protocol_versions": {"before": self.protocol_versions[0], "after": self.protocol_versions[1]},
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
            "security": [{"in": owner, **item.to_json()} for owner, item in self.security],
            "tools": [t.to_json() for t in self.tools],
            **({"counts": [{"counter": c, **s.to_json()} for c, s in self.counts]} if self.counts else {}),
            "review": len(self.review),
            "parts": [p.to_json() for p in self.parts],
            "parts_compared": self.parts_compared,
            "parts_note": self.parts_note,
        }


@dataclass(frozen=True)
class SecurityItem:
    """A finding of a lint rule of text that works against the user (TS5xx) that the change brings in: the rule,
    where the text is (`description`, `description of `key``, `name`, `instructions`) and the rule's message,
    which quotes the text with its invisible characters escaped."""

    rule: str
    name: str
    where: str
    message: str

    @property
    def line(self) -> str:
        return f"{self.rule} {self.name}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "name": self.name, "where": self.where, "message": self.message}


# ---------------------------------------------------------------------------------------------------------------
# A parameter change in words (its JSON's `summary`, and every rendering's line)


def value_key(value: Any) -> str:
    """A JSON value as a key that equal values share (enum values compared across two schemas)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _cut(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_json(value: Any) -> str:
    """A value as compact JSON on one line, cut short."""
    return _cut(compact_json(value))


def _values(values: Iterable[Any]) -> str:
    return _cut(", ".join(compact_json(v) for v in values))


def parameter_summary(p: ParameterChange) -> str:
    name = f"`{p.name}`"
    direction = {SECURITY: "security", BREAKING: "breaking", NON_BREAKING: "non-breaking", SIZE_ONLY: "size only"}[
        p.cls
    ]
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
        shown = ["any" if v is None else short_json(v) for v in (p.before, p.after)]
        return f"{name} type {shown[0]} → {shown[1]} ({verb})"
    if p.change.startswith("enum_"):
        old = {value_key(v): v for v in p.before or []}
        new = {value_key(v): v for v in p.after or []}
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
        return short_json(side[key]) if key in side else "absent"

    return ", ".join(f"{k} {show(before, k)} → {show(after, k)}" for k in dict.fromkeys([*before, *after]))
