"""Serving a stub and listing any server: serve, snapshot."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli._base import (
    _data,
    _say,
    _server_options,
    _ServerCommand,
    main,
)


@main.command("serve")
@click.argument("surface")
@click.option(
    "--fixture", type=click.Path(dir_okay=False, path_type=Path), help="Project fixture (default: the surface's own)."
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), help="Append a JSONL record per call."
)
@click.option(
    "--state", type=click.Path(dir_okay=False, path_type=Path), help="Write the final project state here on shutdown."
)
@click.option("--http", "http", metavar="HOST:PORT", help="Serve streamable HTTP on loopback instead of stdio.")
@click.option("--page-size", type=click.IntRange(min=1), help="Tools per tools/list page (default: all in one).")
@click.option(
    "--unknown-tool",
    type=click.Choice(["result", "error"]),
    default="result",
    show_default=True,
    help="Answer a call of a tool the surface lacks with an isError result naming the tools, or with the"
    " JSON-RPC error -32602 the specification lists.",
)
def serve_command(
    surface: str,
    fixture: Path | None,
    log_path: Path | None,
    state: Path | None,
    http: str | None,
    page_size: int | None,
    unknown_tool: str,
) -> None:
    """Serve a surface from a fixed project over stdio (or HTTP), refusing like the real server, logging every call."""
    from stubs.serve import serve

    serve(
        surface,
        fixture=fixture,
        log_path=log_path,
        state_path=state,
        http=http,
        page_size=page_size,
        unknown_tool=unknown_tool,
    )


@main.command("snapshot", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the tools here (a .json file, then a surface everywhere) and FILE.meta.json beside it.",
)
@_server_options
@click.pass_context
def snapshot_command(
    ctx: click.Context,
    surface: str | None,
    output: Path | None,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
) -> None:
    """Record a tool list exactly as a client receives it: {"tools": [...]} (stdout, or -o FILE with a sidecar).

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...
    (the command is started in its own process group, which is ended afterwards, whatever happens).
    """
    from harness.live import live_target, skip_final_collection, take_snapshot

    server = live_target(surface, ctx.meta.get("server_argv"), url, headers, envs, cwd, capabilities)
    taken = take_snapshot(surface, server, capabilities=capabilities, timeout=timeout)
    skip_final_collection()
    noise = taken.meta.stdout_noise or []
    if noise:
        _say(f"toolsurface: warning: the server wrote lines to stdout that are not JSON-RPC: {noise[0]!r}")
    if output is None:
        _data(taken.text(), nl=False)
        return
    written = taken.write(output)
    _say(f"wrote {', '.join(str(p) for p in written)} ({len(taken.tools)} tools)")
