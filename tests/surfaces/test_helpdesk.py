"""The help-desk study, built with the kit and the engine alone: its scenario played on both its surfaces by
the script agent and, with the scripted model endpoint, by the real Claude Code; every check passes on the
consolidated surface and the unresolved-tickets trap is caught on the many-tool one."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Run, run_cli
from tests.helpers.agent_runs import cli_env
from tests.helpers.npm_packages import agent_clis_dir
from tests.helpers.readme import doc_text

SURFACES = ("helpdesk-tools", "helpdesk")
TRAP = "missing #13 Webhook retries twice (pending), #14 CSV export times out (on_hold), #15 Invoice address wrong (on_hold)"


def study(out: Path, agent: str, *extra: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Run:
    surfaces = [a for name in SURFACES for a in ("--surface", name)]
    return run_cli(
        "session", "run", "--agent", agent, *surfaces, "--scenario", "helpdesk-tasks", "--out", str(out), *extra,
        env=env, cwd=cwd, timeout=900,
    )  # fmt: skip


def results(out: Path, surface: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / "runs" / surface).glob("*/result.json"))]


def assert_trap_caught_only_where_it_is(out: Path) -> None:
    [desk] = results(out, "helpdesk")
    [tools] = results(out, "helpdesk-tools")
    for result in (desk, tools):
        assert result["status"] == "ok", result["error"]
        assert result["undelivered"] == []
    assert [c["name"] for c in desk["checks"] if not c["passed"]] == []
    assert [(c["name"], c["detail"]) for c in tools["checks"] if not c["passed"]] == [("open-tickets-listed", TRAP)]
    assert [r["tool"] for r in desk["refusals"]] == ["item_list"]
    assert [r["tool"] for r in tools["refusals"]] == ["ticket_hold"]


def test_the_script_agent_passes_every_check_on_the_desk_and_falls_into_the_trap_on_the_many_tools(
    tmp_path: Path,
) -> None:
    done = study(tmp_path / "study", "script")
    assert done.returncode == 0, done.stderr
    assert_trap_caught_only_where_it_is(tmp_path / "study")


@pytest.mark.parametrize("mode", ["full-list", "on-demand"])
def test_claude_with_the_scripted_model_does_the_same_on_both_surfaces(tmp_path: Path, mode: str) -> None:
    env = cli_env(agent_clis_dir(), tmp_path / "home")
    done = study(tmp_path / "study", f"claude:{mode}", "--model-endpoint", "scripted", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_trap_caught_only_where_it_is(tmp_path / "study")


def test_the_committed_study_is_what_the_script_agent_records(tmp_path: Path) -> None:
    committed = ROOT / "toolsurface" / "sessions" / "runs" / "helpdesk-script"
    done = study(tmp_path / "study", "script", "--runs", "3")
    assert done.returncode == 0, done.stderr
    for surface in SURFACES:
        fresh = [{k: r[k] for k in ("checks", "refusals", "calls")} for r in results(tmp_path / "study", surface)]
        kept = [{k: r[k] for k in ("checks", "refusals", "calls")} for r in results(committed, surface)]
        assert fresh == kept


def without_claude_code() -> str:
    """PATH without Claude Code: the committed report is the one a machine without it writes (with it, the
    report gains Claude Code's columns)."""
    return os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "claude").exists()
    )


def test_the_committed_report_is_regenerated_by_its_command_from_the_committed_study(tmp_path: Path) -> None:
    """Every table of reports/helpdesk, from the command docs/stubs.md gives (the made-at line aside)."""
    out = tmp_path / "report"
    done = run_cli(
        "report", "toolsurface/sessions/runs/helpdesk-script", "--surface", "helpdesk-tools", "--surface", "helpdesk",
        "--queries", "toolsurface/surfaces/helpdesk/queries.json",
        "--task", "toolsurface/surfaces/helpdesk/roundtrip.json", "--out", str(out), cwd=ROOT, timeout=300,
        # Nor in toolsurface's own cache, where `agents --install` (and the tests) put agent CLIs.
        env={"PATH": without_claude_code(), "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    committed = ROOT / "reports" / "helpdesk"
    tables = sorted(p.name for p in (committed / "tables").iterdir())
    assert tables == sorted(p.name for p in (out / "tables").iterdir())
    for name in tables:
        assert (out / "tables" / name).read_text(encoding="utf-8") == (committed / "tables" / name).read_text(
            encoding="utf-8"
        ), name
    fresh, kept = ((d / "report.md").read_text(encoding="utf-8").splitlines()[3:] for d in (out, committed))
    assert fresh == kept


def test_the_readme_shows_the_help_desk_as_measure_measures_it() -> None:
    done = run_cli("measure", *SURFACES, "--format", "json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = [
        f"| {s['name']} | {s['tools']} | {s['chars']:,} | {s['tokens']:,} | "
        f"+{s['growth']['tools']} tools, +{s['growth']['chars']:,} chars |"
        for s in json.loads(done.stdout)["surfaces"]
    ]
    readme = doc_text("docs/stubs.md").splitlines()
    start = readme.index("| Surface | Tools | Characters | Tokens | Growth by `macro` |")
    assert readme[start + 2 : start + 4] == rows
