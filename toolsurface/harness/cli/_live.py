"""A live server wherever a surface goes: `-- CMD ARGS...` or `--url URL` listed once per command, its list
then one more surface for measure, lint, findability, roundtrip, clients, report and diff: a snapshot in memory,
planned as a record where sessions serve it (harness.session.plan.plan_listed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.protocol import AUTO

if TYPE_CHECKING:
    from toolsurface.harness.live import LiveServerOptions, TakenSnapshot
    from toolsurface.harness.measure import Measurable
    from toolsurface.harness.session.plan import PlannedSurface


def _listed(live: LiveServerOptions, protocol: str | None, drafts: bool = False) -> TakenSnapshot | None:
    """The live server the options name, listed once (`drafts`: with the drafts it advertises); None when they name
    none."""
    if not live.names_a_server:
        return None
    from toolsurface.harness.live import live_target, skip_final_collection, take_snapshot

    server = live_target(None, live)
    taken = take_snapshot(
        None, server, capabilities=live.capabilities, timeout=live.timeout, protocol=protocol, drafts=drafts
    )
    skip_final_collection()
    return taken


def _items(
    specs: Sequence[str], live: LiveServerOptions, protocol: str | None, drafts: bool = False
) -> tuple[list[Measurable], list[str]]:
    """The surfaces named, then the live server's list (`drafts`: with the drafts it advertises); with their names
    (a live server by its own)."""
    from toolsurface.harness.surface import resolve_all

    if not live.names_a_server and not live_flags(live):
        return list(resolve_all(specs)), list(specs)
    _refuse_stray(live)
    items: list[Measurable] = list(resolve_all(specs))
    taken = _listed(live, protocol, drafts)
    assert taken is not None
    return [*items, taken.as_snapshot()], [*specs, taken.name]


def live_flags(live: LiveServerOptions) -> list[str]:
    """The options given that go with a live server."""
    given = [
        ("--header", live.headers),
        ("--env", live.envs),
        ("--cwd", live.cwd),
        ("--client-capabilities", live.capabilities),
        ("--name", live.name),
        ("--transport", live.transport != AUTO),
    ]
    return [flag for flag, value in given if value]


def _refuse_stray(live: LiveServerOptions) -> None:
    if not live.names_a_server:
        raise ToolsurfaceError(f"{live_flags(live)[0]} goes with a live server: --url URL or -- CMD ARGS...")


@dataclass(frozen=True)
class GivenSurfaces:
    """The surfaces a verb was given: those named (`named`, as given), then the servers listed here, each list
    taken once and kept in memory (`listed`)."""

    named: list[str]
    listed: list[TakenSnapshot]

    @property
    def labels(self) -> list[str]:
        """What a line to the user calls each: a named one as given, a listed server by its name."""
        return [*self.named, *(taken.name for taken in self.listed)]

    @property
    def study_specs(self) -> list[str]:
        """Each as a study's surfaces are looked up by: a listed server, of no study, by none."""
        return [*self.named, *("" for _ in self.listed)]

    def items(self) -> list[Measurable]:
        from toolsurface.harness.surface import resolve_all

        return [*resolve_all(self.named), *(taken.as_snapshot() for taken in self.listed)]

    def planned(self, server_name: str | None) -> list[PlannedSurface]:
        """Each planned once, for sessions against its stub."""
        from toolsurface.harness.session.plan import plan_listed, plan_surface

        named = [plan_surface(spec, server_name) for spec in self.named]
        return [*named, *(plan_listed(taken, server_name) for taken in self.listed)]


def given_surfaces(
    specs: Sequence[str], live: LiveServerOptions, protocol: str | None, also: Sequence[TakenSnapshot] = ()
) -> GivenSurfaces:
    """The specs named, then the live server's list taken once, then `also`, more lists taken already (a client
    configuration's servers)."""
    if not live.names_a_server and live_flags(live):
        _refuse_stray(live)
    taken = _listed(live, protocol) if live.names_a_server else None
    return GivenSurfaces(list(specs), [*([taken] if taken is not None else []), *also])


def server_args(live: LiveServerOptions) -> list[str]:
    """How a printed command names the live server these options name, so it runs as printed: `--url URL`
    (without credentials or query) or `-- CMD ARGS...` (secret-looking values redacted), last, with the options
    that go with it; none when they name none."""
    from toolsurface.harness.redact import is_secret_name, redacted_argv

    if not live.names_a_server:
        return []
    args = ["--name", live.name] if live.name is not None else []
    args += [option for path in ([live.cwd] if live.cwd is not None else []) for option in ("--cwd", str(path))]
    for pair in live.envs:
        name = pair.partition("=")[0]
        args += ["--env", f"{name}=..." if is_secret_name(name) else pair]
    if live.url is not None:
        from toolsurface.harness.live import HttpServer

        headers = [option for header in live.headers for option in ("--header", f"{header.partition(':')[0]}:...")]
        transport = ["--transport", live.transport] if live.transport != AUTO else []
        return [*args, *headers, *transport, "--url", HttpServer(live.url).label]
    assert live.argv is not None
    return [*args, "--", *redacted_argv(live.argv)]


def given_any(specs: Sequence[str], live: LiveServerOptions, what: str = "SURFACE") -> None:
    """One line when neither a surface nor a live server is given."""
    if not specs and not live.names_a_server:
        raise ToolsurfaceError(f"give a {what}, --url URL, or -- CMD ARGS... (the server command after --)")
