"""The CLI run inside the test process, as `python -m toolsurface ARGS` would run as a process of its own.

What a fresh process would give is reproduced: the program name in usage lines, no terminal (so rich tables
take the width they need unless COLUMNS says otherwise, and help text wraps at 78), the interpreter's default warning
filters and its last-resort logging to stderr, environment overrides seen by everything that reads
os.environ, the working directory, and output that children write to the inherited stdout and stderr.
What a process would take with it when it exits is put back afterwards: the environment, the working
directory, signal handlers, mask and wakeup descriptor, logging handlers, frozen objects, user surface
modules, the temporary directory. A descriptor
or a thread the command leaves open fails the test, as the leak it would be in a longer-lived program.
"""

from __future__ import annotations

import contextlib
import gc
import io
import logging
import os
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import click
from click.testing import CliRunner

from tests.helpers.waiting import wait_until

__all__ = ["CliTimeout", "StartupOnlyVariable", "run_in_process"]

PROG_NAME = "toolsurface"

# Read once in a process's life (by the interpreter as it starts, by matplotlib as it is imported, by the token
# counter on first use): a run that changes one needs a process of its own.
_STARTUP_ONLY = frozenset(
    {
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONHASHSEED",
        "PYTHONSAFEPATH",
        "PYTHONNOUSERSITE",
        "PYTHONUSERBASE",
        "PYTHONWARNINGS",
        "PYTHONDEVMODE",
        "PYTHONUTF8",
        "PYTHONIOENCODING",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONOPTIMIZE",
        "PYTHONSTARTUP",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "MPLCONFIGDIR",
        "TOOLSURFACE_O200K_FILE",
    }
)

# The filters of a fresh interpreter without -W or PYTHONWARNINGS (the warnings module's documentation).
_DEFAULT_FILTERS: tuple[tuple[str, type[Warning], str], ...] = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
)

_USER_SURFACE_MODULES = "toolsurface_user_surface_"
_THREADS_END_S = 5.0
# A library may keep its own data files open as a cache (matplotlib its fonts): not a leak.
_INSTALLED = tuple({sys.prefix + os.sep, sys.base_prefix + os.sep})


class StartupOnlyVariable(Exception):
    """The run sets a variable only a starting interpreter reads; use run_cli_process."""


class CliTimeout(BaseException):
    """The command ran past its timeout (a BaseException, so no `except Exception` in the command keeps it)."""


class _Runner(CliRunner):
    """CliRunner in its fd mode, with the command's own stdout and stderr written straight to the captured
    descriptors: what it prints and what its children print arrive in the order a process's pipes get them."""

    @contextlib.contextmanager
    def isolation(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        with super().isolation(*args, **kwargs) as streams:
            # CliRunner wraps help at 80 columns; a process without a terminal wraps at 78 (click's default).
            forced = click.formatting.FORCED_WIDTH
            click.formatting.FORCED_WIDTH = None
            isolated = sys.stdout, sys.stderr
            sys.stdout = _descriptor_stream(1, "<stdout>", "strict")
            sys.stderr = _descriptor_stream(2, "<stderr>", "backslashreplace")
            try:
                yield streams
            finally:
                for stream in (sys.stdout, sys.stderr):
                    stream.close()
                sys.stdout, sys.stderr = isolated
                click.formatting.FORCED_WIDTH = forced


def _descriptor_stream(fd: int, name: str, errors: str) -> io.TextIOWrapper:
    """A text stream on a copy of `fd` (the runner's capture file), each write passed on at once."""
    raw = io.FileIO(os.dup(fd), "w", closefd=True)
    raw.name = name
    return io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)


def run_in_process(
    args: Sequence[str], *, env: Mapping[str, str | None] | None = None, cwd: Path | None = None, timeout: float = 120
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `python -m toolsurface ARGS` run in this process."""
    from toolsurface.harness.cli import main

    changed = {k for k, v in (env or {}).items() if os.environ.get(k) != v}
    if changed & _STARTUP_ONLY:
        raise StartupOnlyVariable(
            f"{sorted(changed & _STARTUP_ONLY)} take effect only in a new process: run_cli_process"
        )
    runner = _Runner(catch_exceptions=False, capture="fd")
    with _restored(), _no_terminal(), _fresh_interpreter_warnings_and_logging(), _deadline(timeout, args):
        if cwd is not None:
            os.chdir(cwd)
        if changed & {"TMPDIR", "TEMP", "TMP"}:
            tempfile.tempdir = None
        result = runner.invoke(main, list(args), env=dict(env or {}), prog_name=PROG_NAME)
    return result.exit_code, result.stdout, result.stderr


@contextlib.contextmanager
def _deadline(timeout: float, args: Sequence[str]) -> Iterator[None]:
    """A run that hangs ends as the subprocess's timeout did, with an error naming the command."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise CliTimeout(f"toolsurface {' '.join(args)} ran past its {timeout:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _no_terminal() -> Iterator[None]:
    """Standard input on /dev/null for the run: with stdout and stderr captured to files, no standard
    descriptor is a terminal, as for the subprocess (rich sizes its tables from any of the three)."""
    saved = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(null)


@contextlib.contextmanager
def _fresh_interpreter_warnings_and_logging() -> Iterator[None]:
    """Warnings filtered as a fresh interpreter filters them (printed to stderr, not raised); logging with no
    handler on the root logger, so a record the command does not handle reaches stderr as it would."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    with warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in reversed(_DEFAULT_FILTERS):
            warnings.filterwarnings(action, category=category, module=module)  # type: ignore[arg-type]
        root.handlers = []
        root.setLevel(logging.WARNING)
        try:
            yield
        finally:
            root.handlers, root.level = handlers, level


def _logger_handlers() -> dict[str, list[logging.Handler]]:
    loggers = {
        name: logger for name, logger in logging.Logger.manager.loggerDict.items() if isinstance(logger, logging.Logger)
    }
    return {name: logger.handlers[:] for name, logger in loggers.items()}


def _open_descriptors() -> dict[int, str]:
    found = {}
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            found[int(name)] = os.readlink(f"/proc/self/fd/{name}")
    return found


@contextlib.contextmanager
def _restored() -> Iterator[None]:
    """Put back what the command changes in the process; fail on descriptors and threads it leaves open."""
    cwd = os.getcwd()
    environ = dict(os.environ)
    handlers = {s: signal.getsignal(s) for s in signal.valid_signals() if signal.getsignal(s) is not None}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    loggers = _logger_handlers()
    modules = set(sys.modules)
    frozen = gc.get_freeze_count()
    tempdir = tempfile.tempdir
    threads = set(threading.enumerate())
    descriptors = _open_descriptors()
    try:
        yield
    finally:
        os.chdir(cwd)
        if dict(os.environ) != environ:
            os.environ.clear()
            os.environ.update(environ)
        for signum, handler in handlers.items():
            if signal.getsignal(signum) is not handler:
                signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.set_wakeup_fd(wakeup)
        for name, kept in loggers.items():
            logging.getLogger(name).handlers = kept
        for name in set(sys.modules) - modules:
            if name.startswith(_USER_SURFACE_MODULES):
                del sys.modules[name]
        if gc.get_freeze_count() != frozen:
            gc.unfreeze()
        tempfile.tempdir = tempdir
    _check_nothing_left_open(threads, descriptors)


def _check_nothing_left_open(threads: set[threading.Thread], descriptors: dict[int, str]) -> None:
    started = [t for t in threading.enumerate() if t not in threads]
    if started:
        names = ", ".join(t.name for t in started)
        wait_until(
            lambda: not any(t.is_alive() for t in started), _THREADS_END_S, f"the command's threads to end ({names})"
        )
    leaked = {
        fd: target
        for fd, target in _open_descriptors().items()
        if descriptors.get(fd) != target and not target.startswith(_INSTALLED)
    }
    assert not leaked, f"the command left file descriptors open: {leaked}"
