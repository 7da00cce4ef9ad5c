"""What each installed client shows its model of a surface: one short session per surface, client executable and
mode, on the scripted model, against the surface's stub (a snapshot file is served for listing only).

The session's script is one search where the mode has the client's own tool search, then a final answer. The
row is read from the first model request that carries the server's tools (shown or deferred), as the model
endpoint split it (harness.endpoint._split), each of the server's tools matched by the client's own naming rule,
and the protocol from the stub's call log where it says. A tool no request carried is dropped, with what the
client printed about it where it printed something. The server goes into each client's config under its name,
which every tool's name then carries: the one its planned record gives (harness.session.plan.server_name_of; one
given that no client takes is a user error); a client that takes no server of that name is a row saying so. The system prompt is counted with this machine's paths (`$HOME`, the
run's folder, its working folder) as placeholders.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.agents import (
    CliAgent,
    ClientCard,
    InstalledAgent,
    ToolNaming,
    check_server_name,
    cli_clients,
    installed_agents,
)
from toolsurface.harness.agents.base import SERVER_NAME
from toolsurface.harness.clients._model import ClientRow, NameRefused, NeighbourRow, Part
from toolsurface.harness.endpoint import (
    MODEL_REQUESTS,
    ModelRequest,
    SentTool,
    ToolPart,
    read_model_requests,
    refusals_marked,
)
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.output import possessive
from toolsurface.harness.run_folder import AGENT_STDERR, CALLS
from toolsurface.harness.scenario import Step
from toolsurface.harness.session.plan import (
    SERVED,
    Beside,
    NeighbourSpec,
    PlannedSurface,
    beside_servers,
    place_listed,
)

if TYPE_CHECKING:
    from toolsurface.stubs.start import ForkServer

__all__ = ["PROMPT", "ClientChoice", "observe_clients", "plan_clients"]

PROMPT = "Look at the tools you have for this project, then answer in one word."
TIMEOUT_S = 120.0
MAX_TURNS = 4


@dataclass(frozen=True)
class ClientChoice:
    """One client executable in one mode."""

    name: str
    mode: str
    path: str
    version: str


def _parse(text: str) -> tuple[str, str | None]:
    name, _, mode = text.partition(":")
    if name not in cli_clients() or (":" in text and not mode):
        raise ToolsurfaceError(f"--client {text!r}: expected one of {', '.join(cli_clients())}, optionally NAME:MODE")
    return name, mode or None


def plan_clients(
    named: Sequence[str], env: Mapping[str, str], server_name: str | None = None
) -> tuple[list[ClientChoice], list[InstalledAgent]]:
    """Every installed client in each of its modes (or the ones named, NAME or NAME:MODE), and the clients that
    cannot run (missing, too old) as rows to say so. A named client that cannot run is a user error, and so is
    a server name given that none of them takes."""
    from toolsurface.harness.agents import make_agent

    wanted: dict[str, list[str] | None] = {}
    for text in named:
        name, mode = _parse(text)
        adapter = make_agent(name)
        assert isinstance(adapter, CliAgent)
        if mode is not None:
            adapter.check_mode(mode)
            modes = wanted.setdefault(name, [])
            if modes is not None and adapter.mode_named(mode) not in modes:
                modes.append(adapter.mode_named(mode))
        else:
            wanted[name] = None
    names = list(wanted) or list(cli_clients())
    if server_name is not None:
        check_server_name(server_name, names)
    choices: list[ClientChoice] = []
    missing: list[InstalledAgent] = []
    found = installed_agents(env, names)  # every CLI asked at once
    for name in names:
        rows = [r for r in found if r.name == name]
        usable = [r for r in rows if r.supported and r.path is not None and r.version is not None]
        if name in wanted and not usable:
            raise ToolsurfaceError(rows[0].problem if rows[0].path is not None else f"{name}: {rows[0].problem}")
        missing += [r for r in rows if not r.supported and name not in wanted]
        for row in usable:
            assert row.path is not None and row.version is not None
            for mode in wanted.get(name) or row.modes:
                choices.append(ClientChoice(name, mode, row.path, row.version))
    return choices, missing


def _steps(choice: ClientChoice, surface: PlannedSurface, search_modes: Sequence[str]) -> list[Step]:
    steps = []
    if choice.mode in search_modes and surface.tools:
        steps.append(Step(0, {"search": surface.tools[0].replace("_", " ")}))
    steps.append(Step(len(steps), {"say": "Done."}))
    return steps


def _part(part: ToolPart | None) -> Part:
    return Part() if part is None else Part(len(part.tools), part.chars, part.tokens)


def _first(requests: Sequence[ModelRequest]) -> ModelRequest | None:
    """The first turn whose request carries the stub's tools, shown or deferred (a client may send its first
    before the stub has connected); else the first turn."""
    turns = [r for r in requests if r.purpose == "turn"]
    for record in turns:
        if (record.stub_shown and record.stub_shown.tools) or (record.stub_deferred and record.stub_deferred.tools):
            return record
    return turns[0] if turns else None


def _protocol(calls: Path) -> str | None:
    """The MCP version the client negotiated, from the stub's call log where it names one."""
    from toolsurface.stubs.calllog import logged_protocol

    return logged_protocol(calls) if calls.is_file() else None


def _row(
    surface: PlannedSurface,
    choice: ClientChoice,
    agent: CliAgent,
    server_name: str,
    builtins: bool,
    status: str,
    run_dir: Path,
    duration_s: float,
) -> ClientRow:
    base: dict[str, Any] = {
        "surface": surface.name,
        "client": choice.name,
        "version": choice.version,
        "mode": choice.mode,
        "builtins": builtins,
        "path": choice.path,
        "duration_s": round(duration_s, 3),
        "protocol": _protocol(run_dir / CALLS),
        "server_name": server_name,
        "naming": _arithmetic(agent, server_name),
        "server": surface.initial_state is None,
    }
    requests = read_model_requests(run_dir / MODEL_REQUESTS)
    refused = next((r.error for r in requests if r.purpose == "turn" and r.refused and r.error), None)
    if refused is not None:
        status = refused
    first = _first(requests)
    if first is None:
        return ClientRow(status=status if status != "ok" else "no model request", refused=refused, **base)
    shown, deferred = _part(first.stub_shown), _part(first.stub_deferred)
    instructions = first.instructions_chars
    context = first.context_chars or 0
    server = shown.chars + deferred.chars + (instructions or 0)
    last = next((r for r in reversed(requests) if r.purpose == "turn" and r.searches is not None), None)
    sent = _dropped_said(refusals_marked(first.stub_sent, requests) or [], agent, server_name, run_dir, requests)
    apps = _app_only(surface)
    return ClientRow(
        status=status,
        shown=shown,
        deferred=deferred,
        builtin=_part(first.builtin_shown),
        system_chars=first.system_chars,
        instructions_chars=instructions,
        server_share=round(server / context, 4) if context else None,
        searches=len(last.searches or []) if last is not None else 0,
        wrappers=_part(first.wrappers) if first.wrappers is not None else None,
        refused=refused,
        sent=sent,
        app_only=apps,
        app_only_sent=tuple(t.tool for t in sent if t.tool in apps and t.how != "dropped"),
        **base,
    )


def _app_only(surface: PlannedSurface) -> tuple[str, ...]:
    """The surface's app-only tools (MCP Apps), which a request that carries one carries to the model all the same."""
    from toolsurface.harness.surface import tool_visibility

    return tuple(str(tool.get("name")) for tool in surface.wire if tool_visibility(tool).app_only)


# Where no request of the session carried a tool and the client said nothing of it.
NOT_SENT = "not in any request"


def _dropped_said(
    sent: list[SentTool], agent: CliAgent, server_name: str, run_dir: Path, requests: Sequence[ModelRequest]
) -> list[SentTool]:
    """`sent`, each tool the first request dropped with why: what the client printed about it on its stderr, or
    the turn of a later request that carried it, or that none did."""
    if not any(t.how == "dropped" for t in sent):
        return sent
    stderr = run_dir / AGENT_STDERR
    said = agent.said_of_tools(stderr.read_text(encoding="utf-8", errors="replace") if stderr.is_file() else "")
    carried: dict[str, int] = {}
    for record in requests:
        if record.purpose != "turn" or record.turn is None:
            continue
        for later in record.stub_sent or []:
            if later.how != "dropped":
                carried.setdefault(later.tool, record.turn)
    found = []
    for tool in sent:
        if tool.how == "dropped":
            words = said.get(agent.naming.uncut_name(tool.tool, server_name))
            where = (
                f"not in the first request; carried from turn {carried[tool.tool]}" if tool.tool in carried else None
            )
            reason = f"{agent.naming.client} said: {words}" if words else where or (None if tool.note else NOT_SENT)
            tool = replace(tool, note="; ".join(n for n in (reason, tool.note) if n))
        found.append(tool)
    return found


async def _session(
    surface: PlannedSurface,
    choice: ClientChoice,
    run_dir: Path,
    *,
    builtins: bool,
    timeout: float,
    env: Mapping[str, str],
    server_name: str = SERVER_NAME,
    beside: Sequence[Beside] = (),
    window: int | None = None,
    count_answer: int | None = None,
    forks: ForkServer | None = None,
) -> ClientRow:
    from toolsurface.harness.agents import make_agent
    from toolsurface.harness.session.run import Session, run_session

    agent = make_agent(choice.name, executable=choice.path)
    assert isinstance(agent, CliAgent)
    agent.version = choice.version
    unset_modes = [m for m in agent.card.named_modes if m not in agent.card.percent_modes]
    started = time.monotonic()
    session = Session(
        agent=agent,
        surface=surface,
        prompt=PROMPT,
        run_dir=run_dir,
        timeout=timeout,
        mode=choice.mode,
        # A mode the client decides for itself by its settings alone may have its tool search on: a search step,
        # made where it offers one.
        steps=_steps(choice, surface, (*agent.search_modes, *unset_modes)),
        env=env,
        max_turns=MAX_TURNS,
        builtins=builtins,
        server_name=server_name,
        beside=beside,
        context_window=window,
        count_answer=count_answer,
        workdir_prefix="toolsurface-clients-",
        forks=forks,
    )
    report = (await run_session(session)).report
    status = "ok" if report.status == "ok" else f"{report.status}: {report.error}"
    row = _row(surface, choice, agent, server_name, builtins, status, run_dir, time.monotonic() - started)
    requests = read_model_requests(run_dir / MODEL_REQUESTS)
    row = _beside_row(row, surface, beside, agent.card, requests, window)
    first = _first(requests)
    references = [tool for r in requests for search in r.searches or [] for tool in search.returned]
    said = agent.search_decision(run_dir, first.betas if first else [], list(dict.fromkeys(references)))
    if said and row.decision:
        row = replace(row, decision=f"{row.decision}; {said}")
    return replace(row, names_refused=_names_refused(row, agent, requests))


# How a request carries a tool it gives the model no definition of until a search loads it.
_LOADED_LATER = ("deferred", "named", "namespace")


def _names_refused(row: ClientRow, agent: CliAgent, requests: Sequence[ModelRequest]) -> list[NameRefused]:
    """Each tool of the row's servers whose name (as the client names it) the client's API refuses, and when: at
    once where the first request carries its definition (or was refused for it), else when the client's tool
    search loads it, though the session's own search loaded another."""
    from toolsurface.harness.endpoint import name_refused

    if agent.api is None:
        return []
    first = _first(requests)
    at_once = set(first.refused_tools + first.refused_unjudged) if first is not None and first.refused else set()
    found = []
    servers = [(row.server_name, row.sent), *((n.server, n.sent) for n in row.neighbours)]
    for server, sent in servers:
        for tool in sent:
            if tool.how not in ("shown", *_LOADED_LATER):
                continue
            name = tool.sent_as or (
                agent.naming.sent_name(tool.tool, server)
                if tool.how == "namespace"
                else agent.naming.full_name(tool.tool, server)
            )
            why = name_refused(agent.api, name)
            if why is None:
                continue
            later = tool.how in _LOADED_LATER and name not in at_once
            found.append(NameRefused(server, tool.tool, name, why, "when tool search loads it" if later else "at once"))
    return found


def _beside_row(
    row: ClientRow,
    surface: PlannedSurface,
    beside: Sequence[Beside],
    card: ClientCard,
    requests: Sequence[ModelRequest],
    window: int | None,
) -> ClientRow:
    """The row with what the window, the neighbours and the client's own decision add to it."""
    first = _first(requests)
    neighbours: list[NeighbourRow] = []
    if first is not None and beside:
        context = first.context_chars or 0
        by_name = {b.name: b.surface.name for b in beside}
        for part in first.neighbours or []:
            chars = part.shown.chars + part.deferred.chars + (part.instructions_chars or 0)
            neighbours.append(
                NeighbourRow(
                    part.server,
                    by_name.get(part.server, part.server),
                    _part(part.shown),
                    _part(part.deferred),
                    round(chars / context, 4) if context else None,
                    refusals_marked(part.sent, requests) or [],
                )
            )
    tokens = (row.shown.tokens if row.shown else 0) + (row.deferred.tokens if row.deferred else 0)
    return replace(
        row,
        neighbours=neighbours,
        clashes=_clashes(row, surface, beside, neighbours),
        context_window=window,
        window_share=round(tokens / window, 4) if window and first is not None else None,
        decision=_decision(card, row, requests, first, window) if first is not None else None,
    )


def _clashes(
    row: ClientRow, surface: PlannedSurface, beside: Sequence[Beside], carried: Sequence[NeighbourRow]
) -> list[str]:
    """Each tool name two servers of the config share, and what the client made of it in each."""
    servers = [(row.server_name, surface.tools, row.sent)]
    sent = {n.server: n.sent for n in carried}
    servers += [(b.name, b.surface.tools, sent.get(b.name, [])) for b in beside]
    owners: dict[str, list[str]] = {}
    for name, tools, _ in servers:
        for tool in dict.fromkeys(tools):
            owners.setdefault(tool, []).append(name)
    said = []
    for tool, names in owners.items():
        if len(names) < 2:
            continue
        each = []
        for name, _, carried_tools in servers:
            if name in names:
                found = next((t for t in carried_tools if t.tool == tool), None)
                how = "not read" if found is None else found.how
                each.append(f"{possessive(name)} {how}" + (f" as {found.sent_as}" if found and found.sent_as else ""))
        said.append(f"{tool}: " + ", ".join(each))
    return said


def _decision(
    card: ClientCard, row: ClientRow, requests: Sequence[ModelRequest], first: ModelRequest, window: int | None
) -> str | None:
    """Why the client showed or deferred the server's tools, in a mode where it decides for itself: what it
    counted before its first request, against its share of the model's window."""
    base, _, share = row.mode.partition(":")
    if row.mode not in card.named_modes and base not in card.percent_modes:
        return None
    shown = row.shown.tools if row.shown else 0
    deferred = row.deferred.tools if row.deferred else 0
    how = "deferred" if deferred and not shown else "shown" if shown else "not carried"
    if base not in card.percent_modes:
        return f"{how}: as {card.title} decides with its settings unset"
    percent = int(share) if share else card.percent_default
    counts = [r.counted for r in requests if r.purpose == "count" and r.counted is not None and r.seq < first.seq]
    if not counts:
        return f"{how}: {card.title} counted nothing before its first request"
    counted = counts[-1]
    known = {model: size for size, model in card.windows.items()}
    window = window or next((size for model, size in known.items() if (first.model or "").startswith(model)), None)
    if window is None:
        return f"{how}: {counted:,} tokens counted; the window of {first.model or 'its model'} is not known here"
    threshold = window * percent // 100
    net = counted - card.count_allowance
    sign = "≥" if net >= threshold else "<"
    less = f" less {card.count_allowance:,} ({net:,})" if card.count_allowance else ""
    said = f"{how}: {counted:,} tokens counted{less} {sign} {percent} % of {window:,} ({threshold:,})"
    if (how == "deferred") != (net >= threshold):
        said += f"; {card.title} did not give {first.model or 'its model'} this window"
    return said


def _missing_row(surface: PlannedSurface, row: InstalledAgent, builtins: bool, server_name: str) -> ClientRow:
    status = f"not installed ({row.install})" if row.path is None else str(row.problem)
    return ClientRow(
        surface.name,
        row.name,
        row.version,
        "-",
        builtins,
        status,
        path=row.path,
        server_name=server_name,
        server=surface.initial_state is None,
    )


def observe_clients(
    surfaces: Sequence[PlannedSurface],
    named: Sequence[str] = (),
    *,
    builtins: bool = False,
    jobs: int = 2,
    timeout: float = TIMEOUT_S,
    out: Path | None = None,
    env: Mapping[str, str] | None = None,
    server_name: str | None = None,
    wanted: Callable[[str, ClientChoice], bool] | None = None,
    neighbours: Sequence[NeighbourSpec] = (),
    context_windows: Sequence[int] = (),
    count_answer: int | None = None,
    one_by_one: bool = False,
) -> list[ClientRow]:
    """A row per planned surface, client executable and mode (all installed ones, or those `named`); a client that
    cannot run is a row saying so, unless named (then a user error), and so is one that takes no server of the name
    its config would give it, its planned record's (`server_name`: the name the user gave, checked here). `wanted` (the surface's name, a
    client) picks the sessions to run, when not all. `out` keeps each session's folder
    (out/SURFACE/CLIENT-VERSION-MODE), else they go to a temporary folder removed after. `neighbours` go into
    every client's config beside the surface's server; a client whose card knows context windows runs once per
    window of `context_windows` (the model it gives that window). `count_answer`: every token count the clients
    ask for is answered with this many tokens (a threshold probed). `one_by_one`: each client runs with none of
    the neighbours, then the first, the first two, ... up to all of them, so a row shows where the surface turns
    deferred as neighbours come in."""
    from toolsurface.harness.session.plan import run_folder_name
    from toolsurface.harness.session.run import run_at_once, runs_root, warm_stubs
    from toolsurface.harness.session.tool_search import warm_tokens

    environment = dict(os.environ if env is None else env)
    if not surfaces:
        raise ToolsurfaceError("no surface given")
    for window in context_windows:
        if window <= 0:
            raise ToolsurfaceError(f"--context-window {window}: a window is a positive number of tokens")
    choices, missing = plan_clients(named, environment, server_name)
    _check_windows(choices, context_windows)
    # The name each surface's server goes by in the clients' configs.
    named_as = [s.server_name for s in surfaces]
    beside = beside_servers(neighbours, named_as)
    pairs = [(n, c) for n, s in enumerate(surfaces) for c in choices if wanted is None or wanted(s.name, c)]
    takes = [(n, c) for n, c in pairs if all(_naming(c.name).accepts_server(x) for x in (named_as[n], *_names(beside)))]
    if pairs and not takes:
        # Rows that each say a name was refused would measure nothing: one line, as for a name no client takes.
        raise ToolsurfaceError(
            _refusing_row(surfaces[pairs[0][0]], pairs[0][1], builtins, named_as[pairs[0][0]], _names(beside)).status
        )
    # How many of the neighbours each session has beside the surface, the first ones.
    counts = list(range(len(beside) + 1)) if one_by_one else [len(beside)]
    sessions = [(n, c, w, b) for n, c in takes for w in _windows(c, context_windows) for b in counts]
    if sessions:
        warm_tokens()
    unique = len({s.name for s in surfaces}) == len(surfaces)

    forks: ForkServer | None = None

    async def one(k: int, root: Path) -> ClientRow:
        at, choice, window, count = sessions[k]
        present = tuple(beside[:count])
        label = f"{choice.name}-{choice.version}-{choice.mode}".replace(":", "-") + (f"-w{window}" if window else "")
        label += f"-with{len(present)}" if one_by_one else ""
        folder = root / (run_folder_name(surfaces[at].name) if unique else str(at)) / label
        return await _session(
            surfaces[at],
            choice,
            folder,
            builtins=builtins,
            timeout=timeout,
            env=environment,
            server_name=named_as[at],
            beside=present,
            window=window,
            count_answer=count_answer,
            forks=forks,
        )

    found: list[ClientRow] = []
    if sessions:
        with runs_root(out, "toolsurface-clients-") as root:
            # A server listed here is served from its list written beside the sessions.
            surfaces = place_listed(surfaces, root / SERVED)
            placed = place_listed([b.surface for b in beside], root / SERVED / "beside")
            beside = [replace(b, surface=surface) for b, surface in zip(beside, placed, strict=True)]
            served = [*(surfaces[n] for n, _, _, _ in sessions), *(b.surface for b in beside)]
            with warm_stubs(served, out) as forks:
                found = run_at_once(len(sessions), one, jobs=jobs, out=root, prefix="toolsurface-clients-")
    order = {name: n for n, name in enumerate(cli_clients())}
    result = found + [_missing_row(s, row, builtins, named_as[n]) for n, s in enumerate(surfaces) for row in missing]
    result += [
        _refusing_row(surfaces[n], c, builtins, named_as[n], _names(beside)) for n, c in pairs if (n, c) not in takes
    ]
    surface_order = {s.name: n for n, s in enumerate(surfaces)}
    return sorted(
        result,
        key=lambda r: (
            surface_order[r.surface],
            order.get(r.client, 99),
            _version_key(r.version),
            r.context_window or 0,
            len(r.neighbours),
        ),
    )


def _check_windows(choices: Sequence[ClientChoice], windows: Sequence[int]) -> None:
    """Every window given is one each client that decides by windows gives a model of its own."""
    from toolsurface.harness.agents import client_card

    for card in {c.name: client_card(c.name) for c in choices}.values():
        for window in windows:
            if card.windows and card.model_for_window(window) is None:
                known = ", ".join(f"{w:,} ({m})" for w, m in sorted(card.windows.items()))
                raise ToolsurfaceError(
                    f"--context-window {window}: {card.title} gives no model of its own that window; its windows:"
                    f" {known}"
                )


def _names(beside: Sequence[Beside]) -> tuple[str, ...]:
    return tuple(b.name for b in beside)


def _windows(choice: ClientChoice, windows: Sequence[int]) -> list[int | None]:
    """The windows a client runs in: each one given, for a client whose card knows windows; else its model's."""
    from toolsurface.harness.agents import client_card

    return list(windows) if windows and client_card(choice.name).windows else [None]


def _refusing_row(
    surface: PlannedSurface, choice: ClientChoice, builtins: bool, server_name: str, beside: Sequence[str] = ()
) -> ClientRow:
    """The row of a client that takes no server of the name its config would give this one (or a neighbour)."""
    rule = _naming(choice.name)
    refused = next((name for name in (server_name, *beside) if not rule.accepts_server(name)), server_name)
    how = "with --server-name" if refused == server_name else "in the configuration file"
    status = (
        f"{rule.client} takes no server called {refused!r} (its names: [{rule.server_allowed}]+); give one it"
        f" takes {how}"
    )
    return ClientRow(
        surface.name,
        choice.name,
        choice.version,
        choice.mode,
        builtins,
        status,
        path=choice.path,
        server_name=server_name,
        server=surface.initial_state is None,
    )


def _arithmetic(agent: CliAgent, server_name: str) -> str:
    """The client's prefix arithmetic, and the longest name its API takes."""
    from toolsurface.harness.endpoint import NAME_LIMITS

    said = agent.naming.arithmetic(server_name)
    limit = NAME_LIMITS.get(agent.api)
    if limit is None:
        return said
    room = limit - len(agent.naming.prefix(server_name))
    return f"{said}; its API ({agent.api}) takes names of up to {limit}: {room} left for the tool's own"


def _naming(name: str) -> ToolNaming:
    from toolsurface.harness.agents import make_agent

    adapter = make_agent(name)
    assert isinstance(adapter, CliAgent)
    return adapter.naming


def _version_key(version: str | None) -> tuple[int, ...]:
    from toolsurface.harness.agents import parse_version

    return parse_version(version or "") or (0, 0, 0)
