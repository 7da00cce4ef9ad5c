"""The serve verb: a surface's stub over stdio or HTTP."""

from __future__ import annotations

from pathlib import Path

import click

from toolsurface.harness.cli._base import end_at_once, main


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
@click.option(
    "--errors",
    "errors_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also append the line saying why the stub stopped (or wrote no state) to this file, for a client that"
    " keeps no server's stderr.",
)
@click.option(
    "--surface-sha256",
    "sha256",
    metavar="HEX",
    help="Serve only the surface whose tools list to this digest (a planned run's); refuse one that builds otherwise.",
)
def serve_command(
    surface: str,
    fixture: Path | None,
    log_path: Path | None,
    state: Path | None,
    http: str | None,
    page_size: int | None,
    unknown_tool: str,
    errors_path: Path | None,
    sha256: str | None,
) -> None:
    """Serve a surface from a fixed project over stdio (or HTTP), refusing like the real server, logging every call.

    SURFACE is a surface's name, its module, or a snapshot file (served for listing: its calls are refused)."""
    end_at_once()  # once the state is written, a stopped stub has nothing left to do
    from toolsurface.stubs.serve import serve

    serve(
        surface,
        fixture=fixture,
        log_path=log_path,
        state_path=state,
        http=http,
        page_size=page_size,
        unknown_tool=unknown_tool,
        errors_path=errors_path,
        sha256=sha256,
    )
