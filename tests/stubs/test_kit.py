"""The handler kit's rules, each through a real MCP client over stdio: a refusal names what is allowed, lists
page with cursors, a content change needs the current version, and every call is logged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers.stubclient import Finished, stdio_session
from toolsurface.stubs.kit import Clock, Refusal, check_limit, page

pytestmark = pytest.mark.anyio

NOTES = str(ROOT / "tests" / "fixtures" / "surfaces" / "kit_notes.py")


async def test_a_value_outside_its_choices_is_refused_naming_the_allowed_ones_and_logged_so(tmp_path: Path) -> None:
    finished: list[Finished] = []
    async with stdio_session(NOTES, tmp_path, finished) as stub:
        text = await stub.refused("note_set", number=2, status="archived", version=1)
        missing = await stub.refused("note_set", number=9, status="draft")
    assert text == "status 'archived' is not allowed; statuses: draft, published"
    assert missing == "there is no note #9; notes: [1, 2, 3, 4, 5]"
    calls = [r for r in finished[0].log if r.is_call]
    assert [(r.tool, r.outcome, r.allowed) for r in calls] == [
        ("note_set", "refused", ["draft", "published"]),
        ("note_set", "refused", ["1", "2", "3", "4", "5"]),
    ]


async def test_a_list_pages_with_the_cursor_it_gave_and_refuses_one_it_did_not(tmp_path: Path) -> None:
    async with stdio_session(NOTES, tmp_path) as stub:
        first = await stub.ok("note_list", limit=2)
        second = await stub.ok("note_list", limit=2, cursor=first["nextCursor"])
        last = await stub.ok("note_list", limit=2, cursor=second["nextCursor"])
        forged = await stub.refused("note_list", cursor="page-2")
        too_many = await stub.refused("note_list", limit=500)
    assert [n["number"] for n in first["items"] + second["items"] + last["items"]] == [1, 2, 3, 4, 5]
    assert (first["total"], first["hasMore"], last["hasMore"], last["nextCursor"]) == (5, True, False, None)
    assert forged == "cursor 'page-2' was not given out by this server; pass nextCursor"
    assert too_many == "limit must be between 1 and 100"


async def test_a_change_needs_the_current_version_and_the_state_is_written_on_shutdown(tmp_path: Path) -> None:
    finished: list[Finished] = []
    async with stdio_session(NOTES, tmp_path, finished) as stub:
        missing = await stub.refused("note_set", number=3, status="published")
        stale = await stub.refused("note_set", number=3, status="published", version=7)
        done = await stub.ok("note_set", number=3, status="published", version=1)
    assert missing.startswith("version is required for this change")
    assert stale == "version 7 of #3 is stale; current version: 1; read the item again"
    assert done == {"number": 3, "status": "published", "version": 2}
    assert finished[0].state["notes"][2] == done
    assert [r.outcome for r in finished[0].log if r.is_call] == ["refused", "refused", "ok"]


async def test_a_refusal_naming_nothing_allowed_is_the_stubs_error_not_a_refusal(tmp_path: Path) -> None:
    finished: list[Finished] = []
    async with stdio_session(NOTES, tmp_path, finished) as stub:
        text = await stub.refused("note_set", number=1, status="forgotten", version=1)
    assert text == "internal error in the stub: ValueError: a refusal must name what is allowed"
    assert [r.outcome for r in finished[0].log if r.is_call] == ["error"]
    with pytest.raises(ValueError, match="must name what is allowed"):
        Refusal("nothing to say", [])


def test_limits_outside_one_to_the_maximum_are_refused_and_the_clock_steps_per_change() -> None:
    from datetime import datetime

    assert check_limit(None, default=7) == 7
    with pytest.raises(Refusal, match="between 1 and 100"):
        page([1, 2], 0, None)
    clock = Clock(datetime(2026, 11, 30, 9, 0))
    assert (clock.now(), clock.tick(), clock.tick()) == (
        "2026-11-30T09:00:00Z",
        "2026-11-30T09:01:00Z",
        "2026-11-30T09:02:00Z",
    )
