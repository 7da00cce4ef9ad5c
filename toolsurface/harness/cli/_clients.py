"""The agent CLIs installed here and what a surface costs in each: agents, clients."""

from __future__ import annotations

import os
from pathlib import Path

import click

from toolsurface.harness.cli._base import Seconds, _builtins_option, _data, _emit, _print, main


@main.command("agents")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def agents_command(fmt: str) -> None:
    """List each agent CLI on PATH: its version, whether it is supported and tested, its modes."""
    import json
    from dataclasses import asdict

    from toolsurface.harness.agents._installed import installed_agents

    rows = installed_agents(os.environ)
    if fmt == "json":
        _data(json.dumps([asdict(r) for r in rows], indent=2) + "\n", nl=False)
        return
    from rich.table import Table

    table = Table(title="Agent CLIs on PATH")
    for column in ("agent", "version", "supported", "tested", "modes", "path"):
        table.add_column(column)
    for r in rows:
        supported = "yes" if r.supported else (r.problem or "no")
        tested = "yes" if r.tested else f"no (tested: {', '.join(r.tested_versions)})"
        modes = ", ".join(f"{m} (search)" if m in r.search_modes else m for m in r.modes)
        table.add_row(r.name, r.version or "-", supported, tested if r.version else "-", modes, r.path or "-")
    _print([table])


@main.command("clients")
@click.argument("surfaces", nargs=-1, required=True)
@click.option(
    "--client",
    "named",
    multiple=True,
    metavar="NAME[:MODE]",
    help="Only this client (claude, codex, gemini), in every mode or in MODE; repeat. Default: every one on PATH,"
    " a missing one as a row that says so.",
)
@_builtins_option
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json", "csv", "markdown"]), default="table", show_default=True
)
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Sessions at a time.")
@click.option("--timeout", type=Seconds(min=1), default=120, show_default=True, help="Seconds per session.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Keep each session's folder here.")
def clients_command(
    surfaces: tuple[str, ...],
    named: tuple[str, ...],
    builtins: str,
    fmt: str,
    jobs: int,
    timeout: float,
    out: Path | None,
) -> None:
    """What a surface costs in each installed client: one short scripted session per client, version and mode."""
    from toolsurface.harness.clients import clients_csv, clients_json, clients_markdown, clients_rich, observe_clients

    rows = observe_clients(surfaces, named, builtins=builtins == "on", jobs=jobs, timeout=timeout, out=out)
    if fmt == "markdown":
        _data(clients_markdown(rows), nl=False)
    else:
        _emit(fmt, rows, clients_rich, clients_json, clients_csv)
