"""The surface verbs: list, measure, budget."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from harness.cli._base import (
    _config_option,
    _data,
    _out,
    _print,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    _step_summary,
    _write_outputs,
    main,
)
from harness.cli._counters import _counter_options, _counters
from harness.errors import ToolsurfaceError


@main.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_command(fmt: str) -> None:
    """List the surfaces that are installed, bundled ones first."""
    import json

    from harness.surface import SurfaceDefinition, known_names, resolve

    definitions = []
    for name in known_names():
        item = resolve(name)
        assert isinstance(item, SurfaceDefinition)
        definitions.append(item)
    if fmt == "json":
        rows = [
            {
                "name": d.name,
                "title": d.title,
                "purpose": d.purpose,
                "kinds": [k.name for k in d.kinds],
                "growth_kind": d.growth_kind.name if d.growth_kind else None,
                "source": d.source,
            }
            for d in definitions
        ]
        _data(json.dumps({"surfaces": rows}, indent=2))
        return
    from rich.table import Table

    table = Table(title="Surfaces")
    for column in ("name", "title", "kinds", "purpose"):
        table.add_column(column)
    for d in definitions:
        kinds = ", ".join(k.name for k in d.kinds) + (f" (+{d.growth_kind.name})" if d.growth_kind else "")
        table.add_row(d.name, d.title, kinds, d.purpose)
    _print([table])


@main.command("measure")
@click.argument("surfaces", nargs=-1)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv", "markdown"]),
    default="table",
    show_default=True,
)
@click.option("--per-tool", is_flag=True, help="Show every tool's chars, tokens and marginal tokens.")
@click.option("--no-growth", is_flag=True, help="Skip growth by one kind and the size per number of kinds.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write measure.json/.csv/.md here.")
@_counter_options
@_protocol_option
def measure_command(
    surfaces: tuple[str, ...],
    fmt: str,
    per_tool: bool,
    no_growth: bool,
    out: Path | None,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces)."""
    from harness.measure import _render as render
    from harness.measure import measure
    from harness.surface import default_surfaces, resolve_all

    counters = _counters(tokens, count_urls)
    items = resolve_all(surfaces or default_surfaces())
    result = measure(items, growth=not no_growth, counters=counters, protocol=protocol)
    if out is not None:
        files = {
            "measure.json": render.measure_json(result),
            "measure.csv": render.measure_csv(result),
            "measure.md": render.measure_markdown(result, per_tool=True),
            "per_tool.csv": render.per_tool_csv(result),
            "by_kinds.csv": render.by_kinds_csv(result),
            "parts.csv": render.parts_csv(result),
        }
        if result.counters:
            files["counters.csv"] = render.counters_csv(result)
        written = _write_outputs(out, files)
        _say(f"wrote {', '.join(str(p) for p in written)}")
    if fmt == "json":
        _data(render.measure_json(result), nl=False)
    elif fmt == "csv":
        _data(render.per_tool_csv(result) if per_tool else render.measure_csv(result), nl=False)
    elif fmt == "markdown":
        _data(render.measure_markdown(result, per_tool=per_tool), nl=False)
    else:
        _print(render.measure_rich(result, per_tool=per_tool))


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
    "--format",
    "fmt",
    type=click.Choice(["text", "github", "junit"]),
    default="text",
    show_default=True,
    help="github: annotations, and a summary table appended to $GITHUB_STEP_SUMMARY (else printed);"
    " junit: JUnit XML, a test case per list.",
)
@click.option(
    "--include",
    metavar="PARTS",
    help="Count these parts beside the tools: instructions,prompts,resources (resources with their templates;"
    " default: the tools alone, or the configured include).",
)
@_config_option
@click.option("--target", "target_names", multiple=True, metavar="NAME", help="Only this configured target; repeat.")
@click.option(
    "--update",
    is_flag=True,
    help="Lower each configured budget to the measured figure when the list shrank, and log it.",
)
@click.option("--raise", "raise_", is_flag=True, help="Set each configured budget to the measured figure, even upward.")
@click.option("--reason", metavar="TEXT", help="Why the budget moves (with --update or --raise; goes into the log).")
@_server_options
@_counter_options
@_protocol_option
@click.pass_context
def budget_command(
    ctx: click.Context,
    surface: str | None,
    max_chars: int | None,
    max_tokens: int | None,
    fmt: str,
    include: str | None,
    config_path: Path | None,
    target_names: tuple[str, ...],
    update: bool,
    raise_: bool,
    reason: str | None,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured.

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...;
    with none of them, every target configured in [tool.toolsurface] (pyproject.toml) or toolsurface.toml.
    """
    server_argv = ctx.meta.get("server_argv")
    given = surface is not None or url is not None or server_argv is not None
    config: Any = None
    checked: list[Any] = []
    try:
        from harness.surface import parse_include

        parts = parse_include(include) if include is not None else None
        if given or (config_path is None and not _has_config()):
            if config_path is not None or target_names or update or raise_:
                flag = (
                    "--config" if config_path else "--target" if target_names else "--update" if update else "--raise"
                )
                raise click.UsageError(f"{flag} works on the configured targets; give no SURFACE, --url or -- CMD")
            if reason is not None:
                raise click.UsageError("--reason goes with --update or --raise")
            counters = _counters(tokens, count_urls)
            pairs = [
                _budget_of_one(
                    surface,
                    server_argv,
                    url,
                    headers,
                    envs,
                    cwd,
                    timeout,
                    capabilities,
                    max_chars,
                    max_tokens,
                    counters,
                    parts or (),
                    protocol=protocol,
                )
            ]  # fmt: skip
        else:
            if (update or raise_) and reason is None:
                raise click.UsageError(
                    f"{'--raise' if raise_ else '--update'} needs --reason TEXT (it goes into the budget log)"
                )
            if not (update or raise_) and reason is not None:
                raise click.UsageError("--reason goes with --update or --raise")
            config, checked = _budget_of_config(
                ctx,
                config_path,
                target_names,
                max_chars,
                max_tokens,
                headers,
                envs,
                cwd,
                timeout,
                capabilities,
                count_tokens=update or raise_,
                tokens=tokens,
                count_urls=count_urls,
                include=parts,
                protocol=protocol,
            )
            pairs = [(item.result, item.source) for item in checked]
    except ToolsurfaceError as error:
        if fmt == "github":
            from harness.measure import github_escape

            _out(f"::error title=Tool list budget::{github_escape(f'cannot measure: {error}')}")
        raise
    results = [result for result, _ in pairs]
    if fmt == "github":
        for result, source in pairs:
            _github_step(result, source)
    elif fmt == "junit":
        from harness.measure import budget_junit

        _data(budget_junit(results), nl=False)
    else:
        from harness.measure import budget_lines

        for result in results:
            for line in budget_lines(result):
                _out(line)
    if config is not None and (update or raise_):
        assert reason is not None
        _ratchet(config, checked, reason, raise_, fmt)
    elif not all(result.within for result in results):
        raise SystemExit(1)


def _has_config() -> bool:
    from harness.config import find_config

    return find_config(Path.cwd()) is not None


def _budget_of_one(
    surface: str | None,
    server_argv: tuple[str, ...] | None,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
    max_chars: int | None,
    max_tokens: int | None,
    counters: list[Any],
    include: tuple[str, ...] = (),
    *,
    protocol: str | None = None,
) -> tuple[Any, str | None]:
    from harness.live import live_target
    from harness.measure import check_budget
    from harness.surface import resolve

    if surface is None and url is None and server_argv is None:
        raise ToolsurfaceError(
            "give a SURFACE, --url URL, or -- CMD ARGS... (the server command after --), or configure targets in"
            " [tool.toolsurface] of pyproject.toml or in toolsurface.toml"
        )
    server = live_target(surface, server_argv, url, headers, envs, cwd, capabilities)
    if max_chars is None:
        raise click.UsageError("Missing option '--max-chars' (needed with SURFACE, --url or -- CMD)")
    source: str | None = None
    if server is None:
        assert surface is not None
        item = resolve(surface)
    else:
        from harness.live import take_snapshot

        taken = take_snapshot(None, server, capabilities=capabilities, timeout=timeout, protocol=protocol)
        item, source = taken.as_snapshot(), taken.source_label
    result = check_budget(item, max_chars, max_tokens, counters=counters, include=include, protocol=protocol)
    if server is not None:
        from harness.live import skip_final_collection

        skip_final_collection()
    return result, source


def _budget_of_config(
    ctx: click.Context,
    config_path: Path | None,
    target_names: tuple[str, ...],
    max_chars: int | None,
    max_tokens: int | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
    *,
    count_tokens: bool,
    tokens: str | None = None,
    count_urls: tuple[str, ...] = (),
    include: tuple[str, ...] | None = None,
    protocol: str | None = None,
) -> tuple[Any, list[Any]]:
    """Every configured target (or those --target names), flags overriding the configured values."""
    from harness.config import check_targets, read_config
    from harness.live import parse_capabilities, skip_final_collection

    if headers or envs or cwd is not None:
        flag = "--header" if headers else "--env" if envs else "--cwd"
        raise click.UsageError(f"{flag} goes with --url or -- CMD; a configured target takes its own from the file")
    if count_tokens and (max_chars is not None or max_tokens is not None):
        raise click.UsageError("--update and --raise set the configured budgets; give no --max-chars or --max-tokens")
    config = read_config(config_path)
    assert config is not None
    targets = [config.target(name) for name in target_names] if target_names else list(config.targets)
    from_command_line = ctx.get_parameter_source("timeout") == click.core.ParameterSource.COMMANDLINE
    checked = check_targets(
        config,
        targets,
        max_chars=max_chars,
        max_tokens=max_tokens,
        capabilities=parse_capabilities(capabilities) if capabilities is not None else None,
        timeout=timeout if from_command_line else None,
        count_tokens=count_tokens,
        on_listed=skip_final_collection,
        tokens=tokens,
        count_urls=count_urls,
        include=include,
        protocol=protocol,
    )
    return config, checked


def _ratchet(config: Any, checked: list[Any], reason: str, raise_: bool, fmt: str) -> None:
    """Move the configured budgets to the measured figures; exit 1 when a list is over and --raise was not given."""
    from harness.config import ratchet, shown_path

    say = _out if fmt == "text" else _say
    outcome = ratchet(config, checked, reason, allow_raise=raise_)
    for item in outcome.unchanged:
        say(f"{item.target.name}: budget already at the measured figure ({item.result.chars:,} chars)")
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
    from harness.measure import github_annotation, github_summary

    _out(github_annotation(result))
    _step_summary(github_summary(result, source))
