"""One session: an agent against a planned surface's stub, with the run's own model endpoint on loopback (the
scripted model playing `steps`, or a pass-through to `upstream`) or none, in a fresh empty working folder. Study
runs, `clients`, `compat` and the tool-search scorer each run their sessions through `run_session`; what they
read of it afterwards (the result, the row, the carried answer, the searches) is their own."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolsurface.harness.agents.base import (
    SERVER_NAME,
    Agent,
    AgentEndpoint,
    AgentHome,
    AgentReport,
    RunContext,
    ServerCommand,
)
from toolsurface.harness.endpoint import MODEL_REQUESTS, CarriedResult, ModelEndpoint, Neighbour, machine_paths
from toolsurface.harness.run_folder import CALLS
from toolsurface.harness.scenario import Step
from toolsurface.harness.session.plan import Beside, PlannedSurface, beside_commands
from toolsurface.stubs.start import ForkServer, StubStarter

__all__ = ["Session", "SessionEnd", "run_session", "warm_stubs"]


@dataclass(frozen=True)
class Session:
    """What one session is: the agent in `mode` against `surface`, given `prompt`, its files in `run_dir`.

    The model endpoint plays `steps` (the scripted model) or passes through to `upstream`; with neither, the
    agent calls its own model (or plays `script` itself). `server` starts the surface's stub (default: forked from
    `forks` where given, else spawned, its calls logged in the run's folder); `beside` are the servers beside it in the client's config;
    `server_name` the surface's server's name there. `count_answer` answers every token count with that many
    tokens; `keep_results` keeps each turn's tool results as the client carried them. `agent_home`: the client's
    home, configuration and caches are folders of the run's own (`run`), or the user's where its login is (`user`)."""

    agent: Agent
    surface: PlannedSurface
    prompt: str
    run_dir: Path
    timeout: float
    mode: str
    steps: Sequence[Step] | None = None
    upstream: str | None = None
    server: ServerCommand | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    model: str | None = None
    max_turns: int = 30
    script: Path | None = None
    keep_agent_files: bool = False
    builtins: bool = False
    server_name: str = SERVER_NAME
    beside: Sequence[Beside] = ()
    context_window: int | None = None
    config: Mapping[str, str] = field(default_factory=dict)
    count_answer: int | None = None
    keep_results: bool = False
    workdir_prefix: str = "toolsurface-run-"
    forks: ForkServer | None = None
    agent_home: AgentHome = "run"


@dataclass(frozen=True)
class SessionEnd:
    """How a session ended: the agent's report; why the model endpoint failed, if it did (its log); each turn's
    tool results as carried (with `keep_results`); the working folder it ran in (gone now) and this machine's
    paths as the endpoint counted them (placeholder -> path)."""

    report: AgentReport
    endpoint_failure: str | None
    results: list[list[CarriedResult]]
    workdir: str
    paths: Mapping[str, str]


async def run_session(session: Session) -> SessionEnd:
    """Run the session to its end; the agent's own failures are in the report, never raised."""
    run_dir = session.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    server = session.server or session.surface.serve_command(log=run_dir / CALLS, forks=session.forks)
    with tempfile.TemporaryDirectory(prefix=session.workdir_prefix) as workdir:
        # $HOME is the home the client was given: a home of the run's own stands for the user's.
        own_home = session.agent.run_home(run_dir, session.agent_home)
        paths = machine_paths(str(own_home) if own_home else session.env.get("HOME", ""), run_dir, workdir)
        endpoint = _endpoint(session, paths)
        ctx = RunContext(
            prompt=session.prompt,
            server=server,
            workdir=Path(workdir),
            run_dir=run_dir,
            timeout=session.timeout,
            mode=session.mode,
            model=session.model,
            max_turns=session.max_turns,
            script=session.script,
            env=dict(session.env),
            keep_agent_files=session.keep_agent_files,
            builtins=session.builtins,
            server_name=session.server_name,
            config=session.config,
            neighbours=beside_commands(session.beside, run_dir, session.forks),
            context_window=session.context_window,
            agent_home=session.agent_home,
        )
        if endpoint is None:
            report = await session.agent.run(ctx)
            return SessionEnd(report, None, [], workdir, paths)
        with endpoint:
            ctx = replace(ctx, endpoint=AgentEndpoint(endpoint.url, endpoint.kind))
            report = await session.agent.run(ctx)
        failed = endpoint.log.failed
        return SessionEnd(report, str(failed) if failed is not None else None, endpoint.results, workdir, paths)


@contextlib.contextmanager
def warm_stubs(surfaces: Iterable[PlannedSurface], near: Path | None = None) -> Iterator[ForkServer | None]:
    """One warm fork server for a batch of sessions of `surfaces` (their own and their neighbours'), each built
    once, where forking is available; else None, and each session's stub is a fresh process. `near`: the folder
    the sessions write in, named in the fork server's command line."""
    with StubStarter("auto", out=near) as stubs:
        stubs.warm_all((surface.spec, surface.sha256) for surface in surfaces)
        yield stubs.server()


def _endpoint(session: Session, paths: Mapping[str, str]) -> ModelEndpoint | None:
    """The session's own model endpoint, if it has one. It knows the client's naming rule, so each of the stub's
    tools is recorded as carried, and this machine's paths, counted as placeholders in the system prompt's chars."""
    if session.steps is None and session.upstream is None:
        return None
    surface = session.surface
    return ModelEndpoint(
        session.run_dir / MODEL_REQUESTS,
        steps=session.steps,
        upstream=session.upstream,
        prompt=session.prompt,
        stub_tools=surface.tools,
        instructions=surface.instructions,
        wire_tools=surface.wire,
        client=session.agent.card,
        server_name=session.server_name,
        paths=paths,
        neighbours=[Neighbour(b.name, b.surface.wire, b.surface.instructions) for b in session.beside],
        count_answer=session.count_answer,
        keep_results=session.keep_results,
    )
