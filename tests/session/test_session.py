"""Session runs with the scripted agent: run directories, scoring into the seed's table, shards, replay."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers.waiting import wait_until
from toolsurface.harness.scenario import CheckInput, evaluate, load_scenario
from toolsurface.harness.session.record import read_run
from toolsurface.harness.session.score import pass_hat_k, runs_needed


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("study")
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", "before-v2", "--surface", "v2-first", "--surface", "v2",
        "--runs", "3", "--jobs", "2", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "| Surface | Runs | Status | Calls per run | Refused calls | Undelivered calls |" in run.stdout
    return out, json.loads((out / "study.json").read_text(encoding="utf-8"))


def surface(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in data["surfaces"] if s["surface"] == name)


def test_the_study_reproduces_the_seed_sessions(study: tuple[Path, dict[str, Any]]) -> None:
    _, data = study
    assert data["scenario"] == "six-tasks" and data["agent"] == "script"
    assert [s["surface"] for s in data["surfaces"]] == ["before-v2", "v2-first", "v2"]
    before, first, final = surface(data, "before-v2"), surface(data, "v2-first"), surface(data, "v2")
    assert all(s["runs"] == 3 for s in (before, first, final))
    assert [r["tool"] for r in before["refused"]] == ["memory_store"]
    assert [r["tool"] for r in first["refused"]] == ["item_action"] and "version" in first["refused"][0]["message"]
    open_tasks = [f for f in first["outcome_failures"] if f["check"] == "open-tasks-listed"]
    assert len(open_tasks) == 1 and open_tasks[0]["runs"] == 3 and "#14" in open_tasks[0]["detail"]
    assert not [r for r in first["refused"] if r["tool"] == "item_list"]
    assert [r["tool"] for r in final["refused"]] == ["item_list"]
    assert "includeClosed" in final["refused"][0]["message"] and final["refused"][0]["corrected_next"] == 3
    assert (
        final["outcome_failures"] == []
        and final["pass_at_1"] == 1.0
        and final["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    )
    assert before["refused_per_run"] == [1, 1, 1] and len(before["calls_per_run"]) == 3
    blocked = [f for f in before["outcome_failures"] if f["check"] == "blocked-with-reason"]
    assert blocked and "written into its description" in blocked[0]["detail"]


def test_each_run_has_its_own_directory_with_spec_calls_transcript_and_result(
    study: tuple[Path, dict[str, Any]],
) -> None:
    out, _ = study
    run_dirs = sorted((out / "runs" / "v2").iterdir())
    assert [d.name for d in run_dirs] == ["script-full-list-r001", "script-full-list-r002", "script-full-list-r003"]
    for run_dir in run_dirs:
        assert {"spec.json", "calls.jsonl", "transcript.jsonl", "result.json", "state.json"} <= {
            p.name for p in run_dir.iterdir()
        }
        record = read_run(run_dir)
        assert record.spec.surface == "v2" and record.spec.agent == "script" and len(record.spec.surface_sha256) == 64
        assert record.spec.packages["mcp"] and record.spec.scenario == "six-tasks"
        assert record.result.status == "ok" and record.result.passed
        assert [c.name for c in record.result.checks] == [
            "subtask-created", "summary-changed", "blocked-with-reason", "open-tasks-listed", "section-read", "proposal-approved",
        ]  # fmt: skip
        calls = [json.loads(line) for line in (run_dir / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
        assert record.result.calls == sum(1 for c in calls if c["method"] == "tools/call")


def test_each_runs_spec_records_the_protocol_its_agents_client_spoke_to_the_stub(
    study: tuple[Path, dict[str, Any]],
) -> None:
    out, _ = study
    for run_dir in sorted((out / "runs" / "v2").iterdir()):
        spec = json.loads((run_dir / "spec.json").read_text(encoding="utf-8"))
        logged = {json.loads(line)["protocol"] for line in (run_dir / "calls.jsonl").read_text().splitlines()}
        assert spec["protocol"] == read_run(run_dir).spec.protocol == "2025-11-25"
        assert logged == {spec["protocol"]}


def test_replay_of_first_design_runs_against_v2_shows_what_would_change(study: tuple[Path, dict[str, Any]]) -> None:
    out, _ = study
    run = run_cli(
        "session",
        "replay",
        str(out / "runs" / "v2-first" / "script-full-list-r001"),
        "--surface",
        "v2",
        "--format",
        "json",
    )
    assert run.returncode == 0, run.stderr
    calls = run.json()["runs"][0]["calls"]
    by_change = {c["change"] for c in calls}
    assert {"same", "now refused", "now answered"} <= by_change
    status_filter = [c for c in calls if c["tool"] == "item_list" and c["change"] == "now refused"]
    assert status_filter and "includeClosed" in status_filter[0]["message"]


def test_replay_names_calls_the_other_surface_cannot_take(study: tuple[Path, dict[str, Any]]) -> None:
    out, _ = study
    run = run_cli("session", "replay", str(out / "runs" / "before-v2"), "--surface", "v2", "--format", "json")
    assert run.returncode == 0, run.stderr
    runs = run.json()["runs"]
    assert len(runs) == 3
    unmappable = {c["tool"] for c in runs[0]["calls"] if c["change"] == "unmappable"}
    assert {"memory_store", "task_patch", "proposal_review"} <= unmappable


def test_shards_split_the_matrix_and_the_study_merges_them(tmp_path: Path) -> None:
    for shard in ("1/2", "2/2"):
        run = run_cli(
            "session", "run", "--agent", "script", "--surface", "v2", "--surface", "consistent", "--runs", "2",
            "--shard", shard, "--out", str(tmp_path), timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / "study.json").read_text(encoding="utf-8"))
    assert {(s["surface"], s["runs"]) for s in data["surfaces"]} == {("consistent", 2), ("v2", 2)}
    assert surface(data, "consistent")["outcome_failures"] == []


def test_session_score_orders_rows_by_the_studys_own_order_of_surfaces_not_by_what_is_installed(
    tmp_path: Path,
) -> None:
    """The help desk is not the default study: its rows follow --surface, as its plan and then its study.json
    keep it, and a study scored before keeps its rows' order."""
    out = tmp_path / "study"
    run = run_cli(
        "session", "run", "--agent", "script", "--scenario", "helpdesk-tasks", "--surface", "helpdesk-tools",
        "--surface", "helpdesk", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    given = ["helpdesk-tools", "helpdesk"]
    assert [s["surface"] for s in json.loads((out / "study.json").read_text(encoding="utf-8"))["surfaces"]] == given
    scored = run_cli("session", "score", str(out), "--format", "json")
    assert scored.returncode == 0, scored.stderr
    assert [s["surface"] for s in scored.json()["surfaces"]] == given
    assert [(c["a"], c["b"]) for c in scored.json()["comparisons"]] == [("helpdesk-tools", "helpdesk")] * 2
    (out / "plan.json").unlink()
    assert [s["surface"] for s in run_cli("session", "score", str(out), "--format", "json").json()["surfaces"]] == given
    committed = ROOT / "toolsurface" / "sessions" / "runs" / "helpdesk-script"
    kept = json.loads((committed / "study.json").read_text(encoding="utf-8"))["surfaces"]
    rescored = run_cli("session", "score", str(committed), "--format", "json").json()["surfaces"]
    assert [s["surface"] for s in rescored] == [s["surface"] for s in kept] == ["helpdesk", "helpdesk-tools"]


def test_a_run_killed_by_its_timeout_is_marked_and_keeps_its_calls(tmp_path: Path) -> None:
    script = tmp_path / "slow.json"
    script.write_text(
        json.dumps(
            {
                "format": "toolsurface-script/1",
                "steps": [
                    {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}},
                    {"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 15}},
                    {"wait": 120},
                ],
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    run = run_cli(
        "session",
        "run",
        "--agent",
        "script",
        "--surface",
        "v2",
        "--script",
        str(script),
        "--timeout",
        "3",
        "--out",
        str(out),
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith("toolsurface: 1 of 1 runs did not end ok (timeout 1)")
    record = read_run(out / "runs" / "v2" / "script-full-list-r001")
    assert record.result.status == "timeout" and record.result.calls == 2 and not record.result.passed
    assert record.result.tools_called == ["item_get", "item_get"]


def test_an_interrupted_run_is_run_again_and_finished_ones_are_kept(tmp_path: Path) -> None:
    first = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--runs", "2", "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    done, interrupted = tmp_path / "runs/v2/script-full-list-r001", tmp_path / "runs/v2/script-full-list-r002"
    result = json.loads((interrupted / "result.json").read_text(encoding="utf-8"))
    (interrupted / "result.json").write_text(json.dumps({**result, "status": "interrupted"}), encoding="utf-8")
    kept = (done / "result.json").stat().st_mtime_ns
    again = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--runs", "2", "--out", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert (done / "result.json").stat().st_mtime_ns == kept
    assert read_run(interrupted).result.status == "ok"


def test_a_missing_agent_cli_stops_before_any_run(tmp_path: Path) -> None:
    # Nor in toolsurface's cache, where the tests install the agent CLIs.
    env = {"PATH": str(tmp_path / "empty"), "ANTHROPIC_API_KEY": "sk-test", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = run_cli("session", "run", "--agent", "claude", "--surface", "v2", "--out", str(tmp_path / "out"), env=env)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "claude" in run.stderr
    assert not (tmp_path / "out" / "runs").exists()


def test_a_missing_key_for_the_openai_loop_stops_before_any_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TOOLSURFACE_TEST_KEY"}
    run = run_cli(
        "session", "run", "--agent", "openai", "--surface", "v2", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
        "--api-key-env", "TOOLSURFACE_TEST_KEY", "--out", str(tmp_path / "out"), env=env,
    )  # fmt: skip
    assert run.returncode == 2 and "TOOLSURFACE_TEST_KEY" in run.stderr and "Traceback" not in run.stderr


def test_unknown_agent_scenario_and_missing_script_are_one_line_errors(tmp_path: Path) -> None:
    for args, needle in (
        (["--agent", "robot", "--surface", "v2"], "unknown agent 'robot'"),
        (["--agent", "script", "--surface", "v2", "--scenario", "nine-tasks"], "unknown scenario 'nine-tasks'"),
        (["--agent", "script", "--surface", "v2", "--script", str(tmp_path / "none.json")], "none.json"),
        (["--agent", "script", "--surface", "v2", "--shard", "3/2"], "--shard"),
    ):
        run = run_cli("session", "run", *args, "--out", str(tmp_path / "out"))
        assert run.returncode == 2 and needle in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)


def test_pass_hat_k_is_the_unbiased_estimator() -> None:
    assert pass_hat_k(3, 3, 3) == 1.0 and pass_hat_k(3, 0, 1) == 0.0
    assert pass_hat_k(4, 2, 1) == 0.5 and math.isclose(pass_hat_k(4, 2, 2), 1 / 6)
    assert pass_hat_k(5, 4, 3) == math.comb(4, 3) / math.comb(5, 3)


def test_runs_needed_grows_with_noise_and_shrinks_with_the_difference() -> None:
    assert runs_needed([1, 1, 1], [1, 1, 1]) is None
    assert runs_needed([1, 0, 1, 0], [0, 0, 0, 0]) == math.ceil(1.96**2 * (1 / 3) / 0.25)
    assert runs_needed([2, 0, 2, 0], [0, 0, 0, 0])  == math.ceil(1.96**2 * (4 / 3) / 1)  # fmt: skip
    assert runs_needed([3, 3], [0, 0]) == 2


def test_checks_catch_the_silent_failures() -> None:
    from toolsurface.surfaces.conderis.fixture import load_project

    scenario = load_scenario("six-tasks")
    initial = load_project().dump()
    state = json.loads(json.dumps(initial))
    task = next(i for i in state["items"] if i["number"] == 15)
    task["fields"]["status"] = "blocked"
    task["fields"]["content"] += " Blocked: the new runner images are not published yet."
    answer = "Open tasks: #10 Checkout redesign, #11, #12, #13, #15. Deployments go through three stages"
    results = {r.name: r for r in evaluate(scenario.checks, CheckInput(state, initial, answer))}
    assert not results["blocked-with-reason"].passed and "description" in results["blocked-with-reason"].detail
    assert not results["open-tasks-listed"].passed and "#14" in results["open-tasks-listed"].detail
    assert not results["section-read"].passed and "Rollback" in results["section-read"].detail
    assert not results["subtask-created"].passed and not results["proposal-approved"].passed
    assert results["summary-changed"].passed is False


def test_a_relative_out_is_resolved_against_the_directory_the_study_started_in(tmp_path: Path) -> None:
    run = run_cli("session", "run", "--agent", "script", "--surface", "v2", "--out", "rel", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    record = read_run(tmp_path / "rel" / "runs" / "v2" / "script-full-list-r001")
    assert record.result.calls == 14 and record.result.passed
    assert (tmp_path / "rel" / "runs" / "v2" / "script-full-list-r001" / "state.json").is_file()


@pytest.mark.parametrize("name", ["../../../escaped", "/tmp/absolute-escape", ".hidden"])
def test_a_surface_name_that_would_leave_out_gives_one_folder_inside_it(tmp_path: Path, name: str) -> None:
    module = tmp_path / "renamed.py"
    module.write_text(
        "import dataclasses\nfrom toolsurface.surfaces.conderis.v2 import SURFACE as V2\n"
        f"SURFACE = dataclasses.replace(V2, name={name!r})\n",
        encoding="utf-8",
    )
    out = tmp_path / "deep" / "out"
    script = ROOT / "toolsurface" / "sessions" / "scripts" / "six-tasks" / "v2.json"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", str(module), "--script", str(script), "--out", str(out)
    )
    assert run.returncode == 0, run.stderr
    [spec] = list(out.rglob("spec.json"))
    assert spec.parent.parent.parent == out / "runs" and not spec.parent.parent.name.startswith(".")
    assert json.loads(spec.read_text(encoding="utf-8"))["surface"] == name
    # Python's own bytecode folder beside the loaded module is there unless PYTHONDONTWRITEBYTECODE is set.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == ["deep", "renamed.py"]


def test_a_run_that_did_not_end_ok_exits_1_and_a_rerun_runs_it_again(tmp_path: Path) -> None:
    args = (
        "session", "run", "--agent", "openai", "--surface", "v2", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
        "--out", str(tmp_path),
    )  # fmt: skip
    first = run_cli(*args, env={"OPENAI_API_KEY": "sk-test"})
    assert first.returncode == 1, first.stderr
    last = first.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "toolsurface: 1 of 1 runs did not end ok (agent-error 1): first error: POST http://127.0.0.1:9"
    )
    assert "| agent-error 1 |" in first.stdout
    result = tmp_path / "runs" / "v2" / "openai-full-list-r001" / "result.json"
    before = result.stat().st_mtime_ns
    again = run_cli(*args, env={"OPENAI_API_KEY": "sk-test"})
    assert again.returncode == 1 and result.stat().st_mtime_ns != before


def test_sigterm_ends_a_study_as_interrupted_and_leaves_no_temporary_folder(tmp_path: Path) -> None:
    script = tmp_path / "slow.json"
    steps = [{"call": "item_get", "arguments": {"projectId": "acme-shop", "number": 14}}, {"wait": 120}]
    script.write_text(json.dumps({"format": "toolsurface-script/1", "steps": steps}), encoding="utf-8")
    scratch, out = tmp_path / "tmp", tmp_path / "out"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    with subprocess.Popen(
        [sys.executable, "-m", "toolsurface", "session", "run", "--agent", "script", "--surface", "v2", "--script",
         str(script), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    ) as process:  # fmt: skip
        calls = out / "runs" / "v2" / "script-full-list-r001" / "calls.jsonl"

        def first_call() -> bool:
            assert process.poll() is None, "the study ended before its run made its first call"
            return calls.exists() and "item_get" in calls.read_text(encoding="utf-8")

        wait_until(first_call, 60, "the run's first call")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 2 and stderr.strip().splitlines()[-1].startswith("toolsurface: interrupted")
    assert read_run(calls.parent).result.status == "interrupted"
    assert list(scratch.iterdir()) == []


def test_the_replays_of_the_seeds_recorded_runs_reproduce_its_session_table(tmp_path: Path) -> None:
    for surface, runs in (("before-v2", 3), ("v2-first", 5), ("v2", 3)):
        run = run_cli(
            "session", "run", "--agent", "script", "--scenario", "six-tasks-seed", "--surface", surface,
            "--runs", str(runs), "--out", str(tmp_path), timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / "study.json").read_text(encoding="utf-8"))
    assert data["scenario"] == "six-tasks-seed"
    table = {s["surface"]: (s["calls_per_run"], s["refused_per_run"]) for s in data["surfaces"]}
    assert table == {
        "before-v2": ([10, 10, 10], [0, 1, 1]),
        "v2-first": ([9, 10, 10, 9, 11], [0, 0, 1, 0, 1]),
        "v2": ([9, 9, 8], [0, 1, 0]),
    }
    assert all(g["corrected_next"] == g["count"] for s in data["surfaces"] for g in s["refused"])
    failures = {s["surface"]: [f["check"] for f in s["outcome_failures"]] for s in data["surfaces"]}
    assert failures == {"before-v2": ["blocked-with-reason"], "v2-first": ["open-tasks-listed"], "v2": []}


def test_a_replay_asked_for_more_runs_than_were_recorded_is_one_line(tmp_path: Path) -> None:
    run = run_cli(
        "session", "run", "--agent", "script", "--scenario", "six-tasks-seed", "--surface", "v2", "--runs", "4",
        "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert run.returncode == 2 and "replays 3 recorded runs of v2; --runs 4 asks for more" in run.stderr
    assert not (tmp_path / "out" / "runs").exists()


@pytest.fixture(scope="module")
def seed_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seed")
    for surface in ("before-v2", "v2"):
        run = run_cli(
            "session", "run", "--agent", "script", "--scenario", "six-tasks-seed", "--surface", surface, "--runs", "3",
            "--out", str(out), timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
    return out


def test_the_gate_on_the_seeds_replayed_runs_gives_the_seeds_verdict(seed_study: Path) -> None:
    run = run_cli("gate", str(seed_study), "--baseline", "before-v2", "--candidate", "v2")
    assert run.returncode == 0, run.stderr
    first, last = run.stdout.strip().splitlines()
    assert first.startswith("Gate (six-tasks-seed): met. The list is 6,767 characters against 19,204, and v2 needed")
    assert "1 refused call in 3 runs against 2 in 3 runs for before-v2" in first and "runs per surface" in first
    assert last == "Gate: met."


def test_a_candidate_whose_refusals_per_run_rise_fails_the_gate(seed_study: Path) -> None:
    run = run_cli("gate", str(seed_study), "--baseline", "v2", "--candidate", "before-v2", "--max-chars", "100000")
    assert run.returncode == 1
    assert "refused calls per run rose" in run.stdout and run.stdout.strip().endswith("Gate: not met.")


def test_a_candidate_over_its_budget_fails_the_gate(seed_study: Path) -> None:
    run = run_cli("gate", str(seed_study), "--baseline", "before-v2", "--candidate", "v2", "--max-chars", "5000")
    assert run.returncode == 1 and "over the 5,000 it may have" in run.stdout


def test_a_gate_without_runs_of_both_surfaces_cannot_judge(seed_study: Path) -> None:
    run = run_cli("gate", str(seed_study), "--baseline", "before-v2", "--candidate", "consistent")
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "cannot judge: no scenario of the study has runs of both before-v2 and consistent" in run.stderr


def test_a_checks_result_is_the_record_result_json_keeps() -> None:
    from toolsurface.harness.scenario import CheckResult

    run = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script" / "runs" / "v2" / "script-full-list-r001"
    kept = json.loads((run / "result.json").read_text(encoding="utf-8"))["checks"]
    checks = read_run(run).result.checks
    assert all(type(check) is CheckResult for check in checks) and checks == [CheckResult(**c) for c in kept]
