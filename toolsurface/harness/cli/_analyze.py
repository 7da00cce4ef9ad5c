"""Reading tool lists: findability, roundtrip, diff, lint."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._base import (
    CHECK_FORMATS,
    TABLE_FORMATS,
    _config_option,
    _format_option,
    _github,
    _protocol_option,
    _say,
    _server_options,
    _ServerCommand,
    _show,
    main,
)
from toolsurface.harness.cli._client_help import (
    CardChoice,
    CardHelpOption,
    max_results_help,
    roundtrip_client_help,
    scorer_help,
    search_cards,
)
from toolsurface.harness.cli._counters import _counter_options, _counters
from toolsurface.harness.cli._mcp_config import McpConfigOptions, mcp_config_options
from toolsurface.harness.cli._probe_options import ProbeOptions, _probe_flags, _probe_options
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.fail_on import FAIL_ON

if TYPE_CHECKING:
    from toolsurface.harness.analyze.findability import SearchObserver
    from toolsurface.harness.cli._live import GivenSurfaces
    from toolsurface.harness.live import LiveServerOptions, TakenSnapshot
    from toolsurface.harness.mcp_config import ListedServer, McpConfig
    from toolsurface.harness.session.tool_search import SearchRequest, ToolSearchRun

_MAX_RESULTS = click.option("--max-results", type=click.IntRange(min=1), cls=CardHelpOption, card_help=max_results_help)


_SERVER_NAME = click.option(
    "--server-name",
    metavar="NAME",
    help="With a client's own search: the server's name in its config, which goes into every tool's name"
    " (mcp__NAME__...). Default: the server's own (a live server's, a snapshot's, a surface module's), stub for a"
    " bundled surface.",
)


def _client_search(given: GivenSurfaces, client: str, server_name: str | None) -> SearchObserver:
    """Runs searches through the client's own search tool, one session per surface in its search mode, each surface
    planned once when the searches are made."""

    def observe(searches: Sequence[SearchRequest]) -> Sequence[ToolSearchRun]:
        from toolsurface.harness.session.tool_search import observe_tool_search

        return observe_tool_search(given.planned(server_name), searches, client=client)

    return observe


def _searched_by(scorers: Sequence[str]) -> str | None:
    """The client whose own search is among the scorers (checked already), if one is."""
    from toolsurface.harness.analyze.findability import SCORERS

    return next((s for s in scorers if s not in SCORERS), None)


def _search_clients() -> tuple[str, ...]:
    from toolsurface.harness.agents import search_clients

    return search_clients()


def _scorer_choices() -> list[str]:
    from toolsurface.harness.analyze.findability import SCORERS

    return [*SCORERS, *_search_clients(), "all"]


def _configured_lists(
    configured: McpConfigOptions, live: LiveServerOptions
) -> tuple[list[TakenSnapshot], tuple[McpConfig, list[ListedServer]] | None]:
    """The lists of a client configuration's servers (--mcp-config), each listed once (none without it), and the
    configuration's rows, for the lines said after the output (cli._mcp_config.finish_configured)."""
    from toolsurface.harness.cli._mcp_config import configured_servers

    found = configured_servers(configured, live)
    if found is None:
        return [], None
    return [item.taken for item in found[1] if item.taken is not None], found


@dataclass(frozen=True)
class _Configured:
    """A configured project's targets as findability and roundtrip take them: each surface target's spec and each
    server target's list taken now; and the queries file beside the configuration (the one init writes), where
    it is needed."""

    specs: list[str]
    taken: list[TakenSnapshot]
    queries: Path | None


def _configured(config_path: Path | None, instead: str | None) -> _Configured | None:
    """The configured targets, when the project has any (None when it has none); `instead`: the option the queries
    file stands in for (None: it was given, so the file is not needed)."""
    from toolsurface.harness.config import read_config, shown_path, snapshot_target
    from toolsurface.harness.init import FOLDER
    from toolsurface.harness.live import skip_final_collection

    # A configuration named with --config must have targets; one found upward may hold only lint's settings.
    config = read_config(config_path, need_targets=config_path is not None)
    if config is None or not config.targets:
        return None
    queries = config.root / FOLDER / "queries.json"
    if instead is not None and not queries.is_file():
        raise ToolsurfaceError(
            f"{shown_path(queries)}: no such file, so the configured targets have no queries: write a starter with"
            f" toolsurface new queries -o {shown_path(queries)}, or give {instead}"
        )
    taken = [snapshot_target(t) for t in config.targets if t.surface is None]
    if taken:
        skip_final_collection()
    specs = [t.surface for t in config.targets if t.surface is not None]
    return _Configured(specs, taken, queries if instead is not None else None)


@main.command("findability", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path), help="Queries JSON.")
@_format_option(
    *TABLE_FORMATS,
    *CHECK_FORMATS,
    help="github: an annotation per expected tool not ranked first (an error where it fails --fail-below-rank),"
    " and the markdown appended to $GITHUB_STEP_SUMMARY; junit: a test case per query.",
)
@click.option("--stem", is_flag=True, help="Fold plurals and endings (tasks -> task) before matching.")
@click.option("--scorer", type=CardChoice(_scorer_choices), cls=CardHelpOption, card_help=scorer_help)
@click.option(
    "--fail-below-rank",
    type=click.IntRange(min=1),
    metavar="N",
    help="Exit 1 when a query's expected tool is not found at rank N or better by any scorer shown; says how many"
    " queries fail, and by which scorers.",
)
@click.option(
    "--confusion",
    is_flag=True,
    help="Show, for each query, the tools each scorer ranks above the expected one, and per pair of tools how"
    " often each was ranked first where the other was expected (csv: the pairs).",
)
@_MAX_RESULTS
@_SERVER_NAME
@_config_option
@_server_options
@mcp_config_options(windows=False, keep_going=True)
def findability_command(
    surfaces: tuple[str, ...],
    queries_file: Path | None,
    fmt: str,
    stem: bool,
    scorer: str | None,
    fail_below_rank: int | None,
    confusion: bool,
    max_results: int | None,
    server_name: str | None,
    config_path: Path | None,
    live: LiveServerOptions,
    configured: McpConfigOptions,
) -> None:
    """Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces).

    SURFACES are surface names, modules or snapshot files; or a live server with --url URL or -- CMD ARGS...
    A surface of no study (a module, a snapshot, a live server) has no queries of its own: name a queries file
    with --queries (`toolsurface new queries SURFACE` writes a starter one). With none given in a configured
    project, its targets, and the queries file beside its configuration (.toolsurface/queries.json)."""
    from toolsurface.harness.analyze.findability import (
        SCORERS,
        all_scorers,
        failing_line,
        findability,
        findability_github,
        findability_junit,
        findability_view,
        load_queries,
    )
    from toolsurface.harness.cli._live import given_surfaces
    from toolsurface.harness.cli._mcp_config import finish_configured
    from toolsurface.harness.surface import default_surfaces, own_study_file

    scorers = SCORERS if scorer is None else all_scorers() if scorer == "all" else (scorer,)
    searching = _searched_by(scorers)
    for option, value in (("--max-results", max_results), ("--server-name", server_name)):
        if value is not None and searching is None:
            cards = search_cards()
            raise click.UsageError(
                f"{option} is for {' or '.join(f'{c.title}' for c in cards)}'s search:"
                f" {' or '.join(f'--scorer {c.name}' for c in cards)} or --scorer all"
            )
    if confusion and fmt == "junit":
        raise click.UsageError("--confusion is shown as a table, json, csv, markdown or github's summary")
    servers, config_rows = _configured_lists(configured, live)
    alone = surfaces or live.names_a_server or configured.given
    project = None if alone else _configured(config_path, None if queries_file else "--queries FILE")
    default = project.specs if project is not None else default_surfaces()
    given = given_surfaces(surfaces if alone else default, live, None, [*servers, *(project.taken if project else [])])
    items = given.items()
    names = [item.name for item in items]
    queries = queries_file or (project.queries if project is not None else None)
    result = findability(
        items,
        load_queries(queries or own_study_file(given.study_specs, "queries", given.labels)),
        use_stem=stem,
        scorers=scorers,
        observe=_client_search(given, searching, server_name) if searching is not None else None,
        max_results=max_results,
    )
    if fail_below_rank is not None and not result.checked():
        raise ToolsurfaceError(
            f"--fail-below-rank {fail_below_rank}: no query expects a tool of the surfaces given, so nothing would be"
            f" checked: give each query an expected tool keyed by a surface's name ({', '.join(names)})"
        )
    view = findability_view(result, fail_below_rank, with_confusion=confusion)
    if fmt == "github":
        from toolsurface.harness.output import render

        _github(findability_github(result, fail_below_rank), str(render(view, "markdown")))
    else:
        _show(fmt, view, junit=lambda: findability_junit(result, fail_below_rank))
    finish_configured(config_rows, configured, "their tools are not ranked")
    if fail_below_rank is not None:
        failing = failing_line(result, fail_below_rank)
        if failing is not None:
            _say(f"toolsurface: {failing}")
            raise SystemExit(1)


@main.command("roundtrip", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@click.option("--task", "task_file", type=click.Path(dir_okay=False, path_type=Path), help="Round-trip task JSON.")
@_format_option(*TABLE_FORMATS)
@click.option("--stem", is_flag=True, help="Fold plurals and endings when a step's tool is chosen by keyword.")
@click.option("--client", type=CardChoice(_search_clients), cls=CardHelpOption, card_help=roundtrip_client_help)
@_MAX_RESULTS
@_SERVER_NAME
@_config_option
@_server_options
@mcp_config_options(windows=False, keep_going=True)
def roundtrip_command(
    surfaces: tuple[str, ...],
    task_file: Path | None,
    fmt: str,
    stem: bool,
    client: str | None,
    max_results: int | None,
    server_name: str | None,
    config_path: Path | None,
    live: LiveServerOptions,
    configured: McpConfigOptions,
) -> None:
    """What an on-demand client loads for a task, against the whole list (default: the bundled surfaces).

    SURFACES are surface names, modules or snapshot files; or a live server with --url URL or -- CMD ARGS...
    With none given in a configured project, its targets, a step per query of the queries file beside its
    configuration (.toolsurface/queries.json), unless --task names a task."""
    from toolsurface.harness.analyze.findability import load_queries
    from toolsurface.harness.analyze.roundtrip import (
        load_task,
        queries_task,
        roundtrip,
        roundtrip_view,
    )
    from toolsurface.harness.cli._live import given_surfaces
    from toolsurface.harness.cli._mcp_config import finish_configured
    from toolsurface.harness.surface import default_surfaces, own_study_file

    for option, value in (("--max-results", max_results), ("--server-name", server_name)):
        if value is not None and client is None:
            names = " or ".join(f"--client {c.name}" for c in search_cards())
            raise click.UsageError(f"{option} is for a client's search: {names}")
    servers, config_rows = _configured_lists(configured, live)
    alone = surfaces or live.names_a_server or configured.given
    project = None if alone else _configured(config_path, None if task_file else "--task FILE")
    default = project.specs if project is not None else default_surfaces()
    given = given_surfaces(surfaces if alone else default, live, None, [*servers, *(project.taken if project else [])])
    items = given.items()
    if project is not None and project.queries is not None:
        task = queries_task(load_queries(project.queries))
    else:
        task = load_task(task_file or own_study_file(given.study_specs, "task", given.labels))
    result = roundtrip(
        items,
        task,
        use_stem=stem,
        observe=_client_search(given, client, server_name) if client is not None else None,
        max_results=max_results,
    )
    _show(fmt, roundtrip_view(result))
    finish_configured(config_rows, configured, "their tools are not in the round trip")


@main.command("diff", cls=_ServerCommand)
@click.argument("a", required=False)
@click.argument("b", required=False)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    help="Exit 1 on a breaking change (or a SECURITY one: text working against the user brought in, lint TS5xx),"
    " on a changed text to review (a description, an annotation, the instructions) or either of those, or on any"
    " difference at all.",
)
@_format_option(
    *TABLE_FORMATS,
    *CHECK_FORMATS,
    help="csv: a row per tool and part that differs; github: annotations, and the markdown appended to"
    " $GITHUB_STEP_SUMMARY; junit: a test case per tool.",
)
@_config_option
@click.option("--target", "target_names", multiple=True, metavar="NAME", help="Only this configured target; repeat.")
@click.option(
    "--probe",
    is_flag=True,
    help="Probe the live server's tools too, and compare their answers with those the other side recorded"
    " (snapshot --probe).",
)
@click.option(
    "--whole",
    is_flag=True,
    help="Show each changed text to review whole, before and after, not marked word by word ([-removed-]"
    " {+added+}); JSON gives both texts and the word changes either way.",
)
@_probe_options
@_server_options
@_counter_options
@_protocol_option
def diff_command(
    a: str | None,
    b: str | None,
    fail_on: str | None,
    fmt: str,
    config_path: Path | None,
    target_names: tuple[str, ...],
    probe: bool,
    whole: bool,
    probing: ProbeOptions,
    live: LiveServerOptions,
    tokens: str | None,
    count_urls: tuple[str, ...],
    protocol: str | None,
) -> None:
    """Compare two tool lists per tool: added, removed, changed, breaking or not, and what each costs.

    The instructions, prompts, resources and skills are compared too; a changed description, annotation or
    instructions text, and a skill added, removed or changed (its frontmatter or a file's digest), is marked REVIEW; where both sides recorded their answers (snapshot --probe), an answer
    that grew is a change too. A live server (--url URL or -- CMD ARGS...) is B, or A where A is given as -.
    With no A and B, each configured target with a snapshot is compared with its committed snapshot.
    """
    from toolsurface.harness.analyze.diff import diff_surfaces
    from toolsurface.harness.surface import resolve

    _probe_flags(click.get_current_context(), probe, "--probe")
    if live.names_a_server:
        if config_path is not None or target_names:
            raise click.UsageError("--config and --target compare the configured targets; give no --url or -- CMD")
        if a is None or (a == "-" and b in (None, "-")):
            raise click.UsageError("give the surface or snapshot to compare the live server with: diff A -- CMD")
        counters = _counters(tokens, count_urls)
        taken = _live_side(live, probe, probing, counters, protocol)
        other = b if a == "-" else a
        assert other is not None
        sides = [(resolve(other), other), (taken.as_snapshot(), taken.name)]
        if a == "-":
            sides.reverse()
        (item_a, label_a), (item_b, label_b) = sides
        diffs = [diff_surfaces(item_a, item_b, a_label=label_a, b_label=label_b, counters=counters, protocol=protocol)]
        _render_diffs(diffs, fmt, fail_on, False, whole)
        if any(d.fails(fail_on) for d in diffs):
            raise SystemExit(1)
        return
    if probe:
        raise click.UsageError("--probe probes a live server: give --url URL or -- CMD ARGS...")
    if "-" in (a, b):
        raise click.UsageError("- stands for the live server: give --url URL or -- CMD ARGS...")
    if a is not None and b is not None:
        if config_path is not None or target_names:
            raise click.UsageError("--config and --target compare the configured targets; give no A and B")
        counters = _counters(tokens, count_urls)
        diffs = [diff_surfaces(resolve(a), resolve(b), a_label=a, b_label=b, counters=counters, protocol=protocol)]
        configured = False
    elif a is not None:
        raise click.UsageError("give A and B, or neither to compare each configured target with its snapshot")
    else:
        from toolsurface.harness.config import diff_targets
        from toolsurface.harness.live import skip_final_collection

        on_listed = skip_final_collection
        diffs = diff_targets(
            config_path, target_names, protocol=protocol, tokens=tokens, count_urls=count_urls, on_listed=on_listed
        )
        configured = True
    _render_diffs(diffs, fmt, fail_on, configured, whole)
    if any(d.fails(fail_on) for d in diffs):
        raise SystemExit(1)


def _live_side(
    live: LiveServerOptions, probe: bool, probing: ProbeOptions, counters: list[Any], protocol: str | None
) -> TakenSnapshot:
    """The live server listed once (and probed on the same connection, with --probe)."""
    if probe:
        from toolsurface.harness.cli._probe_options import probed

        taken = probed(None, live, probing, counters=counters, protocol=protocol).taken
        assert taken is not None
        return taken
    from toolsurface.harness.cli._live import _listed

    listed = _listed(live, protocol)
    assert listed is not None
    return listed


def _render_diffs(diffs: list[Any], fmt: str, fail_on: str | None, configured: bool, whole: bool) -> None:

    from toolsurface.harness.analyze.diff import diff_github, diff_junit, diff_view
    from toolsurface.harness.output import render

    if fmt == "github":
        for d in diffs:
            _github(diff_github(d, fail_on, whole), render(diff_view([d], whole), "markdown") + "\n")
        return
    _show(fmt, diff_view(diffs, whole, targets=configured), junit=lambda: diff_junit(diffs, fail_on, whole))


@main.command("lint", cls=_ServerCommand)
@click.argument("surfaces", nargs=-1)
@_format_option(
    *TABLE_FORMATS,
    *CHECK_FORMATS,
    "sarif",
    help="csv: a row per finding; markdown: the summary github appends; github: annotations, and a summary"
    " appended to $GITHUB_STEP_SUMMARY; junit: a test case per tool; sarif: SARIF 2.1.0 for GitHub code"
    " scanning.",
)
@click.option(
    "--fail-on",
    metavar="error|warning|RULE,...|any",
    help="Exit 1 on a finding of this severity or a worse one (error, warning), of these rules (names or ids,"
    " comma-separated), or of any rule.",
)
@click.option(
    "--rules",
    "list_rules",
    is_flag=True,
    help="List the rules: id, name, severity, what each checks (with --format json, why, the fix and a bad and a"
    " good example of each).",
)
@click.option(
    "--select",
    metavar="RULE,...",
    help="Only these rules, by id, name or family (TS1: every TS1xx rule), comma-separated.",
)
@click.option(
    "--server-name",
    metavar="NAME",
    help="The name users give the server in their configuration: a finding that holds only for some names (a"
    " tool name too long once prefixed) is judged for it. --mcp-config: each server's key.",
)
@click.option(
    "--score",
    is_flag=True,
    help="Score each tool's description 0-100 from the description-quality rules (TS203-TS208) and each server"
    " TDQS-like: each tool starts at 100 and loses 30 for TS203, 20 for TS204, 5 a parameter for TS205 (at most"
    " 20), 15 for TS206, 10 for TS207, 5 for TS208 (no description: 0); the server scores 60 % of the mean plus"
    " 40 % of the worst tool. csv: a row per tool instead of per finding; sarif, junit, github: the server's"
    " score in their properties or summary.",
)
@click.option(
    "--judge",
    "judge",
    metavar="ENDPOINT",
    help="Also have a model score each tool on the rubric in the package (purpose, usage, behaviour, parameters,"
    " concision): scripted (the project's scripted model, offline), URL or record:URL (Anthropic Messages for"
    " Anthropic's host or a /messages path, else OpenAI-compatible chat completions), anthropic:URL or"
    " openai:URL; your own key from ANTHROPIC_API_KEY or OPENAI_API_KEY. Answers are cached by the tool's"
    " definition; a tool the judge refuses, rate-limits, leaves unanswered or answers with nonsense is a row"
    " that says so.",
)
@click.option(
    "--judge-model", metavar="NAME", help="--judge: the model asked (default: claude-haiku-4-5, gpt-4o-mini)."
)
@click.option(
    "--judge-timeout",
    type=click.FloatRange(min=0.1),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="--judge: seconds one request may take whole.",
)
@_config_option
@_server_options
@mcp_config_options(windows=False, keep_going=True)
def lint_command(
    surfaces: tuple[str, ...],
    fmt: str,
    fail_on: str | None,
    list_rules: bool,
    select: str | None,
    server_name: str | None,
    score: bool,
    judge: str | None,
    judge_model: str | None,
    judge_timeout: float,
    config_path: Path | None,
    live: LiveServerOptions,
    configured: McpConfigOptions,
) -> None:
    """Find inconsistencies across each surface's tools: addressing, tokens, patch rules, flags, names, hints.

    SURFACE..., a live server with --url URL or -- CMD ARGS..., or none: each configured target. Rules the
    configuration turns off ([tool.toolsurface.lint] disable, and per-tool) are counted, not reported. With
    --mcp-config FILE, each server of a client's configuration, and the names that clash among them."""
    from toolsurface.harness.analyze.lint import FailOn, lint_quality, parse_fail_on, parse_select

    failing = parse_fail_on(fail_on) if fail_on is not None else FailOn()
    chosen = parse_select(select) if select is not None else None
    if list_rules:
        if surfaces or live.names_a_server or configured.given or score or judge:
            raise click.UsageError(
                "--rules lists the rules: give no SURFACE, --url, -- CMD, --mcp-config, --score or --judge"
            )
        _print_rules(fmt)
        return
    from toolsurface.harness.cli._mcp_config import finish_configured

    if judge is None and judge_model is not None:
        raise click.UsageError("--judge-model goes with --judge ENDPOINT")
    judging = _judge_spec(judge, judge_model) if judge is not None else None
    if score:
        _check_scored(chosen)
    found = None
    if configured.given:
        result, found, items = _linted_config(surfaces, live, config_path, configured, chosen, server_name)
    else:
        result, items = _linted(surfaces, live, config_path, chosen, server_name)
    quality = lint_quality(result, items, score=score, judge=judging, timeout=judge_timeout)
    _render_lint(result, fmt, failing, quality)
    finish_configured(found, configured, "their findings and the names they share with the others are not known")
    if result.fails(failing):
        raise SystemExit(1)


def _judge_spec(judge: str, model: str | None) -> Any:
    from toolsurface.harness.analyze.lint.judge import parse_judge

    return parse_judge(judge, model)


def _check_scored(chosen: tuple[str, ...] | None) -> None:
    """--score with --select that leaves every description-quality rule out scores nothing."""
    from toolsurface.harness.analyze.lint import QUALITY_RULES, find_rule

    quality = {r.name for key in QUALITY_RULES if (r := find_rule(key)) is not None}
    if chosen is not None and not quality & set(chosen):
        raise click.UsageError(
            f"--score scores from the description-quality rules ({', '.join(QUALITY_RULES)}); --select leaves them all out"
        )


def _linted_config(
    surfaces: tuple[str, ...],
    live: LiveServerOptions,
    config_path: Path | None,
    configured: McpConfigOptions,
    select: tuple[str, ...] | None,
    server_name: str | None,
) -> tuple[Any, tuple[McpConfig, list[ListedServer]], list[Any]]:
    """The surfaces and live server given, each server of the client's configuration, and the clashes among
    the configuration's servers as one more surface named after the file (a server of it that is the live one
    given, linted once, as that); with the configuration's rows, and what each server was linted from (the
    clashes are none's)."""
    from toolsurface.harness.analyze.lint import lint_configuration
    from toolsurface.harness.cli._live import _items
    from toolsurface.harness.cli._mcp_config import configured_servers
    from toolsurface.harness.config import read_config

    config = read_config(config_path, need_targets=False)
    settings = config.lint if config is not None else None
    items = _items(surfaces, live, None)[0]
    found = configured_servers(configured, live)
    assert found is not None
    mcp, listed = found
    servers = [item.taken.as_snapshot() for item in listed if item.taken is not None]
    given = [items[-1]] if any(item.given is not None for item in listed) else []
    linted = lint_configuration(
        items, servers, mcp.path, given=given, settings=settings, server_name=server_name, select=select
    )
    return linted, found, [*items, *servers]


def _linted(
    surfaces: tuple[str, ...],
    live: LiveServerOptions,
    config_path: Path | None,
    select: tuple[str, ...] | None,
    server_name: str | None,
) -> tuple[Any, list[Any]]:
    """The surfaces named and the live server (a finding's file a surface's own or a server command's script),
    or each configured target, linted less what the configuration turns off, and what each was linted from."""
    from toolsurface.harness.analyze.lint import lint
    from toolsurface.harness.cli._live import _items, live_flags
    from toolsurface.harness.config import lint_targets, read_config, server_script
    from toolsurface.harness.live import skip_final_collection

    config = read_config(config_path, need_targets=False)
    if surfaces or live.names_a_server or live_flags(live):
        settings = config.lint if config is not None else None
        items = _items(surfaces, live, None)[0]
        server_file = server_script(live.argv, live.cwd) if live.argv else None
        files = [None] * len(surfaces) + ([server_file] if live.names_a_server else [])
        return lint(items, settings, files, server_names=[server_name] * len(items), select=select), items
    return lint_targets(config, server_name=server_name, select=select, on_listed=skip_final_collection)


def _render_lint(result: Any, fmt: str, failing: Any, quality: Any) -> None:
    from toolsurface.harness.analyze.lint import lint_github, lint_junit, lint_sarif_scored, lint_view, unplaced
    from toolsurface.harness.output import counted, render

    view = lint_view(result, failing, quality)
    if fmt == "github":
        _github(lint_github(result, failing, quality), str(render(view, "markdown")))
    else:
        _show(
            fmt,
            view,
            junit=lambda: lint_junit(result, failing, quality),
            sarif=lambda: lint_sarif_scored(result, quality),
        )
    if fmt == "sarif" and unplaced(result):
        names = ", ".join(unplaced(result))
        _say(
            f"toolsurface: the SARIF results of {names} name no file (a server reached by URL, or a command that"
            " names no script): GitHub code scanning refuses a result without one; lint a snapshot file of the"
            " server (toolsurface snapshot -o FILE) or a configured target instead"
        )
    if fmt in ("csv", "json", "junit", "sarif") and result.suppressed:
        _say(f"toolsurface: {counted(result.suppressed, 'finding')} suppressed by configuration")


def _print_rules(fmt: str) -> None:
    """The rules in the format asked for (github: the markdown table as the job summary)."""
    from toolsurface.harness.analyze.lint import rules_junit, rules_sarif, rules_view
    from toolsurface.harness.output import render

    if fmt == "github":
        _github([], str(render(rules_view(whole=False), "markdown")))
        return
    _show(fmt, rules_view(), junit=rules_junit, sarif=rules_sarif)
