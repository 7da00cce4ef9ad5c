"""Writing the starting files of one's own product: `new surface` (a stub) and `check`, `new queries` and
`new calls` (starters for findability and probe)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import _out, _say, _server_options, _ServerCommand, main
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options
from toolsurface.harness.output import counted

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.group("new")
def new_group() -> None:
    """Write the starting files of something new."""


@new_group.command("surface")
@click.argument("name")
@click.option("--from", "snapshot", type=click.Path(dir_okay=False, path_type=Path), help="A tools/list snapshot.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder to write the four files into (never over a file that exists).",
)
def new_surface_command(name: str, snapshot: Path | None, out: Path) -> None:
    """Write a surface module, its handlers (each refusing "not written yet"), a fixture and a scenario.

    NAME is the new surface's name (lower-case letters, digits, - and _): the files are NAME.py, NAME_handlers.py,
    NAME.fixture.json and NAME.scenario.json."""
    from toolsurface.harness.author import new_surface

    starter = new_surface(name, out, snapshot)
    _out(f"wrote {', '.join(str(p) for p in starter.files)} ({starter.tools} tools, none written yet)")
    _out(f"next: write the handlers, then toolsurface check {starter.surface}")


def _starter_output(default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=Path(default),
        show_default=True,
        help="Where to write it (never over a file that exists).",
    )


def _starter_listing(
    surfaces: Sequence[str], output: Path, live: LiveServerOptions, configured: McpConfigOptions | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The name and tools of each surface (then the live server, then a client configuration's servers) a
    starter file is written for, once `output` is known not to exist."""
    from toolsurface.harness.cli._live import _items, given_any
    from toolsurface.harness.cli._mcp_config import configured_servers
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.measure import listed

    if configured is None or not configured.given:
        given_any(surfaces, live, "SURFACE...")
    if output.exists():
        raise ToolsurfaceError(f"{output}: exists; name another file with -o, or remove it")
    items, _ = _items(surfaces, live, None)
    found = configured_servers(configured, live) if configured is not None else None
    if found is not None:
        items += [item.taken.as_snapshot() for item in found[1] if item.taken is not None]
    return [(item.name, wire.tools) for item, wire in zip(items, listed(items), strict=True)]


def _next(
    verb: str,
    surfaces: Sequence[str],
    option: str,
    output: Path,
    live: LiveServerOptions,
    configured: McpConfigOptions | None = None,
) -> str:
    """The command to run next, as it runs: the surfaces, the file, the configuration, then the live server."""
    from toolsurface.harness.cli._live import server_args

    mcp = ["--mcp-config", str(configured.path)] if configured is not None and configured.path is not None else []
    return shlex.join(["toolsurface", verb, *surfaces, option, str(output), *mcp, *server_args(live)])


@new_group.command("queries", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@_starter_output("queries.json")
@_server_options
@mcp_config_options(windows=False)
def new_queries_command(
    surfaces: tuple[str, ...], output: Path, live: LiveServerOptions, configured: McpConfigOptions
) -> None:
    """Write a starter queries file for findability: a query per tool from its name and first sentence, that tool
    expected, each marked a draft to rewrite in your users' words.

    SURFACE... are surface names, modules or snapshot files; or a live server with --url URL or -- CMD ARGS..."""
    from toolsurface.harness.analyze.findability import starter_queries
    from toolsurface.harness.files import write_json_atomic

    listed = _starter_listing(surfaces, output, live, configured)
    written = starter_queries(listed)
    write_json_atomic(output, written)
    names = ", ".join(name for name, _ in listed)
    _say(
        f"wrote {output} ({counted(len(written['queries']), 'draft query', 'draft queries')} for {names}):"
        " rewrite each in your users' words"
    )
    _out(f"next: rewrite the queries, then {_next('findability', surfaces, '--queries', output, live, configured)}")


@new_group.command("calls", cls=_ServerCommand)
@click.argument("surface", required=False)
@_starter_output("calls.json")
@_server_options
def new_calls_command(surface: str | None, output: Path, live: LiveServerOptions) -> None:
    """Write a starter calls file for probe and budget: a call of every read-only tool with the arguments made
    from its schema, each marked a draft to give the arguments your users' calls would have.

    SURFACE is a surface name, module or snapshot file; or a live server with --url URL or -- CMD ARGS..."""
    from toolsurface.harness.files import write_json_atomic
    from toolsurface.harness.probe import starter_calls

    surfaces = [surface] if surface else []
    [(name, tools)] = _starter_listing(surfaces, output, live)[-1:]
    starter = starter_calls(name, tools)
    write_json_atomic(output, starter)
    calls = starter["calls"]
    unmade = sum(1 for c in calls if c.get("times") == 0)
    left = f"; {unmade} with no arguments made (times 0 until you write them)" if unmade else ""
    _say(f"wrote {output} ({counted(len(calls), 'draft call')} of the read-only tools of {name}{left})")
    _out(f"next: give each call real arguments, then {_next('probe', surfaces, '--calls', output, live)}")


@new_group.command("mapping")
@click.argument("old")
@click.argument("new")
@_starter_output("mapping.json")
def new_mapping_command(old: str, new: str, output: Path) -> None:
    """Write a starter mapping for session replay --mapping: each of OLD's tools to the tool of NEW it likely
    became (the same name, or one of the same verb with its noun as an argument: memory_store to item_store with
    kind memory), null where none was found, with the arguments NEW's tool does not take to rename.

    OLD and NEW are surface names, modules or snapshot files."""
    from toolsurface.harness.files import write_json_atomic
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.session.replay import starter_mapping

    (old_name, old_tools), (new_name, new_tools) = _starter_listing([old, new], output, LiveServerOptions())
    written = starter_mapping(old_name, old_tools, new_name, new_tools)
    write_json_atomic(output, written)
    tools = written["tools"]
    unmapped = sum(1 for entry in tools.values() if entry["tool"] is None)
    renames = sum(1 for entry in tools.values() for target in entry["rename"].values() if target is None)
    left = [
        *([counted(unmapped, "tool") + " with no counterpart found (tool null)"] if unmapped else []),
        *([counted(renames, "argument") + " to rename (null drops it)"] if renames else []),
    ]
    _say(
        f"wrote {output} ({counted(len(tools), 'tool')} of {old_name} mapped to {new_name}{': ' if left else ''}{'; '.join(left)})"
    )
    _out(f"next: check each entry, then toolsurface session replay STUDY --surface {new} --mapping {output}")


@main.command("check")
@click.argument("surface")
def check_command(surface: str) -> None:
    """Report tools without handlers (or not written yet), handlers without tools, unread fixture keys and
    handlers reading parameters their tool does not declare; exit 1 if any.

    SURFACE is a surface's name or its module file (new surface writes one)."""
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
