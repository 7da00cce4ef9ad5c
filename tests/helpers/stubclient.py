"""A real MCP client driving `toolsurface serve` over stdio, for the stub tests."""

from __future__ import annotations

import atexit
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from tests.helpers.paths import ROOT
from tests.helpers.waiting import wait_until_async, within
from toolsurface.stubs.calllog import CallRecord, read_log
from toolsurface.stubs.start import ForkServer, StartingForkServer, fork_available


@dataclass
class Answer:
    text: str
    is_error: bool

    @property
    def data(self) -> Any:
        return json.loads(self.text)


@dataclass
class StubSession:
    client: Client
    log: Path
    state: Path

    async def call(self, tool: str, **arguments: Any) -> Answer:
        with within(30, f"the stub's answer to {tool}"):
            result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        return Answer(text, bool(result.is_error))

    async def ok(self, tool: str, **arguments: Any) -> Any:
        answer = await self.call(tool, **arguments)
        assert not answer.is_error, f"{tool} {arguments} was refused: {answer.text}"
        try:
            return answer.data
        except json.JSONDecodeError:
            return answer.text

    async def refused(self, tool: str, **arguments: Any) -> str:
        answer = await self.call(tool, **arguments)
        assert answer.is_error, f"{tool} {arguments} was accepted: {answer.text[:300]}"
        return answer.text


@dataclass
class Finished:
    state: dict[str, Any]
    log: list[CallRecord]

    def item(self, number: int) -> dict[str, Any]:
        return next(i for i in self.state["items"] if i["number"] == number)


_forks: list[StartingForkServer] = []


def stub_command(args: list[str]) -> list[str]:
    """The arguments after `python` that start `toolsurface ARGS` as a study starts its stubs: forked from a warm
    server this test process starts once (the SDK imported once, not again for every stub), through the launcher,
    which stands in for the stub as its process; where forking is not available, `python -m toolsurface ARGS`."""
    forks = process_fork_server()
    return ["-m", "toolsurface", *args] if forks is None else forks.command(args)


def process_fork_server() -> ForkServer | None:
    """The fork server this test process starts once, where forking is available: the stub tests' stubs and every
    study the tests run (through $TOOLSURFACE_STUB_FORKS, tests/conftest.py) fork from it."""
    if not fork_available():
        return None
    if not _forks:
        starting = StartingForkServer(None)
        starting.planned()
        _forks.append(starting)
        atexit.register(starting.close)
    return _forks[0].ready()


def stub_argv(args: list[str]) -> list[str]:
    """The command line of a stub as a live server the tests list (`toolsurface ARGS`), forked as `stub_command`'s:
    a process of its own on its own pipes, without the SDK's import for each."""
    return [sys.executable, *stub_command(args)]


@asynccontextmanager
async def stdio_session(
    surface: str, tmp_path: Path, finished: list[Finished] | None = None
) -> AsyncIterator[StubSession]:
    """A session against `toolsurface serve SURFACE`; after it, `finished` gets the final state and the log."""
    stem = Path(surface).name
    log, state = tmp_path / f"{stem}.calls.jsonl", tmp_path / f"{stem}.state.json"
    params = StdioServerParameters(
        command=sys.executable,
        args=stub_command(["serve", surface, "--log", str(log), "--state", str(state)]),
        cwd=str(ROOT),
    )
    async with Client(params, mode="legacy") as client:
        yield StubSession(client, log, state)
    if finished is not None:
        await wait_until_async(state.exists, 15, f"the stub to write its state to {state}")
        finished.append(Finished(json.loads(state.read_text(encoding="utf-8")), read_log(log)))
