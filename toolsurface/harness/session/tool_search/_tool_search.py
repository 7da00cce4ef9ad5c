"""A client's own tool search, driven offline: one session per surface in the client's search mode, in which the
scripted model issues each query as a call of its search tool (its card's), and nothing else.

What each search returned is read from the transcript (by the card's reading of it, in order), and what the next
model request carried from model-requests.jsonl (its tools array by name, its compact-JSON chars and o200k
tokens). The adapter, the model endpoint and the stub are the session runner's own; only the script is made here:
a first search that waits for the stub, one search per query, and a final word.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.agents.base import (
    AgentUnavailable,
)
from toolsurface.harness.endpoint import MODEL_REQUESTS, ModelRequest, read_model_requests
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.run_folder import CALLS, TRANSCRIPT
from toolsurface.harness.scenario import Step
from toolsurface.harness.session.plan import SERVED, PlannedSurface, place_listed
from toolsurface.harness.session.run import Session, run_at_once, run_session, runs_root, warm_stubs

if TYPE_CHECKING:
    from toolsurface.harness.agents import ClientCard
    from toolsurface.stubs.start import ForkServer

PROMPT = "Find the tools for each of these requests with tool search, then stop."
# The session's first search is the card's wait for this tool, which the stub does not have, so the stub is there
# before the first real search; the answer is no part of the record.
_WAITS_FOR_STUB = "toolsurface_waits_for_the_stub"
# A session whose search still came before the stub (a machine too busy to start it in time) is run again.
ATTEMPTS = 2


class _StubNotConnected(ToolsurfaceError):
    """The client searched before the stub had connected."""


class ToolSearchUnavailable(AgentUnavailable):
    """The client is missing, or older than the version whose tool search toolsurface reads."""


@dataclass(frozen=True)
class SearchRequest:
    """One call of a client's search tool: the query exactly as given (keywords or `select:NAME,...`), and max_results
    (None: not sent, so Claude Code's own default applies)."""

    query: str
    max_results: int | None = None


@dataclass(frozen=True)
class ObservedSearch:
    """One search as the client ran it.

    `returned`: the tools its answer referenced, in its order (the server's without the prefix the client
    puts before them, `mcp__stub__`); `answer`: its text when it referenced none. `tools_before` / `tools_after`: the
    tools arrays, by name as sent, of the request that made the search and of the next one, with their
    compact-JSON chars and o200k tokens.
    """

    query: str
    max_results: int | None
    returned: list[str]
    answer: str | None
    tools_before: list[str]
    tools_after: list[str]
    chars_before: int
    tokens_before: int
    chars_after: int
    tokens_after: int
    # What the client puts before the server's tools, by the server's name in its config.
    prefix: str = "mcp__stub__"

    @property
    def loaded(self) -> list[str]:
        """The stub's tools the next request carried that this one did not, in the order returned."""
        before = set(self.tools_before)
        new = {_own_name(name, self.prefix) for name in self.tools_after if name not in before}
        return [name for name in self.returned if name in new] + sorted(new - set(self.returned))

    @property
    def added_chars(self) -> int:
        return self.chars_after - self.chars_before

    @property
    def added_tokens(self) -> int:
        return self.tokens_after - self.tokens_before

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "max_results": self.max_results,
            "returned": self.returned,
            "answer": self.answer,
            "loaded": self.loaded,
            "next_tools": self.tools_after,
            "added_chars": self.added_chars,
            "added_tokens": self.added_tokens,
        }


@dataclass(frozen=True)
class ToolSearchRun:
    """One surface's session: the client and its version, every search in order, and the first request's
    tools array (its search tool alone), which every later request carries too."""

    surface: str
    client: str
    version: str
    mode: str
    searches: list[ObservedSearch]
    first_chars: int
    first_tokens: int
    duration_s: float
    run_dir: Path | None = field(default=None, compare=False)

    def search(self, query: str) -> ObservedSearch:
        return next(s for s in self.searches if s.query == query)


def _own_name(name: str, prefix: str) -> str:
    return name.removeprefix(prefix)


def tool_search_client(client: str, env: Mapping[str, str] | None = None) -> Any:
    """The adapter of `client`, a client whose card reads its own tool search, checked: its CLI found on PATH and
    new enough, else ToolSearchUnavailable naming the version needed."""
    from toolsurface.harness.agents import make_agent

    agent: Any = make_agent(client)
    if agent.card.search_reading is None:
        raise ToolsurfaceError(f"{client}: toolsurface does not read its tool search")
    needed = ".".join(map(str, agent.min_version))
    try:
        agent.check_available(dict(os.environ if env is None else env), "scripted")
    except AgentUnavailable as error:
        reason = str(error)
        if f"{needed} or newer" in reason:
            raise ToolSearchUnavailable(reason) from None
        title = agent.card.title
        raise ToolSearchUnavailable(f"{title} {needed} or newer is needed for its tool search: {reason}") from None
    return agent


def _steps(searches: Sequence[SearchRequest], wait_query: str, prefix: str) -> list[Step]:
    steps = [Step(0, {"search": wait_query.format(tool=f"{prefix}{_WAITS_FOR_STUB}")})]
    for search in searches:
        raw: dict[str, Any] = {"search": search.query}
        if search.max_results is not None:
            raw["max_results"] = search.max_results
        steps.append(Step(len(steps), raw))
    steps.append(Step(len(steps), {"say": "Done."}))
    return steps


def _turns(requests: Sequence[ModelRequest]) -> dict[int, ModelRequest]:
    """The run's own turns by number; a retried request keeps the later record."""
    return {r.turn: r for r in requests if r.purpose == "turn" and r.turn is not None}


def _read_run(
    agent: Any,
    surface: str,
    run_dir: Path,
    transcript: Path,
    searches: Sequence[SearchRequest],
    duration_s: float,
    prefix: str,
) -> ToolSearchRun:
    card = agent.card
    reading = card.search_reading
    found = reading.read(transcript, card.search_tool)
    turns = _turns(read_model_requests(run_dir / MODEL_REQUESTS))
    who = f"{card.name} on {surface}"
    if len(found) < len(searches) + 1 or 1 not in turns:
        made = max(0, len(found) - 1)
        raise ToolsurfaceError(f"{who}: made {made} of {len(searches)} searches (transcript in {run_dir})")
    observed = []
    # Turn 1 makes the search that waits for the stub; search n (from 0) is made in turn n + 2.
    for n, (search, made_search) in enumerate(zip(searches, found[1:], strict=False)):
        asked = made_search.arguments.get("query")
        if asked != search.query:
            raise ToolsurfaceError(f"{who}: search {n + 1} asked {asked!r}, not {search.query!r}")
        returned = [_own_name(name, prefix) for name in made_search.references]
        answer = made_search.answer
        if not returned and answer is not None and reading.still_connecting in answer:
            raise _StubNotConnected(f"{who}: searched before the stub connected: {answer[:200]}")
        before, after = turns.get(n + 2), turns.get(n + 3)
        if before is None or after is None:
            raise ToolsurfaceError(f"{who}: no model request before and after search {n + 1}")
        observed.append(
            ObservedSearch(
                query=search.query,
                max_results=search.max_results,
                returned=returned,
                answer=answer,
                tools_before=before.tools,
                tools_after=after.tools,
                chars_before=before.tools_chars,
                tokens_before=before.tools_tokens,
                chars_after=after.tools_chars,
                tokens_after=after.tools_tokens,
                prefix=prefix,
            )
        )
    first = turns[1]
    return ToolSearchRun(
        surface=surface,
        client=card.name,
        version=str(agent.version),
        mode=search_mode(card),
        searches=observed,
        first_chars=first.tools_chars,
        first_tokens=first.tools_tokens,
        duration_s=round(duration_s, 3),
        run_dir=run_dir,
    )


async def _retried(session: Callable[[], Awaitable[ToolSearchRun]], run_dir: Path) -> ToolSearchRun:
    """The session, run again (in a clean `run_dir`) while its search came before the stub connected."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return await session()
        except _StubNotConnected:
            if attempt == ATTEMPTS:
                raise
            shutil.rmtree(run_dir, ignore_errors=True)
    raise AssertionError("unreachable")


async def _session(
    agent: Any,
    surface: PlannedSurface,
    searches: Sequence[SearchRequest],
    run_dir: Path,
    timeout: float,
    server: str,
    forks: ForkServer | None,
) -> ToolSearchRun:
    """`server`: the server's name in the client's config, which its tools' names carry; the stub is forked from
    `forks` where given."""
    prefix = agent.naming.prefix(server)
    card = agent.card
    started = time.monotonic()
    session = Session(
        agent=agent,
        surface=surface,
        prompt=PROMPT,
        run_dir=run_dir,
        timeout=timeout,
        mode=search_mode(card),
        steps=_steps(searches, card.search_reading.wait_query, prefix),
        max_turns=len(searches) + 4,
        server_name=server,
        workdir_prefix="toolsurface-search-",
        forks=forks,
    )
    report = (await run_session(session)).report
    name = surface.name
    if report.status != "ok":
        raise ToolsurfaceError(f"{card.name} on {name}: {report.status}: {report.error}")
    if not _listed(run_dir / CALLS):
        raise ToolsurfaceError(
            f"{card.name} on {name}: the stub never listed its tools to {card.title} (see {run_dir})"
        )
    transcript = run_dir / (report.transcript or TRANSCRIPT)
    return _read_run(agent, name, run_dir, transcript, searches, time.monotonic() - started, prefix)


def search_mode(card: ClientCard) -> str:
    """The mode a client's own search is observed in: the first of its card's search modes."""
    return card.search_modes[0]


def observe_tool_search(
    surfaces: Sequence[PlannedSurface],
    searches: Sequence[SearchRequest],
    *,
    client: str,
    jobs: int = 2,
    timeout: float = 300.0,
    out: Path | None = None,
) -> list[ToolSearchRun]:
    """Every search on every planned surface, as the own tool search of `client` answers it: one session per
    surface in its search mode (`jobs` at a time) against the surface's stub, its server named in the client's
    config as the record names it. `out` keeps each run's folder (out/SURFACE), else they go to a temporary folder
    removed after."""
    from toolsurface.harness.agents import check_server_name

    if not searches:
        raise ToolsurfaceError("no query to search for")
    warm_tokens()
    agent = tool_search_client(client)
    names = [surface.name for surface in surfaces]
    servers = [surface.server_name for surface in surfaces]
    for server in dict.fromkeys(servers):
        check_server_name(server, [client])
    unique = len(set(names)) == len(names)

    with runs_root(out, "toolsurface-tool-search-") as root:
        placed = place_listed(surfaces, root / SERVED)

        async def one(n: int, root: Path) -> ToolSearchRun:
            run_dir = root / placed[n].folder if unique else root / str(n)
            session = functools.partial(_session, agent, placed[n], searches, run_dir, timeout, servers[n], forks)
            return await _retried(session, run_dir)

        with warm_stubs(placed, root) as forks:
            runs = run_at_once(len(placed), one, jobs=jobs, out=root, prefix="toolsurface-tool-search-")
    return runs if out is not None else [_forget_dir(r) for r in runs]


def _listed(calls: Path) -> bool:
    """Whether the stub's log shows a tools/list: a search that found nothing searched the stub's tools."""
    from toolsurface.stubs.calllog import read_log

    return calls.is_file() and any(r.method == "tools/list" for r in read_log(calls))


def warm_tokens() -> None:
    """Load the o200k encoding while the client starts, not when its first request waits for the count."""
    import threading

    from toolsurface.harness.measure import count_tokens

    def warm() -> None:
        with contextlib.suppress(ToolsurfaceError):
            count_tokens("")

    threading.Thread(target=warm, name="warm-o200k", daemon=True).start()


def _forget_dir(run: ToolSearchRun) -> ToolSearchRun:
    from dataclasses import replace

    return replace(run, run_dir=None)
