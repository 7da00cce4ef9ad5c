"""The ratchet under two writers: `budget --update` changes the configuration and the budget log under a lock,
reading both again once it holds it, so two updates at once in one project keep both steps (and a step the
other already took is said as such, not taken twice). The ratchet keeps the project's margin (`ratchet-margin`,
which init writes): a budget goes to the list's size plus the margin, `--update` never raises it, and the
comment toolsurface wrote above it says what each value holds and when it was set."""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.budget_project import updates_at_once
from toolsurface.harness.config import with_margin
from toolsurface.harness.measure import check_budget
from toolsurface.harness.surface import resolve

LOG = "toolsurface-budget.log"


def log_entries(project: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (project / LOG).read_text(encoding="utf-8").splitlines()]


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
        entries = log_entries(project)
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
        [entry] = log_entries(project)
        assert entry["max_chars"] == {"old": 7000, "new": chars}


def measured_v2() -> tuple[int, int]:
    result = check_budget(resolve("v2"), 10**9, 10**9)
    assert result.tokens is not None
    return result.chars, result.tokens


def test_an_update_after_init_keeps_the_margin_and_never_raises_though_the_list_grew(tmp_path: Path) -> None:
    """The issue's walk: init set 6,700 chars + 10 % (7,370); the list grew to 6,767, + 10 % is 7,444: the budget
    stays at 7,370 and nothing is written, rather than falling to the bare 6,767."""
    chars, _ = measured_v2()
    config = (
        'surface = "v2"\n'
        "# 6,700 chars and 1,500 o200k_base tokens when toolsurface init listed it, + 10%\n"
        "max-chars = 7370\n"
        "ratchet-margin = 10\n"
    )
    (tmp_path / "toolsurface.toml").write_text(config, encoding="utf-8")
    run = run_cli("budget", "--update", "--reason", "after init", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == (
        f"v2: budget kept at 7,370 chars: the list's {chars:,} chars + 10 % is {with_margin(chars, 10):,},"
        " and --update never raises (--raise does)"
    )
    assert (tmp_path / "toolsurface.toml").read_text(encoding="utf-8") == config
    assert not (tmp_path / LOG).exists()


def test_an_update_lowers_to_the_size_plus_the_margin_and_says_so_above_the_value(tmp_path: Path) -> None:
    chars, tokens = measured_v2()
    config = (
        'surface = "v2"\n'
        "# 6,900 chars and 2,000 o200k_base tokens when toolsurface init listed it, + 10%\n"
        "max-chars = 7590\n"
        "max-tokens = 2200\n"
        "ratchet-margin = 10\n"
    )
    (tmp_path / "toolsurface.toml").write_text(config, encoding="utf-8")
    run = run_cli("budget", "--update", "--reason", "shorter texts", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    new_chars, new_tokens = with_margin(chars, 10), with_margin(tokens, 10)
    assert f"v2: lowered max-chars 7,590 -> {new_chars:,} and max-tokens 2,200 -> {new_tokens:,} (the list + 10 %)" in (
        run.stdout
    )
    [entry] = log_entries(tmp_path)
    assert entry["max_chars"] == {"old": 7590, "new": new_chars} and entry["margin"] == 10
    day = str(entry["time"])[:10]
    assert (tmp_path / "toolsurface.toml").read_text(encoding="utf-8") == (
        'surface = "v2"\n'
        f"# max-chars {new_chars:,}: {chars:,} chars + 10 % (toolsurface budget --update, {day});"
        f" max-tokens {new_tokens:,}: {tokens:,} o200k_base tokens + 10 % (toolsurface budget --update, {day})\n"
        f"max-chars = {new_chars}\n"
        f"max-tokens = {new_tokens}\n"
        "ratchet-margin = 10\n"
    )
    again = run_cli("budget", "--update", "--reason", "again", cwd=tmp_path)
    assert again.stdout.strip().splitlines()[-1] == (
        f"v2: budget already at the measured figure + 10 % ({new_chars:,} chars for {chars:,})"
    )


def test_a_value_the_update_keeps_keeps_its_note_and_a_comment_of_the_users_own_is_left_alone(
    tmp_path: Path,
) -> None:
    """max-chars stays (the list + 10 % would raise it) and keeps what the comment said of it; max-tokens falls,
    and its note is said anew. Above another target's max-chars, a person's own comment stays as written."""
    chars, tokens = measured_v2()
    kept = "max-chars 7,000: 6,400 chars + 10 % (toolsurface init, 2026-01-02)"
    config = (
        "[targets.a]\n"
        'surface = "v2"\n'
        f"# {kept}; max-tokens 9,000: 8,000 o200k_base tokens + 10 % (toolsurface init, 2026-01-02)\n"
        "max-chars = 7000\n"
        "max-tokens = 9000\n"
        "ratchet-margin = 10\n"
        "\n"
        "[targets.b]\n"
        'surface = "v2"\n'
        "# ours: agreed with the platform team\n"
        "max-chars = 9000\n"
    )
    (tmp_path / "toolsurface.toml").write_text(config, encoding="utf-8")
    run = run_cli("budget", "--update", "--reason", "fewer tokens", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    new_tokens = with_margin(tokens, 10)
    assert f"a: lowered max-tokens 9,000 -> {new_tokens:,} (the list + 10 %)" in run.stdout
    assert f"b: lowered max-chars 9,000 -> {chars:,}" in run.stdout
    day = str(log_entries(tmp_path)[0]["time"])[:10]
    text = (tmp_path / "toolsurface.toml").read_text(encoding="utf-8")
    assert text == config.replace(
        "max-tokens 9,000: 8,000 o200k_base tokens + 10 % (toolsurface init, 2026-01-02)",
        f"max-tokens {new_tokens:,}: {tokens:,} o200k_base tokens + 10 % (toolsurface budget --update, {day})",
    ).replace("max-tokens = 9000", f"max-tokens = {new_tokens}").replace("max-chars = 9000", f"max-chars = {chars}")


def test_raise_sets_the_budget_to_the_size_plus_the_margin(tmp_path: Path) -> None:
    chars, _ = measured_v2()
    (tmp_path / "toolsurface.toml").write_text('surface = "v2"\nmax-chars = 6000\nratchet-margin = 5\n', "utf-8")
    run = run_cli("budget", "--raise", "--reason", "the search tool is worth it", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"v2: raised max-chars 6,000 -> {with_margin(chars, 5):,} (the list + 5 %)" in run.stdout
    assert tomllib.loads((tmp_path / "toolsurface.toml").read_text(encoding="utf-8"))["max-chars"] == with_margin(
        chars, 5
    )


@pytest.mark.parametrize("value", ["-1", '"10%"', "nan", "true", "1001"])
def test_a_ratchet_margin_that_is_no_percentage_is_one_line(tmp_path: Path, value: str) -> None:
    (tmp_path / "toolsurface.toml").write_text(f'surface = "v2"\nmax-chars = 7000\nratchet-margin = {value}\n', "utf-8")
    run = run_cli("budget", cwd=tmp_path)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "ratchet-margin: expected a percentage from 0 to 1000" in run.stderr


def test_a_margin_is_added_in_decimal_and_rounded_up() -> None:
    assert [with_margin(700, 10), with_margin(708, 10), with_margin(8123, 10), with_margin(5, 0)] == [770, 779, 8936, 5]


def test_an_update_keeps_the_configurations_line_endings_and_mode(tmp_path: Path) -> None:
    chars, _ = measured_v2()
    config = tmp_path / "toolsurface.toml"
    lines = ['surface = "v2"', "# 6,900 chars and 2,000 o200k_base tokens when toolsurface init listed it, + 10%"]
    config.write_bytes("\r\n".join([*lines, "max-chars = 7590", "ratchet-margin = 10", ""]).encode())
    config.chmod(0o600)
    run = run_cli("budget", "--update", "--reason", "shorter", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = config.read_bytes()
    assert (
        written.count(b"\n") == written.count(b"\r\n") == 4
        and b"\r\nmax-chars = %d\r\n" % with_margin(chars, 10) in written
    )
    assert written.startswith(b'surface = "v2"\r\n# max-chars ') and stat.S_IMODE(config.stat().st_mode) == 0o600
