"""The ratchet under two writers: `budget --update` changes the configuration and the budget log under a lock,
reading both again once it holds it, so two updates at once in one project keep both steps (and a step the
other already took is said as such, not taken twice)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.helpers.budget_project import updates_at_once
from toolsurface.harness.measure import check_budget
from toolsurface.harness.surface import resolve

LOG = "toolsurface-budget.log"
TWO_TARGETS = '[targets.a]\nsurface = "v2"\nmax-chars = 7000\n\n[targets.b]\nsurface = "v2"\nmax-chars = 7000\n'


def test_two_updates_at_once_keep_both_log_entries_and_both_budgets_in_12_of_12_rounds(tmp_path: Path) -> None:
    chars = check_budget(resolve("v2"), 10**9).chars
    project = tmp_path / "server"
    project.mkdir()
    for round_ in range(12):
        (project / "toolsurface.toml").write_text(TWO_TARGETS, encoding="utf-8")
        (project / LOG).unlink(missing_ok=True)
        runs = updates_at_once(
            project,
            ["--update", "--target", "a", "--reason", "first"],
            ["--update", "--target", "b", "--reason", "second"],
        )
        for name, run in zip("ab", runs, strict=True):
            assert run.returncode == 0, (round_, run.stderr)
            assert f"{name}: lowered max-chars 7,000 -> {chars:,} in toolsurface.toml" in run.stdout, run.stdout
        entries = [json.loads(line) for line in (project / LOG).read_text(encoding="utf-8").splitlines()]
        assert sorted((e["target"], e["reason"]) for e in entries) == [("a", "first"), ("b", "second")], round_
        targets = tomllib.loads((project / "toolsurface.toml").read_text(encoding="utf-8"))["targets"]
        assert (targets["a"]["max-chars"], targets["b"]["max-chars"]) == (chars, chars), round_


def test_two_updates_of_one_target_at_once_take_the_step_once_and_the_other_says_so(tmp_path: Path) -> None:
    chars = check_budget(resolve("v2"), 10**9).chars
    project = tmp_path / "server"
    project.mkdir()
    for round_ in range(3):
        (project / "toolsurface.toml").write_text('surface = "v2"\nmax-chars = 7000\n', encoding="utf-8")
        (project / LOG).unlink(missing_ok=True)
        runs = updates_at_once(project, ["--update", "--reason", "one"], ["--update", "--reason", "two"])
        assert [run.returncode for run in runs] == [0, 0], [run.stderr for run in runs]
        said = sorted(run.stdout.strip().splitlines()[-1] for run in runs)
        assert said == [
            f"v2: budget already at the measured figure ({chars:,} chars)",
            f"v2: lowered max-chars 7,000 -> {chars:,} in toolsurface.toml; logged in {LOG}",
        ], round_
        [entry] = [json.loads(line) for line in (project / LOG).read_text(encoding="utf-8").splitlines()]
        assert entry["max_chars"] == {"old": 7000, "new": chars}
