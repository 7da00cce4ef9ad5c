"""The options of `budget`, in the order its help lists them, the combinations of them it refuses, and the
lists they name (one list, or the configured targets) as the library's records."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import (
    CHECK_FORMATS,
    _config_option,
    _format_option,
    _protocol_option,
    _server_options,
)
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options
from toolsurface.harness.cli._probe_options import _fail_on_error_answers_option, _probe_options
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.budget import BudgetRequest, ConfiguredTargets, OneList
    from toolsurface.harness.live import LiveServerOptions

_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "--max-chars", type=click.IntRange(min=0), help="Largest list size allowed (default: the configured one)."
    ),
    click.option(
        "--max-tokens",
        type=click.IntRange(min=0),
        help="Largest token count allowed (o200k_base, or the first counter of --tokens).",
    ),
    click.option(
        "--max-answer-tokens",
        type=click.IntRange(min=1),
        metavar="N",
        help="Probe the tools (read-only ones, or what --calls names) and fail when an answer is over N tokens"
        " (o200k_base, or the first counter of --tokens), naming the tool and the call.",
    ),
    click.option(
        "--probe",
        is_flag=True,
        help="Probe the tools' answers and hold them to each client's own cap (Claude Code's MAX_MCP_OUTPUT_TOKENS"
        " default), warning where a client warns.",
    ),
    _probe_options,
    _fail_on_error_answers_option,
    _format_option(
        "text",
        "json",
        "csv",
        "markdown",
        *CHECK_FORMATS,
        default="text",
        help="json, csv: a result per list; markdown: the summary github appends; github: annotations, and a summary"
        " table appended to $GITHUB_STEP_SUMMARY (else printed); junit: JUnit XML, a test case per list.",
    ),
    click.option(
        "--include",
        metavar="PARTS",
        help="Count these parts beside the tools: instructions,prompts,resources,skills (resources with their"
        " templates; skills by their frontmatter as listed; default: the tools alone, or the configured include).",
    ),
    _config_option,
    click.option(
        "--target", "target_names", multiple=True, metavar="NAME", help="Only this configured target; repeat."
    ),
    click.option(
        "--update",
        is_flag=True,
        help="Lower each configured budget to the measured figure (plus the target's ratchet-margin) when the list"
        " shrank, never raising it, and log it.",
    ),
    click.option(
        "--raise",
        "raise_",
        is_flag=True,
        help="Set each configured budget to the measured figure (plus the target's ratchet-margin), even upward.",
    ),
    click.option(
        "--reason", metavar="TEXT", help="Why the budget moves (with --update or --raise; goes into the log)."
    ),
    click.option(
        "--max-server-chars",
        type=click.IntRange(min=0),
        metavar="N",
        help="With --mcp-config: the largest list size each server may have (--max-chars: all of them together).",
    ),
    click.option(
        "--max-server-tokens",
        type=click.IntRange(min=0),
        metavar="N",
        help="With --mcp-config: the most tokens each server's list may have (--max-tokens: all of them together).",
    ),
    _server_options,
    mcp_config_options(jobs=False, windows=False, keep_going=True),
    _counter_options,
    _protocol_option,
]


def budget_options(command: Any) -> Any:
    """Every option of `budget` on `command`."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def _refuse_beside_mcp_config(
    configured: McpConfigOptions,
    surface: str | None,
    live: LiveServerOptions,
    update: bool,
    raise_: bool,
    target_names: tuple[str, ...],
    probes: bool,
) -> None:
    if not configured.given:
        raise click.UsageError("--max-server-chars and --max-server-tokens go with --mcp-config FILE")
    given = (
        ("SURFACE", surface),
        ("--url or -- CMD", live.names_a_server),
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


def _one_list(surface: str | None, live: LiveServerOptions, request: BudgetRequest) -> OneList:
    """SURFACE, or the live server the options name; a list budget is needed unless the answers are checked."""
    from toolsurface.harness.budget import OneList
    from toolsurface.harness.live import live_target

    if surface is None and not live.names_a_server:
        raise ToolsurfaceError(
            "give a SURFACE, --url URL, or -- CMD ARGS... (the server command after --), or configure targets in"
            " [tool.toolsurface] of pyproject.toml or in toolsurface.toml"
        )
    server = live_target(surface, live)
    if not request.answers.probes and request.limits.max_chars is None:
        raise click.UsageError(
            "Missing option '--max-chars' (needed with SURFACE, --url or -- CMD, unless --max-answer-tokens)"
        )
    return OneList(surface, server)


def _configured(
    config_path: Path | None,
    target_names: tuple[str, ...],
    moves: bool,
    request: BudgetRequest,
    tokens: str | None,
    count_urls: tuple[str, ...],
) -> ConfiguredTargets:
    """Every configured target (or those --target names), the flags given overriding the configured values."""
    from toolsurface.harness.budget import ConfiguredTargets
    from toolsurface.harness.cli._live import live_flags

    given = [flag for flag in live_flags(request.live) if flag != "--client-capabilities"]
    if given:
        flag = given[0]
        raise click.UsageError(f"{flag} goes with --url or -- CMD; a configured target takes its own from the file")
    if moves and (request.limits.max_chars is not None or request.limits.max_tokens is not None):
        raise click.UsageError("--update and --raise set the configured budgets; give no --max-chars or --max-tokens")
    counters = functools.partial(_counters, tokens, count_urls)
    return ConfiguredTargets(config_path, target_names, tokens, count_urls, counters)


def _has_config() -> bool:
    from toolsurface.harness.config import find_config

    return find_config(Path.cwd()) is not None
