"""The agent CLIs installed here and what a surface costs in each: agents, clients."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _builtins_option,
    _client_sessions_options,
    _data,
    _emit,
    _format_option,
    _print_table,
    _server_options_untimed,
    _ServerCommand,
    main,
)
from toolsurface.harness.cli._client_help import CardHelpOption, client_help

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.command("agents")
@_format_option(*TABLE_FORMATS)
def agents_command(fmt: str) -> None:
    """List each agent CLI on PATH: its version, whether it is supported and tested, its modes."""
    from dataclasses import asdict, astuple, fields

    from toolsurface.harness.agents import InstalledAgent, installed_agents
    from toolsurface.harness.output import csv_table, json_document, markdown_table

    rows = installed_agents(os.environ)
    if fmt == "json":
        _data(json_document([asdict(r) for r in rows], ascii=True), nl=False)
        return
    if fmt == "csv":
        # Each field as JSON has it, a list joined by spaces.
        flat = [[" ".join(v) if isinstance(v, tuple) else v for v in astuple(r)] for r in rows]
        _data(csv_table([f.name for f in fields(InstalledAgent)], flat), nl=False)
        return
    header = ["agent", "version", "supported", "tested", "modes", "path"]
    cells = []
    for r in rows:
        supported = "yes" if r.supported else (r.problem or "no")
        tested = "yes" if r.tested else f"no (tested: {', '.join(r.tested_versions)})"
        modes = ", ".join(f"{m} (search)" if m in r.search_modes else m for m in r.modes)
        if r.aliases:
            modes += f"; {', '.join(a.replace('=', ' runs ') for a in r.aliases)}"
        cells.append([r.name, r.version or "-", supported, tested if r.version else "-", modes, r.path or "-"])
    if fmt == "markdown":
        _data(markdown_table(header, cells), nl=False)
    else:
        _print_table("Agent CLIs on PATH", header, cells)


@main.command("clients", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@click.option(
    "--client",
    "named",
    multiple=True,
    metavar="NAME[:MODE]",
    cls=CardHelpOption,
    card_help=client_help,
)
@_builtins_option
@_format_option(*TABLE_FORMATS)
@_client_sessions_options
@click.option(
    "--per-tool",
    is_flag=True,
    help="Also each of the server's tools as each client sent it: renamed, cut, its schema rewritten, dropped.",
)
@click.option(
    "--server-name",
    metavar="NAME",
    help="The server's name in each client's config, which goes into every tool's name (mcp__NAME__...)."
    " Default: the server's own name (a live server's, a snapshot's), stub for a surface of ours.",
)
@_server_options_untimed
def clients_command(
    surfaces: tuple[str, ...],
    named: tuple[str, ...],
    builtins: str,
    fmt: str,
    jobs: int,
    timeout: float,
    out: Path | None,
    per_tool: bool,
    server_name: str | None,
    live: LiveServerOptions,
) -> None:
    """What a surface costs in each installed client: one short scripted session per client, version and mode.

    SURFACE... (one at least), or a live server with --url URL or -- CMD ARGS..., listed once and served to
    the clients as its snapshot."""
    from functools import partial

    from toolsurface.harness.cli._live import given_any, live_specs
    from toolsurface.harness.clients import clients_csv, clients_json, clients_markdown, clients_rich, observe_clients

    given_any(surfaces, live, "SURFACE...")
    with live_specs(surfaces, live, None) as specs:
        rows = observe_clients(
            specs, named, builtins=builtins == "on", jobs=jobs, timeout=timeout, out=out, server_name=server_name
        )
    renderers = {"table": clients_rich, "json": clients_json, "csv": clients_csv, "markdown": clients_markdown}
    _emit(fmt, rows, {fmt: partial(render, per_tool=per_tool) for fmt, render in renderers.items()})
