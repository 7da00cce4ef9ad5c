"""Each tool's anatomy as text (measure --anatomy): where a list's tokens go, part by part, and each tool's parts;
its tables declared once as columns, in a view every format is rendered from."""

from __future__ import annotations

from collections.abc import Sequence

from toolsurface.harness.measure._anatomy import ANATOMY_COUNTER, ANATOMY_PARTS, PART_LABELS, ListAnatomy, PartShare
from toolsurface.harness.measure._columns import MeasureColumns
from toolsurface.harness.measure._measure import Measurement, SurfaceMeasurement
from toolsurface.harness.output import Column, Table, View
from toolsurface.harness.terminal import one_line

__all__ = [
    "ANATOMY_COLUMNS",
    "ANATOMY_SHARE_COLUMNS",
    "anatomy_records",
    "anatomy_rows",
    "anatomy_share_records",
    "anatomy_share_rows",
    "anatomy_share_table",
    "anatomy_token_table",
    "anatomy_view",
]


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _percent(value: float) -> float:
    """A share in percent, as its cell shows it."""
    return float(_share(value).removesuffix("%"))


_PART = Column("part")
_SHARE = Column("share", "share of tokens", numeric=True, show=_share)
# anatomy.csv: a row per tool, each part's chars and tokens; anatomy_parts.csv: a row per surface and part.
ANATOMY_COLUMNS = (
    MeasureColumns.surface,
    MeasureColumns.tool,
    MeasureColumns.chars,
    MeasureColumns.tokens,
    *(
        Column(f"{part}_{unit}", f"{PART_LABELS[part]} {unit}", numeric=True)
        for part in ANATOMY_PARTS
        for unit in ("chars", "tokens")
    ),
    Column("other_keys", "other keys"),
)
ANATOMY_SHARE_COLUMNS = (MeasureColumns.surface, _PART, MeasureColumns.chars, MeasureColumns.tokens, _SHARE)


def anatomy_rows(m: Measurement) -> list[list[object]]:
    """A row per tool whose anatomy was counted, in ANATOMY_COLUMNS."""
    rows: list[list[object]] = []
    for s in m.surfaces:
        for t in s.per_tool:
            if t.anatomy is None:
                continue
            figures = [n for p in t.anatomy.parts for n in (p.chars, p.tokens)]
            rows.append([s.name, t.name, t.anatomy.chars, t.anatomy.tokens, *figures, " ".join(t.anatomy.other_keys)])
    return rows


def anatomy_records(m: Measurement) -> Table:
    """anatomy.csv: a row per tool, each part's chars and tokens."""
    return Table(ANATOMY_COLUMNS, anatomy_rows(m))


def _share_rows(
    s: SurfaceMeasurement, anatomy: ListAnatomy, with_surface: bool, every: bool = True
) -> list[list[object]]:
    """A row per part (`every`: a part no tool has too), `other` naming the members it holds."""
    rows: list[list[object]] = []
    for p in anatomy.parts:
        if not every and not p.chars:
            continue
        rows.append([*([s.name] if with_surface else []), _label(p, anatomy), p.chars, p.tokens, p.share])
    return rows


def _label(p: PartShare, anatomy: ListAnatomy) -> str:
    """A part's label, `other` with the members it holds."""
    others = f" ({', '.join(anatomy.other_keys)})" if p.part == "other" and anatomy.other_keys else ""
    return PART_LABELS[p.part] + others


def anatomy_share_rows(m: Measurement, every: bool = True) -> list[list[object]]:
    """A row per surface and part (`every`: a part none of its tools has too), in ANATOMY_SHARE_COLUMNS."""
    return [
        row
        for s in m.surfaces
        if (anatomy := s.anatomy) is not None
        for row in _share_rows(s, anatomy, with_surface=True, every=every)
    ]


def anatomy_share_records(m: Measurement) -> Table:
    """anatomy_parts.csv: a row per surface and part, the part's chars and tokens over the surface's tools, and its
    share."""
    return Table(ANATOMY_SHARE_COLUMNS, anatomy_share_rows(m))


def anatomy_share_table(m: Measurement) -> tuple[list[Column], list[list[object]]]:
    """A row per surface and part some tool of it has, its share in percent as the tables show it (the report's
    table of them)."""
    columns = [*ANATOMY_SHARE_COLUMNS[:-1], Column("share", "% of tokens", numeric=True)]
    rows: list[list[object]] = []
    for s in m.surfaces:
        anatomy = s.anatomy
        if anatomy is not None:
            rows += [
                [s.name, _label(p, anatomy), p.chars, p.tokens, _percent(p.share)] for p in anatomy.parts if p.chars
            ]
    return columns, rows


def anatomy_token_table(m: Measurement) -> tuple[list[Column], list[list[object]]]:
    """A row per tool: its tokens, and its tokens by part, a column per part some tool of the surfaces has (the
    report's table of them)."""
    tools = [(s.name, t.name, t.anatomy) for s in m.surfaces for t in s.per_tool if t.anatomy is not None]
    present = [p for p in ANATOMY_PARTS if any(a.of(p).chars for _, _, a in tools)]
    columns = [
        MeasureColumns.surface,
        MeasureColumns.tool,
        MeasureColumns.tokens,
        *(Column(PART_LABELS[p], numeric=True) for p in present),
    ]
    return columns, [[s, t, a.tokens, *(a.of(p).tokens for p in present)] for s, t, a in tools]


def _absent(parts: Sequence[str]) -> str:
    return f"; in no tool: {', '.join(PART_LABELS[p] for p in parts)}" if parts else ""


def _shares_said(s: SurfaceMeasurement, anatomy: ListAnatomy) -> tuple[str, str]:
    """The title and caption of a surface's shares."""
    caption = (
        f"{anatomy.tools:,} tools, each counted on its own with {ANATOMY_COUNTER}, summed: {anatomy.tokens:,} tokens,"
        f" {anatomy.chars:,} chars{_absent([p.part for p in anatomy.parts if not p.chars])}"
    )
    return f"Where the tokens go: {one_line(s.name)}", caption


def _tool_table(s: SurfaceMeasurement) -> tuple[str, list[Column], list[list[object]], str]:
    """Each tool's tokens by part, a column per part any tool has: title, columns, rows and caption."""
    tools = [t for t in s.per_tool if t.anatomy is not None]
    present = [p for p in ANATOMY_PARTS if any(t.anatomy and t.anatomy.of(p).chars for t in tools)]
    columns = [
        MeasureColumns.tool,
        MeasureColumns.tokens,
        *(Column(PART_LABELS[p], numeric=True) for p in present),
    ]
    rows: list[list[object]] = []
    for t in tools:
        assert t.anatomy is not None
        rows.append([one_line(t.name), t.anatomy.tokens, *(t.anatomy.of(p).tokens for p in present)])
    caption = f"{ANATOMY_COUNTER} tokens; each row adds up to the tool's{_absent([p for p in ANATOMY_PARTS if p not in present])}"
    return f"Tokens by part, per tool: {one_line(s.name)}", columns, rows, caption


def anatomy_view(m: Measurement) -> View:
    """For each surface: its tools' tokens by part and each part's share, then each tool's tokens by part; in
    markdown each title with its caption above the table. Its CSV: anatomy.csv's rows."""
    blocks: list[Table] = []
    for s in m.surfaces:
        anatomy = s.anatomy
        if anatomy is None:
            continue
        title, caption = _shares_said(s, anatomy)
        rows = _share_rows(s, anatomy, False, every=False)
        blocks.append(_captioned(title, ANATOMY_SHARE_COLUMNS[1:], rows, caption))
        tools_title, columns, tool_rows, tools_caption = _tool_table(s)
        blocks.append(_captioned(tools_title, columns, tool_rows, tools_caption))
    return View(blocks, records=anatomy_records(m), between="")


def _captioned(title: str, columns: Sequence[Column], rows: Sequence[Sequence[object]], caption: str) -> Table:
    """A table whose caption markdown says beside its title, above it."""
    heading = "\n{title} (" + caption.replace("{", "{{").replace("}", "}}") + ")\n"
    return Table(columns, rows, title=title, caption=caption, heading=heading, footing="")
