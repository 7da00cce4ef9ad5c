"""Serving a surface: turning anything that names one into a running stub server."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.errors import InvalidToolList, SurfaceLoadError, ToolsurfaceError
from toolsurface.harness.surface import Snapshot, Stub, Surface, SurfaceDefinition

if TYPE_CHECKING:
    from mcp.server import Server

    from toolsurface.harness.signals import Held
    from toolsurface.stubs.calllog import CallLog

__all__ = [
    "LOOPBACK",
    "build_ahead",
    "listen",
    "parse_http",
    "serve",
    "start_stub",
    "surface_for_serving",
    "surface_to_serve",
    "write_state",
]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def surface_for_serving(item: SurfaceDefinition | Snapshot) -> Surface:
    if isinstance(item, SurfaceDefinition):
        return item.build_surface()
    import mcp.types as types
    from pydantic import ValidationError

    try:
        tools = tuple(types.Tool.model_validate(tool) for tool in item.tools)
    except ValidationError as error:
        raise InvalidToolList(
            f"{item.path}: a tool does not fit the MCP Tool type: {error.errors()[0]['msg']}"
        ) from None
    parts = item.parts
    from toolsurface.harness.surface import ServedSkills

    skills = (
        ServedSkills(parts.skills, {b.uri: b.text for b in parts.skill_bodies if b.text is not None})
        if parts.skills is not None
        else None
    )
    return Surface(
        name=item.name,
        title=item.server or item.name,
        purpose="",
        kinds=(),
        tools=tools,
        source=str(item.path),
        instructions=parts.instructions,
        prompts=parts.prompts,
        resources=parts.resources,
        resource_templates=parts.resource_templates,
        skills=skills,
    )


# Surfaces built before this process forks its stubs (the stub fork server), by the spec that names them: a
# forked stub serves its surface as built instead of resolving and building it again.
_BUILT: dict[str, Surface] = {}


def _kept(spec: str) -> bool:
    """A name, or a path that means the same file from any directory (a forked stub runs in its own)."""
    from toolsurface.harness.surface import is_surface_path

    return not is_surface_path(spec) or Path(spec).is_absolute()


# The digest each surface built ahead was found to list to, by spec: its stubs need not list it again.
_CHECKED: dict[str, str] = {}


def build_ahead(spec: str, sha256: str | None = None) -> Surface:
    """The surface resolved and built once, kept for the stubs this process forks; with `sha256` (its planned
    digest), refused if it builds differently."""
    from toolsurface.harness.surface import resolve

    surface = surface_for_serving(resolve(spec))
    if sha256 is not None:
        from toolsurface.stubs.digest import check_digest

        check_digest(surface, sha256)
    if _kept(spec):
        _BUILT[spec] = surface
        if sha256 is not None:
            _CHECKED[spec] = sha256
    return surface


def surface_to_serve(spec: str) -> Surface:
    """The surface a spec names, as built ahead (`build_ahead`) or resolved and built now."""
    from toolsurface.harness.surface import resolve

    kept = _BUILT.get(spec)
    return kept if kept is not None else surface_for_serving(resolve(spec))


def start_stub(surface: Surface, fixture: Path | None) -> Stub | None:
    """A fresh stub for the surface; a surface without one is served for listing only. A stub made with the
    kit whose handlers name a tool the surface lacks is the surface's error, found before any call; it is told
    each tool's parameters, so a handler that reads one its tool does not declare is the stub's error. A stub
    that fails to start is the surface's error too."""
    if surface.stub is None:
        if fixture is not None:
            raise ToolsurfaceError(f"surface {surface.name!r} has no stub to load the fixture {fixture} into")
        return None
    try:
        stub = surface.stub(fixture)
    except ToolsurfaceError:
        raise
    except Exception as error:
        where = surface.source or surface.name
        raise SurfaceLoadError(f"{where}: its stub failed to start: {type(error).__name__}: {error}") from None
    handlers = getattr(stub, "handlers", None)
    if handlers is not None:
        tools = [t.name for t in surface.tools]
        extra = [name for name in handlers if name not in tools]
        if extra:
            raise ToolsurfaceError(
                f"{surface.source or surface.name}: a handler for {extra[0]!r}, a tool the surface lacks; "
                f"tools: {', '.join(tools)}"
            )
    declare = getattr(stub, "declare_parameters", None)
    if callable(declare):
        declare({t.name: list(t.input_schema.get("properties", {})) for t in surface.tools})
    return stub


def parse_http(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ToolsurfaceError(f"--http {value!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    if host not in LOOPBACK:
        raise ToolsurfaceError(f"--http {value!r}: the stub serves on loopback only ({', '.join(LOOPBACK)})")
    return host, int(port)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on HOST:PORT, or one line saying why not (the port is taken, say)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=128)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise ToolsurfaceError(f"cannot serve on {host}:{port}: {reason}") from None


def write_state(stub: Stub, path: Path) -> None:
    """Atomically, so a reader never sees half a state."""
    from toolsurface.harness.files import write_json_atomic

    write_json_atomic(path, stub.state())


def _state_of_a_stopped_start(spec: str, fixture: Path | None, stub: Stub | None, state_path: Path | None) -> None:
    """A stub stopped while starting served nothing: its state is its fixture's, the stub made without the
    tools built (and the SDK loaded) if the stop came first."""
    if state_path is None:
        return
    from toolsurface.harness.files import ensure_directory
    from toolsurface.harness.surface import resolve

    if stub is None:
        item = resolve(spec)
        factory = item.stub if isinstance(item, SurfaceDefinition) else None
        if factory is None:
            raise ToolsurfaceError(f"surface {item.name!r} has no stub, so it has no state to write")
        stub = factory(fixture)
    ensure_directory(state_path.parent, f"write the state to {state_path}")
    write_state(stub, state_path)


async def _serve_until_stopped(
    server: Server, log: CallLog, tools: list[str], listener: socket.socket | None, held: Held | None
) -> None:
    """Serve until the client goes away (stdio) or a stop signal comes; open HTTP requests get a second."""
    import anyio

    from toolsurface.harness.signals import cancel_on_signals
    from toolsurface.stubs.http import serve_http
    from toolsurface.stubs.stdio import serve_stdio

    if listener is None:
        async with cancel_on_signals(held):
            await serve_stdio(server, log, tools)
        return
    stopping = anyio.Event()
    async with cancel_on_signals(held, first=stopping.set, grace=1.5):
        await serve_http(server, listener, stopping)


def serve(
    spec: str,
    *,
    fixture: Path | None = None,
    log_path: Path | None = None,
    state_path: Path | None = None,
    http: str | None = None,
    page_size: int | None = None,
    unknown_tool: str = "result",
    errors_path: Path | None = None,
    sha256: str | None = None,
) -> None:
    """Run until the client goes away (stdio) or the process is stopped; then write the state if asked. Why it
    stopped, or wrote no state, is also appended to `errors_path`: a client may keep no server's stderr. With
    `sha256` (a planned surface's digest), a surface that builds differently is refused before it serves."""
    try:
        _serve(spec, fixture, log_path, state_path, http, page_size, unknown_tool, sha256)
    except ToolsurfaceError as error:
        if errors_path is not None:
            _note_error(errors_path, error)
        raise


def _note_error(path: Path, error: ToolsurfaceError) -> None:
    import contextlib

    from toolsurface.harness.files import LineWriter, WriteFailed

    with contextlib.suppress(WriteFailed), LineWriter(path, append=True, what="stub's error log") as writer:
        writer.write(" ".join(f"toolsurface: {error}".split()))  # the error still reaches stderr as well


def _serve(
    spec: str,
    fixture: Path | None,
    log_path: Path | None,
    state_path: Path | None,
    http: str | None,
    page_size: int | None,
    unknown_tool: str,
    sha256: str | None,
) -> None:
    from toolsurface.harness.signals import StoppedStarting, hold_signals, stops_raise

    # From here on a stop signal only ends the serving, whenever it comes: the state is always written.
    held = hold_signals()
    from toolsurface.harness.files import ensure_directory
    from toolsurface.stubs.calllog import CallLog

    address = parse_http(http) if http else None
    stub: Stub | None = None
    listener: socket.socket | None = None
    log: CallLog | None = None
    try:
        # Most of a start is loading the SDK (seconds under load): a stop then ends it where it is.
        with stops_raise(held):
            surface = surface_to_serve(spec)
            if sha256 is not None and _CHECKED.get(spec) != sha256:
                from toolsurface.stubs.digest import check_digest

                check_digest(surface, sha256)
            stub = start_stub(surface, fixture)
            if state_path is not None and stub is None:
                raise ToolsurfaceError(f"surface {surface.name!r} has no stub, so it has no state to write")
            if state_path is not None:
                ensure_directory(state_path.parent, f"write the state to {state_path}")
            listener = listen(*address) if address is not None else None
            log = CallLog(log_path)
            import anyio

            from toolsurface.stubs.mcp_server import build_server

            server = build_server(surface, stub, log, page_size, unknown_tool)
    except StoppedStarting:
        if listener is not None:
            listener.close()
        (log or CallLog(log_path)).close()
        _state_of_a_stopped_start(spec, fixture, stub, state_path)
        return
    try:
        anyio.run(_serve_until_stopped, server, log, [t.name for t in surface.tools], listener, held)
    finally:
        log.close()
        if listener is not None:
            listener.close()
        # A log with a gap leaves no final state: the run it served is an error, not a scored run.
        if stub is not None and state_path is not None and log.failed is None:
            write_state(stub, state_path)
    if log.failed is not None:
        raise log.failed
