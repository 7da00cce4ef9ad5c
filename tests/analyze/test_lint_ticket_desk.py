"""Lint on a designer's own FastMCP-style server (tests/fixtures/servers/ticket_desk.py): what it names and what it
does not name."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.paths import ROOT

DESK = ROOT / "tests" / "fixtures" / "servers" / "ticket_desk.py"


@pytest.fixture(scope="module")
def clean_desk() -> list[dict[str, Any]]:
    run = run_cli("lint", "--format", "json", "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    return list(run.json()["surfaces"][0]["findings"])


def test_the_addressing_finding_names_the_tickets_key_and_not_the_macros_id(clean_desk: list[dict[str, Any]]) -> None:
    [addressing] = [f for f in clean_desk if f["rule"] == "TS101"]
    assert set(addressing["parameters"]) == {"key", "ticket_number", "ticket_id"}
    assert "macro_id" not in addressing["message"]
    assert addressing["message"].startswith("one ticket is addressed under several names")


def test_max_results_is_a_limit_like_limit(clean_desk: list[dict[str, Any]], tmp_path: Path) -> None:
    # The desk's searches take how many best matches to return and its short lists take nothing: no way of paging.
    assert [f for f in clean_desk if f["rule"] == "TS106"] == []
    # Beside lists that page two ways, its searches are named for the limit they take.
    snapshot = tmp_path / "desk.json"
    run = run_cli("snapshot", "-o", str(snapshot), "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    data["tools"] += [
        {
            "name": f"{thing}_list",
            "description": f"List {thing}s.",
            "inputSchema": {"type": "object", "properties": {way: {"type": kind}}},
            "annotations": {"readOnlyHint": True},
        }
        for thing, way, kind in (("tag", "cursor", "string"), ("agent", "offset", "integer"))
    ]
    snapshot.write_text(json.dumps(data), encoding="utf-8")
    linted = run_cli("lint", str(snapshot), "--format", "json", "--select", "TS106")
    [paging] = linted.json()["surfaces"][0]["findings"]
    assert "limit only (ticket_search, ticket_find)" in paging["message"]
