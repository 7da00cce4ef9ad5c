"""The before-v2 stub over stdio: the six tasks with the old tools, the seed's refused call, and the old
surface's own rules for revisions, versions and patches."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.stubclient import Finished, StubSession, stdio_session
from toolsurface.harness.surface import resolve
from toolsurface.stubs.kit import HandlerStub
from toolsurface.stubs.serve import start_stub, surface_for_serving

pytestmark = pytest.mark.anyio

P = "acme-shop"
ACTIVE = [10, 11, 12, 13, 14, 15]
SUMMARY = "Run make ci (lint, unit and contract tests) before pushing."
REASON = "Blocked: runner images are not published yet."
TASK_FIELDS = ("title", "content", "status", "priority", "assignee", "parent")


async def test_a_careful_agent_does_the_six_tasks_with_the_old_tools(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("before-v2", tmp_path, done) as s:
        created = await s.ok("task_create", projectId=P, title="Apple Pay button", parent=10)

        memory = await s.ok("memory_get", projectId=P, number=3)
        assert memory["revisionId"] == "rev-3-1"
        stored = await s.ok("memory_store", projectId=P, number=3, summary=SUMMARY, baseRevisionId=memory["revisionId"])
        assert stored["revisionId"] == "rev-3-2"

        task = await s.ok("item_get", projectId=P, number=15)
        blocked_content = f"{task['fields']['content']}\n\n{REASON}"
        patch = {"status": "blocked", "content": blocked_content}
        await s.ok("task_patch", projectId=P, taskNumber=15, version=task["version"], patch=patch)

        listed = await s.ok("task_list", projectId=P)
        assert [t["number"] for t in listed["tasks"]] == [*ACTIVE, created["number"]]

        page = await s.ok("item_get", projectId=P, number=20)
        section = page["fields"]["content"].split("## Deployment", 1)[1].split("\n## ", 1)[0]
        assert "release dashboard" in section and "Rollback is a redeploy" in section

        queue = await s.ok("proposal_queue", projectId=P)
        proposal = queue["proposals"][0]
        await s.ok(
            "proposal_review", projectId=P, proposalId=proposal["proposalId"], approve=True,
            version=proposal["version"], reason="Matches the September review.",
        )  # fmt: skip
    end = done[0]
    new = end.item(created["number"])
    assert new["fields"]["title"] == "Apple Pay button" and new["fields"]["parent"] == 10
    changed = end.item(3)
    assert changed["fields"]["summary"] == SUMMARY and changed["version"] == 2
    assert changed["fields"]["title"] == "Build command" and changed["fields"]["tags"] == ["build", "ci"]
    assert changed["fields"]["content"].startswith("make ci runs lint")
    blocked = end.item(15)
    assert blocked["fields"]["status"] == "blocked" and blocked["blockReason"] is None
    assert blocked["fields"]["content"] == f"Move all pipelines to the autoscaling runners.\n\n{REASON}"
    assert end.state["proposals"][0]["state"] == "approved"
    assert end.item(4)["fields"]["summary"] == "We use Adyen for card payments."
    assert [r.outcome for r in end.log if r.method == "tools/call"] == ["ok"] * 9


async def test_memory_store_with_number_but_without_project_id_is_refused_then_corrected(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("before-v2", tmp_path, done) as s:
        message = await s.refused("memory_store", number=3, summary=SUMMARY, baseRevisionId="rev-3-1")
        assert "projectId" in message and "id" in message
        await s.ok("memory_store", projectId=P, number=3, summary=SUMMARY, baseRevisionId="rev-3-1")
    assert done[0].item(3)["fields"]["summary"] == SUMMARY
    assert [r.outcome for r in done[0].log if r.method == "tools/call"] == ["refused", "ok"]


async def test_task_patch_refuses_an_unknown_patch_field_naming_the_allowed_ones(tmp_path: Path) -> None:
    async with stdio_session("before-v2", tmp_path) as s:
        message = await s.refused(
            "task_patch", projectId=P, taskNumber=15, version=1, patch={"status": "blocked", "blockReason": "x"}
        )
        assert "blockReason" in message and all(name in message for name in TASK_FIELDS)
        task = await s.ok("item_get", projectId=P, number=15)
        assert task["fields"]["status"] == "open" and "blockReason" not in task


async def test_memory_store_refuses_a_stale_base_revision_naming_the_current_one(tmp_path: Path) -> None:
    async with stdio_session("before-v2", tmp_path) as s:
        await s.ok("memory_store", projectId=P, number=3, summary=SUMMARY, baseRevisionId="rev-3-1")
        message = await s.refused("memory_store", projectId=P, number=3, title="Build", baseRevisionId="rev-3-1")
        assert "rev-3-2" in message
        missing = await s.refused("memory_store", projectId=P, number=3, title="Build")
        assert "baseRevisionId" in missing and "rev-3-2" in missing


async def test_page_store_moves_a_page_with_its_version_and_changes_text_with_a_revision(tmp_path: Path) -> None:
    async with stdio_session("before-v2", tmp_path) as s:
        page = await s.ok("item_get", projectId=P, number=22)
        message = await s.refused("page_store", projectId=P, number=22, parent=20, baseRevisionId=page["revisionId"])
        assert "version" in message
        await s.ok("page_store", projectId=P, number=22, parent=20, version=page["version"])
        text = await s.refused("page_store", projectId=P, number=22, title="Setup", version=page["version"])
        assert "baseRevisionId" in text and page["revisionId"] in text
        await s.ok("page_store", projectId=P, number=22, title="Setup", baseRevisionId=page["revisionId"])
        moved = await s.ok("item_get", projectId=P, number=22)
        assert moved["fields"]["parent"] == 20 and moved["fields"]["title"] == "Setup"


async def test_proposal_review_without_version_is_refused_by_the_schema(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("before-v2", tmp_path, done) as s:
        message = await s.refused("proposal_review", projectId=P, proposalId="p-101", approve=True)
        assert "missing required parameter" in message and "version" in message
    assert done[0].state["proposals"][0]["state"] == "pending"


async def reads(s: StubSession) -> None:
    assert "Personal memories" in await s.ok("memory_recall")
    assert "Build command" in await s.ok("memory_recall", projectId=P, focus="build", includeUpstream=True)
    assert "revisionId" in await s.ok("system_memory")
    assert [p["id"] for p in (await s.ok("project_list"))["projects"]] == [P, "acme-website"]
    assignees = await s.ok("task_assignee_list", projectId=P)
    assert "Dana" in [a["assignee"] for a in assignees["assignees"]]
    deep = await s.ok("item_get", projectId=P, number=14, depth=2)
    assert deep["relations"][0]["relations"] and "blockReason" not in deep
    instructions = await s.ok("item_get", projectId=P, ref="instructions")
    assert instructions["revisionId"] == "rev-instructions-3"
    assert (await s.ok("item_get", projectId=P, ref="proposal:p-101"))["proposalId"] == "p-101"
    personal = await s.ok("memory_get", id="m-7f3a")
    assert personal["scope"] == "personal" and personal["revisionId"] == "rev-m-7f3a-1"
    old = await s.ok("memory_get", projectId=P, number=4, revisionId="rev-4-1")
    assert old["summary"] == "Card payments via Stripe." and old["currentRevisionId"] == "rev-4-2"
    relations = await s.ok("relation_list", projectId=P, number=14, kind="blocks")
    assert relations["relations"][0]["kind"] == "blocks"
    history = await s.ok("item_history", projectId=P, number=4)
    assert [r["revisionId"] for r in history["revisions"]] == ["rev-4-1", "rev-4-2"]
    closed = await s.ok("task_list", projectId=P, includeClosed=True, limit=3)
    assert len(closed["tasks"]) == 3 and closed["total"] == 8
    found = await s.ok("item_search", projectId=P, query="staging", kind="memory")
    assert [r["number"] for r in found["results"]] == [5]
    assert (await s.ok("proposal_queue", projectId=P, limit=1))["total"] == 1


async def writes(s: StubSession) -> None:
    created = await s.ok("project_create", name="Acme API", remote="https://github.com/acme/api.git")
    assert created["projectId"] == "acme-api"
    await s.ok("project_update", projectId=P, description="Shop backend.")
    await s.ok("page_store", projectId=P, title="Runbook", content="Steps.", explanation="New runbook.")
    await s.ok(
        "page_store", projectId=P, ref="instructions", content="Run make ci.", baseRevisionId="rev-instructions-3"
    )
    personal = await s.ok("memory_store", scope="personal", title="Shell", content="I use fish.")
    assert personal["id"] and personal["revisionId"].endswith("-1")
    proposed = await s.ok("memory_store", projectId=P, title="Cache", content="Redis.", propose=True)
    await s.ok("proposal_withdraw", projectId=P, proposalId=proposed["proposalId"], version=1)
    await s.ok("proposal_review", projectId=P, proposalId="p-101", approve=False, version=1, reason="Not yet.")
    task = await s.ok("task_create", projectId=P, title="Wallet icons", priority="low")
    await s.ok("task_patch", projectId=P, taskNumber=task["number"], version=1, patch={"assignee": None})
    await s.ok("task_claim", projectId=P, taskNumber=12, version=1)
    await s.ok("task_complete", projectId=P, taskNumber=12, version=2, comment="Panel merged.")
    changes = (await s.ok("item_history", projectId=P, number=12))["changes"]
    assert changes[-1]["comment"] == "Panel merged." and changes[-1]["changes"][0]["new"] == "completed"
    assert "complete" in await s.refused("item_archive", projectId=P, number=13)
    await s.ok("item_archive", projectId=P, number=6, restore=True)
    await s.ok("relation_create", projectId=P, sourceNumber=12, targetNumber=14, kind="blocks")
    await s.ok("relation_remove", projectId=P, sourceNumber=12, targetNumber=14, kind="blocks")
    request = await s.ok("item_delete", projectId=P, number=5, baseRevisionId="rev-5-1", reason="Secret.")
    queue = await s.ok("privacy_deletion_queue", projectId=P)
    assert [r["requestId"] for r in queue["requests"]] == [request["requestId"]]
    await s.ok("privacy_deletion_review", projectId=P, requestId=request["requestId"], approve=True)


async def test_every_old_tool_answers_a_well_formed_call(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("before-v2", tmp_path, done) as s:
        tools = {t.name for t in (await s.client.list_tools()).tools}
        assert len(tools) == 27
        await reads(s)
        await writes(s)
    calls = [r for r in done[0].log if r.method == "tools/call"]
    assert {r.tool for r in calls} == tools
    assert [r.tool for r in calls if r.outcome != "ok"] == ["item_archive"]
    assert 5 not in [i["number"] for i in done[0].state["items"]]
    assert done[0].state["proposals"][0]["state"] == "rejected"


@pytest.mark.parametrize("name", ["Acme  API", "Café Ops", "!!!"])
def test_a_project_created_with_the_old_tool_gets_the_id_every_conderis_surface_gives_its_name(name: str) -> None:
    """project_create (before-v2), project_create (consistent) and project_store (v2) name a new project alike."""
    created = {}
    for surface, tool in (("before-v2", "project_create"), ("consistent", "project_create"), ("v2", "project_store")):
        stub = start_stub(surface_for_serving(resolve(surface)), None)
        assert isinstance(stub, HandlerStub)
        created[surface] = stub.call(tool, {"name": name})["projectId"]
    assert len(set(created.values())) == 1, created
