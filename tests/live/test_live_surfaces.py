"""A live server wherever a surface goes: measure, lint, findability, roundtrip, clients, diff (either side) and
new queries take `-- CMD ARGS...` and `--url URL`, listing once; and snapshot --check-stable lists a server over
two connections and twice in one, a finding per difference (a server that shuffles its tools per connection,
tests/fixtures/servers/shuffling.py; PyPI's mcp-server-time holds still)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.clients import env_with, newest, rows
from tests.helpers.errors import assert_one_line_error
from tests.helpers.live_servers import v2_over_http
from tests.helpers.paths import FIXTURES
from tests.helpers.probe_servers import called, notes_over_http, recorded_server
from tests.helpers.stubclient import stub_argv
from toolsurface.harness.live import compare_lists
from toolsurface.harness.measure import measure
from toolsurface.harness.surface import resolve

__all__ = ["newest", "notes_over_http", "v2_over_http"]  # the fixtures, used here

PY = sys.executable
SHUFFLING = FIXTURES / "servers" / "shuffling.py"
TIME = [PY, "-m", "mcp_server_time"]


def v2() -> list[str]:
    return stub_argv(["serve", "v2"])


# -- lists that hold still ------------------------------------------------------------------------------------


def test_check_stable_reports_a_server_that_shuffles_its_tools_per_connection(tmp_path: Path) -> None:
    out = tmp_path / "shuffled.json"
    run = run_cli("snapshot", "--check-stable", "-o", str(out), "--", PY, str(SHUFFLING), str(tmp_path / "c"))
    assert run.returncode == 1, run.stderr
    [line] = [line for line in run.stderr.splitlines() if line.startswith("shuffling:")]
    assert line.startswith("shuffling: not stable: listed on a second connection, the same tools in another order")
    stability = json.loads(out.with_suffix(".meta.json").read_text(encoding="utf-8"))["stability"]
    assert stability["stable"] is False and stability["lists"] == 3
    assert [f["kind"] for f in stability["findings"]] == ["order"]
    # Twice in one connection the order held: the difference is of the second connection only.
    assert stability["findings"][0]["when"] == "listed on a second connection"


def test_check_stable_finds_mcp_server_time_stable() -> None:
    run = run_cli("snapshot", "--check-stable", "--", *TIME, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "mcp-time: stable: the same tools in the same order, byte for byte, in 3 lists" in run.stderr
    assert [t["name"] for t in run.json()["tools"]] == ["get_current_time", "convert_time"]


def test_a_tool_added_or_changed_is_a_finding_of_its_own() -> None:
    a = [{"name": "x", "description": "X."}, {"name": "y", "description": "Y."}]
    changed = [{"name": "x", "description": "X!"}, {"name": "y", "description": "Y."}, {"name": "z"}]
    found = compare_lists(a, changed, "listed again")
    assert [(f.kind, f.tool, f.text) for f in found] == [
        ("added", "z", "z was added"),
        ("changed", "x", "x's text changed at description (31 -> 31 chars)"),
    ]
    assert compare_lists(a, list(a), "listed again") == []
    [moved] = compare_lists(a, a[::-1], "listed again")
    assert moved.kind == "order" and moved.tool is None


def test_check_stable_is_for_a_live_server() -> None:
    run = run_cli("snapshot", "v2", "--check-stable")
    assert run.returncode == 2 and "--check-stable lists a live server" in run.stderr


def test_ttl_and_cache_scope_are_recorded_where_the_server_sends_them(tmp_path: Path) -> None:
    modern, legacy = tmp_path / "modern.json", tmp_path / "legacy.json"
    assert run_cli("snapshot", "--protocol", "2026-07-28", "-o", str(modern), "--", *v2()).returncode == 0
    assert run_cli("snapshot", "-o", str(legacy), "--", *v2()).returncode == 0
    meta = json.loads(modern.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["list_cache"] == {"ttlMs": 0, "cacheScope": "private"}
    assert "list_cache" not in json.loads(legacy.with_suffix(".meta.json").read_text(encoding="utf-8"))


# -- every verb takes a live server ---------------------------------------------------------------------------


def test_measure_per_tool_measures_a_live_stdio_server_as_its_snapshot() -> None:
    run = run_cli("measure", "--per-tool", "--format", "json", "--", *v2())
    assert run.returncode == 0, run.stderr
    [surface] = run.json()["surfaces"]
    assert surface["name"] == "toolsurface-v2" and surface["source"] == " ".join(v2())
    expected = measure([resolve("v2")], growth=False).surfaces[0]
    assert [(t["name"], t["chars"]) for t in surface["per_tool"]] == [(t.name, t.chars) for t in expected.per_tool]
    both = run_cli("measure", "v2", "--no-growth", "--format", "json", "--", *v2()).json()["surfaces"]
    assert [s["name"] for s in both] == ["v2", "toolsurface-v2"] and both[0]["chars"] == both[1]["chars"]


def test_measure_takes_a_live_http_server(v2_over_http: str) -> None:
    run = run_cli("measure", "--format", "json", "--url", v2_over_http, "--header", "X-Test: 1")
    assert run.returncode == 0, run.stderr
    [surface] = run.json()["surfaces"]
    assert surface["source"] == v2_over_http and surface["chars"] == measure([resolve("v2")]).surfaces[0].chars


def test_lint_finds_on_a_live_server_what_it_finds_on_its_surface(v2_over_http: str) -> None:
    def findings(*args: str) -> list[tuple[str, list[str], list[str]]]:
        run = run_cli("lint", "--format", "json", *args)
        assert run.returncode == 0, run.stderr
        [surface] = run.json()["surfaces"]
        return [(f["rule"], f["tools"], f["parameters"]) for f in surface["findings"]]

    # The same findings, but where a surface of ours is judged by the kinds it is known to serve: a live server's
    # kinds are only what its kind parameters enumerate (TS202), and its references are kept apart by their names
    # (TS101).
    on_surface = findings("before-v2")
    live = findings("--", *stub_argv(["serve", "before-v2"]))
    assert on_surface and all(f in on_surface for f in live)
    assert {f[0] for f in on_surface if f not in live} <= {"TS101", "TS202"}
    assert findings("v2") == findings("--url", v2_over_http)
    assert_one_line_error(run_cli("lint"), "give a SURFACE..., --url URL, or -- CMD")
    assert_one_line_error(run_cli("lint", "v2", "--header", "X: 1"), "--header goes with a live server")


def test_diff_compares_a_snapshot_with_the_live_server_on_either_side(tmp_path: Path, v2_over_http: str) -> None:
    snap = tmp_path / "v2-first.json"
    assert run_cli("snapshot", "v2-first", "-o", str(snap)).returncode == 0
    forward = run_cli("diff", str(snap), "--format", "json", "--", *v2())
    assert forward.returncode == 0, forward.stderr
    data = forward.json()
    assert (data["a"], data["b"]) == (str(snap), "toolsurface-v2") and data["class"] == "NON_BREAKING"
    backward = run_cli("diff", "-", str(snap), "--format", "json", "--url", v2_over_http).json()
    assert (backward["a"], backward["b"]) == ("toolsurface-v2", str(snap))
    assert backward["chars"]["delta"] == -data["chars"]["delta"]
    assert_one_line_error(run_cli("diff", "--", *v2()), "give the surface or snapshot to compare the live server with")
    assert_one_line_error(run_cli("diff", "-", "v2"), "- stands for the live server")


def test_findability_on_a_surface_of_no_study_says_so_instead_of_using_another_studys_queries(
    tmp_path: Path,
) -> None:
    snap = tmp_path / "mine.json"
    assert run_cli("snapshot", "v2", "-o", str(snap)).returncode == 0
    assert_one_line_error(run_cli("findability", str(snap)), f"{snap} has no queries of its own", "--queries FILE")
    assert_one_line_error(
        run_cli("findability", "--", *v2()), "toolsurface-v2 has no queries of its own", "toolsurface new queries"
    )
    assert_one_line_error(run_cli("roundtrip", "--", *v2()), "has no round-trip task of its own", "--task FILE")
    assert_one_line_error(run_cli("findability", "v2", "helpdesk"), "belong to different studies")
    assert run_cli("findability", "v2", "before-v2", "--format", "json").returncode == 0


def test_new_queries_writes_drafts_that_find_each_tool_and_findability_takes_them(tmp_path: Path) -> None:
    path = tmp_path / "queries.json"
    made = run_cli("new", "queries", "-o", str(path), "--", *v2())
    assert made.returncode == 0, made.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["queries"]) == 8 and all(q["draft"] is True for q in data["queries"])
    first = data["queries"][0]
    assert first["query"].startswith("recall: ") and first["expected"] == {"toolsurface-v2": "recall"}
    found = run_cli("findability", "--queries", str(path), "--format", "json", "--", *v2())
    assert found.returncode == 0, found.stderr
    assert "8 of 8 queries are still drafts" in found.stderr
    [surface] = found.json()["surfaces"]
    assert all(row["rank"] == 1 for row in surface["queries"])
    assert_one_line_error(run_cli("new", "queries", "v2", "-o", str(path)), str(path), "exists")
    other = tmp_path / "v2.json"
    assert run_cli("new", "queries", "v2", "-o", str(other)).returncode == 0
    assert json.loads(other.read_text(encoding="utf-8"))["queries"][0]["expected"] == {"v2": "recall"}


def test_clients_serves_a_live_servers_list_to_each_client(newest: Path, tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    done = run_cli(
        "clients", "--client", "claude:full-list", "--format", "json", "--", *recorded_server(record),
        env=env_with(tmp_path / "home", newest), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    [row] = rows(done)
    assert row["status"] == "ok" and row["surface"] == "notes" and row["shown"]["tools"] == 5
    # Listed once, served as its snapshot: the server itself is never called.
    assert called(record) == []


def test_clients_takes_a_live_http_server(newest: Path, notes_over_http: str, tmp_path: Path) -> None:
    done = run_cli(
        "clients", "--client", "claude:full-list", "--format", "json", "--url", notes_over_http,
        env=env_with(tmp_path / "home", newest), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    [row] = rows(done)
    assert row["status"] == "ok" and row["shown"]["tools"] == 5
