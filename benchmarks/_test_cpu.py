"""The pytest plugin benchmarks/suite_cpu.py loads (`-p benchmarks._test_cpu`): each test's CPU-seconds, its
process's and those of the processes it waited for (setup and teardown included), written at the session's end
as JSON lines into the folder TOOLSURFACE_TEST_CPU names, one file per process (each xdist worker's own)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

FOLDER = "TOOLSURFACE_TEST_CPU"
_used: list[dict[str, object]] = []


def _cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    before = _cpu()
    yield
    _used.append({"file": item.nodeid.partition("::")[0], "test": item.nodeid, "cpu_s": round(_cpu() - before, 3)})


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(FOLDER)
    if folder and _used:
        name = os.environ.get("PYTEST_XDIST_WORKER", "main")
        lines = "".join(json.dumps(used) + "\n" for used in _used)
        (Path(folder) / f"{name}-{os.getpid()}.jsonl").write_text(lines, encoding="utf-8")
