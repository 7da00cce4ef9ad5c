"""Ending a process tree: the process group a command leads, and what it started outside that group.

A command started with `start_new_session=True` leads a process group, and killpg reaches every process
that stayed in it. A child that called setsid (a daemon) has left the group; it is found by its parent
pid while the tree stands, and, once orphaned, by a marker variable it inherited in its environment
(`marked_env`). Every process found gets SIGTERM (so a stub writes its state), and what is still there
after the grace period gets SIGKILL. Zombies do not count as running: an orphan waits for init to reap it,
and in a container init may never do so. Linux only for the stragglers (it reads /proc); elsewhere the
group alone is ended.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["MARKER", "end_process_tree", "marked_env"]

MARKER = "TOOLSURFACE_PROCESS_TREE"
_POLL_S = 0.02


@dataclass(frozen=True)
class _Process:
    pid: int
    start: int  # clock ticks after boot; with the pid, names one process even if the pid is reused


@dataclass(frozen=True)
class _Stat:
    ppid: int
    pgrp: int
    zombie: bool
    start: int


def marked_env(env: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """`env` with a marker of its own: every process started with it, and their children, carry it."""
    token = uuid.uuid4().hex
    return {**env, MARKER: token}, token


def _stat(pid: int) -> _Stat | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            fields = file.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command name: state, ppid, pgrp, ... and the start time as the 20th.
    return _Stat(int(fields[1]), int(fields[2]), fields[0] == b"Z", int(fields[19]))


def _table() -> dict[int, _Stat]:
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    table = {}
    for entry in entries:
        if entry.isdigit() and (found := _stat(int(entry))) is not None:
            table[int(entry)] = found
    return table


def _carries(pid: int, marker: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return f"{MARKER}={marker}".encode() in file.read().split(b"\0")
    except OSError:
        return False


def _find(leader: int, marker: str | None, known: set[_Process]) -> set[_Process]:
    """The group's members, the descendants of the leader and of every process found before, and the
    processes carrying the marker."""
    table = _table()
    roots = {leader} | {p.pid for p in known if p.pid in table and table[p.pid].start == p.start}
    children: dict[int, list[int]] = {}
    for pid, stat in table.items():
        children.setdefault(stat.ppid, []).append(pid)
    found: set[int] = {pid for pid, stat in table.items() if stat.pgrp == leader}
    stack = list(roots)
    while stack:
        pid = stack.pop()
        if pid in table:
            found.add(pid)
        stack.extend(child for child in children.get(pid, ()) if child not in found)
    if marker is not None:
        found |= {pid for pid in table if pid not in found and _carries(pid, marker)}
    found.discard(os.getpid())
    return known | {_Process(pid, table[pid].start) for pid in found if pid in table}


def _running(process: _Process) -> bool:
    stat = _stat(process.pid)
    return stat is not None and stat.start == process.start and not stat.zombie


def _signal_all(leader: int, processes: set[_Process], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signum)
    for process in processes:
        if _running(process):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, signum)


def end_process_tree(leader: int, marker: str | None = None, grace: float = 3.0) -> None:
    """SIGTERM the group `leader` leads and every process of its tree, wait up to `grace` seconds for
    them to end, then SIGKILL what is left. Blocking; async callers run it in a worker thread."""
    if not os.path.isdir("/proc"):
        _signal_all(leader, set(), signal.SIGTERM)
        time.sleep(min(grace, 0.1))
        _signal_all(leader, set(), signal.SIGKILL)
        return
    known = _find(leader, marker, set())
    _signal_all(leader, known, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while True:
        # Looked for again: a process may have started a child meanwhile.
        fresh = _find(leader, marker, known)
        if fresh - known:
            _signal_all(leader, fresh - known, signal.SIGTERM)
        known = fresh
        if not any(_running(p) for p in known) or time.monotonic() >= deadline:
            break
        time.sleep(_POLL_S)
    deadline = time.monotonic() + 1.0
    while True:
        _signal_all(leader, known, signal.SIGKILL)
        known = _find(leader, marker, known)
        if not any(_running(p) for p in known) or time.monotonic() >= deadline:
            return
        time.sleep(_POLL_S)
