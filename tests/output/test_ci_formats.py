"""Results for CI servers: --format junit of budget, diff, lint and findability, valid against the JUnit schema CI servers read
(tests/fixtures/junit.xsd, the shape of Jenkins' junit-10.xsd); lint --fail-on and lint's GitHub annotations."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema

from tests.conftest import ROOT, run_cli
from tests.helpers.budget_project import SURFACE, make_project
from toolsurface.harness.analyze.lint import CATEGORIES, lint
from toolsurface.harness.surface import resolve

SCHEMA = xmlschema.XMLSchema(str(ROOT / "tests" / "fixtures" / "junit.xsd"))


def junit(text: str) -> ET.Element:
    SCHEMA.validate(text)
    return ET.fromstring(text)


def cases(root: ET.Element) -> dict[str, str]:
    """Each test case's name and outcome."""
    found = {}
    for case in root.iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error")), "passed")
        found[case.attrib["name"]] = outcome
    return found


def test_budget_in_junit_is_one_valid_test_case_per_list() -> None:
    over = run_cli("budget", "v2", "--max-chars", "6000", "--format", "junit")
    assert over.returncode == 1
    root = junit(over.stdout)
    assert cases(root) == {"v2": "failure"}
    failure = root.find(".//failure")
    assert root.attrib["failures"] == "1" and failure is not None and "over budget by" in failure.attrib["message"]
    within = run_cli("budget", "v2", "--max-chars", "100000", "--format", "junit")
    assert within.returncode == 0 and cases(junit(within.stdout)) == {"v2": "passed"}


def test_budget_in_junit_has_a_test_case_per_configured_target(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        '[targets.small]\nsurface = "v2"\nmax-chars = 10\n\n[targets.large]\nsurface = "before-v2"\nmax-chars = 100000\n',
        encoding="utf-8",
    )
    run = run_cli("budget", "--format", "junit", cwd=tmp_path)
    assert run.returncode == 1
    assert cases(junit(run.stdout)) == {"small": "failure", "large": "passed"}


def test_diff_in_junit_is_a_test_case_per_tool_failing_what_the_gate_counts(tmp_path: Path) -> None:
    project = make_project(tmp_path, extra='snapshot = "tools.snapshot.json"\n')
    assert run_cli("snapshot", cwd=project).returncode == 0
    module = project / SURFACE
    module.write_text(
        module.read_text(encoding="utf-8").replace('"remote": prop("string", "Git remote URL"),', ""), encoding="utf-8"
    )
    run = run_cli("diff", "--format", "junit", "--fail-on", "breaking", cwd=project)
    assert run.returncode == 1
    found = cases(junit(run.stdout))
    assert len(found) == 8 and found["project_store"] == "failure"
    assert {name for name, outcome in found.items() if outcome == "passed"} == set(found) - {"project_store"}
    ungated = run_cli("diff", str(project / "tools.snapshot.json"), str(module), "--format", "junit")
    assert ungated.returncode == 0 and set(cases(junit(ungated.stdout)).values()) == {"passed"}


def test_lint_in_junit_is_a_test_case_per_tool_failing_the_categories_asked_for() -> None:
    findings = lint([resolve("before-v2")]).surfaces[0].findings
    gated = run_cli("lint", "before-v2", "--format", "junit", "--fail-on", "concurrency")
    assert gated.returncode == 1
    found = cases(junit(gated.stdout))
    assert len(found) == 27
    failing = {tool for f in findings if f.category == "concurrency" for tool in f.tools}
    assert {name for name, outcome in found.items() if outcome == "failure"} == failing
    plain = run_cli("lint", "before-v2", "--format", "junit")
    assert plain.returncode == 0 and set(cases(junit(plain.stdout)).values()) == {"passed"}
    assert "concurrency" in plain.stdout  # the findings are each case's output


def test_findability_in_junit_is_a_test_case_per_query_failing_the_ranks_below_the_check() -> None:
    gated = run_cli("findability", "before-v2", "--fail-below-rank", "2", "--format", "junit")
    assert gated.returncode == 1
    root = junit(gated.stdout)
    assert list(cases(root)) == [
        "create task", "store memory", "read page", "approve proposal", "block task", "recall project"
    ]  # fmt: skip
    assert [name for name, outcome in cases(root).items() if outcome == "failure"] == ["read page", "block task"]
    failure = root.find(".//testcase[@name='read page']/failure")
    assert failure is not None and failure.attrib["message"] == "not found at rank 2 or better: bm25, embedding"
    assert (
        failure.text == "before-v2 'read page': item_get bm25 rank 3\nbefore-v2 'read page': item_get embedding rank 6"
    )
    ungated = run_cli("findability", "before-v2", "--format", "junit")
    assert ungated.returncode == 0 and set(cases(junit(ungated.stdout)).values()) == {"passed"}


def test_junit_holds_a_description_with_characters_xml_cannot(tmp_path: Path) -> None:
    snapshot = tmp_path / "odd.json"
    tool = {"name": "odd\x01tool", "description": "bell \x07 and nul \x00", "inputSchema": {"type": "object"}}
    snapshot.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    run = run_cli("lint", str(snapshot), "--format", "junit", "--fail-on", "any")
    root = junit(run.stdout)
    assert list(cases(root)) == ["odd\\x01tool"]
    budget = run_cli("budget", str(snapshot), "--max-chars", "1", "--format", "junit")
    junit(budget.stdout)


def test_lint_fails_on_the_categories_named_and_only_on_them() -> None:
    found = {f.category for f in lint([resolve("before-v2")]).surfaces[0].findings}
    clean = next(c for c in CATEGORIES if c not in found) if set(CATEGORIES) - found else None
    assert run_cli("lint", "before-v2", "--fail-on", "addressing,reason", "--format", "json").returncode == 1
    assert run_cli("lint", "before-v2", "--fail-on", "any", "--format", "json").returncode == 1
    assert run_cli("lint", "v2", "--fail-on", "any", "--format", "json").returncode == 0
    assert run_cli("lint", "before-v2", "--format", "json").returncode == 0
    if clean is not None:
        assert run_cli("lint", "before-v2", "--fail-on", clean, "--format", "json").returncode == 0


@pytest.mark.parametrize("value", ["nonsense", "addressing,nonsense", ","])
def test_an_unknown_lint_category_is_one_line(value: str) -> None:
    run = run_cli("lint", "v2", "--fail-on", value)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "TS101 (addressing), TS102 (concurrency)" in run.stderr and "error, warning" in run.stderr
    assert "any" in run.stderr


def test_lint_in_github_format_annotates_each_finding_and_writes_the_job_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    run = run_cli(
        "lint",
        "before-v2",
        "--format",
        "github",
        "--fail-on",
        "addressing",
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert run.returncode == 1
    lines = run.stdout.strip().splitlines()
    findings = lint([resolve("before-v2")]).surfaces[0].findings
    total = len(findings)
    infos = sum(f.severity == "info" for f in findings)
    assert len(lines) == total
    assert [line for line in lines if line.startswith("::error ")] == [
        line for line in lines if line.startswith("::error title=before-v2%3A lint TS101 addressing::addressing (")
    ]
    assert sum(line.startswith("::error ") for line in lines) == 1
    # before-v2's information (its first sentence, its descriptions' quality) are notices; its warnings are warnings.
    notices = [line for line in lines if line.startswith("::notice ")]
    assert sum(line.startswith("::notice title=before-v2%3A lint TS202 first-sentence::") for line in notices) == 1
    assert all(line.startswith("::notice title=before-v2%3A lint TS20") for line in notices)
    assert len(notices) == infos
    assert sum(line.startswith("::warning ") for line in lines) == total - 1 - infos
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("### Tool list lint: before-v2\n")
    assert "20 findings in 12 rules (13 warnings, 7 info), **1 failing**" in text
    assert "| **TS101 addressing** | warning |" in text
