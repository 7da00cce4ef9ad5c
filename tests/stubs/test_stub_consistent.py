"""The consistent stub over stdio: a careful agent's six tasks with the 28 tools, and the series' rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.stubclient import Finished, StubSession, stdio_session

pytestmark = pytest.mark.anyio

P = "acme-shop"
ACTIVE = [10, 11, 12, 13, 14, 15]
REASON = "Runner images are not published yet."


async def find_section(s: StubSession, number: int, heading: str, chunk: int = 1500) -> int:
    """Where a heading starts, found by reading the text in parts."""
    offset = 0
    while True:
        part = await s.ok("item_get", projectId=P, number=number, offset=offset, take=chunk)
        text = part["text"]
        if heading in text["content"]:
            return offset + int(text["content"].index(heading))
        assert text["hasMore"], f"{heading!r} not in #{number}"
        offset += chunk


async def six_tasks(tmp_path: Path) -> tuple[Finished, int]:
    """What a careful agent does: read before it writes, pass the versions it read."""
    done: list[Finished] = []
    async with stdio_session("consistent", tmp_path, done) as s:
        created = await s.ok("task_create", projectId=P, title="Apple Pay button", parent=10)
        assert created["outcome"] == "published"

        memory = await s.ok("memory_get", projectId=P, number=3)
        summary = "Run make ci (lint, unit and contract tests) before pushing."
        await s.ok("memory_store", projectId=P, number=3, version=memory["version"], summary=summary)

        task = await s.ok("item_get", projectId=P, number=15)
        await s.ok("task_block", projectId=P, number=15, version=task["version"], action="block", reason=REASON)

        listed = await s.ok("task_list", projectId=P)
        assert [e["number"] for e in listed["items"]] == [*ACTIVE, created["number"]]
        assert listed["total"] == 7 and listed["hasMore"] is False and listed["nextCursor"] is None

        start = await find_section(s, 20, "## Deployment")
        section = await s.ok("item_get", projectId=P, number=20, offset=start, take=1400)
        assert section["text"]["content"].startswith("## Deployment")

        queue = await s.ok("proposal_queue", projectId=P)
        ref = queue["items"][0]["ref"]
        proposal = await s.ok("item_get", projectId=P, ref=ref)
        await s.ok(
            "proposal_review", projectId=P, ref=ref, version=proposal["version"], decision="approve",
            reason="Matches the September review.",
        )  # fmt: skip
    return done[0], int(created["number"])


async def test_a_careful_agent_does_the_six_tasks_with_the_consistent_tools(tmp_path: Path) -> None:
    end, number = await six_tasks(tmp_path)
    assert end.item(number)["fields"]["title"] == "Apple Pay button" and end.item(number)["fields"]["parent"] == 10
    memory = end.item(3)
    assert memory["fields"]["summary"].startswith("Run make ci (lint") and memory["fields"]["title"] == "Build command"
    assert memory["fields"]["content"].startswith("make ci runs lint") and memory["version"] == 2
    blocked = end.item(15)
    assert blocked["fields"]["status"] == "blocked" and blocked["blockReason"] == REASON
    assert "Runner images" not in blocked["fields"]["content"]
    assert end.state["proposals"][0]["state"] == "approved"
    assert end.item(4)["fields"]["summary"] == "We use Adyen for card payments."
    calls = [r for r in end.log if r.method == "tools/call"]
    assert len(calls) >= 10 and all(r.outcome == "ok" for r in calls)


async def test_task_patch_refuses_status_blocked_naming_task_block(tmp_path: Path) -> None:
    async with stdio_session("consistent", tmp_path) as s:
        message = await s.refused("task_patch", projectId=P, number=15, version=1, status="blocked")
        assert "task_block" in message and "canceled" in message
        await s.ok("task_block", projectId=P, number=15, version=1, action="block", reason=REASON)


async def test_a_stale_version_is_refused_naming_the_current_one(tmp_path: Path) -> None:
    async with stdio_session("consistent", tmp_path) as s:
        message = await s.refused("memory_store", projectId=P, number=4, version=1, summary="Adyen.")
        assert "stale" in message and "current version: 2" in message
        message = await s.refused("task_claim", projectId=P, number=11, version=3)
        assert "current version: 4" in message


async def test_task_block_without_a_reason_is_refused_naming_reason(tmp_path: Path) -> None:
    async with stdio_session("consistent", tmp_path) as s:
        message = await s.refused("task_block", projectId=P, number=15, version=1, action="block")
        assert "reason" in message
        message = await s.refused("task_block", projectId=P, number=15, version=1, action="pause", reason=REASON)
        assert "block" in message and "unblock" in message


async def test_proposal_review_refuses_decision_yes_naming_approve_and_reject(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("consistent", tmp_path, done) as s:
        message = await s.refused("proposal_review", projectId=P, ref="proposal:p-101", version=1, decision="yes")
        assert "approve" in message and "reject" in message
        message = await s.refused("proposal_review", projectId=P, ref="proposal:p-101", decision="reject")
        assert "version" in message
        await s.ok("proposal_review", projectId=P, ref="proposal:p-101", version=1, decision="reject", reason="Stale.")
    assert done[0].state["proposals"][0]["state"] == "rejected"


async def test_item_archive_refuses_a_task_and_archives_a_memory(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("consistent", tmp_path, done) as s:
        message = await s.refused("item_archive", projectId=P, number=13, version=1, action="archive")
        assert "complete" in message and "canceled" in message
        await s.ok("item_archive", projectId=P, number=5, version=1, action="archive")
    assert done[0].item(5)["archived"] is True and done[0].item(13)["archived"] is False


async def test_memory_store_with_number_but_without_project_is_refused_naming_project_id(tmp_path: Path) -> None:
    async with stdio_session("consistent", tmp_path) as s:
        message = await s.refused("memory_store", number=3, version=1, summary="Run make ci.")
        assert "projectId" in message and "memory:<id>" in message
        personal = await s.ok("memory_store", ref="memory:m-7f3a", version=1, summary="gofumpt and golangci-lint.")
        assert personal["ref"] == "memory:m-7f3a" and personal["version"] == 2


async def test_item_delete_locks_the_item_and_files_a_request_decided_by_ref(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("consistent", tmp_path, done) as s:
        filed = await s.ok("item_delete", projectId=P, number=5, reason="Contains a credential.")
        locked = await s.ok("item_get", projectId=P, number=5)
        assert filed["locked"] and locked["fields"]["content"].startswith("[locked")
        queue = await s.ok("privacy_deletion_queue", projectId=P)
        assert [e["ref"] for e in queue["items"]] == ["deletion:d-1"] and queue["total"] == 1
        await s.ok("privacy_deletion_review", projectId=P, ref="deletion:d-1", decision="approve")
    assert 5 not in [i["number"] for i in done[0].state["items"]]


async def test_every_list_pages_with_limit_and_cursor(tmp_path: Path) -> None:
    async with stdio_session("consistent", tmp_path) as s:
        first = await s.ok("task_list", projectId=P, includeClosed=True, limit=5)
        assert first["total"] == 8 and first["hasMore"] is True
        rest = await s.ok("task_list", projectId=P, includeClosed=True, limit=5, cursor=first["nextCursor"])
        assert [e["number"] for e in first["items"] + rest["items"]] == list(range(10, 18))
        history = await s.ok("item_history", projectId=P, number=11, limit=1)
        assert history["version"] == 4 and len(history["items"]) == 1 and "nextCursor" in history
        found = await s.ok("item_search", projectId=P, query="deploy", includeArchived=True, kind="memory")
        assert [e["number"] for e in found["items"]] == [6]


async def test_the_log_records_every_call_with_its_outcome(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("consistent", tmp_path, done) as s:
        await s.refused("item_archive", projectId=P, number=13, version=1, action="archive")
        await s.ok("task_complete", projectId=P, number=13, version=1)
        await s.refused("task_patch", projectId=P, number=12, version=1, status="done")
        await s.ok("relation_create", projectId=P, number=12, target=13, relation="relates")
    calls = [r for r in done[0].log if r.method == "tools/call"]
    assert [(r.tool, r.outcome) for r in calls] == [
        ("item_archive", "refused"),
        ("task_complete", "ok"),
        ("task_patch", "refused"),
        ("relation_create", "ok"),
    ]
    assert all(r.message for r in calls if r.outcome == "refused")
    assert done[0].item(13)["fields"]["status"] == "completed"
