"""A stub stopped by SIGTERM at any moment of a burst of calls ends at once, with exit 0 and its state written."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.rawstdio import RawStdioClient, serve_argv
from toolsurface.harness.session.fork import ForkServer, fork_server

SURFACES = ["before-v2", "consistent", "v2-first", "v2"]
TRIALS = 30
BURST = 100
EXIT_S = 2.0
# A read every bundled surface answers from its handlers.
CALL = ("item_get", {"projectId": "acme-shop", "number": 14})


@pytest.fixture(scope="module")
def forks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    with fork_server(tmp_path_factory.mktemp("signals"), SURFACES) as server:
        yield server


def _burst(client: RawStdioClient) -> None:
    tool, arguments = CALL
    lines = b"".join(
        json.dumps(
            {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        ).encode()
        + b"\n"
        for n in range(1000, 1000 + BURST)
    )
    assert client.proc.stdin is not None
    try:
        client.proc.stdin.write(lines)
        client.proc.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass  # the stub was stopped before it read them all


def _trial(argv: list[str], state: Path, rng: random.Random) -> str | None:
    """One stub: a burst of calls, SIGTERM after a random number of answers (sometimes as stdin closes);
    what went wrong, or None."""
    client = RawStdioClient(argv)
    try:
        client.initialize()
        writer = threading.Thread(target=_burst, args=(client,), daemon=True)
        writer.start()
        for _ in range(rng.randint(0, BURST)):
            client.read_line(timeout=30)
        if rng.random() < 0.25:
            assert client.proc.stdin is not None
            writer.join(timeout=30)
            client.proc.stdin.close()
        os.kill(client.proc.pid, signal.SIGTERM)
        stopped = time.monotonic()
        with contextlib.suppress(subprocess.TimeoutExpired):
            client.proc.wait(timeout=EXIT_S)
        if client.proc.returncode != 0:
            return f"exit {client.proc.returncode} {time.monotonic() - stopped:.2f} s after SIGTERM"
        if not state.exists():
            return "no state file"
        json.loads(state.read_text(encoding="utf-8"))
        return None
    finally:
        client.close()


@pytest.mark.parametrize("surface", SURFACES)
def test_sigterm_at_any_point_of_a_call_burst_ends_the_stub_with_exit_0_and_its_state_written(
    forks: ForkServer, tmp_path: Path, surface: str
) -> None:
    rng = random.Random(f"sigterm-{surface}")
    seeds = [rng.random() for _ in range(TRIALS)]

    def one(n: int) -> str | None:
        state = tmp_path / f"state-{n}.json"
        argv = [
            sys.executable,
            *forks.command(["serve", surface, "--state", str(state), "--log", str(tmp_path / f"{n}.jsonl")]),
        ]
        problem = _trial(argv, state, random.Random(seeds[n]))
        return f"trial {n}: {problem}" if problem else None

    with ThreadPoolExecutor(max_workers=2) as pool:
        problems = [p for p in pool.map(one, range(TRIALS)) if p]
    assert problems == []


def test_sigterm_during_a_call_burst_ends_a_spawned_stub_with_exit_0_and_its_state_written(tmp_path: Path) -> None:
    rng = random.Random("sigterm-spawned")
    problems = []
    for n in range(6):
        state = tmp_path / f"state-{n}.json"
        problem = _trial(serve_argv("v2", "--state", str(state)), state, rng)
        if problem:
            problems.append(f"trial {n}: {problem}")
    assert problems == []


def test_an_error_inside_the_signal_guarded_block_comes_out_as_itself() -> None:
    import anyio

    from toolsurface.harness.errors import ToolsurfaceError
    from toolsurface.harness.signals import cancel_on_signals

    async def failing() -> None:
        async with cancel_on_signals():
            raise ToolsurfaceError("cannot list")

    with pytest.raises(ToolsurfaceError, match="cannot list"):
        anyio.run(failing)
