"""What every agent adapter shares: the run context it gets, the common event list it returns."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from toolsurface.harness import PACKAGES_ROOT
from toolsurface.harness.agents._usage import Usage
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.agents._card import ClientCard

__all__ = [
    "AGENT_HOMES",
    "DUMMY_KEY",
    "INVALID_ARGUMENTS",
    "NOT_DELIVERED",
    "PERMISSION_DENIED",
    "SANDBOX_BLOCKED",
    "SERVER_NAME",
    "UNKNOWN_TOOL",
    "Agent",
    "AgentEndpoint",
    "AgentHome",
    "AgentReport",
    "AgentUnavailable",
    "Event",
    "NamedServer",
    "RunContext",
    "RunStatus",
    "ServerCommand",
    "Usage",
    "denied_call",
    "describe_failure",
    "first_leaf",
]

# error: the harness could not write or read a file of its own (a full disk), so nothing about the surface
# can be said from the run; a resume runs it again, as it does every run that did not end ok.
RunStatus = Literal["ok", "timeout", "agent-error", "interrupted", "error"]
SERVER_NAME = "stub"

# Where a client keeps its home, configuration and caches in a run (`--agent-home`): `run`, folders of the run's own
# (nothing of the user's home read or written); `user`, the user's own where a client keeps its login there (to use
# that login through `record:URL`).
AgentHome = Literal["run", "user"]
AGENT_HOMES: tuple[AgentHome, ...] = ("run", "user")

# What an agent gets as its key when the model is scripted: any real key stays out of the run.
DUMMY_KEY = "toolsurface-scripted-model"

# Why a call the agent made never reached the stub (an undelivered call's reason).
UNKNOWN_TOOL = "unknown tool"
INVALID_ARGUMENTS = "invalid arguments"
PERMISSION_DENIED = "permission denied"
SANDBOX_BLOCKED = "sandbox blocked"
NOT_DELIVERED = "not delivered"


class AgentUnavailable(ToolsurfaceError):
    """The agent cannot run here: its CLI is missing, or its key."""


@dataclass(frozen=True)
class ServerCommand:
    """How to start the stub over stdio, as an MCP client config would name it."""

    command: str
    args: list[str]
    cwd: str
    env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def toolsurface(cls, args: Sequence[str]) -> ServerCommand:
        """This Python with `args` (`-m toolsurface serve ...`), started in the folder holding toolsurface's packages."""
        return cls(command=sys.executable, args=list(args), cwd=str(PACKAGES_ROOT))


@dataclass(frozen=True)
class NamedServer:
    """An MCP server as a client's config names it: its name there (which goes into its tools' names) and how
    to start it."""

    name: str
    command: ServerCommand


class EndpointKind(StrEnum):
    """What a run's model endpoint is (`--model-endpoint`): `scripted` plays the scenario's script as the model,
    so the agent gets a dummy key and none of the user's; `record` passes each request to a real API, the
    agent's own key with it, and records what the model was shown."""

    SCRIPTED = "scripted"
    RECORD = "record"


@dataclass(frozen=True)
class AgentEndpoint:
    """Where the agent sends its model requests for this run: a loopback model endpoint's root URL, and its kind."""

    url: str
    kind: EndpointKind

    @property
    def scripted(self) -> bool:
        return self.kind == EndpointKind.SCRIPTED


@dataclass(frozen=True)
class RunContext:
    """Everything one agent session needs. `workdir` is a fresh empty directory, the agent's cwd;
    `run_dir` is where its raw transcript (and any config it needs kept) goes."""

    prompt: str
    server: ServerCommand
    workdir: Path
    run_dir: Path
    timeout: float
    mode: str = "full-list"
    model: str | None = None
    max_turns: int = 30
    script: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    endpoint: AgentEndpoint | None = None
    keep_agent_files: bool = False
    # Whether the client's own tools stay beside the stub's (what a user's session carries), or only the
    # stub's are offered (the server alone), as far as the client lets them go.
    builtins: bool = False
    # The name the client's MCP config gives the stub, which goes into every tool's name (`mcp__stub__...`).
    server_name: str = SERVER_NAME
    # The client's own settings given as config options (`-c KEY=VALUE` for a client that takes them).
    config: Mapping[str, str] = field(default_factory=dict)
    # Other servers the client's config gets beside the run's, each under its own name.
    neighbours: tuple[NamedServer, ...] = ()
    # The model's context window, for a client that decides by it (its card's `windows` pick the model).
    context_window: int | None = None
    # Whose home the client runs in (AgentHome).
    agent_home: AgentHome = "run"

    def __post_init__(self) -> None:
        names = [server.name for server in self.servers]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ToolsurfaceError(f"two MCP servers named {twice[0]!r} in one client's config; give each its own name")

    @property
    def servers(self) -> tuple[NamedServer, ...]:
        """Every MCP server the client's config gets, each under its own name: the run's first."""
        return (NamedServer(self.server_name, self.server), *self.neighbours)


@dataclass(frozen=True)
class Event:
    """One step of a session in the common form every adapter produces.

    kind: tool_call (name, arguments, id), tool_result (id, text, is_error), message (text),
    error (text), permission_denied (name, arguments, id). `undelivered` on a tool_result or a
    permission_denied names why the call never reached the stub, where the agent's own answer says so.
    """

    kind: Literal["tool_call", "tool_result", "message", "error", "permission_denied"]
    name: str | None = None
    arguments: dict[str, Any] | None = None
    id: str | None = None
    text: str | None = None
    is_error: bool = False
    undelivered: str | None = None


def denied_call(call_id: str, call: Event | None, text: str) -> Event:
    """The permission_denied event of a call the client would not make without an approval it could not get;
    `call` is the call's tool_call event where the transcript gave one."""
    return Event(
        "permission_denied",
        name=call.name if call else None,
        arguments=call.arguments if call else None,
        id=call_id,
        text=text,
        is_error=True,
        undelivered=PERMISSION_DENIED,
    )


@dataclass
class AgentReport:
    """What an adapter learned from its agent's transcript."""

    status: RunStatus
    events: list[Event] = field(default_factory=list)
    final_answer: str | None = None
    usage: Usage | None = None
    cost_usd: float | None = None
    turns: int | None = None
    error: str | None = None
    model: str | None = None
    transcript: str | None = None
    duration_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["events"] = len(self.events)
        return data


class Agent(Protocol):
    """An adapter: its client's card, a check that it can run, then one session run and reported."""

    card: ClientCard

    @property
    def name(self) -> str: ...

    @property
    def modes(self) -> Sequence[str]: ...

    @property
    def harness_client(self) -> bool:
        """True when the harness's own MCP client starts the stub; an outside CLI starts it its own way."""

    def run_home(self, run_dir: Path, agent_home: AgentHome) -> Path | None:
        """The folder a run in `run_dir` gives the client as its HOME, or None where HOME stays the user's."""

    def check_available(
        self, env: Mapping[str, str], endpoint: EndpointKind | None = None, home: AgentHome = "run"
    ) -> None:
        """Raise AgentUnavailable with one clear line when the CLI (or the version needed) or the key is
        missing. `endpoint` is the kind of the run's model endpoint, if it has one; `home` whose home the run
        uses (a login kept in the user's home counts only with `user`)."""

    async def run(self, ctx: RunContext) -> AgentReport: ...


def first_leaf(failure: BaseException) -> BaseException:
    """The first exception inside (groups within groups) a task group's exception group."""
    while isinstance(failure, BaseExceptionGroup):
        failure = failure.exceptions[0]
    return failure


def describe_failure(failure: BaseException) -> str:
    """One line for an exception, the one inside a task group's group of one where there is one."""
    while isinstance(failure, BaseExceptionGroup) and len(failure.exceptions) == 1:
        failure = failure.exceptions[0]
    return f"{type(failure).__name__}: {failure}"
