"""The v2 stubs over stdio: a careful agent's six tasks, and the seed's mistakes with the seed's answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.stubclient import Finished, stdio_session

pytestmark = pytest.mark.anyio

P = "acme-shop"
ACTIVE = [10, 11, 12, 13, 14, 15]


async def six_tasks(surface: str, tmp_path: Path) -> Finished:
    """What a careful agent does: read before it writes, pass the versions it read."""
    done: list[Finished] = []
    async with stdio_session(surface, tmp_path, done) as s:
        epic = await s.ok("item_get", projectId=P, number=10)
        assert epic["fields"]["title"] == "Checkout redesign"
        created = await s.ok("item_store", kind="task", projectId=P, fields={"title": "Apple Pay button", "parent": 10})
        assert created["outcome"] == "published"

        memory = await s.ok("item_get", projectId=P, number=3)
        await s.ok(
            "item_store", kind="memory", projectId=P, number=3, version=memory["version"],
            fields={"summary": "Run make ci (lint, unit and contract tests) before pushing."},
        )  # fmt: skip

        task = await s.ok("item_get", projectId=P, number=15)
        await s.ok(
            "item_action",
            projectId=P,
            number=15,
            action="block",
            version=task["version"],
            reason="Runner images are not published yet.",
        )

        listed = await s.ok("item_list", kind="task", projectId=P)
        assert [e["number"] for e in listed["items"]] == [*ACTIVE, created["number"]]

        page = await s.ok("item_get", projectId=P, number=20, offset=0, take=400)
        assert page["text"]["length"] > 6000
        text = page["text"]
        start = None
        chunk = 1500
        offset = 0
        while start is None:
            part = await s.ok("item_get", projectId=P, number=20, offset=offset, take=chunk)
            if "## Deployment" in part["text"]["content"]:
                start = offset + part["text"]["content"].index("## Deployment")
            offset += chunk
            assert offset < text["length"]
        section = await s.ok("item_get", projectId=P, number=20, offset=start, take=1400)
        assert section["text"]["content"].startswith("## Deployment")

        proposals = await s.ok("item_list", kind="proposal", projectId=P)
        ref = proposals["items"][0]["ref"]
        proposal = await s.ok("item_get", projectId=P, ref=ref)
        await s.ok(
            "item_action",
            projectId=P,
            ref=ref,
            action="approve",
            version=proposal["version"],
            reason="Matches the September review.",
        )
    return done[0]


@pytest.mark.parametrize("surface", ["v2", "v2-first"])
async def test_a_careful_agent_does_the_six_tasks(surface: str, tmp_path: Path) -> None:
    end = await six_tasks(surface, tmp_path)
    new = [i for i in end.state["items"] if i["fields"]["title"] == "Apple Pay button"]
    assert len(new) == 1 and new[0]["fields"]["parent"] == 10
    memory = end.item(3)
    assert memory["fields"]["summary"].startswith("Run make ci (lint") and memory["fields"]["title"] == "Build command"
    assert memory["version"] == 2
    blocked = end.item(15)
    assert blocked["fields"]["status"] == "blocked" and blocked["blockReason"] == "Runner images are not published yet."
    assert "Runner images" not in blocked["fields"]["content"]
    assert end.state["proposals"][0]["state"] == "approved"
    assert end.item(4)["fields"]["summary"] == "We use Adyen for card payments."
    assert [r.method for r in end.log].count("tools/call") >= 10
    assert all(r.outcome == "ok" for r in end.log)


async def test_v2_refuses_a_status_filter_naming_the_allowed_ones(tmp_path: Path) -> None:
    async with stdio_session("v2", tmp_path) as s:
        message = await s.refused("item_list", kind="task", projectId=P, filter={"status": "open"})
        for name in ("priority", "assignee", "parent", "includeClosed"):
            assert name in message
        corrected = await s.ok("item_list", kind="task", projectId=P)
        assert 14 in [e["number"] for e in corrected["items"]]


async def test_v2_first_status_open_quietly_misses_blocked_task_14(tmp_path: Path) -> None:
    async with stdio_session("v2-first", tmp_path) as s:
        listed = await s.ok("item_list", kind="task", projectId=P, filter={"status": "open"})
        numbers = [e["number"] for e in listed["items"]]
        assert 14 not in numbers and numbers == [10, 12, 13, 15]


async def test_v2_first_refuses_approve_without_version(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("v2-first", tmp_path, done) as s:
        message = await s.refused("item_action", projectId=P, ref="proposal:p-101", action="approve", reason="ok")
        assert "version" in message
        await s.ok("item_action", projectId=P, ref="proposal:p-101", action="approve", reason="ok", version=1)
    assert done[0].state["proposals"][0]["state"] == "approved"
    outcomes = [r.outcome for r in done[0].log if r.method == "tools/call"]
    assert outcomes == ["refused", "ok"]


async def test_v2_approves_without_version_but_needs_a_reason(tmp_path: Path) -> None:
    async with stdio_session("v2", tmp_path) as s:
        message = await s.refused("item_action", projectId=P, ref="proposal:p-101", action="approve")
        assert "reason" in message
        await s.ok("item_action", projectId=P, ref="proposal:p-101", action="approve", reason="Matches the review.")
