"""The budget verb: a list against its budget (given, or each configured target's), and the ratchet."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import (
    CHECK_FORMATS,
    _config_option,
    _data,
    _format_option,
    _github,
    _out,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    main,
)
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options
from toolsurface.harness.cli._probe_options import (
    ProbeOptions,
    _fail_on_error_answers_option,
    _probe_flags,
    _probe_options,
    _say_error_answers,
)
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.budget_check import AnswerBudget, CheckedList, ListBudget
    from toolsurface.harness.config import CheckedTarget, Config
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.mcp_config import ConfigBudget
    from toolsurface.harness.measure import ListCounter


@main.command("budget", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option(
    "--max-chars", type=click.IntRange(min=0), help="Largest list size allowed (default: the configured one)."
)
@click.option(
    "--max-tokens",
    type=click.IntRange(min=0),
    help="Largest token count allowed (o200k_base, or the first counter of --tokens).",
)
@click.option(
    "--max-answer-tokens",
    type=click.IntRange(min=1),
    metavar="N",
    help="Probe the tools (read-only ones, or what --calls names) and fail when an answer is over N tokens"
    " (o200k_base, or the first counter of --tokens), naming the tool and the call.",
)
@click.option(
    "--probe",
    is_flag=True,
    help="Probe the tools' answers and hold them to each client's own cap (Claude Code's MAX_MCP_OUTPUT_TOKENS"
    " default), warning where a client warns.",
)
@_probe_options
@_fail_on_error_answers_option
@_format_option(
    "text",
    "json",
    "csv",
    "markdown",
    *CHECK_FORMATS,
    default="text",
    help="json, csv: a result per list; markdown: the summary github appends; github: annotations, and a summary"
    " table appended to $GITHUB_STEP_SUMMARY (else printed); junit: JUnit XML, a test case per list.",
)
@click.option(
    "--include",
    metavar="PARTS",
    help="Count these parts beside the tools: instructions,prompts,resources,skills (resources with their"
    " templates; skills by their frontmatter as listed; default: the tools alone, or the configured include).",
)
@_config_option
@click.option("--target", "target_names", multiple=True, metavar="NAME", help="Only this configured target; repeat.")
@click.option(
    "--update",
    is_flag=True,
    help="Lower each configured budget to the measured figure (plus the target's ratchet-margin) when the list"
    " shrank, never raising it, and log it.",
)
@click.option(
    "--raise",
    "raise_",
    is_flag=True,
    help="Set each configured budget to the measured figure (plus the target's ratchet-margin), even upward.",
)
@click.option("--reason", metavar="TEXT", help="Why the budget moves (with --update or --raise; goes into the log).")
@click.option(
    "--max-server-chars",
    type=click.IntRange(min=0),
    metavar="N",
    help="With --mcp-config: the largest list size each server may have (--max-chars: all of them together).",
)
@click.option(
    "--max-server-tokens",
    type=click.IntRange(min=0),
    metavar="N",
    help="With --mcp-config: the most tokens each server's list may have (--max-tokens: all of them together).",
)
@_server_options
@mcp_config_options(jobs=False, windows=False, keep_going=True)
@_counter_options
@_protocol_option
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
    if configured.given or max_server_chars is not None or max_server_tokens is not None:
        given = (surface, live.names_a_server, update, raise_, target_names, answers.probes)
        _refuse_beside_mcp_config(configured, *given)
        from toolsurface.harness.surface import parse_include

        limits = (max_chars, max_tokens, max_server_chars, max_server_tokens)
        counted = parse_include(include) if include is not None else ()
        checked_config = _config_budget(
            configured, live, limits, _counters(tokens, count_urls), protocol, include=counted
        )
        if not _show_config_budget(checked_config, fmt, keep_going=configured.keep_going):
            raise SystemExit(1)
        return
    _probe_flags(ctx, answers.probes, "--probe, --max-answer-tokens or --fail-on-error-answers")
    config: Config | None = None
    checked: list[CheckedTarget] = []
    try:
        from toolsurface.harness.budget_check import CheckedList, ListBudget
        from toolsurface.harness.surface import parse_include

        parts = parse_include(include) if include is not None else None
        if surface is not None or live.names_a_server or (config_path is None and not _has_config()):
            _refuse_ratchet_flags(config_path, target_names, update, raise_, reason)
            budget = ListBudget(max_chars, max_tokens, parts or ())
            results = [_budget_of_one(surface, live, budget, answers, _counters(tokens, count_urls), protocol)]
        else:
            _check_reason(update, raise_, reason)
            config, checked = _budget_of_config(
                config_path, target_names, max_chars, max_tokens, live, count_tokens=update or raise_,
                tokens=tokens, count_urls=count_urls, include=parts, protocol=protocol, answers=answers,
            )  # fmt: skip
            results = [CheckedList(item.result, item.source) for item in checked]
    except ToolsurfaceError as error:
        if fmt == "github":
            from toolsurface.harness.output import github_line

            _out(github_line("error", "Tool list budget", f"cannot measure: {error}"))
        raise
    _show_results(results, fmt)
    sets_within = True
    if config is not None and config.server_sets:
        if update or raise_:
            _say("toolsurface: --update and --raise move one list's budget; a configuration's is set in the file")
        else:
            sets_within = _server_sets(config, target_names, fmt, live, protocol, _counters(tokens, count_urls))
    if config is not None and (update or raise_):
        assert reason is not None
        _ratchet(config, checked, reason, raise_, fmt)
    elif not all(item.result.within for item in results) or not sets_within:
        raise SystemExit(1)


def _refuse_beside_mcp_config(
    configured: McpConfigOptions,
    surface: str | None,
    names_a_server: bool,
    update: bool,
    raise_: bool,
    target_names: tuple[str, ...],
    probes: bool,
) -> None:
    if not configured.given:
        raise click.UsageError("--max-server-chars and --max-server-tokens go with --mcp-config FILE")
    given = (
        ("SURFACE", surface),
        ("--url or -- CMD", names_a_server),
        ("--update", update),
        ("--raise", raise_),
        ("--target", target_names),
        ("--probe", probes),
    )
    others = [flag for flag, value in given if value]
    if others:
        raise click.UsageError(f"--mcp-config budgets a client's configuration: give no {others[0]}")


def _refuse_ratchet_flags(
    config_path: Path | None, target_names: tuple[str, ...], update: bool, raise_: bool, reason: str | None
) -> None:
    """The flags that work on the configured targets, refused beside SURFACE, --url or -- CMD."""
    if config_path is not None or target_names or update or raise_:
        flag = "--config" if config_path else "--target" if target_names else "--update" if update else "--raise"
        raise click.UsageError(f"{flag} works on the configured targets; give no SURFACE, --url or -- CMD")
    if reason is not None:
        raise click.UsageError("--reason goes with --update or --raise")


def _check_reason(update: bool, raise_: bool, reason: str | None) -> None:
    if (update or raise_) and reason is None:
        raise click.UsageError(
            f"{'--raise' if raise_ else '--update'} needs --reason TEXT (it goes into the budget log)"
        )
    if not (update or raise_) and reason is not None:
        raise click.UsageError("--reason goes with --update or --raise")


def _show_results(results: list[CheckedList], fmt: str) -> None:
    """Each list's result in the format asked for, then (beside JSON or CSV) the calls that answered errors."""
    pairs = [(item.result, item.source) for item in results]
    if fmt == "github":
        for result, source in pairs:
            _github_step(result, source)
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


def _server_sets(
    config: Config,
    target_names: tuple[str, ...],
    fmt: str,
    live: LiveServerOptions,
    protocol: str | None,
    counters: list[ListCounter],
) -> bool:
    """Each configured client configuration (`mcp-config = FILE`) against its budgets, said after the targets
    (on stderr beside CSV, JUnit or JSON on stdout); whether all are within."""
    within = True
    for server_set in config.server_sets:
        if target_names and server_set.name not in target_names:
            continue
        configured = McpConfigOptions(server_set.mcp_config, server_set.env_from_shell)
        timed = live if server_set.timeout is None else replace(live, timeout=server_set.timeout)
        limits = (
            server_set.max_chars,
            server_set.max_tokens,
            server_set.max_server_chars,
            server_set.max_server_tokens,
        )
        checked = _config_budget(configured, timed, limits, counters, protocol, name=server_set.name)
        shown_as = "text" if fmt in ("csv", "junit") else fmt
        within = _show_config_budget(checked, shown_as, to_stderr=fmt in ("csv", "junit", "json")) and within
    return within


def _config_budget(
    configured: McpConfigOptions,
    live: LiveServerOptions,
    limits: tuple[int | None, int | None, int | None, int | None],
    counters: list[ListCounter],
    protocol: str | None,
    *,
    name: str | None = None,
    include: tuple[str, ...] = (),
) -> ConfigBudget:
    """The configuration's servers listed at once, measured and held to `limits` (all together in chars and
    tokens, each one in chars and tokens); `name`: what the configuration is called (its file's name by default);
    `include`: the parts counted beside the tools."""
    from toolsurface.harness.mcp_config import budget_config

    max_chars, max_tokens, max_server_chars, max_server_tokens = limits
    return budget_config(
        configured.listing(live, protocol),
        counters=counters,
        name=name,
        max_chars=max_chars,
        max_tokens=max_tokens,
        max_server_chars=max_server_chars,
        max_server_tokens=max_server_tokens,
        include=include,
    )


def _show_config_budget(checked: ConfigBudget, fmt: str, *, to_stderr: bool = False, keep_going: bool = False) -> bool:
    """A configuration's budget said in `fmt` (`to_stderr`: its lines on stderr, beside another format's output on
    stdout); whether it is within. A server that could not be listed is one line, exit 2 (`keep_going`: the
    others are held to the budget)."""
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
    problem = checked.totals.problem("what the servers cost together is not known")
    if problem is not None and not keep_going:
        raise ToolsurfaceError(problem)
    return checked.within


def _has_config() -> bool:
    from toolsurface.harness.config import find_config

    return find_config(Path.cwd()) is not None


def _budget_of_one(
    surface: str | None,
    live: LiveServerOptions,
    budget: ListBudget,
    answers: AnswerBudget,
    counters: list[ListCounter],
    protocol: str | None,
) -> CheckedList:
    """SURFACE, or the live server the options name, against the budget given (its answers probed on the same
    connection when asked)."""
    from toolsurface.harness.budget_check import check_list
    from toolsurface.harness.live import live_target, parse_capabilities, skip_final_collection

    if surface is None and not live.names_a_server:
        raise ToolsurfaceError(
            "give a SURFACE, --url URL, or -- CMD ARGS... (the server command after --), or configure targets in"
            " [tool.toolsurface] of pyproject.toml or in toolsurface.toml"
        )
    server = live_target(surface, live)
    if not answers.probes and budget.max_chars is None:
        raise click.UsageError(
            "Missing option '--max-chars' (needed with SURFACE, --url or -- CMD, unless --max-answer-tokens)"
        )
    return check_list(
        surface,
        server,
        budget,
        answers,
        capabilities=parse_capabilities(live.capabilities),
        timeout=live.timeout,
        counters=counters,
        protocol=protocol,
        on_listed=skip_final_collection,
    )


def _budget_of_config(
    config_path: Path | None,
    target_names: tuple[str, ...],
    max_chars: int | None,
    max_tokens: int | None,
    live: LiveServerOptions,
    *,
    count_tokens: bool,
    tokens: str | None = None,
    count_urls: tuple[str, ...] = (),
    include: tuple[str, ...] | None = None,
    protocol: str | None = None,
    answers: AnswerBudget | None = None,
) -> tuple[Config, list[CheckedTarget]]:
    """Every configured target (or those --target names), flags overriding the configured values."""
    from toolsurface.harness.cli._live import live_flags
    from toolsurface.harness.config import check_log_for_update, check_targets, read_config
    from toolsurface.harness.live import parse_capabilities, skip_final_collection

    given = [flag for flag in live_flags(live) if flag != "--client-capabilities"]
    if given:
        flag = given[0]
        raise click.UsageError(f"{flag} goes with --url or -- CMD; a configured target takes its own from the file")
    if count_tokens and (max_chars is not None or max_tokens is not None):
        raise click.UsageError("--update and --raise set the configured budgets; give no --max-chars or --max-tokens")
    config = read_config(config_path)
    assert config is not None
    if count_tokens:
        check_log_for_update(config.log_path)  # before a live target is started and measured
    sets = {s.name for s in config.server_sets}
    named = [name for name in target_names if name not in sets]
    targets = [config.target(name) for name in named] if target_names else list(config.targets)
    checked = check_targets(
        config,
        targets,
        max_chars=max_chars,
        max_tokens=max_tokens,
        capabilities=parse_capabilities(live.capabilities) if live.capabilities is not None else None,
        timeout=live.timeout if live.timeout_given else None,
        count_tokens=count_tokens,
        on_listed=skip_final_collection,
        tokens=tokens,
        count_urls=count_urls,
        include=include,
        protocol=protocol,
        answers=answers,
    )
    return config, checked


def _ratchet(config: Config, checked: list[CheckedTarget], reason: str, raise_: bool, fmt: str) -> None:
    """Move the configured budgets to the measured figures; exit 1 when a list is over and --raise was not given."""
    from toolsurface.harness.config import ratchet, shown_path

    say = _out if fmt == "text" else _say
    outcome = ratchet(config, checked, reason, allow_raise=raise_)
    for kept in outcome.unchanged:
        say(kept.describe())
    if outcome.refused:
        over = "; ".join(f"{item.target.name} is over its budget" for item in outcome.refused)
        _say(
            f"toolsurface: nothing changed: {over}; raising a budget is a decision: shorten other text first,"
            " or pass --raise --reason TEXT"
        )
        raise SystemExit(1)
    for step in outcome.steps:
        say(f"{step.describe()} in {shown_path(config.path)}; logged in {shown_path(config.log_path)}")


def _github_step(result: Any, source: str | None) -> None:
    """Annotations on stdout; the summary table appended to $GITHUB_STEP_SUMMARY, or printed without one."""
    from toolsurface.harness.measure import github_annotation, github_summary

    _github([github_annotation(result)], github_summary(result, source))
