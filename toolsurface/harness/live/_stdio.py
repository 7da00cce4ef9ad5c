"""Listing a stdio server: started in its own session, its stdout and stdin pumped one JSON-RPC message a line,
its whole tree ended whatever happens."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from toolsurface.harness.live._conversation import extensions, list_opened, validate_listed
from toolsurface.harness.live._failures import explain, protocol_hint
from toolsurface.harness.live._servers import LiveServerError, StdioServer
from toolsurface.harness.live._state import MAX_LINE_BYTES, ListingState, Opened, cache_keeper, phase_setter

if TYPE_CHECKING:
    from anyio.abc import Process
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

__all__ = ["EXIT_GRACE_S", "KILL_GRACE_S", "list_stdio"]


# After the list arrived: how long a server has to exit once its stdin is closed (the spec's shutdown)
# before its group gets SIGTERM, and how long then until SIGKILL. Listing has no effect a server must
# save, and a Python server takes a third of a second to tear down its interpreter on its own against a
# few milliseconds for SIGTERM, so the group gets SIGTERM as soon as stdin is closed.
EXIT_GRACE_S = 0.0
KILL_GRACE_S = 1.0
_POLL_S = 0.01


async def _spawn(server: StdioServer, stderr: IO[bytes], state: ListingState) -> Process:
    import anyio

    from toolsurface.harness.process_tree import marked_env

    if not server.argv or not server.argv[0]:
        raise LiveServerError("no server command given after --")
    if server.cwd is not None and not server.cwd.is_dir():
        raise LiveServerError(f"--cwd {server.cwd}: no such directory")
    base = os.environ if server.base_env is None else server.base_env
    env, state.marker = marked_env({**base, **server.env})
    try:
        return await anyio.open_process(
            list(server.argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=server.cwd,
            env=env,
            start_new_session=True,
        )
    except FileNotFoundError:
        raise LiveServerError(f"cannot start {server.argv[0]!r}: no such command") from None
    except PermissionError:
        raise LiveServerError(f"cannot start {server.argv[0]!r}: permission denied") from None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise LiveServerError(f"cannot start {server.argv[0]!r}: {reason}") from None


async def _pump_stdout(process: Process, sink: MemoryObjectSendStream[Any], state: ListingState) -> None:
    """Server stdout -> client, one JSON-RPC message a line; other lines are noted, as clients skip them. A line
    longer than one read is gathered in one buffer, read in place and let go before the next line: an answer is
    held once as bytes, and only while it is read."""
    import anyio

    assert process.stdout is not None
    partial = bytearray()  # the line still coming
    try:
        async with sink:
            async for chunk in process.stdout:
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    if partial:
                        partial += memoryview(chunk)[start:end]
                        line: bytes | bytearray = partial
                        partial = bytearray()
                    else:
                        line = chunk[start:end]
                    start = end + 1
                    _check_line(len(line), state)
                    message = _message(line, state)
                    del line
                    if message is not None:
                        await sink.send(message)
                    del message
                partial += memoryview(chunk)[start:]
                _check_line(len(partial), state)
            state.eof = True
            # A server that closed its stdout is usually exiting: note its own exit code before ours.
            with anyio.move_on_after(0.3):
                while process.returncode is None:
                    await anyio.sleep(_POLL_S)
            state.exit_code = process.returncode
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        pass


def _check_line(size: int, state: ListingState) -> None:
    if size <= state.line_limit:
        return
    if state.line_limit != MAX_LINE_BYTES:
        raise LiveServerError(
            f"its answer to {state.phase} is larger than the answer limit, {state.line_limit:,} bytes"
            " (--max-answer-bytes)"
        )
    raise LiveServerError(f"its stdout sent a line of more than {MAX_LINE_BYTES // 2**20} MB")


def _message(line: bytes | bytearray, state: ListingState) -> Any:
    """The JSON-RPC message a line holds, read in place; None for a blank line or a server's noise (noted)."""
    from toolsurface.harness.live._wire_client import read_message

    if not line or line.isspace():
        return None
    # An answer that cannot be taken (too deep, a lone surrogate) is still its request's answer, said at once; a
    # line that is no message is the server's noise, which clients skip.
    found = read_message(line)
    if found is None:
        state.noise.append(bytes(line).strip()[:120].decode("utf-8", "replace"))
    return found


async def _pump_stdin(process: Process, source: MemoryObjectReceiveStream[dict[str, Any]]) -> None:
    import anyio

    from toolsurface.harness.output import compact_json

    assert process.stdin is not None
    with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        async with source:
            async for message in source:
                text = compact_json(message) + "\n"
                await process.stdin.send(text.encode("utf-8"))


async def _stdio_conversation(
    process: Process, capabilities: tuple[str, ...], state: ListingState
) -> tuple[Opened, list[dict[str, Any]], int]:
    """Over stdio, through the client on the SDK's wire types (harness.live._wire_client)."""
    import anyio

    from toolsurface import __version__
    from toolsurface.harness.live._connection import WireConnection
    from toolsurface.harness.live._wire_client import WireClient
    from toolsurface.harness.measure import list_pages, list_parts

    to_client, incoming = anyio.create_memory_object_stream[Any](0)
    outgoing, to_server = anyio.create_memory_object_stream[dict[str, Any]](0)
    client = WireClient(outgoing.send, capabilities, {"name": "toolsurface", "version": __version__}, extensions(state))

    async def part(method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        return await client.request(method, params)

    keep = cache_keeper(state)

    async def page(cursor: str | None) -> dict[str, Any]:
        raw = await part("tools/list", {"cursor": cursor} if cursor is not None else None)
        keep(raw)
        return raw

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_pump_stdout, process, to_client, state)
            tasks.start_soon(_pump_stdin, process, to_server)
            tasks.start_soon(client.serve, incoming)
            try:
                result = await list_opened(
                    client,
                    state,
                    lambda: list_pages(page),
                    lambda tools: list_parts(
                        client.server_capabilities,
                        client.instructions,
                        part,
                        phase_setter(state),
                        drafts_for=tools if state.drafts else None,
                        sent_capabilities=client.sent_capabilities,
                    ),
                    lambda state: WireConnection(client, phase_setter(state)),
                )
            finally:
                tasks.cancel_scope.cancel()
    finally:
        for stream in (to_client, incoming, outgoing, to_server):
            stream.close()
    return result


async def _close_stdin(process: Process) -> None:
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()


async def _end_process(process: Process, graceful: bool, marker: str | None) -> None:
    """Close stdin (the spec's shutdown), give a listed server a moment, then end its whole tree."""
    import anyio

    from toolsurface.harness.process_tree import end_process_tree

    await _close_stdin(process)
    if graceful:
        with anyio.move_on_after(EXIT_GRACE_S):
            while process.returncode is None:
                await anyio.sleep(_POLL_S)
    # Always, even when the leader has exited: children it started may still run.
    await anyio.to_thread.run_sync(end_process_tree, process.pid, marker, KILL_GRACE_S)
    with anyio.move_on_after(KILL_GRACE_S):
        # Closes the pipes and reaps the leader, before the loop that owns them closes.
        await process.aclose()


def _tail(stderr: IO[bytes]) -> str | None:
    """The server's last line on stderr, usually the reason it stopped."""
    with contextlib.suppress(OSError, ValueError):
        stderr.seek(0, os.SEEK_END)
        size = stderr.tell()
        stderr.seek(max(0, size - 4096))
        lines = [line.strip() for line in stderr.read().decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        if lines:
            return lines[-1][:200]
    return None


async def list_stdio(
    server: StdioServer, capabilities: tuple[str, ...], state: ListingState
) -> tuple[Opened, list[dict[str, Any]], int]:
    import anyio

    with tempfile.TemporaryFile() as stderr:
        # Started before the client's wire types are imported, so the server's start-up overlaps ours.
        # Shielded: a cancelled spawn could lose the handle of a started process.
        with anyio.CancelScope(shield=True):
            process = await _spawn(server, stderr, state)
        from toolsurface.harness.surface import prepare_check

        prepare_check()  # while the server starts: its answer is checked as soon as it comes
        result: tuple[Opened, list[dict[str, Any]], int] | None = None
        failure: BaseException | None = None
        try:
            with anyio.move_on_after(state.timeout) as deadline:
                state.deadline = deadline
                try:
                    result = await _stdio_conversation(process, capabilities, state)
                except Exception as error:
                    failure = error
            if result is not None:
                # The server starts shutting down while the list is checked.
                await _close_stdin(process)
                validate_listed(result[1], server)
        finally:
            with anyio.CancelScope(shield=True):
                await _end_process(process, result is not None, state.marker)
        if result is not None:
            return result
        message = explain(failure, deadline.cancelled_caught, server, state) + protocol_hint(failure, state)
        if state.eof and not deadline.cancelled_caught:
            ended = "closed its stdout" if state.exit_code is None else f"exited with code {state.exit_code}"
            message = message.replace("closed the connection", ended, 1)
        if state.noise:
            message += f"; its stdout had a line that is not JSON-RPC: {state.noise[0]!r}"
        tail = _tail(stderr)
        if tail is not None:
            message += f"; stderr: {tail}"
            if ("ModuleNotFoundError" in tail or "ImportError" in tail) and _in_pre_commit_environment():
                message += (
                    "; pre-commit runs the toolsurface-budget hook in a Python of its own, without the project's"
                    " packages: use the toolsurface-budget-system hook, which runs in the project's environment"
                )
        raise LiveServerError(message)


def _in_pre_commit_environment() -> bool:
    """Whether this runs as a pre-commit hook in the environment pre-commit made for it (under its store),
    where a server command's `python` is pre-commit's."""
    if os.environ.get("PRE_COMMIT") != "1":
        return False
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    store = Path(os.environ.get("PRE_COMMIT_HOME") or os.path.join(cache, "pre-commit"))
    return Path(sys.prefix).resolve().is_relative_to(store.resolve())
