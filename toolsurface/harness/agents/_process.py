"""Running an agent CLI: its own process group in a fresh directory, a timeout that ends the whole
tree (the stub it started included), and stdout streamed to the transcript as it comes."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import anyio

from toolsurface.harness.files import WriteFailed

__all__ = ["ProcessOutcome", "end_process_group", "run_process"]

GRACE_S = 3.0


@dataclass(frozen=True)
class ProcessOutcome:
    returncode: int | None
    timed_out: bool
    duration_s: float
    stdout: Path
    stderr: Path


def end_process_group(pid: int, grace: float = GRACE_S) -> None:
    """SIGTERM the group and what it started outside it (so the stub writes its state), then SIGKILL what is left."""
    from toolsurface.harness.process_tree import end_process_tree

    end_process_tree(pid, grace=grace)


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    try:
        file = path.open("wb")
    except OSError as error:
        raise WriteFailed(f"cannot open {path}: {error.strerror or error}") from None
    try:
        yield file
    finally:
        with contextlib.suppress(OSError):  # what a failed write left buffered fails again: it is said already
            file.close()


async def run_process(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float,
    stdout: Path,
    stderr: Path,
    stdin: bytes | None = None,
) -> ProcessOutcome:
    started = time.monotonic()
    with _opened(stdout) as out, _opened(stderr) as err:
        process = await anyio.open_process(
            list(argv),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        )
        timed_out = False
        try:
            with anyio.move_on_after(timeout) as scope:
                if stdin is not None and process.stdin is not None:
                    await process.stdin.send(stdin)
                    await process.stdin.aclose()
                assert process.stdout is not None
                async for chunk in process.stdout:
                    try:
                        out.write(chunk)
                        out.flush()
                    except OSError as error:  # the harness's own file: the run is an error, not the agent's
                        raise WriteFailed(f"cannot write the transcript {stdout}: {error.strerror or error}") from None
                await process.wait()
            timed_out = scope.cancelled_caught
        finally:
            if process.returncode is None:
                await anyio.to_thread.run_sync(end_process_group, process.pid)
                with anyio.CancelScope(shield=True):
                    await process.wait()
    return ProcessOutcome(process.returncode, timed_out, time.monotonic() - started, stdout, stderr)
