"""The engine driven by kinds: a surface given as two kinds and a fixture, with no handler code, serves
get/list/store/action/delete through a real MCP client; one more kind is one more kind served."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from tests.conftest import ROOT
from tests.fixtures.surfaces import engine_desk
from toolsurface.harness.surface import SurfaceDefinition, resolve
from toolsurface.stubs.engine import consolidated_handlers, engine_stub, load_items
from toolsurface.stubs.kit import FixtureError
from toolsurface.stubs.mcp_server import build_server
from toolsurface.stubs.serve import start_stub

pytestmark = pytest.mark.anyio

DESK = ROOT / "tests" / "fixtures" / "surfaces" / "engine_desk.py"


class Session:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, tool: str, **arguments: Any) -> tuple[bool, str]:
        with anyio.fail_after(10):
            result = await self.client.call_tool(tool, arguments)
        return bool(result.is_error), "".join(getattr(b, "text", "") for b in result.content)

    async def ok(self, tool: str, **arguments: Any) -> Any:
        refused, text = await self.call(tool, **arguments)
        assert not refused, text
        return json.loads(text)

    async def refused(self, tool: str, **arguments: Any) -> str:
        refused, text = await self.call(tool, **arguments)
        assert refused, text
        return text


@asynccontextmanager
async def serving(definition: SurfaceDefinition, fixture: Path | None = None) -> AsyncIterator[Session]:
    surface = definition.build_surface()
    stub = start_stub(surface, fixture)
    async with Client(build_server(surface, stub), mode="legacy") as client:
        yield Session(client)


def desk() -> SurfaceDefinition:
    loaded = resolve(str(DESK))
    assert isinstance(loaded, SurfaceDefinition)
    return loaded


async def test_two_kinds_as_data_are_served_get_list_store_action_and_delete() -> None:
    async with serving(desk()) as s:
        listed = await s.ok("item_list", kind="ticket")
        everything = await s.ok("item_list", kind="ticket", filter={"includeClosed": True})
        mine = await s.ok("item_list", kind="ticket", filter={"customer": 1, "includeClosed": True}, limit=1)
        rest = await s.ok("item_list", kind="ticket", filter={"customer": 1, "includeClosed": True}, cursor="o1")
        created = await s.ok("item_store", kind="ticket", fields={"title": "Refund", "customer": 2})
        unknown_field = await s.refused(
            "item_store", kind="ticket", fields={"title": "X", "customer": 1, "owner": "me"}
        )
        bad_ref = await s.refused("item_store", kind="ticket", fields={"title": "X", "customer": 4})
        set_by_action = await s.refused("item_store", kind="ticket", number=3, version=1, fields={"status": "solved"})
        no_version = await s.refused("item_action", number=3, action="solve", note="Fixed the renderer.")
        no_note = await s.refused("item_action", number=3, action="solve", version=1)
        wrong_action = await s.refused("item_action", number=1, action="solve")
        solved = await s.ok("item_action", number=3, action="solve", version=1, note="Fixed the renderer.")
        reopen_open = await s.refused("item_action", number=4, action="reopen", version=1)
        ticket = await s.ok("item_get", number=3)
        customer = await s.ok("item_get", number=2)
        referred = await s.refused("item_delete", number=2)
        deleted = await s.ok("item_delete", number=4, version=1)
        gone = await s.refused("item_get", number=4)
    assert [e["number"] for e in listed["items"]] == [3, 4]
    assert [e["number"] for e in everything["items"]] == [3, 4, 5]
    assert "body" not in listed["items"][0]
    assert (mine["items"][0]["number"], mine["nextCursor"], rest["items"][0]["number"]) == (3, "o1", 5)
    assert created == {"outcome": "created", "kind": "ticket", "number": 6, "version": 1}
    assert unknown_field == "unknown field 'owner' for ticket; fields: title, status, customer, body, resolution"
    assert bad_ref == "ticket customer 4 is not the number of a customer; customer numbers: 1, 2"
    assert set_by_action == "ticket status is set by an action, not stored; actions: solve, reopen"
    assert no_version.startswith("version is required for solve")
    assert no_note == "solve needs a note, kept as the ticket's resolution"
    assert wrong_action == "'solve' does not apply to a customer; customer actions: (none)"
    assert solved == {"outcome": "solve", "number": 3, "version": 2}
    assert reopen_open == "#4 is waiting; reopen applies to a ticket that is solved"
    assert (ticket["status"], ticket["resolution"], ticket["body"]) == (
        "solved",
        "Fixed the renderer.",
        "The PDF has no pages.",
    )
    assert customer["linked"] == {"ticket": [4, 6]}
    assert referred == "#2 cannot be deleted: #4, #6 refer to it"
    assert deleted == {"outcome": "deleted", "number": 4}
    assert gone == "there is no item #4; item numbers: 1, 2, 3, 5, 6"


async def test_one_more_kind_given_as_data_is_one_more_kind_served(tmp_path: Path) -> None:
    fixture = tmp_path / "desk.json"
    data = json.loads(engine_desk.FIXTURE.read_text(encoding="utf-8"))
    data["items"].append({"kind": "tag", "number": 9, "fields": {"label": "billing"}})
    fixture.write_text(json.dumps(data), encoding="utf-8")
    kinds = (*engine_desk.KINDS, engine_desk.TAG)
    grown = replace(desk(), kinds=kinds, stub=engine_stub(kinds, fixture, consolidated_handlers("item")))
    async with serving(desk()) as before:
        refused = await before.refused("item_list", kind="tag")
    async with serving(grown) as after:
        tags = await after.ok("item_list", kind="tag")
        made = await after.ok("item_store", kind="tag", fields={"label": "urgent"})
        missing = await after.refused("item_store", kind="tag", fields={})
    assert refused == "parameter 'kind' is 'tag'; allowed values: customer, ticket"
    assert tags["items"] == [{"number": 9, "label": "billing"}]
    assert made["number"] == 10
    assert missing == "a new tag needs label; required: label"


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ({"kind": "robot", "number": 7, "fields": {}}, "items[5]: kind 'robot' is not one of customer, ticket"),
        ({"kind": "ticket", "number": 7, "fields": {"title": "T", "customer": 1, "mood": "x"}}, "unknown field 'mood'"),
        (
            {"kind": "ticket", "number": 7, "fields": {"title": "T", "customer": 8}},
            "ticket #7: ticket customer 8 is not",
        ),
        ({"kind": "ticket", "number": 7, "fields": {"title": "T", "customer": 1, "status": "lost"}}, "status 'lost'"),
        ({"kind": "ticket", "number": 7, "fields": {"customer": 1}}, "ticket #7: title is required"),
    ],
)
def test_a_fixture_that_does_not_fit_its_kinds_is_one_line_naming_the_file_and_the_item(
    tmp_path: Path, item: dict[str, Any], problem: str
) -> None:
    data = json.loads(engine_desk.FIXTURE.read_text(encoding="utf-8"))
    data["items"].append(item)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FixtureError) as error:
        load_items(path, engine_desk.KINDS)
    assert str(error.value).startswith(f"{path}: ") and problem in str(error.value)
    assert "\n" not in str(error.value)


def test_an_items_fixture_without_the_clocks_start_is_one_line_naming_it(tmp_path: Path) -> None:
    data = json.loads(engine_desk.FIXTURE.read_text(encoding="utf-8"))
    del data["start"]
    path = tmp_path / "no-start.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FixtureError, match=r"^.*no-start\.json: start: the clock's start is missing"):
        load_items(path, engine_desk.KINDS)
