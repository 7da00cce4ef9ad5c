"""Agents against the stubs: session run, score and replay; the model endpoint on its own."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.agents.base import AGENT_HOMES, AgentHome
from toolsurface.harness.cli._base import (
    Seconds,
    _builtins_option,
    _fail,
    _format_option,
    _server_options,
    _ServerCommand,
    main,
)
from toolsurface.harness.cli._client_help import (
    CardHelpOption,
    agent_help,
    base_url_help,
    keep_help,
    mode_help,
    stub_start_help,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.run_folder import MODEL_REQUESTS

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions
    from toolsurface.harness.session.plan import Beside


@main.group("session")
def session_group() -> None:
    """Run agents against the stubs, score refused calls and outcomes, replay recorded runs."""


@session_group.command("run")
@click.option("--surface", "surfaces", multiple=True, required=True, help="Surface to run against; repeat for more.")
@click.option("--agent", "agent_names", multiple=True, required=True, cls=CardHelpOption, card_help=agent_help)
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs per surface.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs at a time.")
@click.option(
    "--scenario",
    default="six-tasks",
    show_default=True,
    help="Scenario name or JSON file (runs of another scenario than six-tasks are named after it).",
)
@click.option("--timeout", type=Seconds(min=1), default=600, show_default=True, help="Seconds per run.")
@click.option("--shard", help="I/N: run the I-th of N slices of the run matrix.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("study"),
    show_default=True,
    help="The study's folder: a folder per run, study.json and plan.json; a run that ended ok there is kept and a"
    " rerun resumes.",
)
@click.option("--mode", cls=CardHelpOption, card_help=mode_help)
@_builtins_option
@click.option("--model", help="Model name for the agent.")
@click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    help="The most model turns one run may take, for each agent that takes a limit; a run that reaches it ends as"
    " an agent error.",
)
@click.option(
    "--script",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The script to play (script agent or scripted model).",
)
@click.option("--base-url", cls=CardHelpOption, card_help=base_url_help)
@click.option(
    "--api-key-env", default="OPENAI_API_KEY", show_default=True, help="The variable holding the --base-url API's key."
)
@click.option(
    "--model-endpoint",
    metavar="scripted|record:URL",
    help="scripted: a model on 127.0.0.1 plays the scenario's script inside the real agent CLI (no key needed);"
    " record:URL: pass the agent's requests through to the API at URL and record them. Either way"
    " model-requests.jsonl keeps what the model was shown.",
)
@click.option("--keep-agent-files", is_flag=True, cls=CardHelpOption, card_help=keep_help)
@click.option(
    "--agent-home",
    type=click.Choice(AGENT_HOMES),
    default="run",
    show_default=True,
    help="run: each agent CLI runs in a home of the run's own (its settings, logins and caches), leaving yours alone;"
    " user: in yours, where each keeps its login (to use that login, not a key, through record:URL or with no"
    " --model-endpoint). spec.json records which.",
)
@click.option(
    "--server-name",
    metavar="NAME",
    help="The server's name in each agent's MCP config, which goes into every tool's name (mcp__NAME__...)."
    " Default: the surface's own (a surface module's name), stub for a bundled surface.",
)
@click.option(
    "--with",
    "beside",
    multiple=True,
    metavar="SURFACE",
    help="Also this server in every agent's MCP config, under its own name (a snapshot's server name, a"
    " surface's own name): a surface or a snapshot file; repeat. Its tools are recorded as each request carried"
    " them; the study's checks stay the surface's.",
)
@click.option(
    "--stub-start",
    type=click.Choice(["auto", "fork", "spawn"]),
    default="auto",
    show_default=True,
    cls=CardHelpOption,
    card_help=stub_start_help,
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
    builtins: str,
    model: str | None,
    max_turns: int,
    script: Path | None,
    base_url: str | None,
    api_key_env: str,
    model_endpoint: str | None,
    keep_agent_files: bool,
    agent_home: AgentHome,
    server_name: str | None,
    beside: tuple[str, ...],
    stub_start: str,
) -> None:
    """Run N sessions per surface with each agent and write DIR/study.json."""
    from toolsurface.harness.endpoint import parse_endpoint
    from toolsurface.harness.output import render
    from toolsurface.harness.scenario import load_scenario
    from toolsurface.harness.session.plan import StudyConfig, parse_shard
    from toolsurface.harness.session.score import study_view
    from toolsurface.harness.session.study import agent_choices, run_session_study

    config = StudyConfig(
        surfaces=surfaces,
        agents=agent_choices(
            agent_names, mode=mode, model=model, builtins=builtins == "on", base_url=base_url, api_key_env=api_key_env
        ),
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
        server_name=server_name,
        neighbours=_beside(beside, server_name),
        agent_home=agent_home,
    )
    with _study_progress(f"{', '.join(agent_names)} on {', '.join(surfaces)}") as (planned, finished):
        try:
            outcome = run_session_study(config, planned, finished)
        except KeyboardInterrupt:
            _fail(f"interrupted; finished runs are kept in {config.out} and a rerun resumes")
    click.echo(render(study_view(outcome.study), "markdown").rstrip("\n"))
    click.echo(f"wrote {outcome.path}", err=True)
    failure = outcome.failure_line()
    if failure is not None:
        click.echo(f"toolsurface: {failure}", err=True)
        raise SystemExit(1)


@contextlib.contextmanager
def _study_progress(title: str) -> Iterator[tuple[Callable[[int], None], Callable[[Any, Any], None]]]:
    """A progress bar on a terminal; elsewhere (CI logs) one line per finished run on stderr."""
    if sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, transient=True) as progress:
            task = progress.add_task(title, total=None)
            yield (lambda total: progress.update(task, total=total)), (lambda run, record: progress.advance(task))
        return

    def line(run: Any, record: Any) -> None:
        spec, result = record.spec, record.result
        error = f" ({result.error})" if result.error else ""
        click.echo(
            f"{spec.surface} {spec.agent} {spec.mode} r{spec.run_index + 1}: {result.status}, {result.calls} calls,"
            f" {result.refused} refused, {len(result.undelivered)} undelivered, {result.duration_s:.1f} s{error}",
            err=True,
        )

    yield (lambda total: None), line


@session_group.command("score", cls=_ServerCommand)
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write study.json here.")
@_format_option(
    "markdown",
    "json",
    default="markdown",
    help="markdown: the study's tables; json: the scored study, as study.json holds it.",
)
@click.option(
    "--surface",
    metavar="NAME|FILE",
    help="Imported sessions: the server's current list (a surface or a snapshot file; or --url, -- CMD), to show"
    " the tools they never called and mark the calls of tools it no longer has.",
)
@_server_options
def session_score_command(
    dirs: tuple[Path, ...], out: Path | None, fmt: str, surface: str | None, live: LiveServerOptions
) -> None:
    """Score recorded runs (study or run directories, shards merged) without running anything.

    DIRS are study folders (session run --out, session import --out) or run folders."""
    from dataclasses import replace

    from toolsurface.harness.cli._base import _show
    from toolsurface.harness.cli._live import _items
    from toolsurface.harness.files import write_json_atomic
    from toolsurface.harness.session.score import find_runs, listed_names, score_study, server_tools, study_view

    study = score_study(find_runs(dirs))
    if surface is not None and live.names_a_server:
        raise ToolsurfaceError("give the server's list once: --surface, --url or -- CMD, not two")
    items = _items([surface] if surface is not None else [], live, None)[0]
    if items:
        study = replace(study, server_tools=server_tools(study, _listed_as(items[0]), listed_names(items[0])))
    if out is not None:
        write_json_atomic(out, study.to_json(out.parent))
    _show(fmt, study_view(study))


def _listed_as(item: Any) -> str:
    """Where a list was read from, in words: a surface by its name, a snapshot or a live server by its source."""
    from toolsurface.harness.surface import Snapshot

    return f"{item.name} ({item.source})" if isinstance(item, Snapshot) else item.name


@session_group.command("merge")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="The merged study folder.")
def session_merge_command(dirs: tuple[Path, ...], out: Path) -> None:
    """Merge the shards of one study (session run --shard I/N) into one folder with one study.json.

    DIRS are the shards' study folders (each session run --out of one shard)."""
    from toolsurface.harness.output import render
    from toolsurface.harness.session.merge import merge_shards
    from toolsurface.harness.session.score import study_view

    outcome = merge_shards(list(dirs), out)
    click.echo(render(study_view(outcome.study), "markdown").rstrip("\n"))
    click.echo(f"merged {outcome.runs} runs of {len(dirs)} shards; wrote {outcome.path}", err=True)


@session_group.command("replay", cls=_ServerCommand)
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--surface",
    help="The surface whose stub answers the recorded calls, or a snapshot file (its calls checked by shape).",
)
@click.option(
    "--mapping",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Which old tool and arguments become which call of the surface (`toolsurface new mapping` writes one).",
)
@click.option(
    "--allow-writes",
    is_flag=True,
    help="A live server (--url, -- CMD): play the calls of every tool, not only of those marked read-only"
    " (readOnlyHint) and not destructive.",
)
@_format_option(
    "table", "json", help="table: what each replayed call would get, for a terminal; json: one JSON document."
)
@_server_options
def session_replay_command(
    run_dirs: tuple[Path, ...],
    surface: str | None,
    mapping: Path | None,
    allow_writes: bool,
    fmt: str,
    live: LiveServerOptions,
) -> None:
    """Play recorded runs' tool calls against another surface's stub or a live server (runs imported without
    --keep-content, and a snapshot, are checked by shape); list what would change.

    RUN_DIRS are run folders, or study folders whose runs are all replayed."""
    from toolsurface.harness.cli._live import live_flags
    from toolsurface.harness.live import live_target, parse_capabilities
    from toolsurface.harness.output import json_document
    from toolsurface.harness.session.replay import read_mapping, replay_live, replay_runs, replay_table

    mapped = read_mapping(mapping) if mapping is not None else None
    server = live_target(surface, live)
    if server is None:
        assert surface is not None
        if allow_writes or live_flags(live):
            flag = "--allow-writes" if allow_writes else live_flags(live)[0]
            raise ToolsurfaceError(f"{flag} goes with a live server: --url URL or -- CMD ARGS...")
        result = replay_runs(list(run_dirs), surface, mapped)
    else:
        result = replay_live(
            list(run_dirs),
            server,
            mapped,
            allow_writes=allow_writes,
            capabilities=parse_capabilities(live.capabilities),
            timeout=live.timeout,
        )
    click.echo(json_document(result.to_json(), ascii=True) if fmt == "json" else replay_table(result), nl=False)


@session_group.command("import")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--server",
    required=True,
    metavar="NAME",
    help="The server whose calls are imported, by its name in the clients' configs.",
)
@click.option("--client", metavar="NAME", help="Only this client's session files (default: every client's).")
@click.option(
    "--since", metavar="DATE", help="Only sessions started on or after DATE (YYYY-MM-DD, or an ISO 8601 time)."
)
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="The imported study's folder."
)
@click.option(
    "--keep-content",
    is_flag=True,
    help="Keep the arguments and answers (secrets redacted); else only their kinds, sizes and digests.",
)
@_format_option("table", "json", help="table: a row per session file read, for a terminal; json: one JSON document.")
def session_import_command(
    paths: tuple[Path, ...], server: str, client: str | None, since: str | None, out: Path, keep_content: bool, fmt: str
) -> None:
    """Import the session files the clients wrote (found where each keeps them, or the PATHs given) as a study
    of the sessions that used server NAME: scored, reported and replayed like a study of runs."""
    from dataclasses import asdict

    from toolsurface.harness.cli._base import _say, _show
    from toolsurface.harness.output import Column, Table, View
    from toolsurface.harness.session.importer import import_sessions, parse_since

    outcome = import_sessions(
        list(paths),
        server,
        out,
        client=client,
        since=parse_since(since) if since is not None else None,
        keep_content=keep_content,
    )
    columns = [
        *(Column(label) for label in ("File", "Client", "Version", "Model")),
        Column("Calls", numeric=True),
        Column("Error answers", numeric=True),
        Column("What became of it"),
    ]
    rows = [
        (
            row.path,
            row.client or "-",
            row.version or "-",
            row.model or "-",
            row.calls,
            row.refused,
            row.run or (f"{row.status}: {row.detail}" if row.detail else row.status),
        )
        for row in outcome.rows
    ]
    data = {"server": server, "out": str(out), "files": [asdict(r) for r in outcome.rows]}
    _show(fmt, View([Table(columns, rows, title=f"Session files, for server {server}")], data=data, ascii=True))
    _say(outcome.summary())


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
    default=Path(MODEL_REQUESTS),
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

    scripted plays a scenario's script as the model (no key needed); record:URL passes each request through to
    the API at URL and records it. Point an agent at it by hand, with its setting for where it sends its model requests (`toolsurface agents
    --format json` gives each client's settings).
    """
    import signal
    import threading

    from toolsurface.harness.agents import EndpointKind
    from toolsurface.harness.endpoint import ModelEndpoint, parse_endpoint
    from toolsurface.harness.scenario import load_scenario, load_script, script_path

    spec = parse_endpoint(endpoint)
    loaded = load_scenario(scenario)
    if spec.kind == EndpointKind.SCRIPTED:
        if script is None and surface is None:
            raise ToolsurfaceError(
                "model-endpoint scripted: pass --surface S (its script for --scenario) or --script FILE"
            )
        if script is None and (surface is None or Path(surface).name != surface or surface in (".", "..")):
            # a name, never a path: `../../x` would make any JSON file the script
            raise ToolsurfaceError(
                f"model-endpoint scripted: --surface {surface!r} is not a surface's name; give a script's path with"
                " --script FILE"
            )
        path = script or script_path(loaded.name, str(surface))
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
        while not stop.wait(0.1):
            if server.log.failed is not None:
                raise server.log.failed  # each request since was answered with the same error


@main.command("gate")
@click.argument("study", type=click.Path(path_type=Path))
@click.option("--baseline", required=True, help="The surface the candidate must beat (e.g. before-v2).")
@click.option("--candidate", required=True, help="The surface under judgement (e.g. v2).")
@click.option(
    "--max-chars",
    type=click.IntRange(min=0),
    help="Largest list the candidate may have (default: half the baseline's).",
)
def gate_command(study: Path, baseline: str, candidate: str, max_chars: int | None) -> None:
    """Judge a study by the seed's gate: exit 0 met, 1 not met, 2 when it cannot be judged.

    The seed is the design page of the bundled study, whose measurements toolsurface rebuilds; its gate for
    the switch to a new tool list is met when the candidate's list is well below the baseline's (at most
    half its characters, or --max-chars) and the candidate's refused calls per run do not rise, in every
    scenario of the study. STUDY is a study folder (session run --out) holding runs of both surfaces; over
    sessions imported from a client's files (session import) the list sizes alone are judged."""
    from toolsurface.harness.measure import measure
    from toolsurface.harness.session.gate import judge_gate
    from toolsurface.harness.session.score import find_runs
    from toolsurface.harness.surface import resolve

    def chars_of(surface: str) -> int:
        return measure([resolve(surface)], tokens=False, growth=False).surfaces[0].chars

    verdict = judge_gate(find_runs([study]), baseline, candidate, chars_of, max_chars)
    for line in verdict.lines():
        click.echo(line)
    if not verdict.met:
        raise SystemExit(1)


def _beside(specs: tuple[str, ...], server_name: str | None) -> tuple[Beside, ...]:
    """The servers --with names, each served and named once, before any session starts."""
    if not specs:
        return ()
    from toolsurface.harness.session.plan import NeighbourSpec, beside_servers

    return tuple(beside_servers([NeighbourSpec(spec) for spec in specs], [server_name] if server_name else []))
