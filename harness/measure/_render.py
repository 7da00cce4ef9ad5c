"""Measurements as text: markdown, CSV and rich tables. Returns strings and renderables; never prints."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

from harness.measure._measure import Measurement, SurfaceMeasurement
from harness.terminal import markdown_cell, one_line

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["by_kinds_csv", "measure_csv", "measure_json", "measure_markdown", "measure_rich", "per_tool_csv"]

_SURFACE_COLUMNS = [
    "surface",
    "title",
    "tools",
    "chars",
    "tokens",
    "growth_kind",
    "growth_tools",
    "growth_chars",
    "growth_tokens",
    "protocol_version",
]


def _n(value: int | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+,}" if signed else f"{value:,}"


def _surface_row(s: SurfaceMeasurement) -> list[object]:
    g = s.growth
    return [
        s.name,
        s.title,
        s.tools,
        s.chars,
        s.tokens,
        g.kind if g else None,
        g.tools if g else None,
        g.chars if g else None,
        g.tokens if g else None,
        s.protocol_version,
    ]


def _csv(header: list[str], rows: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if v is None else v for v in row] for row in rows)
    return out.getvalue()


def measure_json(m: Measurement) -> str:
    return json.dumps(m.to_json(), indent=2, ensure_ascii=False) + "\n"


def measure_csv(m: Measurement) -> str:
    return _csv(_SURFACE_COLUMNS, [_surface_row(s) for s in m.surfaces])


def per_tool_csv(m: Measurement) -> str:
    rows: list[list[object]] = [
        [s.name, t.name, t.chars, t.tokens, t.marginal_tokens] for s in m.surfaces for t in s.per_tool
    ]
    return _csv(["surface", "tool", "chars", "tokens", "marginal_tokens"], rows)


def by_kinds_csv(m: Measurement) -> str:
    rows: list[list[object]] = [
        [s.name, p.kinds, p.kind, p.tools, p.chars, p.tokens] for s in m.surfaces for p in s.by_kinds
    ]
    return _csv(["surface", "kinds", "kind_added", "tools", "chars", "tokens"], rows)


def _md_table(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def measure_markdown(m: Measurement, per_tool: bool = False) -> str:
    parts = [
        f"List size per surface (compact JSON of the tools array as received, protocol {m.protocol_version}; "
        f"tokens: {m.encoding})\n",
        _md_table(
            ["Surface", "Tools", "Characters", "Tokens", "Growth by one kind"],
            [
                [
                    s.title if s.title != s.name else s.name,
                    str(s.tools),
                    _n(s.chars),
                    _n(s.tokens),
                    (
                        f"{s.growth.kind}: {_n(s.growth.tools, True)} tools, {_n(s.growth.chars, True)} chars, "
                        f"{_n(s.growth.tokens, True)} tokens"
                        if s.growth
                        else "-"
                    ),
                ]
                for s in m.surfaces
            ],
            {1, 2, 3},
        ),
    ]
    if per_tool:
        for s in m.surfaces:
            parts.append(f"\nPer tool: {one_line(s.name)}\n")
            parts.append(
                _md_table(
                    ["Tool", "Characters", "Tokens", "Marginal tokens"],
                    [[t.name, _n(t.chars), _n(t.tokens), _n(t.marginal_tokens)] for t in s.per_tool],
                    {1, 2, 3},
                )
            )
    return "".join(parts)


def measure_rich(m: Measurement, per_tool: bool = False) -> list[RenderableType]:
    from rich.table import Table

    table = Table(title=f"List size (protocol {m.protocol_version}, {m.encoding})")
    for column, justify in [
        ("surface", "left"),
        ("tools", "right"),
        ("chars", "right"),
        ("tokens", "right"),
        ("growth", "left"),
        ("chars by kinds", "left"),
    ]:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for s in m.surfaces:
        growth = (
            f"+{s.growth.kind}: {_n(s.growth.tools, True)} tools, {_n(s.growth.chars, True)} chars" if s.growth else "-"
        )
        slope = " → ".join(_n(p.chars) for p in s.by_kinds) or "-"
        table.add_row(one_line(s.name), str(s.tools), _n(s.chars), _n(s.tokens), growth, slope)
    renderables: list[RenderableType] = [table]
    if per_tool:
        for s in m.surfaces:
            tools = Table(title=f"Per tool: {s.name}")
            for column in ("tool", "chars", "tokens", "marginal tokens"):
                tools.add_column(column, justify="left" if column == "tool" else "right")
            for t in s.per_tool:
                tools.add_row(one_line(t.name), _n(t.chars), _n(t.tokens), _n(t.marginal_tokens))
            renderables.append(tools)
    return renderables
