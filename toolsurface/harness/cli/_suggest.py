"""The suggest verb: a surface's families made one tool each, written as a candidate with a mapping, measured."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _format_option,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    _show,
    main,
)
from toolsurface.harness.cli._client_help import CardHelpOption, client_help

if TYPE_CHECKING:
    from toolsurface.harness.analyze.findability import QuerySet
    from toolsurface.harness.live import LiveServerOptions


def _queries(surface: str | None, queries_file: Path | None, name: str) -> tuple[QuerySet | None, str | None]:
    """The queries findability reads (the file named, else the surface's study's), or why there are none."""
    from toolsurface.harness.analyze.findability import load_queries
    from toolsurface.harness.surface import own_study

    if queries_file is not None:
        return load_queries(queries_file), None
    study = own_study([surface]) if surface is not None else None
    if study is not None and study.queries is not None:
        return load_queries(study.queries), None
    return None, (
        f"{name} has no queries of its own; name them with --queries FILE (toolsurface new queries writes a starter)"
    )


@main.command("suggest", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("candidate.json"),
    show_default=True,
    help="Write the candidate here, with FILE.meta.json and the mapping FILE.mapping.json beside it.",
)
@click.option("--force", is_flag=True, help="Overwrite the candidate's files where they exist.")
@click.option(
    "--queries",
    "queries_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Queries JSON for findability before and after (default: the surface's study's).",
)
@_format_option(*TABLE_FORMATS, help="csv: a row per family and one of all; json: every figure, and the clients'.")
@click.option(
    "--clients",
    "with_clients",
    is_flag=True,
    help="Also run `clients` on the candidate beside the original: what each installed client shows of each.",
)
@click.option(
    "--client",
    "named",
    multiple=True,
    metavar="NAME[:MODE]",
    cls=CardHelpOption,
    card_help=client_help,
)
@_server_options
@_protocol_option
def suggest_command(
    surface: str | None,
    output: Path,
    force: bool,
    queries_file: Path | None,
    fmt: str,
    with_clients: bool,
    named: tuple[str, ...],
    live: LiveServerOptions,
    protocol: str | None,
) -> None:
    """Propose tools that could be one: each family of the surface's tools (one operation over several nouns, or
    one noun under several operations) made one tool with a kind or action parameter, written as a candidate.

    SURFACE is a surface name, module or snapshot file; or a live server with --url URL or -- CMD ARGS... The
    candidate is a snapshot (a surface everywhere) with a mapping for session replay --mapping; every figure is
    measured on the written file. It is a proposal: edit it before you ship it."""
    from toolsurface.harness.live import live_target, skip_final_collection, take_snapshot
    from toolsurface.harness.suggest import (
        check_outputs,
        clients_beside,
        suggest,
        suggest_view,
    )

    if named and not with_clients:
        raise click.UsageError("--client goes with --clients")
    check_outputs(output, force)
    server = live_target(surface, live)
    taken = take_snapshot(surface, server, capabilities=live.capabilities, timeout=live.timeout, protocol=protocol)
    skip_final_collection()
    queries, note = _queries(surface, queries_file, taken.name)
    result = suggest(taken, output, force=force, queries=queries, keys=[surface] if surface else [], queries_note=note)
    if result.files is not None:
        _say(f"wrote {', '.join(str(p) for p in result.files.all)} (a proposal: edit it before you ship it)")
    rows = None
    if with_clients:
        if result.found:
            rows = clients_beside(taken, result, named)
        else:
            _say("toolsurface: no candidate, so no client was run")
    _show(fmt, suggest_view(result, rows))
