"""A probe run: the plan's calls made on one connection, each bounded (a timeout per call, an answer size limit,
one call at a time unless more are asked for), each answer measured as it came; and the answers part a
snapshot records of them. A live server is listed and called on the same connection; a bundled surface is
served in memory by its stub, on its own fixture, and called there (no subprocess)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.probe._answer import AnswerFigures, measure_answer
from toolsurface.harness.probe._bounds import ProbeBounds
from toolsurface.harness.probe._calls import CallsFile
from toolsurface.harness.probe._plan import PlannedCall, ProbePlan, plan_probe
from toolsurface.harness.surface import SnapshotAnswers, ToolAnswers, size_summary

if TYPE_CHECKING:
    from toolsurface.harness.live import Connection, HttpServer, LiveListing, StdioServer
    from toolsurface.harness.measure import Measurable

__all__ = [
    "Probe",
    "ProbedCall",
    "ProbedLive",
    "probe_connection",
    "probe_live",
    "probe_surface",
]

_DEFAULT_BOUNDS = ProbeBounds()


@dataclass(frozen=True)
class ProbedCall:
    """A call made: its answer's figures, or `error` when the server answered with a JSON-RPC error."""

    call: PlannedCall
    seconds: float
    figures: AnswerFigures | None
    error: str | None = None

    @property
    def error_answer(self) -> bool:
        """Whether the call was answered with an error: a JSON-RPC error, or a result with isError true."""
        return self.figures is None or self.figures.is_error

    @property
    def error_kind(self) -> str | None:
        """The error in words (`isError`, or the JSON-RPC error's code and message); None for an answer."""
        if self.figures is None:
            return f"JSON-RPC {self.error}" if self.error else "JSON-RPC error"
        return "isError" if self.figures.is_error else None

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.call.tool,
            "arguments": self.call.arguments,
            "source": self.call.source,
            "read_only": self.call.read_only,
            "seconds": round(self.seconds, 4),
            "error_answer": self.error_answer,
            "error": self.error,
            **(self.figures.to_json() if self.figures is not None else {}),
        }


@dataclass(frozen=True)
class Probe:
    """A probe's plan and the calls it made, tokens counted by `counters` (the first one's in `tokens`)."""

    surface: str
    source: str
    protocol_version: str | None
    plan: ProbePlan
    calls: tuple[ProbedCall, ...]
    counters: tuple[str, ...] = ("o200k",)
    seconds: float = 0.0
    dry_run: bool = False

    @property
    def counter(self) -> str:
        return self.counters[0]

    def answers(self) -> SnapshotAnswers:
        """Per tool called: its calls, how many answered an error, and of the others the median and largest
        answer and the largest's arguments."""
        by_tool: dict[str, list[ProbedCall]] = {}
        for done in self.calls:
            by_tool.setdefault(done.call.tool, []).append(done)
        tools = []
        for name, calls in by_tool.items():
            answered = [(c, c.figures) for c in calls if c.figures is not None and not c.error_answer]
            figures = [f for _, f in answered]
            largest = max(answered, key=lambda pair: (pair[1].tokens, pair[1].chars), default=None)
            tools.append(
                ToolAnswers(
                    tool=name,
                    sizes=size_summary([f.chars for f in figures], [f.tokens for f in figures]),
                    errors=len(calls) - len(answered),
                    largest_arguments=dict(largest[0].call.arguments) if largest is not None else {},
                    largest_estimate=max((f.estimate for f in figures), default=0),
                )
            )
        return SnapshotAnswers(counter=self.counter, protocol_version=self.protocol_version, tools=tuple(tools))

    @property
    def error_calls(self) -> tuple[ProbedCall, ...]:
        """The calls answered with an error."""
        return tuple(c for c in self.calls if c.error_answer)

    @property
    def errors_text(self) -> str | None:
        """What the calls that answered errors tell (`N of M calls answered errors ...`); None when none did."""
        from toolsurface.harness.measure import error_answers_text

        errors = self.error_calls
        tools = list(dict.fromkeys(c.call.tool for c in errors))
        return error_answers_text(len(errors), len(self.calls), tools, self.plan.calls_file)

    def to_json(self) -> dict[str, Any]:
        return {
            "surface": self.surface,
            "source": self.source,
            "protocol_version": self.protocol_version,
            "counters": list(self.counters),
            "dry_run": self.dry_run,
            "calls_file": self.plan.calls_file,
            "max_calls": self.plan.max_calls,
            "seconds": round(self.seconds, 3),
            "calls": [c.to_json() for c in self.calls] if not self.dry_run else self.plan.to_json()["calls"],
            "skipped": [{"tool": s.tool, "reason": s.reason} for s in self.plan.skipped],
            "answers": self.answers().to_wire() if not self.dry_run else None,
            "error_answers": len(self.error_calls),
            "error_answers_text": self.errors_text,
        }


async def probe_connection(
    plan: ProbePlan, connection: Connection, counters: Sequence[Any], bounds: ProbeBounds
) -> tuple[list[ProbedCall], float]:
    """Every planned call, `bounds.jobs` at a time, in the plan's order; the calls and their wall time."""
    import anyio

    from toolsurface.harness.live import answered_error

    done: list[ProbedCall | None] = [None] * len(plan.calls)
    limiter = anyio.CapacityLimiter(bounds.jobs)

    async def one(index: int, call: PlannedCall) -> None:
        async with limiter:
            if call.destructive:
                from toolsurface.harness.notices import notice

                notice(destructive_notice(call), once=f"destructive {call.tool}", now=True)
            started = time.perf_counter()
            try:
                result = await connection.call_tool(call.tool, call.arguments, bounds.call_timeout)
            except Exception as error:
                said = answered_error(error)
                if said is None:
                    raise
                done[index] = ProbedCall(call, time.perf_counter() - started, None, said)
                return
            seconds = time.perf_counter() - started
            if not isinstance(result, dict):
                raise ToolsurfaceError(f"answered tools/call {call.tool} with no JSON object")
            done[index] = ProbedCall(call, seconds, measure_answer(result, counters))

    started = time.perf_counter()
    if bounds.jobs == 1:
        for index, call in enumerate(plan.calls):
            await one(index, call)
    else:
        async with anyio.create_task_group() as tasks:
            for index, call in enumerate(plan.calls):
                tasks.start_soon(one, index, call)
    made = [d for d in done if d is not None]
    return made, time.perf_counter() - started


PlanMaker = Callable[[list[dict[str, Any]]], ProbePlan]


def _plan(
    tools: list[dict[str, Any]], surface: str, calls: CallsFile | None, calls_only: bool, bounds: ProbeBounds
) -> ProbePlan:
    return plan_probe(
        tools,
        surface,
        calls,
        calls_only=calls_only,
        skip_destructive=bounds.skip_destructive,
        max_calls=bounds.max_calls,
    )


def destructive_notice(call: PlannedCall) -> str:
    """What is said before the first call of a tool whose hints say it may destroy."""
    if call.read_only:
        return (
            f"calling {call.tool}, annotated readOnlyHint true and destructiveHint true: it is called as read-only"
            " (the specification reads destructiveHint only when readOnlyHint is false); --skip-destructive leaves"
            " it out"
        )
    return f"calling {call.tool}, which its hints say may destroy, as the calls file names it; --skip-destructive leaves it out"


def _counter_names(counters: Sequence[Any]) -> tuple[str, ...]:
    return tuple(c.name for c in counters) or ("o200k",)


@dataclass(frozen=True)
class ProbedLive:
    """A live server's listing, and the probe made on the same connection."""

    listing: LiveListing
    probe: Probe
    extra: Any = field(default=None, compare=False)


def probe_live(
    server: StdioServer | HttpServer,
    calls: CallsFile | None = None,
    *,
    calls_only: bool = False,
    dry_run: bool = False,
    counters: Sequence[Any] = (),
    bounds: ProbeBounds = _DEFAULT_BOUNDS,
    capabilities: Sequence[str] = (),
    timeout: float | None = None,
    protocol: str | None = None,
    also: Callable[[list[dict[str, Any]], Connection], Awaitable[Any]] | None = None,
) -> ProbedLive:
    """List the server, plan the probe of its tools and (unless `dry_run`) make its calls, all on one
    connection; `also` is run on the same connection after the calls (a second listing, say)."""
    from toolsurface.harness.live import DEFAULT_TIMEOUT_S, use_live

    planned: list[ProbePlan] = []

    async def use(tools: list[dict[str, Any]], connection: Connection) -> tuple[list[ProbedCall], float, Any]:
        # Its failures are said inside the listing's, which names the server once.
        plan = _plan(tools, "the server", calls, calls_only, bounds)
        planned.append(plan)
        made: list[ProbedCall] = []
        seconds = 0.0
        if not dry_run:
            plan.check_cap()
            made, seconds = await probe_connection(plan, connection, counters, bounds)
        extra = await also(tools, connection) if also is not None else None
        return made, seconds, extra

    listing, (made, seconds, extra) = use_live(
        server,
        use,
        capabilities=capabilities,
        timeout=DEFAULT_TIMEOUT_S if timeout is None else timeout,
        protocol=protocol,
        answer_limit=bounds.max_answer_bytes,
    )
    probe = Probe(
        surface=listing.name,
        source=server.label,
        protocol_version=listing.protocol_version,
        plan=planned[0],
        calls=tuple(made),
        counters=_counter_names(counters),
        seconds=seconds,
        dry_run=dry_run,
    )
    return ProbedLive(listing, probe, extra)


def probe_surface(
    item: Measurable,
    calls: CallsFile | None = None,
    *,
    calls_only: bool = False,
    dry_run: bool = False,
    counters: Sequence[Any] = (),
    bounds: ProbeBounds = _DEFAULT_BOUNDS,
    protocol: str | None = None,
) -> Probe:
    """A surface served in memory by its stub (on the stub's own fixture) and probed through a real client."""
    import anyio

    from toolsurface.harness.surface import Snapshot

    if isinstance(item, Snapshot):
        raise ToolsurfaceError(
            f"{item.path}: a snapshot has no server to call; probe the server itself (--url URL or -- CMD ARGS...)"
        )
    from mcp import Client

    from toolsurface.harness.live import SessionConnection
    from toolsurface.harness.measure import list_tools_raw
    from toolsurface.harness.protocol import DEFAULT_PROTOCOL, client_mode
    from toolsurface.stubs.mcp_server import build_server
    from toolsurface.stubs.serve import start_stub, surface_for_serving

    surface = surface_for_serving(item)
    server = build_server(surface, start_stub(surface, None))

    async def run() -> Probe:
        async with Client(server, mode=client_mode(protocol or DEFAULT_PROTOCOL)) as client:
            tools, _ = await list_tools_raw(client.session)
            plan = _plan(tools, item.name, calls, calls_only, bounds)
            made: list[ProbedCall] = []
            seconds = 0.0
            if not dry_run:
                plan.check_cap()
                made, seconds = await probe_connection(plan, SessionConnection(client.session), counters, bounds)
            return Probe(
                surface=item.name,
                source=item.name,
                protocol_version=client.protocol_version,
                plan=plan,
                calls=tuple(made),
                counters=_counter_names(counters),
                seconds=seconds,
                dry_run=dry_run,
            )

    return anyio.run(run)
