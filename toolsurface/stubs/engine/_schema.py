"""JSON Schema properties and description lines for a kind's fields, filters and actions."""

from __future__ import annotations

from typing import Any

from toolsurface.harness.surface import Kind, KindAction, KindField, prop

__all__ = ["action_line", "field_line", "field_prop", "filter_line"]


def field_prop(spec: KindField, note: str = "") -> dict[str, Any]:
    text = note or spec.note or (f"Number of a {spec.ref}" if spec.ref else "")
    extra: dict[str, Any] = {}
    if spec.type == "array":
        extra["items"] = {"type": "string", **({"enum": list(spec.choices)} if spec.choices else {})}
    elif spec.choices:
        extra["enum"] = list(spec.choices)
    return prop(spec.type, text, **extra)


def _field(spec: KindField) -> str:
    mark = "*" if spec.required else ""
    if spec.choices:
        return f"{spec.name}{mark} ({'|'.join(spec.choices)})"
    if spec.ref:
        return f"{spec.name}{mark} (#{spec.ref})"
    return f"{spec.name}{mark}"


def field_line(kind: Kind, settable: list[str]) -> str:
    return f"{kind.name}: " + ", ".join(_field(f) for f in kind.fields if f.name in settable)


def filter_line(kind: Kind) -> str:
    closed = f"; {'/'.join(kind.closed)} only with includeClosed" if kind.closed else ""
    return f"{kind.name}: " + (", ".join(_field(f) for f in kind.filters) or "none") + closed


def action_line(kind: Kind) -> str:
    def one(action: KindAction) -> str:
        parts = [f"from {'/'.join(action.when)}"] if action.when else []
        if action.records:
            parts.append("note required")
        return action.name + (f" ({', '.join(parts)})" if parts else "")

    return f"{kind.name}: " + ", ".join(one(a) for a in kind.actions)
