"""Reading tool lists: findability, roundtrip, diff, lint."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli._base import (
    _data,
    _emit,
    _print,
    main,
)


@main.command("findability")
@click.argument("surfaces", nargs=-1)
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path), help="Queries JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings (tasks -> task) before matching.")
def findability_command(surfaces: tuple[str, ...], queries_file: Path | None, fmt: str, stem: bool) -> None:
    """Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces)."""
    from harness.analyze import findability, findability_csv, findability_json, findability_rich, load_queries
    from harness.surface import BUNDLED_ORDER, resolve_all

    result = findability(resolve_all(surfaces or BUNDLED_ORDER), load_queries(queries_file), use_stem=stem)
    _emit(fmt, result, findability_rich, findability_json, findability_csv)


@main.command("roundtrip")
@click.argument("surfaces", nargs=-1)
@click.option("--task", "task_file", type=click.Path(dir_okay=False, path_type=Path), help="Round-trip task JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings when a step's tool is chosen by keyword.")
def roundtrip_command(surfaces: tuple[str, ...], task_file: Path | None, fmt: str, stem: bool) -> None:
    """What an on-demand client loads for a task, against the whole list (default: the bundled surfaces)."""
    from harness.analyze import load_task, roundtrip, roundtrip_csv, roundtrip_json, roundtrip_rich
    from harness.surface import BUNDLED_ORDER, resolve_all

    result = roundtrip(resolve_all(surfaces or BUNDLED_ORDER), load_task(task_file), use_stem=stem)
    _emit(fmt, result, roundtrip_rich, roundtrip_json, roundtrip_csv)


@main.command("diff")
@click.argument("a")
@click.argument("b")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "any"]),
    help="Exit 1 on a breaking change, or on any difference at all.",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table", show_default=True)
def diff_command(a: str, b: str, fail_on: str | None, fmt: str) -> None:
    """Compare two tool lists per tool: added, removed, changed, breaking or not, and what each costs."""
    from harness.analyze import diff_json, diff_markdown, diff_rich, diff_surfaces
    from harness.surface import resolve

    result = diff_surfaces(resolve(a), resolve(b), a_label=a, b_label=b)
    if fmt == "json":
        _data(diff_json(result), nl=False)
    elif fmt == "markdown":
        _data(diff_markdown(result), nl=False)
    else:
        _print(diff_rich(result))
    if result.fails(fail_on):
        raise SystemExit(1)


@main.command("lint")
@click.argument("surfaces", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def lint_command(surfaces: tuple[str, ...], fmt: str) -> None:
    """Find inconsistencies across each surface's tools: addressing, tokens, patch rules, flags, names, hints."""
    import json

    from harness.analyze import lint, lint_rich
    from harness.surface import resolve_all

    result = lint(resolve_all(surfaces))
    if fmt == "json":
        _data(json.dumps(result.to_json(), indent=2))
        return
    _print(lint_rich(result))
