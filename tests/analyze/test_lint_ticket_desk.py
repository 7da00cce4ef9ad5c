"""Lint on a designer's own FastMCP-style server (tests/fixtures/servers/ticket_desk.py): what it names and what it
does not name."""

from __future__ import annotations

import sys
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


def test_max_results_is_a_limit_like_limit(clean_desk: list[dict[str, Any]]) -> None:
    [paging] = [f for f in clean_desk if f["rule"] == "TS106"]
    assert "limit only (ticket_search, ticket_find)" in paging["message"]
