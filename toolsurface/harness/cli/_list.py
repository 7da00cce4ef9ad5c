"""The list verb: the installed surfaces, bundled ones first."""

from __future__ import annotations

from toolsurface.harness.cli._base import TABLE_FORMATS, _format_option, _show, main


@main.command("list")
@_format_option(*TABLE_FORMATS)
def list_command(fmt: str) -> None:
    """List the surfaces that are installed, bundled ones first."""
    from toolsurface.harness.output import Column, Table, View, columns_of
    from toolsurface.harness.surface import SurfaceDefinition, known_names, resolve

    definitions = []
    for name in known_names():
        item = resolve(name)
        assert isinstance(item, SurfaceDefinition)
        definitions.append(item)
    # JSON and CSV: a surface's fields, its kinds a list (in CSV, joined by spaces); the tables: the kinds with
    # the kind it grows by.
    keys = ["name", "title", "purpose", "kinds", "growth_kind", "source"]

    def fields(d: SurfaceDefinition, kinds: object) -> list[object]:
        return [d.name, d.title, d.purpose, kinds, d.growth_kind.name if d.growth_kind else None, d.source]

    columns = [Column(key) for key in ("name", "title", "kinds", "purpose")]
    cells = [
        [
            d.name,
            d.title,
            ", ".join(k.name for k in d.kinds) + (f" (+{d.growth_kind.name})" if d.growth_kind else ""),
            d.purpose,
        ]
        for d in definitions
    ]
    rows = [dict(zip(keys, fields(d, [k.name for k in d.kinds]), strict=True)) for d in definitions]
    records = Table(columns_of(keys), [fields(d, " ".join(k.name for k in d.kinds)) for d in definitions])
    table = Table(columns, cells, title="Surfaces", heading="")
    _show(fmt, View([table], data={"surfaces": rows}, records=records, ascii=True))
