"""A stub stopped by SIGTERM at any moment of a burst of calls ends at once, with exit 0 and its state written;
under a load of its own making too."""

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

from tests.helpers.rawstdio import RawStdioClient, serve_argv
from tests.helpers.waiting import wait_until
from toolsurface.harness.measure import PROTOCOL_VERSION
from toolsurface.stubs.start import ForkServer, fork_server

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
    _write_all(client, lines)


def _write_all(client: RawStdioClient, lines: bytes) -> None:
    assert client.proc.stdin is not None
    with contextlib.suppress(BrokenPipeError, ValueError):  # the stub was stopped before it read them all
        client.proc.stdin.write(lines)
        client.proc.stdin.flush()


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
        return _stopped(client, state, EXIT_S)
    finally:
        client.close()


def _stopped(client: RawStdioClient, state: Path, within: float) -> str | None:
    """SIGTERM to the stub: what went wrong if it did not end with exit 0 within `within` s, its state written."""
    os.kill(client.proc.pid, signal.SIGTERM)
    stopped = time.monotonic()
    with contextlib.suppress(subprocess.TimeoutExpired):
        client.proc.wait(timeout=within)
    if client.proc.returncode is None:
        return f"still running {within} s after SIGTERM"
    if client.proc.returncode != 0:
        return f"exit {client.proc.returncode} {time.monotonic() - stopped:.2f} s after SIGTERM"
    if not state.exists():
        return "no state file"
    json.loads(state.read_text(encoding="utf-8"))
    return None


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


LOADED_TRIALS = 12
LIST_BURST = 150
LOADED_EXIT_S = 2.5


@contextlib.contextmanager
def _load(per_core: int = 4) -> Iterator[None]:
    """`per_core` busy processes a core (a load of 8 on 2 cores), each ending by itself within 120 s."""
    cores = len(os.sched_getaffinity(0))
    burner = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end:\n    pass\n"
    burners = [subprocess.Popen([sys.executable, "-c", burner]) for _ in range(per_core * cores)]
    try:
        yield
    finally:
        for process in burners:
            process.kill()
        for process in burners:
            process.wait(timeout=30)


def _owns_sigterm(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the stub's own code has taken SIGTERM over: from its first line on it holds the signal (SigBlk in
    /proc) or catches it (SigCgt: while it starts, where a stop raises, and while it serves, where the loop
    listens). Either alone comes and goes as it starts, faster than a poll may see under load; together they
    hold from the first line on, which the interpreter before it has neither of."""
    if proc.poll() is not None:
        raise AssertionError(f"the stub ended before it took SIGTERM over: exit {proc.returncode}")
    status = Path(f"/proc/{proc.pid}/status").read_text(encoding="ascii")
    masks = dict(line.split(":\t", 1) for line in status.splitlines() if line.startswith(("SigBlk:", "SigCgt:")))
    return any(int(masks[name], 16) >> (signal.SIGTERM - 1) & 1 for name in ("SigBlk", "SigCgt"))


def _list_burst_trial(n: int, state: Path, together: threading.Barrier) -> str | None:
    """A spawned stub (as an agent CLI starts it) sent a burst of tools/list requests, stopped by SIGTERM: an
    even one after initialize and some answers, when every other even one has come that far; an odd one while
    it may still be starting (initialize and the burst sent at once, SIGTERM up to a second later)."""
    rng = random.Random(f"list-burst-{n}")
    client = RawStdioClient(serve_argv("v2", "--state", str(state)))
    try:
        lines = b"".join(
            json.dumps({"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/list"}).encode() + b"\n"
            for i in range(LIST_BURST)
        )
        if n % 2:
            opening = [
                {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                 "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
            ]  # fmt: skip
            lines = b"".join(json.dumps(message).encode() + b"\n" for message in opening) + lines
            # Before its first line has run a stub is the interpreter's, which a stop signal ends.
            wait_until(lambda: _owns_sigterm(client.proc), 120, "the stub to take SIGTERM over")
            threading.Thread(target=_write_all, args=(client, lines), daemon=True).start()
            time.sleep(rng.uniform(0, 1))
        else:
            client.initialize()
            threading.Thread(target=_write_all, args=(client, lines), daemon=True).start()
            for _ in range(rng.randint(1, LIST_BURST // 2)):
                client.read_line(timeout=120)
            together.wait(timeout=300)
        return _stopped(client, state, LOADED_EXIT_S)
    finally:
        client.close()


def test_under_a_load_of_four_a_core_sigterm_in_a_tools_list_burst_ends_each_stub_within_2_5_s_with_its_state(
    tmp_path: Path,
) -> None:
    """The load is the test's own, 4 busy processes a core, and 12 stubs. A stub stopped while it starts ends
    where it is (loading the SDK takes seconds at this load) with its fixture's state; once its state is
    written a stub ends without the interpreter's teardown of its 90,000 objects."""
    together = threading.Barrier(LOADED_TRIALS // 2)
    with _load(), ThreadPoolExecutor(max_workers=LOADED_TRIALS) as pool:
        found = pool.map(lambda n: _list_burst_trial(n, tmp_path / f"state-{n}.json", together), range(LOADED_TRIALS))
        problems = [f"stub {n}: {problem}" for n, problem in enumerate(found) if problem]
    assert problems == []
