"""The surface verbs: list, measure."""

from __future__ import annotations

from pathlib import Path

import click

from toolsurface.harness.cli._base import _data, _print, _protocol_option, _say, _write_outputs, main
from toolsurface.harness.cli._counters import _counter_options, _counters


@main.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_command(fmt: str) -> None:
    """List the surfaces that are installed, bundled ones first."""
    import json

    from toolsurface.harness.surface import SurfaceDefinition, known_names, resolve

    definitions = []
    for name in known_names():
        item = resolve(name)
        assert isinstance(item, SurfaceDefinition)
        definitions.append(item)
    if fmt == "json":
        rows = [
            {
                "name": d.name,
                "title": d.title,
                "purpose": d.purpose,
                "kinds": [k.name for k in d.kinds],
                "growth_kind": d.growth_kind.name if d.growth_kind else None,
                "source": d.source,
            }
            for d in definitions
        ]
        _data(json.dumps({"surfaces": rows}, indent=2))
        return
    from rich.table import Table

    table = Table(title="Surfaces")
    for column in ("name", "title", "kinds", "purpose"):
        table.add_column(column)
    for d in definitions:
        kinds = ", ".join(k.name for k in d.kinds) + (f" (+{d.growth_kind.name})" if d.growth_kind else "")
        table.add_row(d.name, d.title, kinds, d.purpose)
    _print([table])


@main.command("measure")
@click.argument("surfaces", nargs=-1)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv", "markdown"]),
    default="table",
    show_default=True,
)
@click.option("--per-tool", is_flag=True, help="Show every tool's chars, tokens and marginal tokens.")
@click.option("--no-growth", is_flag=True, help="Skip growth by one kind and the size per number of kinds.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write measure.json/.csv/.md here.")
@_counter_options
@_protocol_option
def measure_command(
    surfaces: tuple[str, ...],
    fmt: str,
    per_tool: bool,
    no_growth: bool,
    out: Path | None,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces)."""
    from toolsurface.harness.measure import _render as render
    from toolsurface.harness.measure import measure
    from toolsurface.harness.surface import default_surfaces, resolve_all

    counters = _counters(tokens, count_urls)
    items = resolve_all(surfaces or default_surfaces())
    result = measure(items, growth=not no_growth, counters=counters, protocol=protocol)
    if out is not None:
        files = {
            "measure.json": render.measure_json(result),
            "measure.csv": render.measure_csv(result),
            "measure.md": render.measure_markdown(result, per_tool=True),
            "per_tool.csv": render.per_tool_csv(result),
            "by_kinds.csv": render.by_kinds_csv(result),
            "parts.csv": render.parts_csv(result),
        }
        if result.counters:
            files["counters.csv"] = render.counters_csv(result)
        written = _write_outputs(out, files)
        _say(f"wrote {', '.join(str(p) for p in written)}")
    if fmt == "json":
        _data(render.measure_json(result), nl=False)
    elif fmt == "csv":
        _data(render.per_tool_csv(result) if per_tool else render.measure_csv(result), nl=False)
    elif fmt == "markdown":
        _data(render.measure_markdown(result, per_tool=per_tool), nl=False)
    else:
        _print(render.measure_rich(result, per_tool=per_tool))
