"""A pytest plugin for MCP server projects: keep the tool list within a budget and equal to a committed snapshot.

Installed with toolsurface, pytest loads it by itself (entry point group `pytest11`, name `toolsurface`; with
autoloading off, `-p toolsurface`). Only where that entry point is not installed, load it by module with
`-p toolsurface.pytest_plugin` or `pytest_plugins = ["toolsurface.pytest_plugin"]`: next to the entry point
pytest would register the module twice and stop. Tests get a `toolsurface` fixture:

    def test_the_tool_list_stays_small(toolsurface):
        toolsurface.assert_within("my_server/surface.py", max_chars=12_000, max_tokens=3_000)

    def test_the_tool_list_matches_the_snapshot(toolsurface):
        toolsurface.assert_matches_snapshot(my_server.app, "tests/tools.snapshot.json")

A source is what `toolsurface measure` accepts (a surface name, a `.py` surface module or a tools/list JSON
snapshot; relative paths count from the pytest rootdir), a SurfaceDefinition or Snapshot, a tools array in wire
form, or an in-process MCP server (`mcp.server.Server` or `MCPServer`), listed through a real client in memory.
`url=` and `command=` name a running server; they go through `live_tools`, the one place a live source plugs in.

A missing snapshot is written and the test passes; `pytest --toolsurface-update` rewrites every snapshot the run
compares. Otherwise any difference fails, with the per-tool diff as markdown in the assertion message.

This module is loaded into every pytest run of an environment that has toolsurface installed, so it imports only
pytest and the standard library at load time: nothing else of toolsurface's until a test uses the fixture. Every
name it brings lives under `toolsurface`, so a project's own `harness` or `stubs` is never touched.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolsurface.harness.analyze.diff import SurfaceDiff
    from toolsurface.harness.measure import Measurable, SurfaceMeasurement

__all__ = [
    "UPDATE_OPTION",
    "SnapshotMismatch",
    "ToolSurface",
    "ToolSurfaceOverBudget",
    "live_tools",
    "write_snapshot",
]

UPDATE_OPTION = "--toolsurface-update"
_WRITTEN = pytest.StashKey[list[Path]]()
_T = TypeVar("_T")


class ToolSurfaceOverBudget(AssertionError):
    """The tool list is larger than its budget."""


class SnapshotMismatch(AssertionError):
    """The tool list differs from its committed snapshot."""


# ---------------------------------------------------------------------------------------------------------------
# Hooks and the fixture


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolsurface", "MCP tool list size and snapshots")
    group.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="Write tool list snapshots (toolsurface.assert_matches_snapshot) instead of comparing them.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_WRITTEN] = []


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    written = config.stash.get(_WRITTEN, [])
    if written:
        terminalreporter.section("toolsurface")
        for path in written:
            terminalreporter.write_line(f"wrote tool list snapshot {_shown(path, config.rootpath)}")


@pytest.fixture
def toolsurface(request: pytest.FixtureRequest) -> ToolSurface:
    """Measure an MCP tool list and assert its size or its equality with a committed snapshot."""
    config = request.config
    return ToolSurface(
        rootpath=config.rootpath,
        update=bool(config.getoption(UPDATE_OPTION)),
        written=config.stash.get(_WRITTEN, []),
    )


# ---------------------------------------------------------------------------------------------------------------
# Sources
def live_tools(*, url: str | None = None, command: Sequence[str] | None = None) -> tuple[list[dict[str, Any]], str]:
    """The tools a running server lists (`url`: Streamable HTTP or HTTP+SSE; `command`: a stdio server), and the
    protocol.

    The listing runs on a thread of its own, so async tests can call it from inside their event loop.
    """
    from toolsurface.harness.live import HttpServer, StdioServer, list_live

    server = HttpServer(url) if url is not None else StdioServer(tuple(command or ()))
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["listing"] = list_live(server)
        except BaseException as error:  # handed back to the caller's thread below
            outcome["error"] = error

    thread = threading.Thread(target=work, name="toolsurface-live")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    listing = outcome["listing"]
    return listing.tools, listing.protocol_version


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _run_sync(function: Callable[[], _T]) -> _T:
    """Call `function` (which may start its own event loop), from a worker thread when a loop already runs here."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return function()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result()


def _server_tools(server: object) -> tuple[list[dict[str, Any]], str]:
    """List an in-process MCP server through a real client over an in-memory transport."""
    from mcp.server import MCPServer, Server

    if not isinstance(server, Server | MCPServer):
        raise TypeError(
            f"toolsurface cannot read tools from a {type(server).__name__}: pass a surface name or path, "
            "a SurfaceDefinition, a tools array, an mcp Server or MCPServer, or url=/command="
        )

    import anyio
    from mcp import Client

    from toolsurface.harness.live import refuses_handshake
    from toolsurface.harness.measure import list_tools_raw
    from toolsurface.harness.protocol import MODERN_PROTOCOL, client_mode

    async def listing(mode: str) -> tuple[list[dict[str, Any]], str]:
        async with Client(server, mode=mode) as client:
            tools, _ = await list_tools_raw(client.session)
            return tools, client.protocol_version

    # In the handshake era, as `measure` lists; a server that refuses the handshake, in 2026-07-28.
    try:
        return anyio.run(listing, "legacy")
    except Exception as error:
        if not refuses_handshake(error):
            raise
    return anyio.run(listing, client_mode(MODERN_PROTOCOL))


def _listed(name: str, tools: list[dict[str, Any]], protocol_version: str | None) -> Measurable:
    """Tools received some other way, held as a snapshot so every figure follows `measure`'s rule."""
    from toolsurface.harness.surface import Snapshot, validate_wire_tools

    validate_wire_tools(tools, name)
    return Snapshot(name=name, path=Path(name), tools=tools, protocol_version=protocol_version)


# ---------------------------------------------------------------------------------------------------------------
# The fixture's object
def write_snapshot(path: Path, tools: Sequence[Mapping[str, Any]]) -> bool:
    """Write `{"tools": [...]}` exactly as listed (key order kept); False when the file already says so."""
    from toolsurface.harness.output import json_document

    text = json_document({"tools": list(tools)})
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    from toolsurface.harness.files import write_atomic

    write_atomic(path, text)
    return True


class ToolSurface:
    """What the `toolsurface` fixture returns. Every method takes one source: positional, `url=` or `command=`."""

    def __init__(self, rootpath: Path, update: bool = False, written: list[Path] | None = None) -> None:
        self.rootpath = rootpath
        self.update = update
        self.written = written if written is not None else []

    # Reading --------------------------------------------------------------------------------------------------

    def _path(self, spec: str | os.PathLike[str]) -> Path:
        path = Path(spec)
        return path if path.is_absolute() else self.rootpath / path

    def _item(self, source: object, url: str | None, command: Sequence[str] | None) -> tuple[str, Measurable]:
        from toolsurface.harness.surface import Snapshot, SurfaceDefinition, is_surface_path

        given = [x for x in (source, url, command) if x is not None]
        if len(given) != 1:
            raise TypeError("toolsurface: pass exactly one source: a surface, url= or command=")
        if url is not None or command is not None:
            tools, protocol_version = live_tools(url=url, command=command)
            return (url or " ".join(command or ())), _listed(url or "live", tools, protocol_version)
        if isinstance(source, SurfaceDefinition | Snapshot):
            return source.name, source
        if isinstance(source, os.PathLike) or (isinstance(source, str) and is_surface_path(source)):
            from toolsurface.harness.surface import resolve

            return os.fspath(source), resolve(str(self._path(source)))
        if isinstance(source, str):
            from toolsurface.harness.surface import resolve

            return source, resolve(source)
        if isinstance(source, list | tuple) and all(isinstance(t, Mapping) for t in source):
            return "tools", _listed("tools", [dict(t) for t in source], None)
        name = str(getattr(source, "name", None) or type(source).__name__)
        tools, protocol_version = _run_sync(lambda: _server_tools(source))
        return name, _listed(name, tools, protocol_version)

    def tools(
        self, source: object = None, *, url: str | None = None, command: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The tools array exactly as a client receives it."""
        __tracebackhide__ = True
        with _as_failure():
            from toolsurface.harness.measure import listed

            _, item = self._item(source, url, command)

            return _run_sync(lambda: listed([item]))[0].tools

    def measure(
        self,
        source: object = None,
        *,
        url: str | None = None,
        command: Sequence[str] | None = None,
        tokens: bool = True,
    ) -> SurfaceMeasurement:
        """Chars, o200k tokens and per-tool sizes, as `toolsurface measure` counts them."""
        __tracebackhide__ = True
        with _as_failure():
            from toolsurface.harness.measure import measure

            label, item = self._item(source, url, command)
            measured = _run_sync(lambda: measure([item], tokens=tokens, growth=False)).surfaces[0]
            from dataclasses import replace

            return replace(measured, name=label)

    # Asserting ------------------------------------------------------------------------------------------------
    def assert_within(
        self,
        source: object = None,
        *,
        max_chars: int | None = None,
        max_tokens: int | None = None,
        url: str | None = None,
        command: Sequence[str] | None = None,
        largest: int = 3,
    ) -> SurfaceMeasurement:
        """Fail when the list is over `max_chars` characters or `max_tokens` o200k tokens, naming its largest tools.

        Tokens are counted only when `max_tokens` is given. Returns the measurement.
        """
        __tracebackhide__ = True
        if max_chars is None and max_tokens is None:
            raise TypeError("toolsurface.assert_within needs max_chars, max_tokens or both")
        from toolsurface.harness.measure import budget_failure, budget_of

        measured = self.measure(source, url=url, command=command, tokens=max_tokens is not None)
        result = budget_of(measured, max_chars, max_tokens, largest)
        if not result.within:
            raise ToolSurfaceOverBudget(budget_failure(result))
        return measured

    def assert_matches_snapshot(
        self,
        source: object = None,
        snapshot: str | os.PathLike[str] | None = None,
        *,
        url: str | None = None,
        command: Sequence[str] | None = None,
    ) -> SurfaceDiff | None:
        """Fail when the list differs from the `{"tools": [...]}` file at `snapshot`, with the per-tool diff.

        A missing snapshot, or any snapshot under `--toolsurface-update`, is written and the check passes
        (returning None); otherwise returns the (empty) diff.
        """
        __tracebackhide__ = True
        if snapshot is None:
            raise TypeError("toolsurface.assert_matches_snapshot needs the snapshot path")
        path = self._path(snapshot)
        shown = os.fspath(snapshot)
        with _as_failure():
            from toolsurface.harness.analyze.diff import diff_tools, diff_view
            from toolsurface.harness.output import render
            from toolsurface.harness.surface import load_snapshot

            label, item = self._item(source, url, command)
            current = self.tools(item)
            if self.update or not path.exists():
                if write_snapshot(path, current):
                    self.written.append(path)
                return None
            recorded = load_snapshot(path)
            difference = diff_tools(recorded.tools, current, a=shown, b=label)
        if difference.cls is None:
            return difference
        raise SnapshotMismatch(
            f"tool list {label!r} differs from its snapshot {shown} ({difference.cls.value}):\n\n"
            f"{render(diff_view([difference]), 'markdown')}\n"
            f"If the change is intended, rewrite the snapshot: pytest {UPDATE_OPTION}"
        )


@contextmanager
def _as_failure() -> Iterator[None]:
    """A source that cannot be read fails the test with one clear line, not a traceback into toolsurface."""
    __tracebackhide__ = True
    from toolsurface.harness.errors import ToolsurfaceError

    try:
        yield
    except ToolsurfaceError as error:
        raise pytest.fail.Exception(f"toolsurface: {error}", pytrace=False) from None
