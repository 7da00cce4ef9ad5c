"""The stubs the stub tests start are forked from one warm server per test process (tests/helpers/stubclient.py), as
a study starts its stubs, each through the launcher that stands in for it as its process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.stubclient import Finished, stdio_session, stub_command


def test_every_stub_a_test_process_starts_goes_through_one_fork_server() -> None:
    first, second = stub_command(["serve", "v2"]), stub_command(["serve", "consistent", "--log", "x"])
    assert first[:2] == second[:2] == ["-m", "toolsurface.stubs.start.launch"]
    assert first[2] == second[2] and Path(first[2]).is_socket()
    assert (first[3:], second[3:]) == (["serve", "v2"], ["serve", "consistent", "--log", "x"])


@pytest.mark.anyio
async def test_a_forked_stub_serves_logs_and_writes_its_state_as_a_fresh_one(tmp_path: Path) -> None:
    done: list[Finished] = []
    async with stdio_session("v2", tmp_path, done) as stub:
        assert (await stub.ok("project_get", projectId="acme-shop"))["id"] == "acme-shop"
    [finished] = done
    assert [record.tool for record in finished.log if record.is_call] == ["project_get"]
    assert finished.state["items"]
