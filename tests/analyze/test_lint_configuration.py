"""A client configuration's servers linted as a library call (analyze.lint.lint_configuration): each server under
its own name, and the clashes among them, with the live server given beside them, as one more surface named
after the configuration's file."""

from __future__ import annotations

from pathlib import Path

from toolsurface.harness.analyze.lint import lint_configuration
from toolsurface.harness.live import snapshot_surface
from toolsurface.harness.surface import Snapshot, resolve


def servers(folder: Path) -> list[Snapshot]:
    """v2 and v2-first as a configuration's two servers (they share most of their tools' names)."""
    found = []
    for name in ("v2", "v2-first"):
        snapshot_surface(name).write(folder / f"{name}.json")
        item = resolve(str(folder / f"{name}.json"))
        assert isinstance(item, Snapshot)
        found.append(item)
    return found


def test_the_clashes_among_a_configurations_servers_are_one_more_surface_named_after_its_file(tmp_path: Path) -> None:
    result = lint_configuration([resolve("v2")], servers(tmp_path), tmp_path / ".mcp.json")
    assert [surface.name for surface in result.surfaces] == ["v2", "v2", "v2-first", ".mcp.json (all servers)"]
    together = result.surfaces[-1]
    assert together.file == tmp_path / ".mcp.json"
    assert "TS401" in {finding.rule_id for finding in together.findings}  # a tool name two servers share
    assert len(together.tools) == 16


def test_a_given_server_the_configuration_also_names_is_among_the_servers_clashing(tmp_path: Path) -> None:
    given = resolve("helpdesk")
    alone = lint_configuration([given], servers(tmp_path), tmp_path / ".mcp.json")
    beside = lint_configuration([given], servers(tmp_path), tmp_path / ".mcp.json", given=[given])
    assert len(beside.surfaces[-1].tools) == len(alone.surfaces[-1].tools) + len(beside.surfaces[0].tools)
