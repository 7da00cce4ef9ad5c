"""The configured targets compared with their snapshots (config.diff_targets) and linted (config.lint_targets) as
library calls: typed results, a live target's listing said once through `on_listed`, each finding placed in the
file its target comes from, and nothing printed. The server is real: tests/fixtures/servers/acme_help_desk.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.helpers.budget_project import HELP_DESK
from toolsurface.harness.config import ConfigError, diff_targets, lint_targets, read_config, server_script
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.live import snapshot_surface

DESK = f'command = ["{sys.executable}", "{HELP_DESK}"]\n'


def project(root: Path) -> Path:
    """A surface target with a snapshot of another list, and the help desk as a command target."""
    snapshot_surface("v2-first").write(root / "first.json")
    config = root / "toolsurface.toml"
    config.write_text(
        '[targets.v2]\nsurface = "v2"\nsnapshot = "first.json"\nmax-chars = 9000\n'
        f"[targets.desk]\n{DESK}max-chars = 9000\n",
        encoding="utf-8",
    )
    return config


def test_each_target_with_a_snapshot_is_compared_with_it_and_nothing_is_printed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where the snapshot's path is shown from
    listed: list[None] = []
    [diff] = diff_targets(project(tmp_path), on_listed=lambda: listed.append(None))
    assert (diff.a, diff.b) == ("first.json", "v2")
    assert diff.tools_before == diff.tools_after == 8 and diff.cls is not None
    assert listed == []  # a surface is built, not listed live
    assert capfd.readouterr() == ("", "")


def test_a_target_named_without_a_snapshot_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"targets\.desk\.snapshot: missing: diff compares a target with it"):
        diff_targets(project(tmp_path), ["desk"])


def test_a_server_targets_findings_are_placed_in_its_script_and_its_listing_is_said_once(tmp_path: Path) -> None:
    listed: list[None] = []
    config = read_config(project(tmp_path))
    result, items = lint_targets(config, on_listed=lambda: listed.append(None))
    assert [surface.file for surface in result.surfaces] == [None, HELP_DESK]
    assert len(items) == 2 and listed == [None]


def test_linting_with_no_configured_target_asks_for_a_surface() -> None:
    with pytest.raises(ToolsurfaceError, match=r"^give a SURFACE\.\.\., --url URL, or -- CMD ARGS\.\.\."):
        lint_targets(None)


def test_a_server_commands_script_is_its_first_argument_that_is_a_file_or_the_command_itself(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("", encoding="utf-8")
    (tmp_path / "run.js").write_text("", encoding="utf-8")
    assert server_script(["python", "-u", "server.py"], tmp_path) == tmp_path / "server.py"
    assert server_script(["./run.js", "--port", "1"], tmp_path) == tmp_path / "run.js"
    assert server_script(["npx", "-y", "some-server"], tmp_path) is None
    assert server_script(None, tmp_path) is None
