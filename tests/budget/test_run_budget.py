"""One request, one outcome (harness.budget.run_budget): every path of `budget` (one list, a client's
configuration, the configured targets and their configurations, the ratchet) comes back as a typed outcome with
its exit code, an error after something was found kept beside it, and nothing printed. The servers are real: a
designer's own (tests/fixtures/servers/acme_help_desk.py) and PyPI's mcp-server-time."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers.budget_project import HELP_DESK, make_project
from toolsurface.harness.budget import (
    BudgetLimits,
    BudgetRequest,
    ClientConfiguration,
    ConfiguredTargets,
    OneList,
    RatchetRequest,
    run_budget,
)
from toolsurface.harness.config import ConfigError
from toolsurface.harness.counters import parse_counters
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.live import LiveServerOptions, StdioServer
from toolsurface.harness.mcp_config import ConfigListing
from toolsurface.harness.measure import ListCounter

LIVE = LiveServerOptions()
DESK = {"command": sys.executable, "args": [str(HELP_DESK)]}
TIME = {"command": sys.executable, "args": ["-m", "mcp_server_time"]}
GONE = {"command": "no-such-program-of-ours"}


def mcp_config(path: Path, **servers: dict[str, object]) -> Path:
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def test_one_list_within_its_budget_is_exit_0_and_over_it_exit_1() -> None:
    within = run_budget(BudgetRequest(OneList("v2"), LIVE, BudgetLimits(max_chars=10**6)))
    over = run_budget(BudgetRequest(OneList("v2"), LIVE, BudgetLimits(max_chars=100)))
    assert (within.exit_code, over.exit_code) == (0, 1)
    assert [item.result.surface for item in over.lists] == ["v2"]
    assert over.lists[0].result.chars_over > 0 and over.error is None
    assert over.targets == () and over.configurations == () and over.ratchet is None


def test_a_live_servers_list_is_held_with_where_it_came_from_and_nothing_is_printed(
    capfd: pytest.CaptureFixture[str],
) -> None:
    server = StdioServer(argv=(sys.executable, str(HELP_DESK)))
    outcome = run_budget(BudgetRequest(OneList(None, server), LIVE, BudgetLimits(max_chars=10**6)))
    assert outcome.exit_code == 0
    assert outcome.lists[0].source is not None and str(HELP_DESK) in outcome.lists[0].source
    assert capfd.readouterr() == ("", "")


def test_the_configured_targets_come_back_with_their_targets_and_the_configuration(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=100)
    outcome = run_budget(BudgetRequest(ConfiguredTargets(project / "pyproject.toml"), LIVE))
    assert outcome.exit_code == 1
    assert outcome.config is not None and outcome.config.path == project / "pyproject.toml"
    assert [item.target.max_chars for item in outcome.targets] == [100]
    assert [item.result for item in outcome.lists] == [item.result for item in outcome.targets]
    given = run_budget(BudgetRequest(ConfiguredTargets(project / "pyproject.toml"), LIVE, BudgetLimits(10**6)))
    assert given.exit_code == 0 and given.lists[0].result.max_chars == 10**6


def test_an_error_before_anything_is_found_is_raised(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        run_budget(BudgetRequest(ConfiguredTargets(tmp_path / "toolsurface.toml"), LIVE))


def test_the_ratchet_refusing_a_list_over_its_budget_is_exit_1_and_changes_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=100)
    before = (project / "pyproject.toml").read_bytes()
    outcome = run_budget(
        BudgetRequest(ConfiguredTargets(project / "pyproject.toml"), LIVE, ratchet=RatchetRequest("shorter"))
    )
    assert outcome.ratchet is not None and [item.target.name for item in outcome.ratchet.refused] != []
    assert outcome.exit_code == 1
    assert (project / "pyproject.toml").read_bytes() == before


def test_the_ratchet_lowering_a_budget_is_exit_0_with_its_step_written(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=10**6)
    outcome = run_budget(
        BudgetRequest(ConfiguredTargets(project / "pyproject.toml"), LIVE, ratchet=RatchetRequest("shorter"))
    )
    assert outcome.exit_code == 0 and outcome.ratchet is not None
    [step] = outcome.ratchet.steps
    assert step.direction == "lower" and step.max_chars[1] == outcome.lists[0].result.chars
    written = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    assert written["tool"]["toolsurface"]["max-chars"] == step.max_chars[1]


def test_a_ratchet_the_file_refuses_keeps_the_targets_found_and_the_error(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=10**6)
    outcome = run_budget(
        BudgetRequest(ConfiguredTargets(project / "pyproject.toml"), LIVE, ratchet=RatchetRequest(" "))
    )
    assert outcome.exit_code == 2 and outcome.ratchet is None
    assert isinstance(outcome.error, ToolsurfaceError) and "--reason TEXT must say why" in str(outcome.error)
    assert [item.result.surface for item in outcome.lists] != []


def test_a_client_configuration_with_a_server_it_could_not_list_is_exit_2_unless_it_keeps_going(
    tmp_path: Path,
) -> None:
    listing = ConfigListing(mcp_config(tmp_path / ".mcp.json", desk=DESK, gone=GONE))
    stopped = run_budget(BudgetRequest(ClientConfiguration(listing), LIVE, BudgetLimits(max_tokens=5000)))
    assert stopped.exit_code == 2 and "what the servers cost together is not known" in str(stopped.error)
    [held] = stopped.configurations
    assert held.within and [row.name for row in held.unlisted] == ["gone"]
    going = run_budget(BudgetRequest(ClientConfiguration(listing, keep_going=True), LIVE, BudgetLimits(max_tokens=5)))
    assert going.error is None and going.exit_code == 1


def test_the_configurations_of_a_project_are_held_after_its_targets_until_one_cannot_be_measured(
    tmp_path: Path,
) -> None:
    mcp_config(tmp_path / ".mcp.json", desk=DESK, time=TIME)
    mcp_config(tmp_path / "gone.json", gone=GONE)
    (tmp_path / "toolsurface.toml").write_text(
        '[targets.a]\nsurface = "v2"\nmax-chars = 100000\n'
        '[targets.both]\nmcp-config = ".mcp.json"\nmax-tokens = 5000\nmax-server-tokens = 400\n'
        '[targets.g]\nmcp-config = "gone.json"\nmax-tokens = 5000\n'
        '[targets.last]\nmcp-config = ".mcp.json"\nmax-tokens = 5000\n',
        encoding="utf-8",
    )
    outcome = run_budget(BudgetRequest(ConfiguredTargets(tmp_path / "toolsurface.toml"), LIVE))
    assert [item.result.surface for item in outcome.lists] == ["a"]
    assert [held.name for held in outcome.configurations] == ["both"]
    assert not outcome.configurations[0].within  # time's own list is over 400 tokens
    assert outcome.exit_code == 2 and "no server could be listed" in str(outcome.error)
    named = run_budget(BudgetRequest(ConfiguredTargets(tmp_path / "toolsurface.toml", ("a", "last")), LIVE))
    assert [held.name for held in named.configurations] == ["last"] and named.exit_code == 0
    # The configurations' counters are made when the targets are done: their mistake is kept beside them.
    miscounted = ConfiguredTargets(tmp_path / "toolsurface.toml", ("a", "last"), set_counters=no_such_counter)
    kept = run_budget(BudgetRequest(miscounted, LIVE))
    assert kept.exit_code == 2 and isinstance(kept.error, ToolsurfaceError)
    assert [item.result.surface for item in kept.lists] == ["a"] and kept.configurations == ()


def no_such_counter() -> list[ListCounter]:
    parse_counters("no-such-counter")
    return []
