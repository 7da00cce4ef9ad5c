"""What every verb shares: the group (harness.cli._group), output that survives a full disk, the server options."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolsurface.harness.cli._group import Command
from toolsurface.harness.cli._group import _fail as _fail
from toolsurface.harness.cli._group import _say as _say
from toolsurface.harness.cli._group import end_at_once as end_at_once
from toolsurface.harness.cli._group import main as main
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.output import View

__all__ = ["CHECK_FORMATS", "TABLE_FORMATS", "Seconds", "main"]

# What a command that prints a table offers (each where it makes sense for its data), and beside them what a
# command whose check can fail offers: GitHub annotations with a job summary, and JUnit XML.
TABLE_FORMATS = ("table", "json", "csv", "markdown")
CHECK_FORMATS = ("github", "junit")


def _out(text: str, nl: bool = True) -> None:
    """A line for a person on stdout, its control characters shown, not obeyed."""
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(text), nl=nl)


def _data(text: str, nl: bool = True) -> None:
    """JSON, CSV or markdown on stdout, exact, unless stdout is a terminal: then as _out."""
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(text) if sys.stdout is not None and sys.stdout.isatty() else text, nl=nl)


def _print(renderables: Sequence[Any]) -> None:
    """Rich tables on stdout. On a terminal they fit its width; elsewhere (a pipe, a file, a CI log) they
    take the width they need, or COLUMNS when it is set. A cell too wide for its column wraps (a word too
    long is folded onto the next line), so none is cut short."""
    from toolsurface.harness.terminal import readable_width, safe_console, wrapped_not_cut

    console = safe_console(soft_wrap=False)
    renderables = [wrapped_not_cut(r) for r in renderables]
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        console.width = readable_width(console, renderables)
    for renderable in renderables:
        console.print(renderable)


# What each format is, said where a command says nothing more of its own.
_FORMAT_WORDS = {
    "table": "tables for a terminal",
    "json": "one JSON document",
    "csv": "CSV rows",
    "markdown": "markdown tables",
    "github": "GitHub Actions annotations and a job summary",
    "junit": "JUnit XML",
    "sarif": "SARIF 2.1.0",
}


def _format_option(*formats: str, default: str = "table", help: str | None = None) -> Callable[[Any], Any]:
    """--format, its choices in the order of TABLE_FORMATS and CHECK_FORMATS; its help says each format unless
    the command says its own."""
    said = help or "How to print the result: " + "; ".join(f"{f}, {_FORMAT_WORDS.get(f, f)}" for f in formats) + "."
    return click.option("--format", "fmt", type=click.Choice(formats), default=default, show_default=True, help=said)


def _show(fmt: str, view: View, **others: Callable[[], str]) -> None:
    """A result's view in the format asked for (harness.output.render); `others`: the text of each format a
    check offers beside the tables (junit, sarif), by its name."""
    from toolsurface.harness.output import render

    made = others.get(fmt)
    _shown(made() if made is not None else render(view, fmt))


def _shown(rendered: str | Sequence[Any]) -> None:
    """Text exact on stdout (as _data), rich renderables fitted to the terminal (as _print)."""
    if isinstance(rendered, str):
        _data(rendered, nl=False)
    else:
        _print(rendered)


def _github(annotations: Sequence[str], summary: str) -> None:
    """A check as GitHub Actions shows it: annotations on stdout, the summary appended to the job's."""
    for line in annotations:
        _out(line)
    _step_summary(summary)


def _step_summary(summary: str) -> None:
    """A GitHub job summary appended to $GITHUB_STEP_SUMMARY, or printed when there is none (not in Actions);
    a secret it shows in any form harness.redact knows is redacted."""
    from toolsurface.harness.redact import redacted_text

    summary = redacted_text(summary)
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        _data(summary, nl=False)
        return
    try:
        with open(target, "a", encoding="utf-8") as out:
            out.write(summary)
    except OSError as error:
        raise ToolsurfaceError(f"cannot append to $GITHUB_STEP_SUMMARY ({target}): {error.strerror or error}") from None


def _config_option(command: Any) -> Any:
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False, path_type=Path),
        help="The configuration file (default: toolsurface.toml or pyproject.toml [tool.toolsurface], found upward).",
    )(command)


def _write_outputs(out: Path, files: dict[str, str]) -> list[Path]:
    """The files of one result, all written or none."""
    from toolsurface.harness.files import ensure_directory, write_atomic_all

    ensure_directory(out)
    return write_atomic_all([(out / name, text) for name, text in files.items()])


class _ServerCommand(Command):
    """A command that can list a live server: everything after `--` is the server's command line, never ours."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            at = args.index("--")
            ctx.meta["server_argv"] = tuple(args[at + 1 :])
            args = args[:at]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [*super().collect_usage_pieces(ctx), "[--url URL | -- CMD [ARGS]...]"]


def _protocol_option(command: Any) -> Any:
    from toolsurface.harness.protocol import DEFAULT_PROTOCOL, MODERN_PROTOCOL, PROTOCOL_VERSIONS

    return click.option(
        "--protocol",
        type=click.Choice(PROTOCOL_VERSIONS),
        help=f"The MCP protocol version to list in: {DEFAULT_PROTOCOL} (the handshake era, the default) or"
        f" {MODERN_PROTOCOL} (stateless; key order inside a tool differs). Without it, a live server that"
        f" refuses the handshake is listed in {MODERN_PROTOCOL}; configured targets take their `protocol`.",
    )(command)


# The listing's timeout (harness.live.DEFAULT_TIMEOUT_S, which a test holds equal), without importing the listing.
DEFAULT_LISTING_TIMEOUT_S = 30.0


class Seconds(click.FloatRange):
    """A number of seconds: within the range, and finite (nan passes every comparison, inf never ends)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


def _server_options(command: Any) -> Any:
    """--url, --header, --transport, --env, --cwd, --timeout and --client-capabilities, shared by every verb that takes a
    live server: the command gets them, with the server command after --, as one `live`
    (harness.live.LiveServerOptions)."""
    return _live_options(command, timeout=True)


def _server_options_untimed(command: Any) -> Any:
    """The server options of a verb that has a --timeout of its own (clients, each session's): the listing's is
    --list-timeout."""
    return _live_options(command, timeout=False)


def _live_options(command: Any, timeout: bool) -> Any:
    import functools

    @functools.wraps(command)
    def with_live(
        *args: Any,
        url: str | None,
        headers: tuple[str, ...],
        envs: tuple[str, ...],
        cwd: Path | None,
        capabilities: str | None,
        live_name: str | None,
        transport: str,
        **kwargs: Any,
    ) -> Any:
        from toolsurface.harness.live import LiveServerOptions
        from toolsurface.harness.surface import given_server_name

        ctx = click.get_current_context()
        option = "timeout" if timeout else "list_timeout"
        seconds = kwargs.pop(option)
        given = ctx.get_parameter_source(option) == click.core.ParameterSource.COMMANDLINE
        name = given_server_name(live_name) if live_name is not None else None
        live = LiveServerOptions(
            ctx.meta.get("server_argv"),
            url,
            headers,
            envs,
            cwd,
            seconds,
            capabilities,
            given,
            transport=transport,
            name=name,
        )
        return command(*args, live=live, **kwargs)

    from toolsurface.harness.protocol import AUTO, TRANSPORTS, TRANSPORTS_HELP

    options = [
        click.option(
            "--url", metavar="URL", help="List the MCP server at this URL (Streamable HTTP or HTTP+SSE), not a surface."
        ),
        click.option("--header", "headers", multiple=True, metavar="NAME:VALUE", help="HTTP header for --url; repeat."),
        click.option(
            "--transport", type=click.Choice(TRANSPORTS), default=AUTO, show_default=True, help=TRANSPORTS_HELP
        ),
        click.option(
            "--env",
            "envs",
            multiple=True,
            metavar="NAME=VALUE",
            help="Add to the server command's environment; repeat.",
        ),
        click.option("--cwd", type=click.Path(path_type=Path), help="Working directory of the server command."),
        click.option(
            "--timeout" if timeout else "--list-timeout",
            type=Seconds(min=0, min_open=True),
            default=DEFAULT_LISTING_TIMEOUT_S,
            show_default=True,
            help="Seconds a live server has to start and list its tools"
            + ("." if timeout else " (--timeout is each session's)."),
        ),
        click.option(
            "--client-capabilities",
            "capabilities",
            metavar="LIST",
            help="What the client declares to a live server: roots,sampling,elicitation (default: none).",
        ),
        click.option(
            "--name",
            "live_name",
            metavar="NAME",
            help="What to call the live server in every table and file (default: its own serverInfo.name, with"
            " each run of characters other than letters, digits, '.', '_' and '-' made one '-').",
        ),
    ]
    for option in reversed(options):
        with_live = option(with_live)
    return with_live


def _builtins_option(command: Any) -> Any:
    """--builtins off|on, for the commands that run agent CLIs."""
    return click.option(
        "--builtins",
        type=click.Choice(["off", "on"]),
        default="off",
        show_default=True,
        help="off: the agent is offered the server's tools alone (the server measured alone); on: its own tools stay"
        " (what a user's session carries; calls that would ask for a permission are still denied).",
    )(command)


def _client_sessions_options(command: Any) -> Any:
    """--jobs, --timeout and --out, for the commands that run one short session per client and mode."""
    options = [
        click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Sessions at a time."),
        click.option("--timeout", type=Seconds(min=1), default=120, show_default=True, help="Seconds per session."),
        click.option(
            "--out", type=click.Path(file_okay=False, path_type=Path), help="Keep each session's folder here."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command
