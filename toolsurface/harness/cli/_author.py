"""Writing a stub for one's own product: `new surface` and `check`."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import _out, _say, _server_options, _ServerCommand, main

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.group("new")
def new_group() -> None:
    """Write the starting files of something new."""


@new_group.command("surface")
@click.argument("name")
@click.option("--from", "snapshot", type=click.Path(dir_okay=False, path_type=Path), help="A tools/list snapshot.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def new_surface_command(name: str, snapshot: Path | None, out: Path) -> None:
    """Write a surface module, its handlers (each refusing "not written yet"), a fixture and a scenario."""
    from toolsurface.harness.author import new_surface

    starter = new_surface(name, out, snapshot)
    _out(f"wrote {', '.join(str(p) for p in starter.files)} ({starter.tools} tools, none written yet)")
    _out(f"next: write the handlers, then toolsurface check {starter.surface}")


@new_group.command("queries", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("queries.json"),
    show_default=True,
    help="Where to write it (never over a file that exists).",
)
@_server_options
def new_queries_command(surfaces: tuple[str, ...], output: Path, live: LiveServerOptions) -> None:
    """Write a starter queries file for findability: a query per tool from its name and first sentence, that tool
    expected, each marked a draft to rewrite in your users' words.

    SURFACE... are surface names, modules or snapshot files; or a live server with --url URL or -- CMD ARGS..."""
    from toolsurface.harness.analyze.findability import starter_queries
    from toolsurface.harness.cli._live import _items, given_any, server_args
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.files import write_json_atomic
    from toolsurface.harness.measure import listed

    given_any(surfaces, live, "SURFACE...")
    if output.exists():
        raise ToolsurfaceError(f"{output}: exists; name another file with -o, or remove it")
    items, _ = _items(surfaces, live, None)
    wires = listed(items)
    written = starter_queries([(item.name, wire.tools) for item, wire in zip(items, wires, strict=True)])
    write_json_atomic(output, written)
    count = len(written["queries"])
    _say(
        f"wrote {output} ({count} draft {'query' if count == 1 else 'queries'} for {', '.join(item.name for item in items)}):"
        " rewrite each in your users' words"
    )
    again = shlex.join(["toolsurface", "findability", *surfaces, "--queries", str(output), *server_args(live)])
    _out(f"next: rewrite the queries, then {again}")


@main.command("check")
@click.argument("surface")
def check_command(surface: str) -> None:
    """Report tools without handlers (or not written yet), handlers without tools, unread fixture keys and
    handlers reading parameters their tool does not declare; exit 1 if any."""
    from toolsurface.harness.author import check_surface

    found = check_surface(surface)
    written = found.tools - len(found.tools_without_handlers) - len(found.not_written)
    _out(f"{found.surface} ({found.source}): {found.tools} tools, {written} with a handler written")
    _out(f"tools without handlers: {', '.join(found.tools_without_handlers) or '-'}")
    _out(f"handlers not written yet: {', '.join(found.not_written) or '-'}")
    _out(f"handlers without tools: {', '.join(found.handlers_without_tools) or '-'}")
    _out(f"fixture keys no handler reads: {', '.join(found.unread_fixture_keys) or '-'}")
    if found.undeclared_reads:
        _out(f"handlers reading parameters their tool does not declare: {', '.join(found.undeclared_reads)}")
    if not found.clean:
        raise SystemExit(1)
