"""The surface verbs: list, measure, budget."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from harness.cli._base import (
    _data,
    _out,
    _print,
    _say,
    _server_options,
    _ServerCommand,
    _write_outputs,
    main,
)
from harness.errors import ToolsurfaceError


@main.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_command(fmt: str) -> None:
    """List the surfaces that are installed, bundled ones first."""
    import json

    from harness.surface import SurfaceDefinition, known_names, resolve

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
def measure_command(surfaces: tuple[str, ...], fmt: str, per_tool: bool, no_growth: bool, out: Path | None) -> None:
    """Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces)."""
    from harness.measure import _render as render
    from harness.measure import measure
    from harness.surface import BUNDLED_ORDER, resolve_all

    items = resolve_all(surfaces or BUNDLED_ORDER)
    result = measure(items, growth=not no_growth)
    if out is not None:
        written = _write_outputs(
            out,
            {
                "measure.json": render.measure_json(result),
                "measure.csv": render.measure_csv(result),
                "measure.md": render.measure_markdown(result, per_tool=True),
                "per_tool.csv": render.per_tool_csv(result),
                "by_kinds.csv": render.by_kinds_csv(result),
            },
        )
        _say(f"wrote {', '.join(str(p) for p in written)}")
    if fmt == "json":
        _data(render.measure_json(result), nl=False)
    elif fmt == "csv":
        _data(render.per_tool_csv(result) if per_tool else render.measure_csv(result), nl=False)
    elif fmt == "markdown":
        _data(render.measure_markdown(result, per_tool=per_tool), nl=False)
    else:
        _print(render.measure_rich(result, per_tool=per_tool))


@main.command("budget", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option("--max-chars", type=click.IntRange(min=0), required=True, help="Largest list size allowed.")
@click.option("--max-tokens", type=click.IntRange(min=0), help="Largest o200k_base token count allowed.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "github"]),
    default="text",
    show_default=True,
    help="github: annotations, and a summary table appended to $GITHUB_STEP_SUMMARY (else printed).",
)
@_server_options
@click.pass_context
def budget_command(
    ctx: click.Context,
    surface: str | None,
    max_chars: int,
    max_tokens: int | None,
    fmt: str,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
) -> None:
    """Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured.

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...
    """
    from harness.live import live_target
    from harness.measure import budget_lines, check_budget
    from harness.surface import resolve

    source: str | None = None
    try:
        server = live_target(surface, ctx.meta.get("server_argv"), url, headers, envs, cwd, capabilities)
        if server is None:
            assert surface is not None
            item = resolve(surface)
        else:
            from harness.live import skip_final_collection, take_snapshot

            taken = take_snapshot(None, server, capabilities=capabilities, timeout=timeout)
            item, source = taken.as_snapshot(), taken.source_label
        result = check_budget(item, max_chars, max_tokens)
        if server is not None:
            skip_final_collection()
    except ToolsurfaceError as error:
        if fmt == "github":
            from harness.measure import github_escape

            _out(f"::error title=Tool list budget::{github_escape(f'cannot measure: {error}')}")
        raise
    if fmt == "github":
        _github_step(result, source)
    else:
        for line in budget_lines(result):
            _out(line)
    if not result.within:
        raise SystemExit(1)


def _github_step(result: Any, source: str | None) -> None:
    """Annotations on stdout; the summary table appended to $GITHUB_STEP_SUMMARY, or printed without one."""
    from harness.measure import github_annotation, github_summary

    _out(github_annotation(result))
    summary = github_summary(result, source)
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        _data(summary, nl=False)
        return
    try:
        with open(target, "a", encoding="utf-8") as out:
            out.write(summary)
    except OSError as error:
        raise ToolsurfaceError(f"cannot append to $GITHUB_STEP_SUMMARY ({target}): {error.strerror or error}") from None
