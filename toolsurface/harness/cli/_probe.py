"""The probe verb, and the options every verb that probes shares (snapshot --probe, budget, diff --probe):
the calls file, the bounds of each call, and how many calls run at once."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import (
    TABLE_FORMATS,
    Seconds,
    _emit,
    _format_option,
    _protocol_option,
    _server_options,
    _ServerCommand,
    main,
)
from toolsurface.harness.cli._counters import _counter_options, _counters

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions, TakenSnapshot
    from toolsurface.harness.probe import Probe, ProbeBounds


@dataclass(frozen=True)
class ProbeOptions:
    """`--calls FILE`, `--calls-only` and the bounds, as given."""

    calls: Path | None
    calls_only: bool
    call_timeout: float
    max_answer_bytes: int
    jobs: int
    max_calls: int
    skip_destructive: bool

    @property
    def bounds(self) -> ProbeBounds:
        from toolsurface.harness.probe import ProbeBounds

        return ProbeBounds(self.call_timeout, self.max_answer_bytes, self.jobs, self.max_calls, self.skip_destructive)


def _probe_options(command: Any) -> Any:
    """--calls, --calls-only, --call-timeout, --max-answer-bytes, --jobs, --max-calls and --skip-destructive, given
    to the command as `probing`."""
    from toolsurface.harness.probe import DEFAULT_CALL_TIMEOUT_S, DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_CALLS

    @functools.wraps(command)
    def with_probe(
        *args: Any,
        calls: Path | None,
        calls_only: bool,
        call_timeout: float,
        max_answer_bytes: int,
        jobs: int,
        max_calls: int,
        skip_destructive: bool,
        **kwargs: Any,
    ) -> Any:
        if calls_only and calls is None:
            raise click.UsageError("--calls-only goes with --calls FILE")
        probing = ProbeOptions(calls, calls_only, call_timeout, max_answer_bytes, jobs, max_calls, skip_destructive)
        return command(*args, probing=probing, **kwargs)

    options = [
        click.option(
            "--calls",
            type=click.Path(dir_okay=False, path_type=Path),
            metavar="FILE",
            help="A calls file: tools to call (any tool it names, read-only or not), their arguments and how many"
            " times (default: a bundled surface's own calls; else the read-only tools, arguments from their schema).",
        ),
        click.option("--calls-only", is_flag=True, help="Call only what the calls file names."),
        click.option(
            "--call-timeout",
            type=Seconds(min=0, min_open=True),
            default=DEFAULT_CALL_TIMEOUT_S,
            show_default=True,
            help="Seconds each call has to be answered.",
        ),
        click.option(
            "--max-answer-bytes",
            type=click.IntRange(min=1),
            default=DEFAULT_MAX_ANSWER_BYTES,
            show_default=True,
            help="The most bytes one answer may have.",
        ),
        click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Calls at a time."),
        click.option(
            "--max-calls",
            type=click.IntRange(min=1),
            default=DEFAULT_MAX_CALLS,
            show_default=True,
            help="The most calls in all (a calls file's times add up): a plan of more is refused before any call.",
        ),
        click.option(
            "--skip-destructive",
            is_flag=True,
            help="Leave out every tool whose hints say it may destroy: destructiveHint true (even beside readOnlyHint"
            " true), or not read-only without destructiveHint false.",
        ),
    ]
    for option in reversed(options):
        with_probe = option(with_probe)
    return with_probe


def _fail_on_error_answers_option(command: Any) -> Any:
    return click.option(
        "--fail-on-error-answers",
        is_flag=True,
        help="Exit 1 when a call answered an error (isError, or a JSON-RPC error): its answer measures nothing.",
    )(command)


def _say_error_answers(text: str | None, fmt: str) -> None:
    """The calls that answered errors, on stderr beside data (JSON, CSV) that holds them only as fields."""
    if text is not None and fmt in ("json", "csv"):
        from toolsurface.harness.cli._base import _say

        _say(f"toolsurface: {text}")


def _probe_flags(ctx: click.Context, probing: bool, needs: str) -> None:
    """The probe's options go with what makes the command probe (`needs` names it)."""
    if probing:
        return
    for name, flag in (("calls", "--calls"), ("calls_only", "--calls-only"), ("call_timeout", "--call-timeout"),
                       ("max_answer_bytes", "--max-answer-bytes"), ("jobs", "--jobs"), ("max_calls", "--max-calls"),
                       ("skip_destructive", "--skip-destructive")):  # fmt: skip
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(f"{flag} goes with {needs}")


def _calls_file(probing: ProbeOptions, surface: str | None) -> Any:
    """The calls file given, else a bundled surface's own (its study's calls for it), else none."""
    from toolsurface.harness.probe import load_calls

    if probing.calls is not None:
        return load_calls(probing.calls)
    if surface is not None:
        from toolsurface.harness.surface import study_calls

        own = study_calls(surface)
        if own is not None:
            return load_calls(own)
    return None


def probed(
    surface: str | None,
    live: LiveServerOptions,
    probing: ProbeOptions,
    *,
    counters: list[Any] | None = None,
    protocol: str | None = None,
    dry_run: bool = False,
) -> tuple[Probe, TakenSnapshot | None]:
    """A surface probed in memory, or the live server the options name listed and probed on one connection
    (with its snapshot, the answers in it)."""
    from toolsurface.harness.live import live_target, skip_final_collection, snapshot_live
    from toolsurface.harness.live import parse_capabilities as capabilities_of

    server = live_target(surface, live)
    calls = _calls_file(probing, surface)
    if server is None:
        from toolsurface.harness.probe import probe_surface
        from toolsurface.harness.surface import resolve

        assert surface is not None
        probe = probe_surface(
            resolve(surface),
            calls,
            calls_only=probing.calls_only,
            dry_run=dry_run,
            counters=counters or [],
            bounds=probing.bounds,
            protocol=protocol,
        )
        return probe, None
    from dataclasses import replace

    from toolsurface.harness.probe import probe_live

    done = probe_live(
        server,
        calls,
        calls_only=probing.calls_only,
        dry_run=dry_run,
        counters=counters or [],
        bounds=probing.bounds,
        capabilities=capabilities_of(live.capabilities),
        timeout=live.timeout,
        protocol=protocol,
    )
    skip_final_collection()
    taken = snapshot_live(done.listing)
    return done.probe, replace(taken, answers=None if dry_run else done.probe.answers())


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
    from toolsurface.harness.probe import probe_csv, probe_json, probe_markdown, probe_rich

    if dry_run and fail_on_error_answers:
        raise click.UsageError("--fail-on-error-answers judges the answers; a dry run calls nothing")
    counters = _counters(tokens, count_urls)
    probe, _ = probed(surface, live, probing, counters=counters, protocol=protocol, dry_run=dry_run)
    _emit(fmt, probe, {"table": probe_rich, "json": probe_json, "csv": probe_csv, "markdown": probe_markdown})
    _say_error_answers(probe.errors_text, fmt)
    if fail_on_error_answers and probe.error_calls:
        raise SystemExit(1)
