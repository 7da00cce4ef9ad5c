"""`toolsurface new surface` and `toolsurface check`: a public server's snapshot becomes a surface module that
lists byte for byte what the server listed, with a stub whose every tool answers "not written yet"; what
is missing is reported, and a stub that cannot be served is one line and exit 2. The module imports
whatever the snapshot's file is called."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.stubclient import Finished, stdio_session


@pytest.fixture(scope="module")
def time_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("time") / "time.json"
    done = run_cli("snapshot", "-o", str(path), "--", sys.executable, "-m", "mcp_server_time")
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def started(time_snapshot: Path, tmp_path: Path) -> Path:
    done = run_cli("new", "surface", "time", "--from", str(time_snapshot), "--out", str(tmp_path / "mine"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {tmp_path / 'mine' / 'time.py'}, ")
    return tmp_path / "mine"


def compact(path: Path) -> str:
    return json.dumps(json.loads(path.read_text(encoding="utf-8"))["tools"], separators=(",", ":"), ensure_ascii=False)


def test_the_module_written_from_a_snapshot_lists_it_byte_for_byte(time_snapshot: Path, started: Path) -> None:
    again = started.parent / "again.json"
    assert run_cli("snapshot", str(started / "time.py"), "-o", str(again)).returncode == 0
    assert compact(again) == compact(time_snapshot)
    measured = [
        json.loads(run_cli("measure", spec, "--format", "json", "--no-growth").stdout)
        for spec in (str(time_snapshot), str(started / "time.py"))
    ]
    figures = [[(s["tools"], s["chars"], s["tokens"]) for s in m["surfaces"]] for m in measured]
    assert figures[0] == figures[1] and figures[0][0][0] == 2


@pytest.mark.anyio
async def test_every_tool_of_the_new_stub_answers_not_written_yet(started: Path, tmp_path: Path) -> None:
    finished: list[Finished] = []
    async with stdio_session(str(started / "time.py"), tmp_path, finished) as stub:
        now = await stub.refused("get_current_time", timezone="Europe/Oslo")
        convert = await stub.refused("convert_time", source_timezone="UTC", time="10:00", target_timezone="Asia/Tokyo")
    assert (now, convert) == ("get_current_time is not written yet", "convert_time is not written yet")
    assert [r.allowed for r in finished[0].log if r.is_call] == [["not written yet"], ["not written yet"]]


def test_check_names_the_handlers_not_written_and_the_fixture_keys_nothing_reads(started: Path) -> None:
    done = run_cli("check", str(started / "time.py"))
    assert (done.returncode, done.stdout.splitlines()[1:]) == (
        1,
        [
            "tools without handlers: -",
            "handlers not written yet: get_current_time, convert_time",
            "handlers without tools: -",
            "fixture keys no handler reads: items",
        ],
    )


def test_a_written_handler_is_no_longer_reported_and_one_for_a_tool_the_surface_lacks_stops_serving(
    started: Path,
) -> None:
    handlers = started / "time_handlers.py"
    text = handlers.read_text(encoding="utf-8").replace(
        'raise not_written("get_current_time")', 'return {"timezone": args.str("timezone"), "zones": project["items"]}'
    )
    extra = '\n\n@handlers.tool("get_weather")\ndef get_weather(project, args):\n    return 1\n'
    handlers.write_text(text + extra, encoding="utf-8")
    checked = run_cli("check", str(started / "time.py"))
    served = run_cli("serve", str(started / "time.py"))
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[2:] == [
        "handlers not written yet: convert_time",
        "handlers without tools: get_weather",
        "fixture keys no handler reads: -",
    ]
    assert served.returncode == 2
    assert served.stderr == (
        f"toolsurface: {started / 'time.py'}: a handler for 'get_weather', a tool the surface lacks; "
        "tools: get_current_time, convert_time\n"
    )


def test_a_fixture_that_fails_its_schema_is_one_line_naming_the_file(started: Path) -> None:
    fixture = started / "time.fixture.json"
    fixture.write_text('{"items": "none"}', encoding="utf-8")
    for args in (["check"], ["serve"]):
        done = run_cli(*args, str(started / "time.py"))
        assert done.returncode == 2
        assert done.stderr == (
            f"toolsurface: {fixture}: items: 'none' is not of type 'array' (against the surface's FIXTURE_SCHEMA)\n"
        )


def test_a_refusal_without_allowed_values_is_one_line_naming_the_module_and_line(started: Path) -> None:
    handlers = started / "time_handlers.py"
    text = handlers.read_text(encoding="utf-8").replace(
        'raise not_written("convert_time")', 'raise Refusal("cannot convert")'
    )
    handlers.write_text(
        text.replace("from toolsurface.stubs.kit import", "from toolsurface.stubs.kit import Refusal,"),
        encoding="utf-8",
    )
    done = run_cli("check", str(started / "time.py"))
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "cannot convert" in t)
    assert done.returncode == 2
    assert (
        done.stderr
        == f"toolsurface: {handlers}:{line}: a refusal without allowed values; name what is allowed instead\n"
    )


def test_a_surface_without_a_snapshot_starts_from_one_tool_and_no_file_is_replaced(tmp_path: Path) -> None:
    first = run_cli("new", "surface", "orders", "--out", str(tmp_path))
    again = run_cli("new", "surface", "orders", "--out", str(tmp_path))
    bad = run_cli("new", "surface", "Orders!", "--out", str(tmp_path))
    listed = run_cli("measure", str(tmp_path / "orders.py"), "--format", "json", "--no-growth")
    assert first.returncode == 0, first.stderr
    assert json.loads(listed.stdout)["surfaces"][0]["tools"] == 1
    assert (again.returncode, again.stderr) == (
        2,
        f"toolsurface: {tmp_path / 'orders.py'}: exists; new surface replaces no file\n",
    )
    assert bad.returncode == 2 and "surface name 'Orders!'" in bad.stderr
    scenario = json.loads((tmp_path / "orders.scenario.json").read_text(encoding="utf-8"))
    assert (scenario["format"], scenario["name"], scenario["checks"]) == ("toolsurface-scenario/1", "orders", [])


@pytest.mark.parametrize(
    "surface",
    [
        "helpdesk",
        "helpdesk-tools",
        "toolsurface/surfaces/helpdesk/desk.py",
        "v2",
        "before-v2",
        "consistent",
        "v2-first",
        "v2-live",
    ],
)
def test_the_bundled_surfaces_made_with_the_kit_check_clean(surface: str) -> None:
    done = run_cli("check", surface, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[1:] == [
        "tools without handlers: -",
        "handlers not written yet: -",
        "handlers without tools: -",
        "fixture keys no handler reads: -",
    ]


def test_the_module_written_from_a_snapshot_advertises_its_instructions_prompts_and_resources(tmp_path: Path) -> None:
    server = [sys.executable, str(ROOT / "tests" / "fixtures" / "servers" / "instructed.py")]
    snapshot = tmp_path / "notes.json"
    assert run_cli("snapshot", "-o", str(snapshot), "--", *server).returncode == 0
    assert run_cli("new", "surface", "notes", "--from", str(snapshot), "--out", str(tmp_path / "new")).returncode == 0
    measured = run_cli("measure", str(tmp_path / "new" / "notes.py"), str(snapshot), "--format", "json", "--no-growth")
    module, recorded = measured.json()["surfaces"]
    assert module["parts"] == recorded["parts"] and module["total_chars"] == recorded["total_chars"]
    # The fixture server declares no skills extension; everything else it serves is advertised.
    assert {p["part"]: p["advertised"] for p in module["parts"]} == {
        "instructions": True, "prompts": True, "resources": True, "resourceTemplates": True, "skills": False,
    }  # fmt: skip


def test_a_snapshot_whose_name_holds_triple_quotes_gives_a_module_that_imports(tmp_path: Path) -> None:
    snapshot = tmp_path / 'x""".json'
    assert run_cli("snapshot", "v2", "-o", str(snapshot)).returncode == 0
    made = run_cli("new", "surface", "demo", "--from", str(snapshot), "--out", str(tmp_path / "demo"))
    assert made.returncode == 0, made.stderr
    measured = run_cli("measure", str(tmp_path / "demo" / "demo.py"), "--no-growth", "--format", "json")
    assert measured.returncode == 0, measured.stderr
    assert measured.json()["surfaces"][0]["tools"] == 8
