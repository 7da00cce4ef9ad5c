"""The toolsurface command line: parses, calls the library, renders. Heavy imports stay inside commands."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from harness.errors import ToolsurfaceError

__all__ = ["main"]


class _Group(click.Group):
    """Errors a user can cause end with one line on stderr and exit 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToolsurfaceError as error:
            _fail(str(error))
        except KeyboardInterrupt:
            _fail("interrupted")
        except BrokenPipeError:
            sys.stderr.close()
            raise SystemExit(1) from None


def _fail(message: str) -> NoReturn:
    click.echo(f"toolsurface: {message}", err=True)
    raise SystemExit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolsurface")
def main() -> None:
    """Measure what an MCP tool list costs connected agents."""


def _print(renderables: Sequence[Any]) -> None:
    from rich.console import Console

    console = Console(soft_wrap=False)
    for renderable in renderables:
        console.print(renderable)


@main.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_command(fmt: str) -> None:
    """List the surfaces that are installed, bundled ones first."""
    import json

    from harness.registry import known_names, resolve
    from harness.surface import SurfaceDefinition

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
        click.echo(json.dumps({"surfaces": rows}, indent=2))
        return
    from rich.table import Table

    table = Table(title="Surfaces")
    for column in ("name", "title", "kinds", "purpose"):
        table.add_column(column)
    for d in definitions:
        kinds = ", ".join(k.name for k in d.kinds) + (f" (+{d.growth_kind.name})" if d.growth_kind else "")
        table.add_row(d.name, d.title, kinds, d.purpose)
    _print([table])


def _write_outputs(out: Path, files: dict[str, str]) -> list[Path]:
    """Write every file next to its final name first, then rename, so no half-written file looks complete."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        staged = []
        for name, text in files.items():
            partial = out / f".{name}.partial"
            partial.write_text(text, encoding="utf-8")
            staged.append((partial, out / name))
        for partial, final in staged:
            partial.replace(final)
    except OSError as error:
        raise ToolsurfaceError(f"cannot write to {out}: {error.strerror or error}") from None
    return [final for _, final in staged]


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
    from harness import measure_render as render
    from harness.measure import measure
    from harness.registry import BUNDLED_ORDER, resolve_all

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
        click.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)
    if fmt == "json":
        click.echo(render.measure_json(result), nl=False)
    elif fmt == "csv":
        click.echo(render.per_tool_csv(result) if per_tool else render.measure_csv(result), nl=False)
    elif fmt == "markdown":
        click.echo(render.measure_markdown(result, per_tool=per_tool), nl=False)
    else:
        _print(render.measure_rich(result, per_tool=per_tool))


@main.command("budget")
@click.argument("surface")
@click.option("--max-chars", type=click.IntRange(min=0), required=True, help="Largest list size allowed.")
@click.option("--max-tokens", type=click.IntRange(min=0), help="Largest o200k_base token count allowed.")
def budget_command(surface: str, max_chars: int, max_tokens: int | None) -> None:
    """Exit 0 when the list is within its budget, 1 when over, 2 when it cannot be measured."""
    from harness.budget import check_budget
    from harness.registry import resolve

    result = check_budget(resolve(surface), max_chars, max_tokens)
    figure = f"{result.chars:,} chars"
    limit = f"{result.max_chars:,} chars"
    if result.tokens is not None and result.max_tokens is not None:
        figure += f", {result.tokens:,} tokens"
        limit += f", {result.max_tokens:,} tokens"
    if result.within:
        click.echo(f"{result.surface}: {result.tools} tools, {figure}: within budget ({limit})")
        return
    click.echo("largest tools: " + ", ".join(f"{t.name} {t.chars:,} chars" for t in result.largest))
    over = []
    if result.chars_over:
        over.append(f"{result.chars_over:,} chars ({result.chars_over / max(result.max_chars, 1):.1%})")
    if result.tokens_over:
        over.append(f"{result.tokens_over:,} tokens")
    click.echo(f"{result.surface}: {result.tools} tools, {figure}: over budget ({limit}) by {' and '.join(over)}")
    raise SystemExit(1)


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
def serve_command(
    surface: str,
    fixture: Path | None,
    log_path: Path | None,
    state: Path | None,
    http: str | None,
    page_size: int | None,
) -> None:
    """Serve a surface from a fixed project over stdio (or HTTP), refusing like the real server, logging every call."""
    from harness.serving import serve

    serve(surface, fixture=fixture, log_path=log_path, state_path=state, http=http, page_size=page_size)


@main.command("findability")
@click.argument("surfaces", nargs=-1)
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path), help="Queries JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings (tasks -> task) before matching.")
def findability_command(surfaces: tuple[str, ...], queries_file: Path | None, fmt: str, stem: bool) -> None:
    """Rank each surface's tools for queries as on-demand tool search would (default: the bundled surfaces)."""
    from harness import findability as fa
    from harness.registry import BUNDLED_ORDER, resolve_all

    result = fa.findability(resolve_all(surfaces or BUNDLED_ORDER), fa.load_queries(queries_file), use_stem=stem)
    if fmt == "table":
        _print(fa.findability_rich(result))
    else:
        click.echo(fa.findability_json(result) if fmt == "json" else fa.findability_csv(result), nl=False)


@main.command("roundtrip")
@click.argument("surfaces", nargs=-1)
@click.option("--task", "task_file", type=click.Path(dir_okay=False, path_type=Path), help="Round-trip task JSON.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--stem", is_flag=True, help="Fold plurals and endings when a step's tool is chosen by keyword.")
def roundtrip_command(surfaces: tuple[str, ...], task_file: Path | None, fmt: str, stem: bool) -> None:
    """What an on-demand client loads for a task, against the whole list (default: the bundled surfaces)."""
    from harness import roundtrip as rt
    from harness.registry import BUNDLED_ORDER, resolve_all

    result = rt.roundtrip(resolve_all(surfaces or BUNDLED_ORDER), rt.load_task(task_file), use_stem=stem)
    if fmt == "table":
        _print(rt.roundtrip_rich(result))
    else:
        click.echo(rt.roundtrip_json(result) if fmt == "json" else rt.roundtrip_csv(result), nl=False)


@main.command("lint")
@click.argument("surfaces", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def lint_command(surfaces: tuple[str, ...], fmt: str) -> None:
    """Find inconsistencies across each surface's tools: addressing, tokens, patch rules, flags, names, hints."""
    import json

    from harness.lint import lint, lint_rich
    from harness.registry import resolve_all

    result = lint(resolve_all(surfaces))
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    _print(lint_rich(result))


@main.group("session")
def session_group() -> None:
    """Run agents against the stubs, score refused calls and outcomes, replay recorded runs."""


@session_group.command("run")
@click.option("--surface", "surfaces", multiple=True, required=True, help="Surface to run against; repeat for more.")
@click.option("--agent", "agent_name", required=True, help="claude, codex, gemini, openai or script.")
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs per surface.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs at a time.")
@click.option("--scenario", default="six-tasks", show_default=True, help="Scenario name or JSON file.")
@click.option("--timeout", type=click.FloatRange(min=1), default=600, show_default=True, help="Seconds per run.")
@click.option("--shard", help="I/N: run the I-th of N slices of the run matrix.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("study"), show_default=True)
@click.option("--mode", help="claude: on-demand (tool search, the default) or full-list.")
@click.option("--model", help="Model name for the agent.")
@click.option("--max-turns", type=click.IntRange(min=1), default=30, show_default=True)
@click.option("--script", type=click.Path(dir_okay=False, path_type=Path), help="script agent: the calls to play.")
@click.option("--base-url", help="openai agent: the chat-completions endpoint, e.g. http://localhost:11434/v1.")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="openai agent: key variable.")
def session_run_command(
    surfaces: tuple[str, ...],
    agent_name: str,
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
) -> None:
    """Run N sessions per surface with one agent and write DIR/study.json."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from harness.agents import make_agent
    from harness.run_record import write_json_atomic
    from harness.scenario import load_scenario
    from harness.scoring import find_runs, score_study, study_markdown
    from harness.session import StudyConfig, parse_shard, plan_study, run_study

    agent = make_agent(agent_name, model=model, base_url=base_url, api_key_env=api_key_env)
    config = StudyConfig(
        surfaces=surfaces,
        agent_name=agent_name,
        agent=agent,
        scenario=load_scenario(scenario),
        runs=runs,
        out=out,
        jobs=jobs,
        timeout=timeout,
        mode=mode or agent.modes[0],
        model=model,
        max_turns=max_turns,
        script=script,
        shard=parse_shard(shard) if shard else None,
    )
    planned = plan_study(config)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task(f"{agent_name} on {', '.join(surfaces)}", total=len(planned))
        try:
            run_study(config, planned, lambda run, record: progress.advance(task))
        except KeyboardInterrupt:
            _fail(f"interrupted; finished runs are kept in {out} and a rerun resumes")
    study = score_study(find_runs([out]))
    write_json_atomic(out / "study.json", study.to_json())
    click.echo(study_markdown(study).rstrip("\n"))
    click.echo(f"wrote {out / 'study.json'}", err=True)


@session_group.command("score")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write study.json here.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True)
def session_score_command(dirs: tuple[Path, ...], out: Path | None, fmt: str) -> None:
    """Score recorded runs (study or run directories, shards merged) without running anything."""
    import json

    from harness.run_record import write_json_atomic
    from harness.scoring import find_runs, score_study, study_markdown

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

    from harness.replay import replay_runs, replay_table

    result = replay_runs(list(run_dirs), surface)
    click.echo(json.dumps(result.to_json(), indent=2) if fmt == "json" else replay_table(result), nl=fmt == "json")


@main.command("report")
@click.argument("runs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("report"), show_default=True)
@click.option("--html", "html_page", is_flag=True, help="Also write one self-contained report.html.")
@click.option("--surface", "surfaces", multiple=True, help="Surfaces to measure (default: the bundled four).")
def report_command(runs: tuple[Path, ...], out: Path, html_page: bool, surfaces: tuple[str, ...]) -> None:
    """Write report.md, CSV/JSON of every table and PNG charts from measurements and recorded runs."""
    from harness.report import build_report

    report = build_report(list(runs), out, surfaces=surfaces or None, html_page=html_page)
    click.echo(f"wrote {len(report.files)} files to {out}: report.md" + (", report.html" if html_page else ""))


if __name__ == "__main__":
    main()
