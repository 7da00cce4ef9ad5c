"""A study's defaults come from the package of its surfaces (`STUDY`), never from the harness: the surfaces
measured when none is named and their order, the findability queries, the round-trip task, the seed's
figures and the outcome checks; the help desk's come the same way."""

from __future__ import annotations

import ast
import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from toolsurface.harness.scenario import CHECKS, CheckInput, check_types, evaluate, load_scenario
from toolsurface.harness.surface import (
    ENTRY_POINT_GROUP,
    Study,
    SurfaceDefinition,
    default_surfaces,
    resolve,
    study_for,
)
from toolsurface.harness.surface._study import find_studies, study_of
from toolsurface.surfaces.conderis import STUDY

PACKAGE = """from pathlib import Path

from toolsurface.harness.surface import Study

STUDY = Study(
    name="orders",
    surfaces=("orders-many", "orders"),
    queries=Path(__file__).with_name("queries.json"),
    checks="ordersstudy.checks",
)
"""
CHECKS_MODULE = """def order_shipped(params, given):
    shipped = [i for i in (given.state or {}).get("orders", []) if i["status"] == "shipped"]
    return bool(shipped), f"{len(shipped)} shipped"


CHECKS = {"order_shipped": order_shipped}
"""


def test_the_harness_names_no_conderis_default() -> None:
    """No string in the harness names the Conderis package or one of its surfaces."""
    found = []
    for path in (ROOT / "toolsurface" / "harness").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # A lint rule's source cites the page it comes from (docs/conderis.md): a reference, not a default.
        cited = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "source"}
        for node in ast.walk(tree):
            if id(node) in cited:
                continue
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
            if "conderis" in text.lower() or text in STUDY.surfaces:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []


def test_the_default_study_is_the_one_its_package_declares_so() -> None:
    assert default_surfaces() == STUDY.surfaces == ("before-v2", "consistent", "v2-first", "v2", "v2-live")
    assert study_for(()) is STUDY
    assert study_for(["v2", "before-v2"]) is STUDY
    helpdesk = study_for(["helpdesk"])
    assert helpdesk is not None and (helpdesk.name, helpdesk.surfaces) == ("helpdesk", ("helpdesk-tools", "helpdesk"))
    # Surfaces of two studies, or a module by path, take the default study's defaults.
    assert study_for(["v2", "helpdesk"]) is STUDY
    assert study_for(["toolsurface/surfaces/conderis/v2.py"]) is STUDY


def test_a_package_of_surfaces_declares_its_study_and_its_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "ordersstudy"
    package.mkdir()
    (package / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    (package / "checks.py").write_text(CHECKS_MODULE, encoding="utf-8")
    (package / "many.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    entries = [
        EntryPoint("orders-many", "ordersstudy.many:SURFACE", ENTRY_POINT_GROUP),
        EntryPoint("orders", "ordersstudy.many:SURFACE", ENTRY_POINT_GROUP),
        EntryPoint("broken", "nosuchpackage.x:SURFACE", ENTRY_POINT_GROUP),
    ]
    studies = find_studies(entries)
    assert [s.name for s in studies] == ["orders"]
    assert study_of(["orders"], studies) is studies[0]
    assert study_of(["orders"], studies).file("queries") == package / "queries.json"  # type: ignore[union-attr]
    assert study_of([], studies) is None
    with pytest.raises(Exception, match="the orders study declares no task; name a file"):
        studies[0].file("task")
    monkeypatch.setattr("toolsurface.harness.scenario._checks.studies", lambda: [*studies, STUDY])
    types = check_types()
    assert list(types)[: len(CHECKS)] == list(CHECKS)
    assert {"order_shipped", "task_blocked", "proposal_state"} <= set(types)
    assert "task_blocked" not in CHECKS


def test_the_conderis_checks_are_its_own_and_its_scenario_still_scores_with_them() -> None:
    scenario = load_scenario("six-tasks")
    definition = resolve("v2")
    assert isinstance(definition, SurfaceDefinition) and definition.stub is not None
    state = definition.stub(None).state()
    results = {r.name: r for r in evaluate(scenario.checks, CheckInput(state=state, initial=state, answer=None))}
    assert (results["blocked-with-reason"].passed, results["blocked-with-reason"].detail) == (
        False,
        "#15 is open, not blocked",
    )
    assert results["proposal-approved"].detail == "proposal:p-101 is pending, not approved"
    assert {c.type for c in scenario.checks} - set(CHECKS) == {
        "task_blocked",
        "answer_lists_active_tasks",
        "proposal_state",
    }


def test_every_final_state_of_the_committed_conderis_runs_reads_back_as_the_projects_records() -> None:
    from toolsurface.surfaces.conderis.project import ProjectDump

    states = sorted((ROOT / "toolsurface" / "sessions" / "runs").glob("conderis-*/runs/*/*/state.json"))
    assert len(states) == 31
    for path in states:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert ProjectDump.from_json(data).to_json() == data, path


def test_the_conderis_checks_judge_the_projects_records() -> None:
    from toolsurface.surfaces.conderis.fixture import load_project

    project = load_project()
    task, proposal = project.items[15], project.proposals["p-101"]
    task.fields["status"], task.block_reason, proposal.state = (
        "blocked",
        "The runner images are not published.",
        "approved",
    )
    state = project.dump()
    scenario = load_scenario("six-tasks")
    results = {r.name: r for r in evaluate(scenario.checks, CheckInput(state=state, initial=state, answer=None))}
    assert (results["blocked-with-reason"].passed, results["blocked-with-reason"].detail) == (
        True,
        "#15 blocked: The runner images are not published.",
    )
    assert (results["proposal-approved"].passed, results["proposal-approved"].detail) == (
        True,
        "proposal:p-101 approved",
    )


def test_the_help_desk_is_searched_and_round_tripped_with_its_own_files_when_none_is_named() -> None:
    for command, option, name in (("findability", "--queries", "queries"), ("roundtrip", "--task", "roundtrip")):
        own = ROOT / "toolsurface" / "surfaces" / "helpdesk" / f"{name}.json"
        plain = run_cli(command, "helpdesk-tools", "helpdesk", "--format", "json")
        named = run_cli(command, "helpdesk-tools", "helpdesk", option, str(own), "--format", "json")
        assert plain.returncode == named.returncode == 0, plain.stderr + named.stderr
        assert plain.stdout == named.stdout


def test_a_study_without_a_seed_gives_no_seed_figures() -> None:
    helpdesk = study_for(["helpdesk"])
    assert isinstance(helpdesk, Study) and helpdesk.seed_figures is None
    assert STUDY.seed_figures == ROOT / "toolsurface" / "surfaces" / "conderis" / "seed.json"
