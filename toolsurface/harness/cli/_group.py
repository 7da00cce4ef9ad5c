"""The group every verb belongs to, with its one error path: a user's error is one line on stderr and exit 2,
never a traceback. It is all that `toolsurface --help` imports of the command line."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import click

from toolsurface.harness.errors import ToolsurfaceError

__all__ = ["Command", "Group", "main"]


class _Glossed:
    """A command whose help ends naming the words of toolsurface's own it uses (harness.cli._glossary)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from toolsurface.harness.cli._glossary import glossary_line

        assert isinstance(self, click.Command)
        super().format_epilog(ctx, formatter)  # type: ignore[misc]
        options = [record[1] for p in self.get_params(ctx) if (record := p.get_help_record(ctx)) is not None]
        line = glossary_line("\n".join([self.help or "", self.epilog or "", *options]))
        if line is not None:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(line)


class Command(_Glossed, click.Command):
    """A verb: its help ends naming the words of toolsurface's own it uses."""


class Group(_Glossed, click.Group):
    """A verb that has verbs of its own (session, new), each a Command."""

    command_class = Command


class _Group(_Glossed, click.Group):
    """Errors a user can cause end with one line on stderr and exit 2, never a traceback. Each verb is imported
    when it is run or shows its own help (harness.cli._verbs); the group's help says each by its summary."""

    command_class = Command
    group_class = Group
    _summaries = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        from toolsurface.harness.cli._verbs import VERBS

        return sorted({*VERBS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from toolsurface.harness.cli._verbs import VERBS

        verb = VERBS.get(cmd_name)
        if cmd_name not in self.commands and verb is not None:
            if self._summaries:
                return click.Command(cmd_name, help=verb.summary)
            import importlib

            importlib.import_module(f"{__package__}.{verb.module}")
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:  # said again with every verb as a possibility
            raise click.exceptions.NoSuchCommand(error.command_name, None, self.list_commands(ctx), ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._summaries = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._summaries = False

    def every_command(self) -> Mapping[str, click.Command]:
        """Every verb, each module imported."""
        for name in self.list_commands(click.Context(self)):
            self.get_command(click.Context(self), name)
        return self.commands

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
        code: Any = 0
        crashed = False
        try:
            return self._main(args, prog_name, **extra)
        except SystemExit as done:
            code = done.code
            raise
        except BaseException:
            # No error of ours: the interpreter ends it, with its traceback and exit 1, not at once as if the
            # command had done its work.
            crashed = True
            raise
        finally:
            # The process's own command line (not the fork server's call, nor a test's) may end at once.
            if args is None and _AT_ONCE and not crashed:
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
    """A line for a person, on stderr, its control characters shown, not obeyed, and any secret it shows
    redacted (harness.redact)."""
    from toolsurface.harness.redact import redacted_text
    from toolsurface.harness.terminal import escape_controls

    click.echo(escape_controls(redacted_text(text)), err=True, nl=nl)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolsurface")
def main() -> None:
    """Measure what an MCP tool list costs connected agents.

    A surface is a candidate tool list (bundled, a module, or a snapshot file); a server of your own is given to
    a verb as -- CMD ARGS... or --url URL."""
