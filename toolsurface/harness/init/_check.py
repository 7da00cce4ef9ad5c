"""`toolsurface init --check`: the configured commands started the way CI will start them. A copy of the project
(without its version control, virtual environments and node_modules) gets a fresh virtual environment and the
workflow's install steps, run with a clean environment (that virtual environment's `bin` first on PATH, a HOME
of its own, none of this shell's Python settings; the package registries' settings kept, so pip and npm reach
them as here); then each command target is started from there and must answer MCP's initialize handshake and
list its tools. Nothing of the project is changed, and the copy is removed."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.init._command import in_virtual_environment
from toolsurface.harness.init._workflow import run_steps

if TYPE_CHECKING:
    from toolsurface.harness.config import Config

__all__ = ["CleanStart", "StartedTarget", "StepRun", "check_clean_start"]

STEP_TIMEOUT_S = 900.0
# Variables that tell pip, npm and the TLS stack how to reach the package registries, and the locale.
_KEPT = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE")
_KEPT_PREFIXES = ("PIP_", "NPM_CONFIG_", "npm_config_", "UV_INDEX", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
_LEFT_OUT = (".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache", ".ruff_cache")


@dataclass(frozen=True)
class StepRun:
    """One install step of the workflow, run: its command, exit code, seconds and its output's last line."""

    command: str
    exit_code: int | None
    seconds: float
    last_line: str

    @property
    def done(self) -> bool:
        return self.exit_code == 0


@dataclass(frozen=True)
class StartedTarget:
    """A command target started in the clean environment: `server` and `tools` when it answered, else `problem`."""

    name: str
    command: str
    server: str | None = None
    tools: int | None = None
    problem: str | None = None

    @property
    def started(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class CleanStart:
    workflow: Path | None
    steps: tuple[StepRun, ...]
    targets: tuple[StartedTarget, ...]
    # Targets not started: URLs (CI does not start them) and client configurations.
    skipped: tuple[str, ...] = ()

    @property
    def failed_step(self) -> StepRun | None:
        return next((step for step in self.steps if not step.done), None)

    @property
    def started(self) -> bool:
        return self.failed_step is None and all(t.started for t in self.targets)

    def lines(self) -> list[str]:
        """The check in words: each step and how it ended, then each target and whether it started."""
        if not self.targets and not self.steps:
            skipped = ", ".join(self.skipped) or "none"
            return [f"no command target is configured (others: {skipped}): CI starts nothing, nothing was checked"]
        shown = (
            f"the workflow {self.workflow.name}'s install steps" if self.workflow else "no workflow (nothing installed)"
        )
        lines = [f"a fresh environment as CI's, then {shown}, in a copy of the project:"]
        for step in self.steps:
            ended = "done" if step.done else "not done" if step.exit_code is None else f"failed (exit {step.exit_code})"
            said = f": {step.last_line}" if not step.done and step.last_line else ""
            lines.append(f"  {step.command}: {ended} ({step.seconds:.1f} s){said}")
        if self.failed_step is not None:
            lines.append("the workflow would fail at this step: no server was started")
            return lines
        for target in self.targets:
            if target.started:
                lines.append(
                    f"{target.name}: started as CI will start it: `{target.command}` answered initialize"
                    f" ({target.server}, {target.tools} tools)"
                )
            else:
                lines.append(f"{target.name}: did not start as CI will start it: {target.problem}")
        lines += [f"{name}: not a command CI starts; not checked" for name in self.skipped]
        return lines


def _clean_env(venv: Path, home: Path) -> dict[str, str]:
    """The environment CI's steps get: the fresh virtual environment first on PATH, then this PATH without any
    other virtual environment's folder; a HOME of its own; no PYTHONPATH, VIRTUAL_ENV or user site."""
    kept = [
        entry
        for entry in os.environ.get("PATH", os.defpath).split(os.pathsep)
        if entry and in_virtual_environment(Path(entry) / "python") is None
    ]
    env = {k: v for k, v in os.environ.items() if k in _KEPT or k.startswith(_KEPT_PREFIXES)}
    return {
        **env,
        "PATH": os.pathsep.join([str(venv / "bin"), *kept]),
        "HOME": str(home),
        "CI": "true",
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _copy_project(root: Path, into: Path) -> None:
    def left_out(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n in _LEFT_OUT or (Path(folder, n) / "pyvenv.cfg").is_file()}

    shutil.copytree(root, into, symlinks=True, ignore=left_out)


def _run_step(command: str, cwd: Path, env: Mapping[str, str]) -> StepRun:
    """A `run:` step as GitHub runs it on Linux: `bash -e` with the step's text."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["bash", "-e", "-c", command],
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=STEP_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return StepRun(command, None, time.monotonic() - started, f"not done within {STEP_TIMEOUT_S:.0f} s")
    except OSError as error:
        raise ToolsurfaceError(f"cannot run the workflow's step `{command}`: {error.strerror or error}") from None
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("ERROR", "error", "npm ERR", "npm error"))]
    last = (errors or lines or [""])[-1].strip()
    return StepRun(command, done.returncode, time.monotonic() - started, last)


@contextmanager
def _scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="toolsurface-check-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def check_clean_start(
    config: Config, workflow: Path, *, timeout: float, on_step: Callable[[str], None] | None = None
) -> CleanStart:
    """Each command target of `config` started as CI will start it, after `workflow`'s install steps (none when
    it is missing); `on_step` hears each step's command before it runs (a fresh environment takes a while)."""
    from toolsurface.harness.files import read_text
    from toolsurface.harness.live import LiveServerError, StdioServer, list_live

    root = config.root
    steps = run_steps(read_text(workflow, ToolsurfaceError, "workflow")) if workflow.exists() else []
    skipped = [t.name for t in config.targets if t.command is None] + [s.name for s in config.server_sets]
    runs: list[StepRun] = []
    started: list[StartedTarget] = []
    if not any(target.command is not None for target in config.targets):
        return CleanStart(workflow if workflow.exists() else None, (), (), tuple(skipped))
    with _scratch() as scratch:
        project, venv, home = scratch / root.name, scratch / "venv", scratch / "home"
        home.mkdir()
        _copy_project(root, project)
        env = _clean_env(venv, home)
        if on_step is not None:
            on_step(f"python -m venv (a fresh environment, as actions/setup-python gives) in {scratch}")
        runs.append(_run_step(shlex.join([sys.executable, "-m", "venv", str(venv)]), scratch, env))
        for command in steps if runs[0].done else []:
            if on_step is not None:
                on_step(command)
            runs.append(_run_step(command, project, env))
            if not runs[-1].done:
                break
        runs[0] = StepRun("python -m venv", runs[0].exit_code, runs[0].seconds, runs[0].last_line)
        if all(run.done for run in runs):
            for target in config.targets:
                if target.command is None:
                    continue
                cwd = target.cwd or root
                there = project / cwd.relative_to(root) if cwd.is_relative_to(root) else cwd
                shown = " ".join(target.command)
                server = StdioServer(target.command, env=target.env, cwd=there, base_env=env)
                try:
                    listing = list_live(server, timeout=target.timeout or timeout)
                except LiveServerError as error:
                    started.append(StartedTarget(target.name, shown, problem=str(error)))
                    continue
                version = f" {listing.server_version}" if listing.server_version else ""
                started.append(StartedTarget(target.name, shown, listing.server_name + version, len(listing.tools)))
    return CleanStart(workflow if workflow.exists() else None, tuple(runs), tuple(started), tuple(skipped))
