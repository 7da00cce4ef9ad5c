"""The listing drafts behind `--drafts`: SEP-2636's tool manifests (tools/manifest, tools/describe in batches) and the
groups draft (groups/list, groups/get; scoped tools left out of tools/list), read where a server advertises them and
measured beside the full list, each figure labelled with its proposal and version; nothing is asked of a server
that advertises neither, or without --drafts. The subject: a server written by hand on plain JSON-RPC
(tests/fixtures/servers/drafted.py), since the SDK speaks neither draft."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.rawstdio import RawStdioClient
from toolsurface.harness.measure import count_tokens
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import GROUPS_EXTENSION, GROUPS_PROPOSAL, MANIFEST_PROPOSAL

DRAFTED = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "drafted.py")]


def measured(*args: str) -> dict[str, Any]:
    run = run_cli("measure", "--format", "json", "--no-growth", *args)
    assert run.returncode == 0, run.stderr
    surface: dict[str, Any] = run.json()["surfaces"][0]
    return surface


def figures(surface: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["what"]: f for f in surface["drafts"]["figures"]}


def size(value: Any) -> tuple[int, int]:
    text = compact_json(value)
    return len(text), count_tokens(text)


def raw(*flags: str) -> dict[str, Any]:
    """What a client written by hand that declares the groups extension receives."""
    client = RawStdioClient([*DRAFTED, *flags])
    try:
        client.initialize({"extensions": {GROUPS_EXTENSION: {}}})
        found: dict[str, Any] = {
            "tools": client.request("tools/list")["tools"],
            "manifest": client.request("tools/manifest")["entries"],
            "groups": client.request("groups/list")["groups"],
        }
        found["fetched"] = {n: client.request("groups/get", {"name": n}) for n in ("editing", "admin", "audit")}
        return found
    finally:
        client.close()


def test_measure_drafts_sets_the_manifest_and_the_groups_beside_the_full_list() -> None:
    surface = measured("--drafts", "--", *DRAFTED)
    sent = raw()
    found = figures(surface)
    assert list(found) == [
        "tools/list",
        "tools/manifest",
        "groups/list",
        "groups/get, every group",
        "tools only in groups",
        "every tool, listed and scoped",
    ]
    assert (found["tools/list"]["proposal"], found["tools/list"]["entries"]) == (None, 2)
    manifest = found["tools/manifest"]
    assert (manifest["proposal"], manifest["entries"]) == (MANIFEST_PROPOSAL, 2)
    assert (manifest["chars"], manifest["tokens"]) == size(sent["manifest"])
    assert (found["groups/list"]["proposal"], found["groups/list"]["entries"]) == (GROUPS_PROPOSAL, 2)
    assert (found["groups/list"]["chars"], found["groups/list"]["tokens"]) == size(sent["groups"])
    assert found["groups/get, every group"]["entries"] == 3
    scoped = [t for r in sent["fetched"].values() for t in r["contents"]["tools"]]
    assert (found["tools only in groups"]["entries"], found["tools only in groups"]["chars"]) == (4, size(scoped)[0])
    marked = {(t["group"], t["tool"]) for t in surface["drafts"]["group_tools"] if t["only_in_groups"]}
    assert marked == {
        ("editing", "notes_write"),
        ("editing", "notes_delete"),
        ("admin", "notes_purge"),
        ("audit", "audit_log"),
    }
    assert surface["drafts"]["problems"] == []
    # A client of the groups extension is given the top-level tools alone.
    assert surface["tools"] == 2 and [t["name"] for t in sent["tools"]] == ["notes_find", "notes_read"]
    shown = run_cli("measure", "--drafts", "--format", "markdown", "--", *DRAFTED)
    assert f"| drafted | tools/manifest | {MANIFEST_PROPOSAL} | 2 |" in shown.stdout
    assert "- drafted: only through groups: notes_write (group editing)" in shown.stdout


def test_without_drafts_nothing_of_them_is_asked_and_the_list_is_flat(tmp_path: Path) -> None:
    record = tmp_path / "asked.log"
    surface = measured("--", *DRAFTED, "--record", str(record))
    assert "drafts" not in surface and surface["tools"] == 6
    assert record.read_text(encoding="utf-8").split() == ["initialize", "notifications/initialized", "tools/list"]


def test_a_server_that_advertises_neither_draft_is_asked_nothing_more(tmp_path: Path) -> None:
    record = tmp_path / "asked.log"
    surface = measured("--drafts", "--", *DRAFTED, "--no-manifest", "--no-groups", "--record", str(record))
    assert "drafts" not in surface
    assert record.read_text(encoding="utf-8").split() == ["initialize", "notifications/initialized", "tools/list"]


def test_a_manifest_digest_that_is_not_the_tools_is_a_row_that_says_so() -> None:
    surface = measured("--drafts", "--", *DRAFTED, "--bad-digest")
    (problem,) = surface["drafts"]["problems"]
    assert problem.startswith("tool notes_read: its manifest digest and size (sha256:")
    assert "tools/manifest" in figures(surface)


def test_tools_describe_is_asked_in_batches_the_server_takes(tmp_path: Path) -> None:
    record = tmp_path / "asked.log"
    surface = measured("--drafts", "--", *DRAFTED, "--describe-differs", "--no-groups", "--record", str(record))
    # Six stale entries: the server takes two names a request, said once (maxNames), then three batches.
    assert record.read_text(encoding="utf-8").split().count("tools/describe") == 4
    problems = surface["drafts"]["problems"]
    assert len(problems) == 6
    assert all(p.endswith(": tools/describe gives another definition than tools/list") for p in problems)


@pytest.mark.parametrize(
    ("flag", "problem"),
    [
        ("--loop", "groups loop: admin -> audit -> admin"),
        ("--twice", "group editing names notes_write twice"),
        ("--fail-groups", "groups/list answered with error -32603: the group index is being rebuilt"),
    ],
)
def test_a_group_that_loops_or_names_a_tool_twice_or_fails_is_a_row_and_the_rest_is_measured(
    flag: str, problem: str
) -> None:
    surface = measured("--drafts", "--", *DRAFTED, flag)
    assert problem in surface["drafts"]["problems"]
    assert figures(surface)["tools/manifest"]["entries"] == 2
    run = run_cli("measure", "--drafts", "--", *DRAFTED, flag)
    assert run.returncode == 0, run.stderr
    assert f"drafted: {problem}" in run.stdout


def test_a_snapshot_records_the_drafts_and_measures_as_the_server(tmp_path: Path) -> None:
    path = tmp_path / "drafted.json"
    run = run_cli("snapshot", "--drafts", "-o", str(path), "--", *DRAFTED)
    assert run.returncode == 0, run.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    sent = raw()
    assert data["drafts"]["manifest"] == sent["manifest"] and data["drafts"]["fetched"] == sent["fetched"]
    assert measured(str(path), "--drafts")["drafts"] == measured("--drafts", "--", *DRAFTED)["drafts"]
    assert "drafts" not in measured(str(path))


def test_snapshot_drafts_of_a_surface_is_one_line() -> None:
    assert_one_line_error(run_cli("snapshot", "helpdesk", "--drafts"), "--drafts records a live server's drafts")


def test_a_tools_digest_is_of_its_rfc_8785_canonical_json() -> None:
    from toolsurface.harness.surface import canonical_json, tool_digest

    assert (
        canonical_json({"b": 1.0, "a": [1e21, 0.5, "é", True, None], "€": 0})
        == '{"a":[1e+21,0.5,"é",true,null],"b":1,"€":0}'
    )
    digest, size = tool_digest({"name": "x", "inputSchema": {"type": "object"}})
    assert (
        size == len('{"inputSchema":{"type":"object"},"name":"x"}')
        and digest.startswith("sha256:")
        and len(digest) == 71
    )
