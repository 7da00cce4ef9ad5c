"""Reading tool lists: findability, roundtrip, diff, lint."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from harness.cli._base import (
    _data,
    _emit,
    _print,
    _say,
    main,
)

if TYPE_CHECKING:
    from harness.analyze import SearchObserver

_MAX_RESULTS = click.option(
    "--max-results",
    type=click.IntRange(min=1),
    help="claude: the max_results each ToolSearch call sends (default: none sent, Claude Code's own default, 5).",
)


def _claude_search(specs: Sequence[str]) -> SearchObserver:
    """Runs searches through Claude Code's own ToolSearch, one on-demand session per surface."""
    from harness.session import observe_tool_search

    return lambda searches: observe_tool_search(specs, searches)


@main.command("findability")
@click.argument("surfaces", nargs=-1)
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path), help="Queries JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings (tasks -> task) before matching.")
@click.option(
    "--scorer",
    type=click.Choice(["keyword", "bm25", "claude", "all"]),
    help="claude: Claude Code's own ToolSearch, one on-demand session per surface with a scripted model;"
    " all: keyword, bm25 and claude side by side with their agreement (default: keyword and bm25).",
)
@click.option(
    "--fail-below-rank",
    type=click.IntRange(min=1),
    metavar="N",
    help="Exit 1 when an expected tool is not found at rank N or better (by every scorer shown).",
)
@_MAX_RESULTS
def findability_command(
    surfaces: tuple[str, ...],
    queries_file: Path | None,
    fmt: str,
    stem: bool,
    scorer: str | None,
    fail_below_rank: int | None,
    max_results: int | None,
) -> None:
    """Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces)."""
    from harness.analyze import (
        ALL_SCORERS,
        SCORERS,
        findability,
        findability_csv,
        findability_json,
        findability_rich,
        load_queries,
    )
    from harness.surface import BUNDLED_ORDER, resolve_all

    specs = surfaces or BUNDLED_ORDER
    scorers = SCORERS if scorer is None else ALL_SCORERS if scorer == "all" else (scorer,)
    if max_results is not None and "claude" not in scorers:
        raise click.UsageError("--max-results is for Claude Code's search: --scorer claude or --scorer all")
    result = findability(
        resolve_all(specs),
        load_queries(queries_file),
        use_stem=stem,
        scorers=scorers,
        observe=_claude_search(specs) if "claude" in scorers else None,
        max_results=max_results,
    )
    _emit(fmt, result, findability_rich, findability_json, findability_csv)
    if fail_below_rank is not None:
        below = result.below(fail_below_rank)
        if below:
            named = "; ".join(
                f"{surface} {row.query!r}: {row.expected} {row.scorer} "
                + (f"rank {row.rank}" if row.rank is not None else "not found")
                for surface, row in below
            )
            _say(f"toolsurface: {len(below)} expected tools not found at rank {fail_below_rank} or better: {named}")
            raise SystemExit(1)


@main.command("roundtrip")
@click.argument("surfaces", nargs=-1)
@click.option("--task", "task_file", type=click.Path(dir_okay=False, path_type=Path), help="Round-trip task JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings when a step's tool is chosen by keyword.")
@click.option(
    "--client",
    type=click.Choice(["claude"]),
    help="Also the round trip as the client paid it: Claude Code's own ToolSearch, one on-demand session per"
    " surface with a scripted model, a search per step.",
)
@_MAX_RESULTS
def roundtrip_command(
    surfaces: tuple[str, ...],
    task_file: Path | None,
    fmt: str,
    stem: bool,
    client: str | None,
    max_results: int | None,
) -> None:
    """What an on-demand client loads for a task, against the whole list (default: the bundled surfaces)."""
    from harness.analyze import load_task, roundtrip, roundtrip_csv, roundtrip_json, roundtrip_rich
    from harness.surface import BUNDLED_ORDER, resolve_all

    specs = surfaces or BUNDLED_ORDER
    if max_results is not None and client is None:
        raise click.UsageError("--max-results is for a client's search: --client claude")
    result = roundtrip(
        resolve_all(specs),
        load_task(task_file),
        use_stem=stem,
        observe=_claude_search(specs) if client == "claude" else None,
        max_results=max_results,
    )
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
