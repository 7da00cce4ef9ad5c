"""One merge of the list check, the probe and the answer check (harness.budget): a surface's list and its
answers judged in one typed result, the same for `budget SURFACE` and for a configured target."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.helpers.budget_project import make_project
from toolsurface.harness.budget import AnswerBudget, ListBudget, check_list, judged
from toolsurface.harness.surface import resolve


def test_a_list_checked_without_its_answers_probes_nothing() -> None:
    checked = check_list("v2", None, ListBudget(max_chars=10**6))
    assert checked.source is None
    assert checked.result.surface == "v2"
    assert checked.result.answers is None
    assert checked.result.within
    assert checked.result.tokens is None


def test_a_list_within_its_budget_fails_on_an_answer_over_its_own() -> None:
    checked = check_list("v2", None, ListBudget(max_chars=10**6, max_tokens=10**6), AnswerBudget(max_tokens=1))
    result = checked.result
    assert result.list_within and result.tokens is not None
    assert result.answers is not None and result.answers.calls > 0
    assert result.answers.over and all(o.tokens > 1 for o in result.answers.over)
    assert not result.within


def test_asking_to_probe_checks_the_answers_against_each_clients_cap() -> None:
    result = check_list("v2", None, ListBudget(), AnswerBudget(probe=True)).result
    assert result.answers is not None and result.answers.max_tokens is None
    assert result.max_chars is None and result.within


def test_judging_a_list_names_it_as_asked() -> None:
    assert judged(resolve("v2"), ListBudget(max_chars=1), name="conderis").surface == "conderis"


def test_a_configured_target_and_the_same_surface_given_are_judged_alike(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=10**6, extra='tokens = ["harmony"]\nmax-answer-tokens = 5\n')
    configured = run_cli("budget", "--format", "json", cwd=project)
    given = run_cli(
        "budget", "surfaces/conderis/v2.py", "--max-chars", str(10**6), "--tokens", "harmony",
        "--max-answer-tokens", "5", "--format", "json", cwd=project,
    )  # fmt: skip
    assert configured.returncode == given.returncode == 1, (configured.stderr, given.stderr)
    (from_config,), (from_flags,) = configured.json()["results"], given.json()["results"]
    # The target's answers are counted by its own counters, as --tokens counts them on the command line.
    assert from_config["answers"]["counter"] == from_flags["answers"]["counter"] == "harmony"
    for key in ("chars", "tokens", "counter", "within", "answers"):
        assert from_config[key] == from_flags[key], key
