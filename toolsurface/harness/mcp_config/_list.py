"""The servers of a configuration listed at once (at most `jobs` at a time), each under its key's name: a server
that cannot start, hangs or answers wrongly is a row saying why, and the others are still listed."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.mcp_config._model import ConfigServer, GivenServer, McpConfig
from toolsurface.harness.mcp_config._read import minimal_env

if TYPE_CHECKING:
    from toolsurface.harness.live import HttpServer, StdioServer, TakenSnapshot

__all__ = ["ConfigListing", "ListedServer", "list_config", "list_configured", "live_server", "unlisted_problem"]


@dataclass(frozen=True)
class ListedServer:
    """One server of the configuration: its list as taken (None when it could not be), or why not; `given`: the
    server given on the command line that it is (`-- CMD ...`, `--url ...`), listed once, as that one."""

    server: ConfigServer
    taken: TakenSnapshot | None = None
    problem: str | None = None
    given: str | None = None

    @property
    def name(self) -> str:
        return self.server.name

    @property
    def status(self) -> str:
        if self.taken is not None:
            return "listed"
        if self.given is not None:
            return "given"
        return "disabled" if self.server.disabled else "failed"

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    @property
    def why(self) -> str:
        """What its row says: a variable left as written first (what a server given one most often fails by),
        then why it could not be listed."""
        if self.given is not None:
            return f"the same server as {self.given}: measured once, as that one"
        from toolsurface.harness.redact import redacted_text

        said = list(self.server.notes)
        if self.problem is not None:
            said.append(f"then it could not be listed: {self.problem}" if said and self.failed else self.problem)
        # A server's failure can quote its command or URL: written down as every writer writes them.
        return redacted_text("; ".join(said))


def unlisted_problem(path: Path, failed: Sequence[tuple[str, str]], what: str) -> str | None:
    """The line a command ends with when servers of the configuration at `path` could not be listed (`failed`:
    each one's name and why; none: no line): which, why, that `what` without them, and how to go on."""
    if not failed:
        return None
    one = len(failed) == 1
    names = "; ".join(f"{name} ({why})" for name, why in failed)
    them = "it" if one else "them"
    return (
        f"{path}: {'a server' if one else f'{len(failed)} servers'} could not be listed: {names}; so {what}"
        f" (--keep-going goes on without {them}; or disable {them} in the file)"
    )


def live_server(
    server: ConfigServer, config: McpConfig, environ: Mapping[str, str] | None = None
) -> StdioServer | HttpServer:
    """What starts or reaches the server, named by its key: a command with the minimal environment (or the
    user's, with --env-from-shell) and the configuration's own variables."""
    from toolsurface.harness.live import HttpServer, StdioServer

    if server.command is not None:
        shell = os.environ if environ is None else environ
        base = dict(shell) if config.env_from_shell else minimal_env(shell)
        return StdioServer(argv=server.command, env=dict(server.env), cwd=server.cwd, name=server.name, base_env=base)
    assert server.url is not None
    return HttpServer(url=server.url, headers=dict(server.headers), transport=_transport(server), name=server.name)


def _transport(server: ConfigServer) -> str:
    from toolsurface.harness.protocol import SSE, STREAMABLE_HTTP

    return SSE if server.transport == "sse" else STREAMABLE_HTTP


def list_config(
    config: McpConfig,
    *,
    jobs: int = 4,
    timeout: float = 30.0,
    capabilities: Sequence[str] = (),
    protocol: str | None = None,
    include_disabled: bool = False,
    given: GivenServer | None = None,
) -> list[ListedServer]:
    """Every server of the configuration listed, at most `jobs` at once, in the file's order; a disabled one
    only when asked (`include_disabled`), else a row saying it is off; the server `given` on the command line,
    where the file names it too, not listed again (a row saying so)."""
    import anyio

    from toolsurface.harness.live import skip_final_collection

    listed = anyio.run(_list_all, config, jobs, timeout, tuple(capabilities), protocol, include_disabled, given)
    skip_final_collection()
    return listed


@dataclass(frozen=True)
class ConfigListing:
    """How a configuration's servers are listed: its file, whether the user's environment is given to them, how
    many at once, the seconds each has, the capabilities declared, the protocol version, and the server given on
    the command line beside it (listed by the command, so not again)."""

    path: Path
    env_from_shell: bool = False
    jobs: int = 4
    timeout: float = 30.0
    capabilities: tuple[str, ...] = ()
    protocol: str | None = None
    given: GivenServer | None = None


def list_configured(listing: ConfigListing) -> tuple[McpConfig, list[ListedServer]]:
    """The configuration file read and its servers listed (each a row, listed or saying why not); one line when
    none could be."""
    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.mcp_config._read import read_mcp_config

    config = read_mcp_config(listing.path, env_from_shell=listing.env_from_shell)
    listed = list_config(
        config,
        jobs=listing.jobs,
        timeout=listing.timeout,
        capabilities=listing.capabilities,
        protocol=listing.protocol,
        given=listing.given,
    )
    if not any(item.taken is not None or item.given is not None for item in listed):
        why = "; ".join(f"{item.name}: {item.why}" for item in listed)
        raise ToolsurfaceError(f"{listing.path}: no server could be listed ({why})")
    return config, listed


async def _list_all(
    config: McpConfig,
    jobs: int,
    timeout: float,
    capabilities: tuple[str, ...],
    protocol: str | None,
    include_disabled: bool,
    given: GivenServer | None,
) -> list[ListedServer]:
    import anyio

    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.live import list_live_async, snapshot_live
    from toolsurface.harness.signals import Interrupted, cancel_on_signals

    found: list[ListedServer | None] = [None] * len(config.servers)
    limit = anyio.CapacityLimiter(max(1, jobs))

    async def one(index: int, server: ConfigServer) -> None:
        if server.problem is not None:
            found[index] = ListedServer(server, problem=server.problem)
            return
        if server.disabled and not include_disabled:
            found[index] = ListedServer(server, problem="disabled in the configuration")
            return
        if given is not None and server.is_given(given):
            found[index] = ListedServer(server, given=given.label)
            return
        async with limit:
            try:
                listing = await list_live_async(
                    live_server(server, config), capabilities=capabilities, timeout=timeout, protocol=protocol
                )
            except ToolsurfaceError as error:
                found[index] = ListedServer(server, problem=str(error))
                return
        found[index] = ListedServer(server, taken=snapshot_live(listing))

    async with cancel_on_signals() as stop, anyio.create_task_group() as group:
        for index, server in enumerate(config.servers):
            group.start_soon(one, index, server)
    if stop.signum is not None:
        raise Interrupted(stop.signum, "the servers' processes were ended")
    return [item for item in found if item is not None]
