"""The budget verb: the request its options make (harness.budget), checked by the library, and the outcome said."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolsurface.harness.cli._base import _data, _github, _out, _say, _ServerCommand, main
from toolsurface.harness.cli._budget_options import (
    _check_reason,
    _configured,
    _has_config,
    _one_list,
    _refuse_beside_mcp_config,
    _refuse_ratchet_flags,
    budget_options,
)
from toolsurface.harness.cli._counters import _counters
from toolsurface.harness.cli._probe_options import ProbeOptions, _probe_flags, _say_error_answers
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.budget import BudgetOutcome, CheckedList, ConfigBudget
    from toolsurface.harness.cli._mcp_config import McpConfigOptions
    from toolsurface.harness.live import LiveServerOptions


@main.command("budget", cls=_ServerCommand)
@click.argument("surface", required=False)
@budget_options
@click.pass_context
def budget_command(
    ctx: click.Context,
    surface: str | None,
    max_chars: int | None,
    max_tokens: int | None,
    max_answer_tokens: int | None,
    probe: bool,
    probing: ProbeOptions,
    fail_on_error_answers: bool,
    fmt: str,
    include: str | None,
    config_path: Path | None,
    target_names: tuple[str, ...],
    update: bool,
    raise_: bool,
    reason: str | None,
    max_server_chars: int | None,
    max_server_tokens: int | None,
    live: LiveServerOptions,
    configured: McpConfigOptions,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured.

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...;
    with none of them, every target configured in [tool.toolsurface] (pyproject.toml) or toolsurface.toml.
    With --mcp-config FILE, the servers of a client's configuration: all together (--max-chars, --max-tokens)
    and each one (--max-server-chars, --max-server-tokens).
    """
    answers = probing.answering(probe, max_answer_tokens, fail_on_error_answers)
    from toolsurface.harness.budget import (
        BudgetLimits,
        BudgetRequest,
        ClientConfiguration,
        OneList,
        RatchetRequest,
        run_budget,
    )
    from toolsurface.harness.surface import parse_include

    if configured.given or max_server_chars is not None or max_server_tokens is not None:
        _refuse_beside_mcp_config(configured, surface, live, update, raise_, target_names, answers.probes)
        counted = parse_include(include) if include is not None else ()
        limits = BudgetLimits(max_chars, max_tokens, max_server_chars, max_server_tokens)
        counters = _counters(tokens, count_urls)
        held = ClientConfiguration(configured.listing(live, protocol), configured.keep_going)
        outcome = run_budget(BudgetRequest(held, live, limits, counted, counters=counters, protocol=protocol))
        _show_config_budget(outcome.configurations[0], fmt)
        return _finish(outcome)
    _probe_flags(ctx, answers.probes, "--probe, --max-answer-tokens or --fail-on-error-answers")
    try:
        from toolsurface.harness.live import skip_final_collection

        parts = parse_include(include) if include is not None else None
        request = BudgetRequest(
            OneList(), live, BudgetLimits(max_chars, max_tokens), parts, answers, protocol=protocol,
            on_listed=skip_final_collection,
        )  # fmt: skip
        if surface is not None or live.names_a_server or (config_path is None and not _has_config()):
            _refuse_ratchet_flags(config_path, target_names, update, raise_, reason)
            counters = _counters(tokens, count_urls)
            request = replace(request, targets=_one_list(surface, live, request), counters=counters)
        else:
            _check_reason(update, raise_, reason)
            targets = _configured(config_path, target_names, update or raise_, request, tokens, count_urls)
            moves = RatchetRequest(reason, raise_) if reason is not None else None
            request = replace(request, targets=targets, ratchet=moves)
        outcome = run_budget(request)
    except ToolsurfaceError as error:
        if fmt == "github":
            from toolsurface.harness.output import github_line

            _out(github_line("error", "Tool list budget", f"cannot measure: {error}"))
        raise
    _show_results(outcome.lists, fmt)
    if outcome.configurations_left_out:
        _say("toolsurface: --update and --raise move one list's budget; a configuration's is set in the file")
    for checked in outcome.configurations:
        shown_as = "text" if fmt in ("csv", "junit") else fmt
        _show_config_budget(checked, shown_as, to_stderr=fmt in ("csv", "junit", "json"))
    if outcome.ratchet is not None:
        _show_ratchet(outcome, fmt)
    _finish(outcome)


def _finish(outcome: BudgetOutcome) -> None:
    """The error that stopped the check after what it found was said (exit 2), else exit 1 when over."""
    if outcome.error is not None:
        raise outcome.error
    if outcome.exit_code:
        raise SystemExit(outcome.exit_code)


def _show_results(results: Sequence[CheckedList], fmt: str) -> None:
    """Each list's result in the format asked for, then (beside JSON or CSV) the calls that answered errors."""
    pairs = [(item.result, item.source) for item in results]
    if fmt == "github":
        from toolsurface.harness.measure import github_annotation, github_summary

        for result, source in pairs:
            _github([github_annotation(result)], github_summary(result, source))
    elif fmt in ("json", "csv", "markdown", "junit"):
        from toolsurface.harness.measure import budget_csv, budget_json, budget_junit, budget_markdown

        renderers = {"json": budget_json, "csv": budget_csv, "markdown": budget_markdown}
        _data(renderers[fmt](pairs) if fmt in renderers else budget_junit([r for r, _ in pairs]), nl=False)
    else:
        from toolsurface.harness.measure import budget_lines

        for result, _ in pairs:
            for line in budget_lines(result):
                _out(line)
    for result, _ in pairs:
        said = result.answers.errors_text if result.answers is not None else None
        _say_error_answers(f"{result.surface}: {said}" if said else None, fmt)


def _show_config_budget(checked: ConfigBudget, fmt: str, *, to_stderr: bool = False) -> None:
    """A configuration's budget said in `fmt` (`to_stderr`: its lines on stderr, beside another format's output on
    stdout)."""
    if fmt == "json" and to_stderr:
        for line in checked.lines():
            _say(line)
    elif fmt == "json":
        from toolsurface.harness.output import json_document

        _data(json_document({"format": "toolsurface-config-budget/1", **checked.to_json()}), nl=False)
    elif fmt == "github":
        from toolsurface.harness.mcp_config import totals_markdown
        from toolsurface.harness.output import github_line

        _github(
            [github_line("notice" if checked.within else "error", "MCP configuration budget", checked.lines()[-1])],
            totals_markdown(checked.totals),
        )
    elif fmt in ("text", "markdown"):
        for line in checked.lines():
            (_say if to_stderr else _out)(line)
    else:
        raise click.UsageError(f"--format {fmt}: a configuration's budget is text, json, markdown or github")


def _show_ratchet(outcome: BudgetOutcome, fmt: str) -> None:
    """What the ratchet kept, refused or moved (the budgets moved in the configuration, and logged)."""
    from toolsurface.harness.config import shown_path

    say = _out if fmt == "text" else _say
    moved, config = outcome.ratchet, outcome.config
    assert moved is not None and config is not None
    for kept in moved.unchanged:
        say(kept.describe())
    if moved.refused:
        over = "; ".join(f"{item.target.name} is over its budget" for item in moved.refused)
        _say(
            f"toolsurface: nothing changed: {over}; raising a budget is a decision: shorten other text first,"
            " or pass --raise --reason TEXT"
        )
    for step in moved.steps:
        say(f"{step.describe()} in {shown_path(config.path)}; logged in {shown_path(config.log_path)}")
