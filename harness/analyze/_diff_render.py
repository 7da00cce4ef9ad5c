"""A diff as JSON, markdown and rich renderables."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from harness.measure._measure import compact_json

if TYPE_CHECKING:
    from rich.console import RenderableType
from harness.analyze._diff_model import (
    _RANK,
    BREAKING,
    NON_BREAKING,
    SIZE_ONLY,
    ChangeClass,
    ParameterChange,
    Size,
    SurfaceDiff,
    ToolDiff,
)
from harness.analyze._schema_compare import _key

__all__ = ["diff_github", "diff_json", "diff_junit", "diff_markdown", "diff_rich"]

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


def parameter_summary(p: ParameterChange) -> str:
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
    tokens += "".join(f", {_size(size, ' tokens')} ({counter})" for counter, size in d.counts[1:])
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


def _change_text(t: ToolDiff) -> str:
    details = "; ".join(text for _, text in tool_details(t))
    return f"{t.name} {t.change} ({t.cls.value}, {t.chars.delta:+,} chars)" + (f": {details}" if details else "")


def diff_github(d: SurfaceDiff, fail_on: str | None = None) -> list[str]:
    """One workflow annotation per tool that differs: `::error` when it fails the --fail-on gate, `::warning` for
    another breaking change, `::notice` for the rest; one `::notice` when nothing differs."""
    from harness.measure import github_escape

    if d.cls is None:
        return [f"::notice title={github_escape(f'{d.a} -> {d.b}', property_value=True)}::no differences"]
    lines = []
    for t in d.tools:
        level = "error" if d.tool_fails(t, fail_on) else "warning" if t.cls is BREAKING else "notice"
        title = github_escape(f"{d.b}: {t.name} {t.change} ({t.cls.value})", property_value=True)
        lines.append(f"::{level} title={title}::{github_escape(_change_text(t))}")
    if not d.tools:
        lines.append(f"::notice title={github_escape(f'{d.a} -> {d.b}', property_value=True)}::{_headline(d)}")
    return lines


def diff_junit(diffs: Sequence[SurfaceDiff], fail_on: str | None = None) -> str:
    """JUnit XML: a suite per comparison, a test case per tool of either list; a change fails its case when the
    --fail-on gate counts it (breaking: a BREAKING change; any: every change)."""
    from harness.junit import JUnitCase, JUnitSuite, junit_xml

    suites = []
    for d in diffs:
        classname = f"toolsurface.diff.{d.b}"
        cases = [
            JUnitCase(
                name=t.name,
                classname=classname,
                outcome="failure" if d.tool_fails(t, fail_on) else "passed",
                message=f"{t.change}, {t.cls.value}" if d.tool_fails(t, fail_on) else "",
                detail=_change_text(t),
                kind=t.cls.value,
                output=_change_text(t),
            )
            for t in d.tools
        ]
        cases += [JUnitCase(name=name, classname=classname, output="unchanged") for name in d.unchanged_tools]
        suites.append(JUnitSuite(f"toolsurface diff {d.a} -> {d.b}", cases))
    return junit_xml(suites)
