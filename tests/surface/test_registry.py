"""A surface is a name, a .py module or a tools/list snapshot, and outside packages register their own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_cli_process
from toolsurface.harness.measure import list_surface
from toolsurface.harness.surface import Snapshot, SurfaceDefinition, bundled_definitions, known_names, resolve
from toolsurface.stubs.serve import surface_for_serving
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER

MODULE = '''"""Two tools for a tiny notes server."""
import mcp.types as types
from toolsurface.harness.surface import Kind

KINDS = [Kind(name="note", plural="notes")]
GROWTH_KIND = Kind(name="tag", plural="tags")


def build(kinds):
    tools = [types.Tool(name="ping", description="Answer pong.", input_schema={"type": "object"})]
    for kind in kinds:
        tools.append({"name": f"{kind.name}_list", "description": f"List {kind.plural}.",
                      "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer"}}}})
    return tools
'''


def test_bundled_surfaces_come_through_the_entry_point_group() -> None:
    assert known_names()[: len(BUNDLED_ORDER)] == list(BUNDLED_ORDER)
    assert [d.name for d in bundled_definitions()] == list(BUNDLED_ORDER)
    assert all(d.source.startswith("entry point toolsurface.surfaces.conderis.") for d in bundled_definitions())


def test_list_shows_the_bundled_surfaces() -> None:
    run = run_cli("list", "--format", "json")
    assert run.returncode == 0, run.stderr
    rows = run.json()["surfaces"]
    assert [r["name"] for r in rows] == [*BUNDLED_ORDER, "helpdesk", "helpdesk-tools"]
    assert (
        rows[3]["kinds"] == ["task", "memory", "page", "proposal", "instructions"]
        and rows[3]["growth_kind"] == "commit"
    )
    table = run_cli("list")
    assert table.returncode == 0 and "v2-first" in table.stdout


def test_a_python_module_is_a_surface_with_its_kinds(tmp_path: Path) -> None:
    path = tmp_path / "notes.py"
    path.write_text(MODULE, encoding="utf-8")
    item = resolve(str(path))
    assert isinstance(item, SurfaceDefinition) and item.name == "notes"
    assert item.purpose == "Two tools for a tiny notes server."
    run = run_cli("measure", str(path), "--format", "json")
    assert run.returncode == 0, run.stderr
    s = run.json()["surfaces"][0]
    assert s["name"] == "notes" and s["tools"] == 2
    assert s["growth"]["kind"] == "tag" and s["growth"]["tools"] == 1
    assert s["growth"]["added_tools"] == ["tag_list"]


def test_a_snapshot_is_a_surface_measured_as_recorded(tmp_path: Path) -> None:
    measured = run_cli("measure", "v2", "--no-growth", "--format", "json").json()["surfaces"][0]
    # Key order as another server sent it, "type" first: the snapshot is measured as it was received.
    tools = [
        {
            "name": "b",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
            "description": "é",
        },
        {"name": "a", "inputSchema": {"type": "object"}},
    ]
    path = tmp_path / "server.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    path.with_name("server.meta.json").write_text(
        json.dumps({"protocol_version": "2026-07-28", "server": {"name": "other", "version": "1.2"}}),
        encoding="utf-8",
    )
    item = resolve(str(path))
    assert isinstance(item, Snapshot) and item.protocol_version == "2026-07-28"
    run = run_cli("measure", str(path), "--format", "json")
    assert run.returncode == 0, run.stderr
    s = run.json()["surfaces"][0]
    expected = json.dumps(tools, separators=(",", ":"), ensure_ascii=False)
    assert s["chars"] == len(expected) and s["protocol_version"] == "2026-07-28"
    assert s["growth"] is None and s["by_kinds"] == [] and measured["name"] == "v2"


@pytest.mark.anyio
async def test_a_snapshot_can_be_served_and_lists_its_tools(tmp_path: Path) -> None:
    tools = [{"name": "a", "description": "First.", "inputSchema": {"type": "object"}}]
    path = tmp_path / "snap.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    item = resolve(str(path))
    assert isinstance(item, Snapshot)
    wire = await list_surface(surface_for_serving(item))
    assert wire.tools == tools


def test_an_outside_package_registers_a_surface_by_entry_point(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "outside_surfaces").mkdir(parents=True)
    (site / "outside_surfaces" / "__init__.py").write_text(MODULE, encoding="utf-8")
    dist = site / "outside_surfaces-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-surfaces\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[toolsurface.surfaces]\nnotes = outside_surfaces\n", encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    # PYTHONPATH is read as an interpreter starts: the process is the subject.
    listed = run_cli_process("list", "--format", "json", env=env)
    assert listed.returncode == 0, listed.stderr
    assert [r["name"] for r in listed.json()["surfaces"]] == [*BUNDLED_ORDER, "helpdesk", "helpdesk-tools", "notes"]
    run = run_cli_process("budget", "notes", "--max-chars", "1000", env=env)
    assert run.returncode == 0 and run.stdout.startswith("notes: 2 tools"), run.stderr
