"""Setting a server project up for CI: init."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import _out, _protocol_option, _server_options, _ServerCommand, main
from toolsurface.harness.output import counted

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.command("init", cls=_ServerCommand)
@click.option("--dry-run", is_flag=True, help="Print what would be written, and write nothing.")
@click.option(
    "--margin",
    type=click.FloatRange(min=0, max=1000),
    default=10.0,
    show_default=True,
    metavar="PERCENT",
    help="The budget: the list's size now, plus this much (written as ratchet-margin, which budget --update keeps).",
)
@click.option(
    "--action",
    metavar="OWNER/REPO@REF",
    help="The Action the workflow uses: where toolsurface is published, pinned to a tag or a commit.",
)
@_server_options
@_protocol_option
def init_command(
    dry_run: bool, margin: float, action: str | None, live: LiveServerOptions, protocol: str | None
) -> None:
    """Set this server project up for CI: list the server once, then write its configuration and budget, its
    snapshot, starter queries and calls, and a GitHub workflow. Nothing is written over.

    The server is named with -- CMD ARGS... (run from this folder) or --url URL."""
    from toolsurface.harness.cli._live import _listed, server_args
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.init import DEFAULT_ACTION, ServerEntry, plan_init, server_command, write_init
    from toolsurface.harness.live import parse_env, parse_header

    if not live.names_a_server:
        raise ToolsurfaceError("give the server: toolsurface init -- CMD ARGS... (or --url URL)")

    taken = _listed(live, protocol)
    assert taken is not None
    server = ServerEntry(
        name=taken.name,
        command=live.argv,
        env=dict(parse_env(e) for e in live.envs),
        url=live.url,
        headers=[parse_header(h)[0] for h in live.headers],
        transport=taken.meta.source.get("transport"),
        args=tuple(server_args(live)),
    )
    plan = plan_init(Path.cwd(), taken, server, margin=margin, action=action or DEFAULT_ACTION)
    shown = taken.server or taken.name
    _out(
        f"{taken.name} ({shown}): {counted(plan.tools, 'tool')}, {plan.chars:,} chars, {plan.tokens:,} o200k_base tokens"
    )
    verb = "would write" if dry_run else "wrote"
    if not dry_run:
        write_init(plan)
    for planned in plan.all_files:
        _out(f"{verb} {planned.path}{' (adding to it)' if planned.adds else ''}: {planned.what}")
    if dry_run:
        _out(f"\nthe configuration ({plan.config.path}):")
        added = plan.config.text.partition("[tool.toolsurface]\n") if plan.config.adds else ("", "", plan.config.text)
        _out(("[tool.toolsurface]\n" if plan.config.adds else "") + added[2].rstrip("\n"))
        return
    again = server_command(server)
    steps = [
        f"toolsurface budget  (passes now: {plan.chars:,} of {plan.max_chars:,} chars; --update lowers the budget to"
        f" the list's size + {plan.margin:g} % as the list shrinks)",
        f"rewrite the {plan.queries} draft queries in .toolsurface/queries.json in your users' words, then"
        f" toolsurface findability --queries .toolsurface/queries.json --fail-below-rank 1 {again}",
        f"give the {plan.calls} draft calls in .toolsurface/calls.json real arguments, then toolsurface probe --calls"
        f" .toolsurface/calls.json {again}; add max-answer-tokens = N to the configuration to hold the answers too",
    ]
    if action is None:
        steps.append(
            "set the workflow's `uses: OWNER/toolsurface@main` to where toolsurface's Action is published (or run"
            " init with --action OWNER/REPO@REF), then commit the files"
        )
    else:
        steps.append("commit the files")
    _out("next:")
    for n, step in enumerate(steps, 1):
        _out(f"  {n}. {step}")
