"""What every verb shares: the group with its one error path, output that survives a full disk, the server options."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["CHECK_FORMATS", "TABLE_FORMATS", "Seconds", "main"]

# What a command that prints a table offers (each where it makes sense for its data), and beside them what a
# command whose check can fail offers: GitHub annotations with a job summary, and JUnit XML.
TABLE_FORMATS = ("table", "json", "csv", "markdown")
CHECK_FORMATS = ("github", "junit")


class _Group(click.Group):
    """Errors a user can cause end with one line on stderr and exit 2, never a traceback."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
        code: Any = 0
        try:
            return self._main(args, prog_name, **extra)
        except SystemExit as done:
            code = done.code
            raise
        finally:
            # The process's own command line (not the fork server's call, nor a test's) may end at once.
            if args is None and _AT_ONCE:
                _end_now(code)

    def _main(self, args: Sequence[str] | None, prog_name: str | None, **extra: Any) -> Any:
        stdout = sys.stdout
        if stdout is not None and not isinstance(stdout, _Stdout):
            sys.stdout = _Stdout(stdout)
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
        except BrokenPipeError:
            sys.stderr.close()
            raise SystemExit(1) from None
        except OSError as error:  # --help or --version to a stdout that cannot take it
            _fail_on_os_error(error)
        finally:
            if isinstance(sys.stdout, _Stdout):
                sys.stdout = stdout

    def invoke(self, ctx: click.Context) -> Any:
        from toolsurface.harness.notices import collected

        told: list[str] = []
        try:
            try:
                with collected(now=lambda text: _say(f"toolsurface: {text}")) as told:
                    return super().invoke(ctx)
            finally:
                # Here, not at exit, so a stdout that cannot take the output is reported like any error.
                if sys.stdout is not None:
                    sys.stdout.flush()
                # What the library tells without stopping (a cache it cannot write), once, after the output;
                # when the command fails, its error is the one line.
                if sys.exc_info()[0] is None or _is_verdict(sys.exc_info()[1]):
                    for text in told:
                        _say(f"toolsurface: {text}")
        except ToolsurfaceError as error:
            _fail(str(error))
        except KeyboardInterrupt:
            _fail("interrupted")
        except BrokenPipeError:
            sys.stderr.close()
            raise SystemExit(1) from None
        except OSError as error:
            _fail_on_os_error(error)


_AT_ONCE: list[bool] = []


def end_at_once() -> None:
    """The command's process ends as soon as the command does, its output flushed, without the interpreter's
    teardown of every module and object (a stub's 90,000 objects: 0.3 s idle, seconds at a load of 8, which
    a client waiting for it to stop would not wait)."""
    _AT_ONCE.append(True)


def _end_now(code: Any) -> NoReturn:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


def _is_verdict(error: BaseException | None) -> bool:
    """An exit that is the command's answer (1: over budget, a gate not met), not a failure."""
    if isinstance(error, click.exceptions.Exit):
        return error.exit_code in (0, 1)
    return isinstance(error, SystemExit) and error.code in (None, 0, 1)


class _StdoutError(OSError):
    """Writing stdout failed (not some other file, which is named where it failed)."""


class _Stdout:
    """sys.stdout as every writer finds it (click, rich), telling its own failures from any other file's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _StdoutError(error.errno, error.strerror) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _StdoutError(error.errno, error.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _fail_on_os_error(error: OSError) -> NoReturn:
    if isinstance(error, _StdoutError):
        # What is still buffered would fail again when the interpreter exits.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
        _fail(f"cannot write to stdout: {error.strerror or error}")
    where = f"{error.filename}: " if error.filename is not None else ""
    _fail(f"{where}{error.strerror or error}")


def _fail(message: str) -> NoReturn:
    from toolsurface.harness.redact import redacted_text
    from toolsurface.harness.terminal import one_line

    _say(f"toolsurface: {one_line(redacted_text(message))}")
    raise SystemExit(2)


def _say(text: str, nl: bool = True) -> None:
    """A line for a person, on stderr, its control characters shown, not obeyed."""
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(text), err=True, nl=nl)


def _out(text: str, nl: bool = True) -> None:
    """A line for a person on stdout, its control characters shown, not obeyed."""
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(text), nl=nl)


def _data(text: str, nl: bool = True) -> None:
    """JSON, CSV or markdown on stdout, exact, unless stdout is a terminal: then as _out."""
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(text) if sys.stdout is not None and sys.stdout.isatty() else text, nl=nl)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolsurface")
def main() -> None:
    """Measure what an MCP tool list costs connected agents."""


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


def _print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """One rich table of text cells, on stdout as _print puts it."""
    from rich.table import Table

    table = Table(title=title)
    for column in header:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    _print([table])


def _format_option(*formats: str, default: str = "table", help: str | None = None) -> Callable[[Any], Any]:
    """--format, its choices in the order of TABLE_FORMATS and CHECK_FORMATS."""
    return click.option("--format", "fmt", type=click.Choice(formats), default=default, show_default=True, help=help)


def _emit(fmt: str, result: Any, renderers: Mapping[str, Callable[[Any], Any]]) -> None:
    """A result in the format asked for: `table`, the rich renderables its renderer gives, fitted to the
    terminal; any other, the text its renderer gives, exact."""
    rendered = renderers[fmt](result)
    if fmt == "table":
        _print(rendered)
    else:
        _data(rendered, nl=False)


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
