"""The composite GitHub Action (action.yml): its steps' `run:` scripts, run here as the runner runs them (bash
-eo pipefail, the step's env with its expressions filled in, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files),
after a real install of this checkout into the action's own virtual environment."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT
from tests.helpers.budget_project import SURFACE, grow, make_project

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS: dict[str, dict[str, Any]] = {step["id"]: step for step in ACTION["runs"]["steps"]}


def evaluate(text: str, inputs: Mapping[str, str], runner_temp: Path) -> str:
    """The expressions the action uses: inputs.NAME, github.action_path, runner.temp, and `a || b`."""

    def value(name: str) -> str:
        name = name.strip()
        if name.startswith("inputs."):
            return inputs[name.removeprefix("inputs.")]
        return {"github.action_path": str(ROOT), "runner.temp": str(runner_temp)}[name]

    def expression(found: re.Match[str]) -> str:
        return next((v for v in (value(part) for part in found.group(1).split("||")) if v), "")

    return re.sub(r"\$\{\{(.*?)\}\}", expression, text)


@dataclass
class StepRun:
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


def run_step(step_id: str, inputs: Mapping[str, str], runner_temp: Path, workspace: Path, timeout: float) -> StepRun:
    step = STEPS[step_id]
    given = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | dict(inputs)
    env = {**os.environ, **{k: evaluate(str(v), given, runner_temp) for k, v in step.get("env", {}).items()}}
    outputs, summary = runner_temp / f"{step_id}.output", runner_temp / f"{step_id}.summary"
    outputs.write_text("", encoding="utf-8")
    summary.write_text("", encoding="utf-8")
    env |= {"GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(runner_temp)}
    # As on a runner: the install compiles nothing ahead, and a first run writes the bytecode of what it imports.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    script = runner_temp / f"{step_id}.sh"
    script.write_text(step["run"], encoding="utf-8")
    cwd = workspace / evaluate(step.get("working-directory", "."), given, runner_temp)
    done = subprocess.run(
        [step["shell"], "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    pairs = (line.partition("=") for line in outputs.read_text(encoding="utf-8").splitlines())
    return StepRun(
        done.returncode, done.stdout, done.stderr, {k: v for k, _, v in pairs}, summary.read_text(encoding="utf-8")
    )


@pytest.fixture(scope="module")
def runner_temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RUNNER_TEMP with toolsurface installed by the action's own install step."""
    temp = tmp_path_factory.mktemp("runner-temp")
    installed = run_step("install", {}, temp, ROOT, timeout=900)
    assert installed.returncode == 0, installed.stderr[-3000:]
    assert installed.stdout.strip().startswith("toolsurface, version ")
    return temp


def test_the_action_passes_inputs_to_its_scripts_only_through_the_environment() -> None:
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step["run"], step["name"]
        assert step["shell"] == "bash"
    assert ACTION["runs"]["using"] == "composite"
    assert {"target", "command", "url", "max-chars", "max-tokens", "snapshot", "fail-on"} <= set(ACTION["inputs"])


def test_the_fail_on_input_names_every_value_the_diff_takes() -> None:
    from toolsurface.harness.fail_on import FAIL_ON

    described = ACTION["inputs"]["fail-on"]["description"]
    assert [value for value in FAIL_ON if f'"{value}"' not in described] == []
    assert ACTION["inputs"]["fail-on"]["default"] == "breaking"


def test_a_second_install_in_one_job_reuses_the_environment(runner_temp: Path) -> None:
    again = run_step("install", {}, runner_temp, ROOT, timeout=120)
    assert again.returncode == 0 and again.stdout.startswith("toolsurface, version ")
    assert "pip" not in again.stderr


def test_the_action_writes_the_summary_table_and_passes_a_configured_list_within_budget(
    runner_temp: Path, tmp_path: Path
) -> None:
    project = make_project(tmp_path / "server", max_chars=7000)
    run = run_step("check", {}, runner_temp, project, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("::notice title=v2%3A tool list within budget::v2: 8 tools")
    assert "| surface | tools | chars | tokens | budget | result | largest tools |" in run.summary
    assert "| `v2` | 8 | " in run.summary and "| 7,000 chars | within |" in run.summary
    assert run.outputs == {"budget": "within", "diff": "skipped"}


def test_the_action_fails_over_budget_with_an_annotation_and_the_summary_table(
    runner_temp: Path, tmp_path: Path
) -> None:
    project = make_project(tmp_path / "server", max_chars=7000)
    grow(project / SURFACE, 500)
    run = run_step("check", {}, runner_temp, project, timeout=300)
    assert run.returncode == 1
    assert run.stdout.startswith("::error title=v2%3A tool list over budget::v2: 8 tools")
    assert "| 7,000 chars | **over** |" in run.summary
    assert run.outputs == {"budget": "over", "diff": "skipped"}
    override = run_step("check", {"max-chars": "100000"}, runner_temp, project, timeout=300)
    assert override.returncode == 0 and override.outputs["budget"] == "within"


def test_the_action_fails_a_breaking_change_against_the_committed_snapshot(runner_temp: Path, tmp_path: Path) -> None:
    project = make_project(tmp_path / "server", max_chars=100000, extra='snapshot = "tools.snapshot.json"\n')
    subprocess.run([sys.executable, "-m", "toolsurface", "snapshot"], cwd=project, check=True, capture_output=True)
    module = project / SURFACE
    module.write_text(
        module.read_text(encoding="utf-8").replace('"remote": prop("string", "Git remote URL"),', ""), encoding="utf-8"
    )
    run = run_step("check", {"snapshot": "configured"}, runner_temp, project, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "::error title=v2%3A project_store changed (BREAKING)::" in run.stdout
    assert "### Tool list diff: `tools.snapshot.json` → `v2`" in run.summary
    assert run.outputs == {"budget": "within", "diff": "failed"}
    any_change = run_step("check", {"snapshot": "configured", "fail-on": "any"}, runner_temp, project, timeout=300)
    assert any_change.outputs["diff"] == "failed"


def test_the_action_fails_a_changed_description_on_review_only(runner_temp: Path, tmp_path: Path) -> None:
    project = make_project(tmp_path / "server", max_chars=100000, extra='snapshot = "tools.snapshot.json"\n')
    subprocess.run([sys.executable, "-m", "toolsurface", "snapshot"], cwd=project, check=True, capture_output=True)
    grow(project / SURFACE, 40)
    breaking = run_step("check", {"snapshot": "configured"}, runner_temp, project, timeout=300)
    assert breaking.returncode == 0, breaking.stdout + breaking.stderr
    assert breaking.outputs == {"budget": "within", "diff": "passed"}
    review = run_step("check", {"snapshot": "configured", "fail-on": "review"}, runner_temp, project, timeout=300)
    assert review.returncode == 1, review.stdout + review.stderr
    assert review.outputs == {"budget": "within", "diff": "failed"}
    assert "REVIEW" in review.stdout


def test_the_action_lists_a_stdio_server_and_diffs_it_against_a_snapshot_file(
    runner_temp: Path, tmp_path: Path
) -> None:
    snapshot = tmp_path / "tools.json"
    subprocess.run(
        [sys.executable, "-m", "toolsurface", "snapshot", "v2", "-o", str(snapshot)], check=True, capture_output=True
    )
    inputs = {"command": f"{sys.executable} -m toolsurface serve v2", "max-chars": "100", "snapshot": "tools.json"}
    run = run_step("check", inputs, runner_temp, tmp_path, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "tool list over budget" in run.stdout and "no differences" in run.stdout
    assert run.outputs == {"budget": "over", "diff": "passed"}
