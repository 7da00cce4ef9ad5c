"""Setting a server project up for CI: init, and init --check."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import _out, _protocol_option, _say, _server_options, _ServerCommand, main
from toolsurface.harness.output import counted

if TYPE_CHECKING:
    from toolsurface.harness.init import InitPlan
    from toolsurface.harness.live import LiveServerOptions


@main.command("init", cls=_ServerCommand)
@click.option("--dry-run", is_flag=True, help="Print what would be written, and write nothing.")
@click.option(
    "--check",
    is_flag=True,
    help="Start each configured command as CI will: in a copy of the project with a fresh virtual environment and"
    " only what the workflow installs; exit 1 when one does not start. Alone, it checks what init wrote before.",
)
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
    help="The Action the workflow uses: where toolsurface is published, pinned to a commit (it has no release tag"
    " yet).",
)
@_server_options
@_protocol_option
def init_command(
    dry_run: bool, check: bool, margin: float, action: str | None, live: LiveServerOptions, protocol: str | None
) -> None:
    """Set this server project up for CI: list the server once, then write its configuration and budget, its
    snapshot, starter queries and calls, and a GitHub workflow. Nothing is written over; the workflow installs
    what the server needs, and --check starts it as CI will.

    The server is named with -- CMD ARGS... (run from this folder) or --url URL."""
    from toolsurface.harness.cli._live import _listed, server_args
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.init import DEFAULT_ACTION, ServerEntry, plan_init, write_init
    from toolsurface.harness.live import parse_env, parse_header

    if check and dry_run:
        raise click.UsageError("--check starts what init wrote; --dry-run writes nothing: give one of them")
    if check and not live.names_a_server:
        _check(live.timeout)
        return
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
        cwd=live.cwd,
    )
    plan = plan_init(Path.cwd(), taken, server, margin=margin, action=action or DEFAULT_ACTION)
    shown = taken.server or taken.name
    budget = plan.budget
    _out(
        f"{taken.name} ({shown}): {counted(plan.tools, 'tool')}, {budget.chars:,} chars, {budget.tokens:,}"
        " o200k_base tokens"
    )
    verb = "would write" if dry_run else "wrote"
    if not dry_run:
        write_init(plan)
    for planned in plan.all_files:
        _out(f"{verb} {planned.path}{' (adding to it)' if planned.adds else ''}: {planned.what}")
    for line in plan.ci_lines():
        _out(line)
    if dry_run:
        _out(f"\nthe configuration ({plan.config.path}):")
        _out("\n".join((["[tool.toolsurface]"] if plan.config.adds else []) + list(plan.table)))
        return
    _next_steps(plan, action is None, checked=check)
    if check:
        _check(live.timeout)


def _next_steps(plan: InitPlan, placeholder: bool, *, checked: bool) -> None:
    from toolsurface.harness.init import server_command

    again = server_command(plan.server)
    budget = plan.budget
    steps = [
        f"toolsurface budget  (passes now: {budget.chars:,} of {budget.max_chars:,} chars; --update lowers the budget"
        f" to the list's size + {budget.margin:g} % as the list shrinks)",
        f"rewrite the {counted(plan.queries, 'draft query', 'draft queries')} in .toolsurface/queries.json in your"
        f" users' words, then toolsurface findability --queries .toolsurface/queries.json --fail-below-rank 1 {again}",
        f"give the {counted(plan.calls, 'draft call')} in .toolsurface/calls.json real arguments, then toolsurface"
        f" probe --calls .toolsurface/calls.json {again}; add max-answer-tokens = N to the configuration to hold the"
        " answers too",
    ]
    if not checked and plan.command is not None:
        steps.append(
            "toolsurface init --check: the server started as CI will start it (a fresh environment, only what the"
            " workflow installs)"
        )
    if placeholder:
        steps.append(
            "set the workflow's `uses: OWNER/toolsurface@main` to where toolsurface's Action is published, pinned to"
            " a commit (or run init with --action OWNER/REPO@REF), then commit the files"
        )
    else:
        steps.append("commit the files")
    _out("next:")
    for n, step in enumerate(steps, 1):
        _out(f"  {n}. {step}")


def _check(timeout: float) -> None:
    """The configured commands started as CI will start them; exit 1 when one does not."""
    from toolsurface.harness.config import read_config
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.init import WORKFLOW, check_clean_start

    config = read_config()
    if config is None:
        raise ToolsurfaceError(
            "no configuration here (toolsurface.toml, or [tool.toolsurface] in pyproject.toml): run toolsurface init"
            " -- CMD ARGS... first"
        )
    outcome = check_clean_start(
        config, config.root / WORKFLOW, timeout=timeout, on_step=lambda step: _say(f"toolsurface: running {step}")
    )
    for line in outcome.lines():
        _out(line)
    if not outcome.started:
        raise SystemExit(1)
