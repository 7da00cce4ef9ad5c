"""Running sessions: the planned runs, J at a time, one directory per run.

Everything that can stop a study was found when it was planned (harness.session.plan). A run that times out or
fails keeps what it has and says so; an interrupted study leaves every finished run intact, and running it
again resumes where it stopped.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from toolsurface.harness import PACKAGES_ROOT
from toolsurface.harness.agents.base import AgentReport, EndpointKind
from toolsurface.harness.endpoint import MODEL_REQUESTS, read_model_requests, shown
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import WriteFailed, read_json, write_json_atomic
from toolsurface.harness.run_folder import CALLS, RESULT, SPEC, STATE, STUB_STDERR
from toolsurface.harness.scenario import CheckInput, evaluate, load_script
from toolsurface.harness.session.plan import PlannedRun, StudyConfig
from toolsurface.harness.session.record import (
    RefusalRecord,
    RunRecord,
    RunResult,
    RunSpec,
    RunStateError,
    read_run,
)
from toolsurface.harness.session.run._at_once import first_cause
from toolsurface.harness.session.run._session import Session, run_session
from toolsurface.harness.session.run._undelivered import undelivered_calls
from toolsurface.stubs.calllog import CallRecord
from toolsurface.stubs.start import ForkServer, StubStarter

STATE_WAIT_S = 10.0


def _packages() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("toolsurface", "mcp", "mcp-types", "tiktoken", "jsonschema"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def _git_revision() -> str | None:
    if shutil.which("git") is None or not (PACKAGES_ROOT / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=PACKAGES_ROOT, capture_output=True, check=False, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "replace").strip() or None


def score_calls(records: Sequence[CallRecord]) -> tuple[int, list[RefusalRecord], list[str]]:
    """Calls, refusals (and whether the next call corrected each: the same tool, answered), tools called."""
    calls = [r for r in records if r.is_call]
    refusals = []
    for n, record in enumerate(calls):
        if record.outcome != "refused":
            continue
        following = calls[n + 1] if n + 1 < len(calls) else None
        corrected = following is not None and following.tool == record.tool and following.outcome == "ok"
        refusals.append(RefusalRecord(record.seq, str(record.tool), record.message or "", corrected))
    return len(calls), refusals, [str(r.tool) for r in calls]


def _reset(run_dir: Path) -> None:
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)


async def _wait_for(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        await anyio.sleep(0.05)
    return path.exists()


class _Claim:
    """One study at a time per run directory: an exclusive claim file beside it, with the owner's pid.

    Two studies writing into one directory then never run (and reset) the same run; a claim left by a
    process that is gone is taken over.
    """

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir.parent / f".{run_dir.name}.claim"
        self.held = False

    def _owner_alive(self) -> bool:
        try:
            pid = int(self.path.read_text(encoding="utf-8").strip())
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except (OSError, ValueError):
            return True  # unreadable or not ours to signal: leave it alone
        return True

    def __enter__(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # The claim appears with its pid already in it (written aside, then linked), so nobody reads it empty.
        staged = self.path.with_name(f"{self.path.name}.{os.getpid()}.{id(self)}")
        staged.write_text(str(os.getpid()), encoding="utf-8")
        try:
            for _ in range(2):
                try:
                    os.link(staged, self.path)
                except FileExistsError:
                    if self._owner_alive():
                        return False
                    self.path.unlink(missing_ok=True)
                    continue
                self.held = True
                return True
            return False
        finally:
            staged.unlink(missing_ok=True)

    def __exit__(self, *exc: object) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)


def _finished(run_dir: Path) -> RunRecord | None:
    """A run that ended ok is kept, so a study resumes; one that did not (interrupted, timed out, an agent
    error such as an unreachable endpoint) is run again."""
    try:
        record = read_run(run_dir)
    except RunStateError:
        return None
    return record if record.result.status == "ok" else None


async def _run_one(
    config: StudyConfig, run: PlannedRun, git: str | None, packages: dict[str, str], forks: ForkServer | None
) -> RunRecord:
    _reset(run.run_dir)
    choice = run.choice
    beside = config.neighbours
    spec = RunSpec(
        surface=run.surface.name,
        surface_source=run.surface.source,
        surface_sha256=run.surface.sha256,
        tools=len(run.surface.tools),
        agent=choice.name,
        model=config.model,
        mode=choice.mode,
        scenario=config.scenario.name,
        scenario_sha256=config.scenario.sha256,
        run_index=run.index,
        timeout=config.timeout,
        packages=packages,
        git_revision=git,
        python=platform.python_version(),
        started=datetime.now(UTC).isoformat(timespec="seconds"),
        stub_start="spawn" if forks is None else "fork",
        model_endpoint=str(config.model_endpoint) if config.model_endpoint is not None else None,
        agent_version=getattr(choice.agent, "version", None),
        builtins=choice.builtins,
        server_name=run.surface.server_name,
        neighbours=[b.name for b in beside],
        agent_home=None if choice.agent.harness_client else config.agent_home,
    )
    write_json_atomic(run.run_dir / SPEC, asdict(spec))
    # The stub's own line on why it stopped: an agent CLI keeps no stub's stderr, and a stub that refuses to start
    # (its surface builds differently from the one planned) says why nowhere else.
    server = run.surface.serve_command(run.run_dir / CALLS, run.run_dir / STATE, run.run_dir / STUB_STDERR, forks)
    endpoint = config.model_endpoint
    scripted = endpoint is not None and endpoint.kind == EndpointKind.SCRIPTED
    assert run.script is not None or not scripted
    session = Session(
        agent=choice.agent,
        surface=run.surface,
        prompt=config.scenario.prompt,
        run_dir=run.run_dir,
        timeout=config.timeout,
        mode=choice.mode,
        steps=load_script(run.script) if scripted and run.script is not None else None,
        upstream=endpoint.upstream if endpoint is not None and not scripted else None,
        server=server,
        model=config.model,
        max_turns=config.max_turns,
        script=run.script,
        keep_agent_files=config.keep_agent_files,
        builtins=choice.builtins,
        server_name=run.surface.server_name,
        beside=beside,
        forks=forks,
        agent_home=config.agent_home,
    )
    started = time.monotonic()
    try:
        end = await run_session(session)
    except WriteFailed as unwritten:
        return await _write_result(run, spec, AgentReport(status="error", error=str(unwritten)), started, config)
    except anyio.get_cancelled_exc_class():
        with anyio.CancelScope(shield=True):
            await _write_result(run, spec, AgentReport(status="interrupted", error="interrupted"), started, config)
        raise
    return await _write_result(run, spec, end.report, started, config, end.endpoint_failure)


# A stub that left no state and no word was ended from outside: the agent's failure, if it reported one.
UNSAID = "it ended without a word (killed, or its stderr was not kept)"


def _stub_said(run_dir: Path) -> str | None:
    """The stub's last words where the harness kept them (its own line, or a traceback's last), else None."""
    said = ""
    with contextlib.suppress(OSError, ToolsurfaceError):
        from toolsurface.harness.files import read_text

        lines = [line for line in read_text(run_dir / STUB_STDERR, follow_links=False).splitlines() if line.strip()]
        said = next((line for line in reversed(lines) if line.startswith("toolsurface: ")), "")
        if not said and "Traceback (most recent call last):" in lines:  # it failed before it could say why
            said = f"it failed: {lines[-1].strip()[:300]}"
    return said.removeprefix("toolsurface: ") or None


def _no_state(run_dir: Path) -> str:
    """Why a stub that started left no final state, from its last words where the harness kept them."""
    reason = _stub_said(run_dir) or _unsaid(run_dir)
    return f"the stub wrote no final state ({run_dir / STATE}): {reason}"


def _unsaid(run_dir: Path) -> str:
    """A stub that ended without a word under a file-size limit (`ulimit -f`, inherited by the agent and its
    stub) was most likely stopped by it: the harness's own file trouble, not the agent's failure."""
    import resource

    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY:
        return UNSAID
    try:
        full = (run_dir / CALLS).stat().st_size >= limit
    except OSError:
        full = False
    where = "the call log reached it" if full else "the state may be larger"
    return f"it ended without a word under a file-size limit of {limit:,} bytes (ulimit -f): {where}"


async def _write_result(
    run: PlannedRun,
    spec: RunSpec,
    report: AgentReport,
    started: float,
    config: StudyConfig,
    endpoint_failure: str | None = None,
) -> RunRecord:
    from toolsurface.stubs.calllog import read_log

    calls_path, state_path = run.run_dir / CALLS, run.run_dir / STATE
    # The stub opens its log as it starts: without one it never ran, and no state will come. The harness's
    # own client has ended its stub by the time the agent is done; an agent CLI may leave it a moment longer.
    started_stub = calls_path.exists()
    waited = STATE_WAIT_S if started_stub and not run.choice.agent.harness_client else 1.0
    has_state = await _wait_for(state_path, waited if report.status != "interrupted" else 1.0)
    problems: list[str] = [endpoint_failure] if endpoint_failure is not None else []
    state: Any = None
    if has_state:
        try:
            state = read_json(state_path, what="final state", follow_links=False)
        except ToolsurfaceError as error:
            problems.append(str(error))
    elif started_stub:
        # The stub could not save what the agent did (a full disk, a log it could not keep).
        problems.append(_no_state(run.run_dir))
    elif (refused := _stub_said(run.run_dir)) is not None:
        problems.append(refused)  # it refused to start: what the agent said of it is no cause
    log: list[CallRecord] = []
    try:
        log = read_log(calls_path) if calls_path.exists() else []
    except ToolsurfaceError as error:
        problems.append(str(error))
    negotiated = next((record.protocol for record in log if record.protocol is not None), None)
    if negotiated is not None:
        spec = replace(spec, protocol=negotiated)
        write_json_atomic(run.run_dir / SPEC, asdict(spec))
    try:
        requests = read_model_requests(run.run_dir / MODEL_REQUESTS)
    except ToolsurfaceError as error:
        requests = []
        problems.append(str(error))
    # Nothing about the surface can be said from files the harness could not keep: an error, run again by a
    # resume, never an ok run with failed checks, nor the agent's failure when the stub refused its calls for a
    # log it could not write (it says so as it ends).
    own = [p for p in problems if not p.endswith(UNSAID)]
    if (problems and report.status == "ok") or (own and report.status == "agent-error"):
        report.status, report.error = "error", (own or problems)[0]
    calls, refusals, tools_called = score_calls(log)
    # A run the harness failed (status error) is not judged: its checks would blame the surface.
    checks = (
        evaluate(
            config.scenario.checks,
            CheckInput(state=state, initial=run.surface.initial_state or {}, answer=report.final_answer),
        )
        if report.status != "error"
        else []
    )
    summary = shown(requests)
    if summary is not None and summary.refused and report.status != "error":
        # What the real API would have refused, the agent met as its users do: the run says so.
        report.status, report.error = "agent-error", summary.refused[0]
    elif summary is not None and summary.errors and report.status == "ok":
        report.status, report.error = "agent-error", f"scripted model: {summary.errors[0]}"
    result = RunResult(
        status=report.status,
        calls=calls,
        refusals=refusals,
        checks=checks,
        passed=report.status == "ok" and all(c.passed for c in checks),
        tokens=report.usage,
        cost_usd=report.cost_usd,
        duration_s=round(time.monotonic() - started, 3),
        turns=report.turns,
        final_answer=report.final_answer,
        error=report.error,
        tools_called=tools_called,
        agent_duration_s=round(report.duration_s, 3) if report.duration_s is not None else None,
        undelivered=undelivered_calls(report.events, log, _own_tools(run)),
        shown=summary,
    )
    write_json_atomic(run.run_dir / RESULT, result.to_json())
    return RunRecord(run.run_dir, spec, result)


def _own_tools(run: PlannedRun) -> tuple[str, ...]:
    """The client's own tools whose calls are none of the stub's: its tool search, as its card names it."""
    search = run.choice.agent.card.search_tool
    return (search,) if search is not None else ()


def study_stubs(config: StudyConfig) -> StubStarter:
    """How the study's stubs start, as it asks (`--stub-start`)."""
    return StubStarter(config.stub_start, out=config.out)


def run_study(
    config: StudyConfig,
    planned: Sequence[PlannedRun],
    on_finished: Callable[[PlannedRun, RunRecord], None] | None = None,
    stubs: StubStarter | None = None,
) -> list[RunRecord]:
    """Run what is planned (skipping runs that already ended), `config.jobs` at a time.

    `stubs`, started before planning and given each surface as it was planned, lets the fork server import and
    build while the study plans.
    """
    git, packages = _git_revision(), _packages()
    records: list[RunRecord] = []

    async def one(run: PlannedRun, limiter: anyio.CapacityLimiter) -> None:
        done = _finished(run.run_dir)
        if done is None:
            async with limiter:
                with _Claim(run.run_dir) as claimed:
                    if not claimed:
                        return  # another study is running it; its result lands in the same directory
                    done = _finished(run.run_dir) or await _run_one(config, run, git, packages, forks)
        records.append(done)
        if on_finished is not None:
            on_finished(run, done)

    stopped_by: list[int] = []

    async def stop_on_signal(scope: anyio.CancelScope) -> None:
        # SIGTERM or SIGHUP ends a study as Ctrl-C does: runs cancelled, marked interrupted, temp folders gone.
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
            async for signum in signals:
                stopped_by.append(signum)
                scope.cancel()
                return

    async def main() -> None:
        limiter = anyio.CapacityLimiter(max(1, config.jobs))
        async with anyio.create_task_group() as outer:
            if threading.current_thread() is threading.main_thread():
                outer.start_soon(stop_on_signal, outer.cancel_scope)
            async with anyio.create_task_group() as group:
                for run in planned:
                    group.start_soon(one, run, limiter)
            outer.cancel_scope.cancel()

    config.out.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        if stubs is None:
            stubs = stack.enter_context(study_stubs(config))
            served = [*(run.surface for run in planned), *(b.surface for b in config.neighbours)]
            stubs.warm_all((surface.spec, surface.sha256) for surface in served)
        pending = any(_finished(run.run_dir) is None for run in planned)
        forks = stubs.server() if pending else None
        try:
            anyio.run(main)
        except BaseExceptionGroup as group:
            raise first_cause(group) from None
        if stopped_by:
            raise KeyboardInterrupt
    order = {p.run_dir: n for n, p in enumerate(planned)}
    return sorted(records, key=lambda r: order.get(r.path, 0))
