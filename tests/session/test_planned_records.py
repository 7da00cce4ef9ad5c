"""A surface travels as its planned record: a server listed here is planned from its list in memory, served from
that list written beside the sessions that serve it, and no temporary file stands for it, nor is any path
recognised by a string in it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.paths import FIXTURES
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.live import StdioServer, take_snapshot
from toolsurface.harness.session.plan import SERVED, place_listed, plan_listed, plan_surface
from toolsurface.harness.surface import load_snapshot
from toolsurface.stubs.digest import tools_digest

HELP_DESK = FIXTURES / "servers" / "acme_help_desk.py"


def test_no_module_names_a_temporary_folder_for_a_listed_server_or_finds_one_by_its_name() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "toolsurface").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"toolsurface-(live|beside|suggest)-", line)
    ]
    assert found == []


def test_a_listed_server_is_planned_from_memory_and_served_from_its_list_placed_beside_the_sessions(
    tmp_path: Path,
) -> None:
    taken = take_snapshot(None, StdioServer(argv=[sys.executable, str(HELP_DESK)]))
    planned = plan_listed(taken)
    assert (planned.spec, planned.name, planned.server_name) == ("", "acme-help-desk", "acme-help-desk")
    with pytest.raises(ToolsurfaceError, match="served once placed"):
        planned.serve_args()
    folder = tmp_path / SERVED
    [placed, named] = place_listed([planned, plan_surface("v2")], folder)
    assert named.spec == "v2" and placed.spec.startswith(str(folder))
    served = load_snapshot(Path(placed.spec))
    # Its stub serves the list planned, by its own name.
    assert tools_digest(served.tools) == placed.sha256 and served.name == planned.name
    assert placed.serve_args()[:2] == ["serve", placed.spec]


def test_a_listed_server_with_a_given_name_is_named_so() -> None:
    taken = take_snapshot(None, StdioServer(argv=[sys.executable, str(HELP_DESK)]))
    assert plan_listed(taken, "desk").server_name == "desk"


def test_findability_of_a_live_server_names_it_by_its_own_name_when_it_has_no_queries() -> None:
    refused = run_cli("findability", "--", sys.executable, str(HELP_DESK))
    assert refused.returncode == 2 and "acme-help-desk has no queries of its own" in refused.stderr
