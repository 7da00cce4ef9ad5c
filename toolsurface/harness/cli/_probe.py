"""The probe verb: a server's tools called and each answer measured."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    _format_option,
    _protocol_option,
    _server_options,
    _ServerCommand,
    _show,
    main,
)
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._probe_options import (
    ProbeOptions,
    _fail_on_error_answers_option,
    _probe_options,
    _say_error_answers,
    probed,
)

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions


@main.command("probe", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option("--dry-run", is_flag=True, help="Print the calls it would make, with their arguments; call nothing.")
@_probe_options
@_fail_on_error_answers_option
@_format_option(*TABLE_FORMATS)
@_server_options
@_counter_options
@_protocol_option
def probe_command(
    surface: str | None,
    dry_run: bool,
    probing: ProbeOptions,
    fail_on_error_answers: bool,
    fmt: str,
    live: LiveServerOptions,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Call a server's tools and measure each answer: chars and tokens, content kinds, structuredContent and its
    text copy apart, whether it was an error, time.

    Only tools annotated readOnlyHint: true are called, unless a calls file names another. SURFACE is a
    bundled or module surface (its stub is served in memory, on its own fixture); or probe a live server with
    --url URL or -- CMD ARGS... Each call is shown with its arguments; an answer that was an error is left out
    of the answers per tool.
    """
    from toolsurface.harness.probe import probe_view

    if dry_run and fail_on_error_answers:
        raise click.UsageError("--fail-on-error-answers judges the answers; a dry run calls nothing")
    counters = _counters(tokens, count_urls)
    probe = probed(surface, live, probing, counters=counters, protocol=protocol, dry_run=dry_run).probe
    _show(fmt, probe_view(probe))
    _say_error_answers(probe.errors_text, fmt)
    if fail_on_error_answers and probe.error_calls:
        raise SystemExit(1)
