"""The server that records every call it gets (tests/fixtures/servers/calls_recorded.py), over stdio or HTTP,
what it was called with, and a calls file for a probe."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.live_servers import free_port, serving_http
from tests.helpers.paths import FIXTURES

PY = sys.executable
RECORDED = FIXTURES / "servers" / "calls_recorded.py"


def recorded_server(record: Path, *extra: str) -> list[str]:
    return [PY, str(RECORDED), str(record), *extra]


def called(record: Path) -> list[dict[str, Any]]:
    """What the recording server was called with, in order; nothing when it was never called."""
    if not record.is_file():
        return []
    return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]


def write_calls(tmp_path: Path, calls: list[dict[str, Any]], name: str = "calls.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"calls": calls}), encoding="utf-8")
    return path


@pytest.fixture
def notes_over_http(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    with serving_http([*recorded_server(tmp_path / "http.jsonl"), "--http", str(port)], port) as url:
        yield url
