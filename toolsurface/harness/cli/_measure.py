"""The measure verb."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _config_option,
    _format_option,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    _show,
    _write_outputs,
    main,
)
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.measure import Measurable, Measurement
    from toolsurface.harness.output import Table


@main.command("measure", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@_format_option(*TABLE_FORMATS)
@click.option("--per-tool", is_flag=True, help="Show every tool's chars, tokens and marginal tokens.")
@click.option(
    "--anatomy",
    is_flag=True,
    help="Also each tool's o200k tokens and chars by part (name, title, description, parameter descriptions, schema"
    " structure, enums, defaults, annotations, output schema, _meta, other), adding up to the tool's own, and each"
    " part's share of the list (csv: a row per tool; --out: anatomy.csv and anatomy_parts.csv).",
)
@click.option("--no-growth", is_flag=True, help="Skip growth by one kind and the size per number of kinds.")
@click.option(
    "--no-standing", is_flag=True, help="Leave out where each list stands among the corpus of public servers' lists."
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write measure.json/.csv/.md here.")
@_config_option
@click.option(
    "--drafts",
    is_flag=True,
    help="Also read what a live server advertises of open proposals (SEP-2636 tool manifests, the groups draft) and"
    " show what each costs beside its full list, labelled with the proposal's version; a snapshot's, where recorded.",
)
@_server_options
@mcp_config_options(keep_going=True)
@_counter_options
@_protocol_option
def measure_command(
    surfaces: tuple[str, ...],
    fmt: str,
    per_tool: bool,
    anatomy: bool,
    no_growth: bool,
    no_standing: bool,
    out: Path | None,
    config_path: Path | None,
    drafts: bool,
    live: LiveServerOptions,
    configured: McpConfigOptions,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces; with --url
    URL or -- CMD ARGS..., a live server's list too; with --mcp-config FILE, each server of a client's
    configuration and all of them together).

    SURFACES are surface names (toolsurface list), surface modules or snapshot files; with none given in a
    configured project, its targets. A bundled surface is built from kinds of item (task, memory, ...); its growth
    is what one more kind adds: `+1 kind (commit)`. Each list's standing is its tokens' and tokens a tool's
    percentile among the shipped corpus of public servers' lists."""
    from toolsurface.harness.cli._live import _items
    from toolsurface.harness.cli._mcp_config import configured_servers, finish_configured
    from toolsurface.harness.mcp_config import config_totals, parse_windows, totals_view
    from toolsurface.harness.measure import (
        anatomy_records,
        anatomy_view,
        by_kinds_records,
        counters_records,
        drafts_records,
        measure,
        measure_records,
        measure_view,
        parts_records,
        per_tool_records,
        skills_table,
        with_standing,
    )
    from toolsurface.harness.output import Text, View, joined, render
    from toolsurface.harness.surface import default_surfaces

    counters = _counters(tokens, count_urls)
    windows = parse_windows(configured.windows)
    alone = surfaces or live.names_a_server or configured.given
    targets = None if alone else _targets(config_path, protocol)
    if targets is not None:
        items, names = targets
    else:
        items, names = _items(surfaces if alone else default_surfaces(), live, protocol, drafts)
    found = configured_servers(configured, live, protocol)
    if found is not None:
        items += [item.taken.as_snapshot() for item in found[1] if item.taken is not None]
    result = measure(items, growth=not no_growth, counters=counters, protocol=protocol, anatomy=anatomy, drafts=drafts)
    if not no_standing:
        result = with_standing(result)
    # A configured server that is the live one given is measured once, as that one.
    given = names[-1] if live.names_a_server else None
    totals = config_totals(found[0], found[1], result, windows, given=given) if found is not None else None
    if out is not None:
        files = {
            "measure.json": render(measure_view(result), "json"),
            "measure.csv": _written(measure_records(result)),
            "measure.md": str(render(measure_view(result, per_tool=True), "markdown")),
            "per_tool.csv": _written(per_tool_records(result)),
            "by_kinds.csv": _written(by_kinds_records(result)),
            "parts.csv": _written(parts_records(result)),
        }
        skills = skills_table(result)
        if skills is not None:
            files["skills.csv"] = _written(skills)
        if any(s.drafts is not None for s in result.surfaces):
            files["drafts.csv"] = _written(drafts_records(result))
        if result.counters:
            files["counters.csv"] = _written(counters_records(result))
        if anatomy:
            files.update(_anatomy_files(result, files["measure.md"]))
        if totals is not None:
            files["servers.csv"] = str(render(totals_view(totals), "csv"))
        written = _write_outputs(out, files)
        _say(f"wrote {', '.join(str(p) for p in written)}")
    views = [measure_view(result, per_tool=per_tool), *([anatomy_view(result)] if anatomy else [])]
    records = anatomy_records(result) if anatomy else per_tool_records(result) if per_tool else None
    data = result.to_json()
    if totals is not None:
        views += [View([Text(markdown="\n")]), totals_view(totals)]
        data |= {"mcp_config": totals.to_json()}
        records = records or totals_view(totals).records
    _show(fmt, joined(views, data=data, records=records or measure_records(result)))
    finish_configured(found, configured, "what the servers cost together is not known")


def _targets(config_path: Path | None, protocol: str | None) -> tuple[list[Measurable], list[str]] | None:
    """A configured project's targets, each listed (a server's in its own protocol unless one is given), and their
    names; None where no configuration has targets."""
    from toolsurface.harness.config import list_target, read_config
    from toolsurface.harness.live import skip_final_collection

    # A configuration named with --config must have targets; one found upward may hold only lint's settings.
    config = read_config(config_path, need_targets=config_path is not None)
    if config is None or not config.targets:
        return None
    listed = [list_target(target, protocol=protocol) for target in config.targets]
    if any(one.live for one in listed):
        skip_final_collection()
    return [one.item for one in listed], [one.target.name for one in listed]


def _anatomy_files(result: Measurement, markdown: str) -> dict[str, str]:
    """What --out writes with --anatomy: each tool's parts, each part's share, and measure.md with both."""
    from toolsurface.harness.measure import anatomy_records, anatomy_share_records, anatomy_view
    from toolsurface.harness.output import render

    return {
        "measure.md": markdown + str(render(anatomy_view(result), "markdown")),
        "anatomy.csv": _written(anatomy_records(result)),
        "anatomy_parts.csv": _written(anatomy_share_records(result)),
    }


def _written(table: Table) -> str:
    """A table's rows as the CSV file --out writes of them."""
    from toolsurface.harness.output import columns_csv

    return columns_csv(table.columns, table.rows)
