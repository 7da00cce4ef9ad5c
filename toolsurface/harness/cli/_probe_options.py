"""The options every verb that probes shares (probe, snapshot --probe, budget, diff --probe): the calls file,
the bounds of each call, and how many calls run at once; and the probe they ask for, made by the library."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import Seconds

if TYPE_CHECKING:
    from toolsurface.harness.budget import AnswerBudget
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.probe import ProbeBounds, ProbedSource


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

    def answering(self, probe: bool, max_tokens: int | None, fail_on_errors: bool) -> AnswerBudget:
        """The answer check these options and the command's flags ask for."""
        from toolsurface.harness.budget import AnswerBudget

        return AnswerBudget(probe, max_tokens, fail_on_errors, self.calls, self.calls_only, self.bounds)


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


def probed(
    surface: str | None,
    live: LiveServerOptions,
    probing: ProbeOptions,
    *,
    counters: list[Any] | None = None,
    protocol: str | None = None,
    dry_run: bool = False,
) -> ProbedSource:
    """SURFACE, or the live server the options name, probed as the options say (harness.probe.probe_source)."""
    from toolsurface.harness.live import live_target, parse_capabilities
    from toolsurface.harness.probe import probe_source

    return probe_source(
        surface,
        live_target(surface, live),
        calls=probing.calls,
        calls_only=probing.calls_only,
        bounds=probing.bounds,
        capabilities=parse_capabilities(live.capabilities),
        timeout=live.timeout,
        counters=counters or [],
        protocol=protocol,
        dry_run=dry_run,
    )
