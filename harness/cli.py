"""The toolsurface command line: parses, calls the library, renders. Heavy imports stay inside commands."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from harness.errors import ToolsurfaceError

__all__ = ["main"]


class _Group(click.Group):
    """Errors a user can cause end with one line on stderr and exit 2, never a traceback."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
        try:
            return super().main(args, prog_name, standalone_mode=False, **extra)
        except click.exceptions.Exit as done:
            raise SystemExit(done.exit_code) from None
        except click.Abort:
            _fail("aborted")
        except click.UsageError as error:
            where = f"toolsurface {error.ctx.command_path.partition(' ')[2]}".strip() if error.ctx else "toolsurface"
            _fail(f"{error.format_message()} (see {where} --help)")
        except click.ClickException as error:
            _fail(error.format_message())

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                # Here, not at exit, so a stdout that cannot take the output is reported like any error.
                if sys.stdout is not None:
                    sys.stdout.flush()
        except ToolsurfaceError as error:
            _fail(str(error))
        except KeyboardInterrupt:
            _fail("interrupted")
        except BrokenPipeError:
            sys.stderr.close()
            raise SystemExit(1) from None
        except OSError as error:
            if error.filename is not None or error.errno not in _STDOUT_ERRORS:
                raise
            # What is still buffered would fail again when the interpreter exits.
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
            _fail(f"cannot write to stdout: {error.strerror or error}")


# Writing stdout fails with these when it is a full disk (> /dev/full), a closed or broken descriptor.
_STDOUT_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def _fail(message: str) -> NoReturn:
    _say(f"toolsurface: {message}")
    raise SystemExit(2)


def _say(text: str, nl: bool = True) -> None:
    """A line for a person, on stderr, its control characters shown, not obeyed."""
    from harness.terminal import escape_controls

    click.echo(escape_controls(text), err=True, nl=nl)


def _out(text: str, nl: bool = True) -> None:
    """A line for a person on stdout, its control characters shown, not obeyed."""
    from harness.terminal import escape_controls

    click.echo(escape_controls(text), nl=nl)


def _data(text: str, nl: bool = True) -> None:
    """JSON, CSV or markdown on stdout, exact, unless stdout is a terminal: then as _out."""
    from harness.terminal import escape_controls

    click.echo(escape_controls(text) if sys.stdout is not None and sys.stdout.isatty() else text, nl=nl)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolsurface")
def main() -> None:
    """Measure what an MCP tool list costs connected agents."""


def _print(renderables: Sequence[Any]) -> None:
    from harness.terminal import safe_console

    console = safe_console(soft_wrap=False)
    for renderable in renderables:
        console.print(renderable)


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


def _emit(
    fmt: str,
    result: Any,
    table: Callable[[Any], Sequence[Any]],
    as_json: Callable[[Any], str],
    as_csv: Callable[[Any], str],
) -> None:
    """A result in the format asked for: a rich table on the terminal, or JSON / CSV text."""
    if fmt == "table":
        _print(table(result))
    else:
        _data(as_json(result) if fmt == "json" else as_csv(result), nl=False)


def _write_outputs(out: Path, files: dict[str, str]) -> list[Path]:
    from harness.files import ensure_directory, write_atomic

    ensure_directory(out)
    return [write_atomic(out / name, text) for name, text in files.items()]


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
def measure_command(surfaces: tuple[str, ...], fmt: str, per_tool: bool, no_growth: bool, out: Path | None) -> None:
    """Measure list size, tokens, per-tool cost and growth per kind (default: the bundled surfaces)."""
    from harness.measure import _render as render
    from harness.measure import measure
    from harness.surface import BUNDLED_ORDER, resolve_all

    items = resolve_all(surfaces or BUNDLED_ORDER)
    result = measure(items, growth=not no_growth)
    if out is not None:
        written = _write_outputs(
            out,
            {
                "measure.json": render.measure_json(result),
                "measure.csv": render.measure_csv(result),
                "measure.md": render.measure_markdown(result, per_tool=True),
                "per_tool.csv": render.per_tool_csv(result),
                "by_kinds.csv": render.by_kinds_csv(result),
            },
        )
        _say(f"wrote {', '.join(str(p) for p in written)}")
    if fmt == "json":
        _data(render.measure_json(result), nl=False)
    elif fmt == "csv":
        _data(render.per_tool_csv(result) if per_tool else render.measure_csv(result), nl=False)
    elif fmt == "markdown":
        _data(render.measure_markdown(result, per_tool=per_tool), nl=False)
    else:
        _print(render.measure_rich(result, per_tool=per_tool))


class _ServerCommand(click.Command):
    """A command that can list a live server: everything after `--` is the server's command line, never ours."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            at = args.index("--")
            ctx.meta["server_argv"] = tuple(args[at + 1 :])
            args = args[:at]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [*super().collect_usage_pieces(ctx), "[--url URL | -- CMD [ARGS]...]"]


def _server_options(command: Any) -> Any:
    """--url, --header, --env, --cwd, --timeout and --client-capabilities, shared by snapshot and budget."""
    options = [
        click.option("--url", metavar="URL", help="List a streamable-HTTP MCP server at this URL, not a surface."),
        click.option("--header", "headers", multiple=True, metavar="NAME:VALUE", help="HTTP header for --url; repeat."),
        click.option(
            "--env",
            "envs",
            multiple=True,
            metavar="NAME=VALUE",
            help="Add to the server command's environment; repeat.",
        ),
        click.option("--cwd", type=click.Path(path_type=Path), help="Working directory of the server command."),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=30.0,
            show_default=True,
            help="Seconds a live server has to start and list its tools.",
        ),
        click.option(
            "--client-capabilities",
            "capabilities",
            metavar="LIST",
            help="What the client declares to a live server: roots,sampling,elicitation (default: none).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@main.command("budget", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option("--max-chars", type=click.IntRange(min=0), required=True, help="Largest list size allowed.")
@click.option("--max-tokens", type=click.IntRange(min=0), help="Largest o200k_base token count allowed.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "github"]),
    default="text",
    show_default=True,
    help="github: annotations, and a summary table appended to $GITHUB_STEP_SUMMARY (else printed).",
)
@_server_options
@click.pass_context
def budget_command(
    ctx: click.Context,
    surface: str | None,
    max_chars: int,
    max_tokens: int | None,
    fmt: str,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
) -> None:
    """Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured.

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...
    """
    from harness.live import live_target
    from harness.measure import check_budget
    from harness.surface import resolve

    source: str | None = None
    try:
        server = live_target(surface, ctx.meta.get("server_argv"), url, headers, envs, cwd, capabilities)
        if server is None:
            assert surface is not None
            item = resolve(surface)
        else:
            from harness.live import skip_final_collection, take_snapshot

            taken = take_snapshot(None, server, capabilities=capabilities, timeout=timeout)
            item, source = taken.as_snapshot(), taken.source_label
        result = check_budget(item, max_chars, max_tokens)
        if server is not None:
            skip_final_collection()
    except ToolsurfaceError as error:
        if fmt == "github":
            from harness.live import github_escape

            _out(f"::error title=Tool list budget::{github_escape(f'cannot measure: {error}')}")
        raise
    if fmt == "github":
        _budget_github(result, source)
    else:
        _budget_text(result)
    if not result.within:
        raise SystemExit(1)


def _budget_text(result: Any) -> None:
    figure = f"{result.chars:,} chars"
    limit = f"{result.max_chars:,} chars"
    if result.tokens is not None and result.max_tokens is not None:
        figure += f", {result.tokens:,} tokens"
        limit += f", {result.max_tokens:,} tokens"
    if result.within:
        _out(f"{result.surface}: {result.tools} tools, {figure}: within budget ({limit})")
        return
    _out("largest tools: " + ", ".join(f"{t.name} {t.chars:,} chars" for t in result.largest))
    over = []
    if result.chars_over:
        over.append(f"{result.chars_over:,} chars ({result.chars_over / max(result.max_chars, 1):.1%})")
    if result.tokens_over:
        over.append(f"{result.tokens_over:,} tokens")
    _out(f"{result.surface}: {result.tools} tools, {figure}: over budget ({limit}) by {' and '.join(over)}")


def _budget_github(result: Any, source: str | None) -> None:
    import os

    from harness.live import github_annotation, github_summary

    _out(github_annotation(result))
    summary = github_summary(result, source)
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        _data(summary, nl=False)
        return
    try:
        with open(target, "a", encoding="utf-8") as out:
            out.write(summary)
    except OSError as error:
        raise ToolsurfaceError(f"cannot append to $GITHUB_STEP_SUMMARY ({target}): {error.strerror or error}") from None


@main.command("serve")
@click.argument("surface")
@click.option(
    "--fixture", type=click.Path(dir_okay=False, path_type=Path), help="Project fixture (default: the surface's own)."
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), help="Append a JSONL record per call."
)
@click.option(
    "--state", type=click.Path(dir_okay=False, path_type=Path), help="Write the final project state here on shutdown."
)
@click.option("--http", "http", metavar="HOST:PORT", help="Serve streamable HTTP on loopback instead of stdio.")
@click.option("--page-size", type=click.IntRange(min=1), help="Tools per tools/list page (default: all in one).")
@click.option(
    "--unknown-tool",
    type=click.Choice(["result", "error"]),
    default="result",
    show_default=True,
    help="Answer a call of a tool the surface lacks with an isError result naming the tools, or with the"
    " JSON-RPC error -32602 the specification lists.",
)
def serve_command(
    surface: str,
    fixture: Path | None,
    log_path: Path | None,
    state: Path | None,
    http: str | None,
    page_size: int | None,
    unknown_tool: str,
) -> None:
    """Serve a surface from a fixed project over stdio (or HTTP), refusing like the real server, logging every call."""
    from stubs.serve import serve

    serve(
        surface,
        fixture=fixture,
        log_path=log_path,
        state_path=state,
        http=http,
        page_size=page_size,
        unknown_tool=unknown_tool,
    )


@main.command("snapshot", cls=_ServerCommand)
@click.argument("surface", required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the tools here (a .json file, then a surface everywhere) and FILE.meta.json beside it.",
)
@_server_options
@click.pass_context
def snapshot_command(
    ctx: click.Context,
    surface: str | None,
    output: Path | None,
    url: str | None,
    headers: tuple[str, ...],
    envs: tuple[str, ...],
    cwd: Path | None,
    timeout: float,
    capabilities: str | None,
) -> None:
    """Record a tool list exactly as a client receives it: {"tools": [...]} (stdout, or -o FILE with a sidecar).

    SURFACE is a surface name, module or snapshot file; or list a live server with --url URL or -- CMD ARGS...
    (the command is started in its own process group, which is ended afterwards, whatever happens).
    """
    from harness.live import live_target, skip_final_collection, take_snapshot

    server = live_target(surface, ctx.meta.get("server_argv"), url, headers, envs, cwd, capabilities)
    taken = take_snapshot(surface, server, capabilities=capabilities, timeout=timeout)
    skip_final_collection()
    noise = taken.meta.get("stdout_noise") or []
    if noise:
        _say(f"toolsurface: warning: the server wrote lines to stdout that are not JSON-RPC: {noise[0]!r}")
    if output is None:
        _data(taken.text(), nl=False)
        return
    written = taken.write(output)
    _say(f"wrote {', '.join(str(p) for p in written)} ({len(taken.tools)} tools)")


@main.command("findability")
@click.argument("surfaces", nargs=-1)
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path), help="Queries JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings (tasks -> task) before matching.")
def findability_command(surfaces: tuple[str, ...], queries_file: Path | None, fmt: str, stem: bool) -> None:
    """Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces)."""
    from harness.analyze import _findability as fa
    from harness.surface import BUNDLED_ORDER, resolve_all

    result = fa.findability(resolve_all(surfaces or BUNDLED_ORDER), fa.load_queries(queries_file), use_stem=stem)
    _emit(fmt, result, fa.findability_rich, fa.findability_json, fa.findability_csv)


@main.command("roundtrip")
@click.argument("surfaces", nargs=-1)
@click.option("--task", "task_file", type=click.Path(dir_okay=False, path_type=Path), help="Round-trip task JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings when a step's tool is chosen by keyword.")
def roundtrip_command(surfaces: tuple[str, ...], task_file: Path | None, fmt: str, stem: bool) -> None:
    """What an on-demand client loads for a task, against the whole list (default: the bundled surfaces)."""
    from harness.analyze import _roundtrip as rt
    from harness.surface import BUNDLED_ORDER, resolve_all

    result = rt.roundtrip(resolve_all(surfaces or BUNDLED_ORDER), rt.load_task(task_file), use_stem=stem)
    _emit(fmt, result, rt.roundtrip_rich, rt.roundtrip_json, rt.roundtrip_csv)


@main.command("diff")
@click.argument("a")
@click.argument("b")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "any"]),
    help="Exit 1 on a breaking change, or on any difference at all.",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table", show_default=True)
def diff_command(a: str, b: str, fail_on: str | None, fmt: str) -> None:
    """Compare two tool lists per tool: added, removed, changed, breaking or not, and what each costs."""
    from harness.analyze import diff_json, diff_markdown, diff_rich, diff_surfaces
    from harness.surface import resolve

    result = diff_surfaces(resolve(a), resolve(b), a_label=a, b_label=b)
    if fmt == "json":
        _data(diff_json(result), nl=False)
    elif fmt == "markdown":
        _data(diff_markdown(result), nl=False)
    else:
        _print(diff_rich(result))
    if result.fails(fail_on):
        raise SystemExit(1)


@main.command("lint")
@click.argument("surfaces", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def lint_command(surfaces: tuple[str, ...], fmt: str) -> None:
    """Find inconsistencies across each surface's tools: addressing, tokens, patch rules, flags, names, hints."""
    import json

    from harness.analyze import lint, lint_rich
    from harness.surface import resolve_all

    result = lint(resolve_all(surfaces))
    if fmt == "json":
        _data(json.dumps(result.to_json(), indent=2))
        return
    _print(lint_rich(result))


@main.group("session")
def session_group() -> None:
    """Run agents against the stubs, score refused calls and outcomes, replay recorded runs."""


@session_group.command("run")
@click.option("--surface", "surfaces", multiple=True, required=True, help="Surface to run against; repeat for more.")
@click.option(
    "--agent",
    "agent_names",
    multiple=True,
    required=True,
    help="claude, codex, gemini, openai or script, optionally NAME:MODE (claude:full-list); repeat for more.",
)
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs per surface.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs at a time.")
@click.option("--scenario", default="six-tasks", show_default=True, help="Scenario name or JSON file.")
@click.option("--timeout", type=click.FloatRange(min=1), default=600, show_default=True, help="Seconds per run.")
@click.option("--shard", help="I/N: run the I-th of N slices of the run matrix.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("study"), show_default=True)
@click.option("--mode", help="Mode of every --agent given without one; claude: on-demand (the default) or full-list.")
@click.option("--model", help="Model name for the agent.")
@click.option("--max-turns", type=click.IntRange(min=1), default=30, show_default=True)
@click.option(
    "--script",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The script to play (script agent or scripted model).",
)
@click.option(
    "--base-url",
    help="openai agent: the chat-completions endpoint, e.g. http://localhost:11434/v1; codex: its API base URL.",
)
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="openai agent: key variable.")
@click.option(
    "--model-endpoint",
    metavar="scripted|record:URL",
    help="scripted: a model on 127.0.0.1 plays the scenario's script inside the real agent CLI (no key needed);"
    " record:URL: pass the agent's requests through to the API at URL and record them. Either way"
    " model-requests.jsonl keeps what the model was shown.",
)
@click.option(
    "--keep-agent-files", is_flag=True, help="Keep what an agent CLI leaves in your home (~/.claude/projects/...)."
)
@click.option(
    "--stub-start",
    type=click.Choice(["auto", "fork", "spawn"]),
    default="auto",
    show_default=True,
    help="fork: each run's stub forks from one warm server (about 0.4 s less CPU a run; Linux); spawn: a fresh"
    " process a run; auto: fork where toolsurface's own client starts the stub (script, openai).",
)
def session_run_command(
    surfaces: tuple[str, ...],
    agent_names: tuple[str, ...],
    runs: int,
    jobs: int,
    scenario: str,
    timeout: float,
    shard: str | None,
    out: Path,
    mode: str | None,
    model: str | None,
    max_turns: int,
    script: Path | None,
    base_url: str | None,
    api_key_env: str,
    model_endpoint: str | None,
    keep_agent_files: bool,
    stub_start: str,
) -> None:
    """Run N sessions per surface with each agent and write DIR/study.json."""
    from harness.agents import make_agent
    from harness.endpoint import parse_endpoint
    from harness.scenario import load_scenario
    from harness.session import (
        AgentChoice,
        StubStarter,
        StudyConfig,
        find_runs,
        parse_agent_choice,
        parse_shard,
        plan_study,
        run_study,
        score_study,
        study_markdown,
        write_json_atomic,
    )

    choices = []
    for text in agent_names:
        name, own_mode = parse_agent_choice(text)
        agent = make_agent(name, model=model, base_url=base_url, api_key_env=api_key_env)
        choices.append(AgentChoice(name, agent, own_mode or mode or agent.modes[0]))
    config = StudyConfig(
        surfaces=surfaces,
        agents=choices,
        scenario=load_scenario(scenario),
        runs=runs,
        out=out,
        jobs=jobs,
        timeout=timeout,
        model=model,
        max_turns=max_turns,
        script=script,
        shard=parse_shard(shard) if shard else None,
        stub_start=stub_start,
        model_endpoint=parse_endpoint(model_endpoint) if model_endpoint else None,
        keep_agent_files=keep_agent_files,
    )
    with StubStarter(config) as stubs:
        planned = plan_study(config)
        with _study_progress(f"{', '.join(agent_names)} on {', '.join(surfaces)}", len(planned)) as finished:
            try:
                records = run_study(config, planned, finished, stubs)
            except KeyboardInterrupt:
                _fail(f"interrupted; finished runs are kept in {config.out} and a rerun resumes")
    study = score_study(find_runs([config.out]))
    write_json_atomic(config.out / "study.json", study.to_json())
    click.echo(study_markdown(study).rstrip("\n"))
    click.echo(f"wrote {config.out / 'study.json'}", err=True)
    failed = [r for r in records if r.result.status != "ok"]
    if failed:
        counts = ", ".join(
            f"{status} {sum(1 for r in failed if r.result.status == status)}"
            for status in sorted({r.result.status for r in failed})
        )
        click.echo(
            f"toolsurface: {len(failed)} of {len(records)} runs did not end ok ({counts}): first error: "
            f"{failed[0].result.error}; a rerun into {config.out} runs them again",
            err=True,
        )
        raise SystemExit(1)


@contextlib.contextmanager
def _study_progress(title: str, total: int) -> Iterator[Callable[[Any, Any], None]]:
    """A progress bar on a terminal; elsewhere (CI logs) one line per finished run on stderr."""
    if sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, transient=True) as progress:
            task = progress.add_task(title, total=total)
            yield lambda run, record: progress.advance(task)
        return

    def line(run: Any, record: Any) -> None:
        spec, result = record.spec, record.result
        error = f" ({result.error})" if result.error else ""
        click.echo(
            f"{spec.surface} {spec.agent} {spec.mode} r{spec.run_index + 1}: {result.status}, {result.calls} calls,"
            f" {result.refused} refused, {len(result.undelivered)} undelivered, {result.duration_s:.1f} s{error}",
            err=True,
        )

    yield line


@session_group.command("score")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write study.json here.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True)
def session_score_command(dirs: tuple[Path, ...], out: Path | None, fmt: str) -> None:
    """Score recorded runs (study or run directories, shards merged) without running anything."""
    import json

    from harness.session import find_runs, score_study, study_markdown, write_json_atomic

    study = score_study(find_runs(dirs))
    if out is not None:
        write_json_atomic(out, study.to_json())
    click.echo(json.dumps(study.to_json(), indent=2) if fmt == "json" else study_markdown(study), nl=fmt == "json")


@session_group.command("replay")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--surface", required=True, help="The surface whose stub answers the recorded calls.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def session_replay_command(run_dirs: tuple[Path, ...], surface: str, fmt: str) -> None:
    """Play recorded runs' tool calls against another surface's stub; list what would change."""
    import json

    from harness.session import replay_runs, replay_table

    result = replay_runs(list(run_dirs), surface)
    click.echo(json.dumps(result.to_json(), indent=2) if fmt == "json" else replay_table(result), nl=fmt == "json")


@main.command("model-endpoint")
@click.argument("endpoint", metavar="scripted|record:URL")
@click.option("--surface", help="scripted: play the scenario's script for this surface.")
@click.option(
    "--scenario", default="six-tasks", show_default=True, help="scripted: the scenario whose script is played."
)
@click.option("--script", type=click.Path(dir_okay=False, path_type=Path), help="scripted: play this script file.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("model-requests.jsonl"),
    show_default=True,
    help="Append a record per model request here.",
)
@click.option(
    "--port", type=click.IntRange(min=0, max=65535), default=0, help="Port on 127.0.0.1 (default: a free one)."
)
def model_endpoint_command(
    endpoint: str, surface: str | None, scenario: str, script: Path | None, log_path: Path, port: int
) -> None:
    """Serve a model endpoint on 127.0.0.1 until stopped; print its URL first.

    Point an agent at it by hand (ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL, codex's openai_base_url = URL/v1).
    """
    import signal
    import threading

    from harness.endpoint import ModelEndpoint, parse_endpoint
    from harness.scenario import load_scenario, load_script, sessions_dir

    spec = parse_endpoint(endpoint)
    loaded = load_scenario(scenario)
    if spec.kind == "scripted":
        if script is None and surface is None:
            raise ToolsurfaceError(
                "model-endpoint scripted: pass --surface S (its script for --scenario) or --script FILE"
            )
        path = script or sessions_dir() / "scripts" / loaded.name / f"{surface}.json"
        if not path.is_file():
            raise ToolsurfaceError(
                f"model-endpoint scripted: no script {path} for scenario {loaded.name} and surface {surface}"
            )
        server = ModelEndpoint(log_path, steps=load_script(path), prompt=loaded.prompt, port=port)
    else:
        server = ModelEndpoint(log_path, upstream=spec.upstream, prompt=loaded.prompt, port=port)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *_: stop.set())
    with server:
        click.echo(server.url)
        click.echo(f"serving the {spec} model endpoint at {server.url}; records in {log_path}", err=True)
        while not stop.wait(0.5):
            pass


@main.command("report")
@click.argument("runs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("report"), show_default=True)
@click.option("--html", "html_page", is_flag=True, help="Also write one self-contained report.html.")
@click.option("--surface", "surfaces", multiple=True, help="Surfaces to measure (default: the bundled four).")
def report_command(runs: tuple[Path, ...], out: Path, html_page: bool, surfaces: tuple[str, ...]) -> None:
    """Write report.md, CSV/JSON of every table and PNG charts from measurements and recorded runs."""
    from harness.report import build_report

    report = build_report(list(runs), out, surfaces=surfaces or None, html_page=html_page)
    _out(f"wrote {len(report.files)} files to {out}: report.md" + (", report.html" if html_page else ""))


if __name__ == "__main__":
    main()
