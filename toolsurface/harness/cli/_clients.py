"""The agent CLIs installed here and what a surface costs in each: agents, clients."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _builtins_option,
    _client_sessions_options,
    _format_option,
    _say,
    _server_options_untimed,
    _ServerCommand,
    _show,
    main,
)
from toolsurface.harness.cli._client_help import CardHelpOption, client_help
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options

if TYPE_CHECKING:
    from toolsurface.harness.clients import ClientRow
    from toolsurface.harness.live import LiveServerOptions


@main.command("agents")
@click.argument("names", nargs=-1, metavar="[NAME...]")
@click.option(
    "--install",
    is_flag=True,
    help="First install the pinned version of each agent CLI NAME (every one unless named) into toolsurface's cache"
    " (~/.cache/toolsurface/agent-clis), with your own npm; clients and session run find them there.",
)
@_format_option(
    *TABLE_FORMATS,
    help="table and markdown: a row per CLI found; json and csv: every field, with the settings each reads, what a"
    " run leaves and where it keeps a user's sessions.",
)
def agents_command(names: tuple[str, ...], install: bool, fmt: str) -> None:
    """List each agent CLI on PATH or in toolsurface's cache: its version, whether it is supported and tested, its
    modes; with --install, install the pinned ones first (NAME...: those clients only)."""
    from dataclasses import asdict, astuple, fields

    from toolsurface.harness.agents import InstalledAgent, install_clis, installed_agents
    from toolsurface.harness.output import Column, Table, View, columns_of

    if names and not install:
        raise click.UsageError("NAME... goes with --install: `toolsurface agents --install NAME...`")
    if install:
        _say(install_clis(names, os.environ).summary())
    rows = installed_agents(os.environ, names or None)
    # CSV: each field as JSON has it, a list joined by spaces.
    flat = [[" ".join(v) if isinstance(v, tuple) else v for v in astuple(r)] for r in rows]
    columns = [Column(key) for key in ("agent", "version", "supported", "tested", "modes", "path")]
    cells = []
    for r in rows:
        supported = "yes" if r.supported else (r.problem or "no")
        tested = "yes" if r.tested else f"no (tested: {', '.join(r.tested_versions)})"
        modes = ", ".join(f"{m} (search)" if m in r.search_modes else m for m in r.modes)
        if r.aliases:
            modes += f"; {', '.join(a.replace('=', ' runs ') for a in r.aliases)}"
        cells.append([r.name, r.version or "-", supported, tested if r.version else "-", modes, r.path or "-"])
    title = "Agent CLIs on PATH and in toolsurface's cache"
    view = View(
        [Table(columns, cells, title=title, heading="")],
        data=[asdict(r) for r in rows],
        records=Table(columns_of([f.name for f in fields(InstalledAgent)]), flat),
        ascii=True,
    )
    _show(fmt, view)


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
    "--anatomy",
    is_flag=True,
    help="Also what each client kept of each part of the tools (name, title, description, parameter descriptions,"
    " schema structure, enums, defaults, annotations, output schema, _meta, other): o200k tokens as listed and as"
    " its first request carried them (csv: a row per client and part; with --per-tool, per tool too).",
)
@click.option(
    "--server-name",
    metavar="NAME",
    help="The server's name in each client's config, which goes into every tool's name (mcp__NAME__...)."
    " Default: the server's own name (a live server's, a snapshot's, a surface module's), stub for a bundled surface.",
)
@click.option(
    "--with",
    "beside",
    multiple=True,
    metavar="SURFACE",
    help="Also this server in every client's config, under its own name (a snapshot's server name, a surface's"
    " own name): a surface or a snapshot file; repeat. --mcp-config FILE adds every server of that"
    " configuration, each under its key.",
)
@click.option(
    "--context-window",
    "windows",
    metavar="TOKENS[,TOKENS]",
    help="Run each client that decides by its model's window once per window (Claude Code: the model it gives"
    " that window, e.g. 200000 or 1000000), so claude:auto shows where the surface turns deferred.",
)
@click.option(
    "--one-by-one",
    is_flag=True,
    help="With --with: run each client with none of the neighbours, then the first, the first two, ... up to"
    " all, to show where the surface turns deferred as they come in.",
)
@mcp_config_options(jobs=False, windows=False, keep_going=True)
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
    anatomy: bool,
    server_name: str | None,
    beside: tuple[str, ...],
    windows: str | None,
    one_by_one: bool,
    configured: McpConfigOptions,
    live: LiveServerOptions,
) -> None:
    """What a surface costs in each installed client: one short scripted session per client, version and mode.

    SURFACE... (one at least), or a live server with --url URL or -- CMD ARGS..., listed once and served to
    the clients as its snapshot. With --with (or --mcp-config), the neighbours go into every client's config
    beside it, and each row says what reached the model of each server."""

    from toolsurface.harness.cli._live import given_any, given_surfaces
    from toolsurface.harness.cli._mcp_config import configured_servers, finish_configured
    from toolsurface.harness.clients import clients_view, observe_clients, surface_wires
    from toolsurface.harness.mcp_config import parse_windows
    from toolsurface.harness.session.plan import NeighbourSpec

    given_any(surfaces, live, "SURFACE...")
    context_windows = parse_windows(windows)
    if one_by_one and not beside and not configured.given:
        raise click.UsageError("--one-by-one goes with --with or --mcp-config")
    found = configured_servers(configured, live)
    # Before the sessions: without a server the clients decide shown or deferred over less than the file gives.
    finish_configured(found, configured, "no client would see what that configuration gives it")
    neighbours = [NeighbourSpec(spec) for spec in beside]
    if found is not None:
        neighbours += [NeighbourSpec("", item.name, item.taken) for item in found[1] if item.taken is not None]
    planned = given_surfaces(surfaces, live, None).planned(server_name)
    rows = observe_clients(
        planned,
        named,
        builtins=builtins == "on",
        jobs=jobs,
        timeout=timeout,
        out=out,
        server_name=server_name,
        neighbours=neighbours,
        context_windows=context_windows,
        one_by_one=one_by_one,
    )
    wires = surface_wires(planned) if anatomy else {}
    if anatomy:
        _emit_anatomy(fmt, rows, wires, per_tool)
        return
    _show(fmt, clients_view(rows, per_tool))


def _emit_anatomy(fmt: str, rows: list[ClientRow], wires: dict[str, list[dict[str, Any]]], per_tool: bool) -> None:
    """The clients' rows with what each client kept of each part: JSON and CSV hold it in place of the rows'
    own figures (JSON: each row with its `anatomy`), tables after them."""
    from toolsurface.harness.clients import client_anatomy, clients_anatomy_view

    anatomies = [client_anatomy(row, wires[row.surface]) if row.surface in wires else None for row in rows]
    _show(fmt, clients_anatomy_view(rows, anatomies, per_tool))
