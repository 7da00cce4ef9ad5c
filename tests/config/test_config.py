"""Budgets where server projects keep their settings: [tool.toolsurface] in pyproject.toml or toolsurface.toml,
read by budget, diff and snapshot with no target; toolsurface config; the ratchet and its append-only log.

The ratchet writes its two files, the configuration and the log, both or neither, each checked writable
first; what a person can break in them (a configuration nested too deeply, a timeout that is no finite
number, a line break in a target's key, a log line that is no entry, a FIFO where the log is) ends in one
line, not a traceback."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import Run, run_cli
from tests.helpers.budget_project import DESCRIPTION, SURFACE, grow, make_project, write_surface
from tests.helpers.errors import assert_one_line_error
from toolsurface.harness.measure import check_budget
from toolsurface.harness.surface import resolve

LOG = "toolsurface-budget.log"


def chars_of(module: Path) -> int:
    return check_budget(resolve(str(module)), 10**9).chars


def log_lines(project: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (project / LOG).read_text(encoding="utf-8").splitlines()]


def test_the_acceptance_walk_budget_over_budget_and_the_ratchet_that_only_appends(tmp_path: Path) -> None:
    project = make_project(tmp_path / "server", max_chars=7000)
    module = project / SURFACE
    measured = chars_of(module)

    within = run_cli("budget", cwd=project)
    assert within.returncode == 0, within.stderr
    assert within.stdout.strip() == f"v2: 8 tools, {measured:,} chars: within budget (7,000 chars)"

    first = run_cli("budget", "--update", "--reason", "budget set to the list", cwd=project)
    assert first.returncode == 0, first.stderr
    assert f"v2: lowered max-chars 7,000 -> {measured:,} in pyproject.toml" in first.stdout
    earlier = (project / LOG).read_bytes()

    grow(module, 500)
    over = run_cli("budget", cwd=project)
    assert over.returncode == 1
    lines = over.stdout.strip().splitlines()
    assert lines[-1] == (
        f"v2: 8 tools, {measured + 500:,} chars: over budget ({measured:,} chars) by 500 chars ({500 / measured:.1%})"
    )
    assert "project_store +500 chars" in lines[-2] and lines[-2].startswith("grew since the last budget log entry (")

    write_surface(module)  # the growth taken back, and a description shortened
    source = module.read_text(encoding="utf-8")
    module.write_text(source.replace(DESCRIPTION, '"Create or change a project."'), encoding="utf-8")
    shorter = chars_of(module)
    assert shorter < measured
    update = run_cli("budget", "--update", "--reason", "shorter texts", cwd=project)
    assert update.returncode == 0, update.stderr
    assert (
        tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["toolsurface"]["max-chars"]
        == shorter
    )
    after = (project / LOG).read_bytes()
    assert after.startswith(earlier) and after.count(b"\n") == earlier.count(b"\n") + 1
    entry = log_lines(project)[-1]
    assert entry["max_chars"] == {"old": measured, "new": shorter}
    assert entry["reason"] == "shorter texts" and entry["step"] == "lower" and entry["chars"] == shorter
    assert isinstance(entry["tokens"], int) and entry["time"]
    tools = entry["tools"]
    assert isinstance(tools, dict) and len(tools) == 8


def test_the_ratchet_rewrites_only_the_figure_and_keeps_comments_and_layout(tmp_path: Path) -> None:
    project = make_project(
        tmp_path, max_chars=7_000, extra="max-tokens = 2000  # o200k\n\n[tool.ruff]\nline-length = 100\n"
    )
    before = (project / "pyproject.toml").read_text(encoding="utf-8")
    run = run_cli("budget", "--update", "--reason", "first figure", cwd=project)
    assert run.returncode == 0, run.stderr
    entry = log_lines(project)[-1]
    chars, tokens = entry["chars"], entry["tokens"]
    assert entry["max_tokens"] == {"old": 2000, "new": tokens}
    expected = before.replace("max-chars = 7000\n", f"max-chars = {chars}\n").replace(
        "max-tokens = 2000  # o200k", f"max-tokens = {tokens}  # o200k"
    )
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == expected


def test_an_update_when_the_list_is_already_at_its_budget_writes_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=chars_of(write_surface(tmp_path / "probe.py")))
    run = run_cli("budget", "--update", "--reason", "again", cwd=project)
    assert run.returncode == 0 and "budget already at the measured figure" in run.stdout
    assert not (project / LOG).exists()


def test_an_over_budget_list_is_not_raised_without_raise_and_nothing_is_written(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=6000)
    before = (project / "pyproject.toml").read_bytes()
    run = run_cli("budget", "--update", "--reason", "more tools", cwd=project)
    assert run.returncode == 1
    assert "nothing changed: v2 is over its budget" in run.stderr and "--raise" in run.stderr
    assert (project / "pyproject.toml").read_bytes() == before and not (project / LOG).exists()

    raised = run_cli("budget", "--raise", "--reason", "the search tool is worth it", cwd=project)
    assert raised.returncode == 0, raised.stderr
    entry = log_lines(project)[-1]
    assert entry["step"] == "raise" and entry["max_chars"] == {"old": 6000, "new": entry["chars"]}


def test_raising_or_updating_needs_a_reason(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    assert_one_line_error(run_cli("budget", "--raise", cwd=project), "--raise needs --reason TEXT")
    assert_one_line_error(run_cli("budget", "--update", cwd=project), "--update needs --reason TEXT")


def test_flags_override_the_configured_budget(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=7000)
    run = run_cli("budget", "--max-chars", "6000", cwd=project)
    assert run.returncode == 1 and "over budget (6,000 chars)" in run.stdout
    tokens = run_cli("budget", "--max-tokens", "100", cwd=project)
    assert tokens.returncode == 1 and "tokens" in tokens.stdout.strip().splitlines()[-1]


def test_a_surface_given_on_the_command_line_ignores_the_configuration(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=10)
    run = run_cli("budget", "v2", "--max-chars", "100000", cwd=project)
    assert run.returncode == 0 and run.stdout.startswith("v2: 8 tools")


def test_growth_is_named_against_the_committed_snapshot_before_any_log_entry(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=7000, extra='snapshot = "tools.snapshot.json"\n')
    written = run_cli("snapshot", cwd=project)
    assert written.returncode == 0 and "v2: wrote tools.snapshot.json, tools.snapshot.meta.json" in written.stderr
    grow(project / SURFACE, 500)
    run = run_cli("budget", cwd=project)
    assert run.returncode == 1
    assert "grew since the snapshot tools.snapshot.json: project_store +500 chars" in run.stdout


def test_diff_with_no_lists_compares_each_configured_target_with_its_snapshot(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=7000, extra='snapshot = "tools.snapshot.json"\n')
    missing = run_cli("diff", cwd=project)
    assert_one_line_error(missing, "pyproject.toml", "tool.toolsurface.snapshot", "no such file")
    assert run_cli("snapshot", cwd=project).returncode == 0
    same = run_cli("diff", "--fail-on", "any", "--format", "json", cwd=project)
    assert same.returncode == 0, same.stderr
    assert [t["target"] for t in same.json()["targets"]] == ["v2"] and same.json()["targets"][0]["class"] is None
    grow(project / SURFACE, 50)
    changed = run_cli("diff", "--fail-on", "any", "--format", "markdown", cwd=project)
    assert changed.returncode == 1 and "`project_store` | changed | NON_BREAKING" in changed.stdout
    assert run_cli("diff", "--fail-on", "breaking", cwd=project).returncode == 0


def test_toolsurface_toml_with_target_tables_and_a_live_command(tmp_path: Path) -> None:
    write_surface(tmp_path / "v2copy.py")
    (tmp_path / "toolsurface.toml").write_text(
        "[targets.module]\n"
        'surface = "v2copy.py"\n'
        "max-chars = 100000\n\n"
        "[targets.server]\n"
        f'command = [{json.dumps(sys.executable)}, "-m", "toolsurface", "serve", "v2"]\n'
        "max-chars = 100\n"
        'client-capabilities = ["roots"]\n',
        encoding="utf-8",
    )
    shown = run_cli("config", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[:3] == [
        "configuration: toolsurface.toml",
        "budget log: toolsurface-budget.log (no entries yet)",
        "target module [targets.module]",
    ]
    assert "  client-capabilities: roots" in shown.stdout
    data = run_cli("config", "--format", "json", cwd=tmp_path).json()
    assert [t["name"] for t in data["targets"]] == ["module", "server"]
    assert data["targets"][0]["surface"] == str(tmp_path / "v2copy.py")
    both = run_cli("budget", cwd=tmp_path)
    assert both.returncode == 1
    assert both.stdout.splitlines()[0].startswith("module: 8 tools")
    assert (
        both.stdout.strip().splitlines()[-1].startswith("server: 8 tools") and "over budget (100 chars)" in both.stdout
    )
    only = run_cli("budget", "--target", "module", cwd=tmp_path)
    assert only.returncode == 0 and only.stdout.startswith("module: 8 tools")
    assert_one_line_error(
        run_cli("budget", "--target", "nope", cwd=tmp_path), "toolsurface.toml", "no target named 'nope'"
    )


def test_the_configuration_is_found_from_a_subdirectory_and_paths_are_relative_to_it(tmp_path: Path) -> None:
    project = make_project(tmp_path, max_chars=7000)
    (project / "src" / "deep").mkdir(parents=True)
    run = run_cli("budget", cwd=project / "src" / "deep")
    assert run.returncode == 0 and run.stdout.startswith("v2: 8 tools")


def test_config_without_a_configuration_is_one_line(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the search stops at the repository's root
    assert_one_line_error(run_cli("config", cwd=tmp_path), "no configuration")
    assert_one_line_error(run_cli("budget", cwd=tmp_path), "give a SURFACE", "[tool.toolsurface]")


@pytest.mark.parametrize(
    ("table", "key", "problem"),
    [
        (
            'surface = "v2"\nmax-chars = 7000\nmax_chars = 1\n',
            "tool.toolsurface.max_chars",
            "unknown key; did you mean 'max-chars'?",
        ),
        (
            'surface = "v2"\nmax-chars = "7000"\n',
            "tool.toolsurface.max-chars",
            "expected an integer, got a string '7000'",
        ),
        ('surface = "v2"\nmax-chars = -1\n', "tool.toolsurface.max-chars", "expected a whole number of 0 or more"),
        ('surface = "v2"\n', "tool.toolsurface.max-chars", "missing: every target needs a budget"),
        ("max-chars = 7000\n", "tool.toolsurface", "no target: give surface, command or url"),
        ('surface = "nowhere/v9.py"\nmax-chars = 7000\n', "tool.toolsurface.surface", "nowhere/v9.py: no such file"),
        ('surface = "v9"\nmax-chars = 7000\n', "tool.toolsurface.surface", "unknown surface 'v9'"),
        (
            'surface = "v2"\nurl = "http://x"\nmax-chars = 1\n',
            "tool.toolsurface.url",
            "give one of surface, command or url",
        ),
        (
            'command = ["srv"]\nmax-chars = 1\nclient-capabilities = ["telepathy"]\n',
            "tool.toolsurface.client-capabilities",
            "unknown capability 'telepathy'",
        ),
        ("command = 42\nmax-chars = 1\n", "tool.toolsurface.command", "expected a command line"),
        ('url = "ftp://x"\nmax-chars = 1\n', "tool.toolsurface.url", "expected an http:// or https:// URL"),
        (
            'url = "https://x/mcp"\nmax-chars = 1\nheaders = { Authorization = "Bearer ${NO_SUCH_TOKEN_VAR}" }\n',
            "tool.toolsurface.headers.Authorization",
            "environment variable NO_SUCH_TOKEN_VAR is not set",
        ),
        ("targets = 3\n", "tool.toolsurface.targets", "expected a table of targets, got an integer 3"),
        (
            '[tool.toolsurface.targets.a]\nsurface = "v2"\nmax-chars = true\n',
            "tool.toolsurface.targets.a.max-chars",
            "expected an integer, got a boolean True",
        ),
        ("surface = \n", "", "not valid TOML"),
    ],
)
def test_a_bad_configuration_is_one_line_naming_the_file_the_key_and_the_problem(
    tmp_path: Path, table: str, key: str, problem: str
) -> None:
    header = "" if table.startswith("[") else "[tool.toolsurface]\n"
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n{header}{table}', encoding="utf-8")
    for command in (["budget"], ["config"], ["diff"]):
        line = assert_one_line_error(run_cli(*command, cwd=tmp_path), problem)
        assert line.startswith(f"toolsurface: pyproject.toml: {key}{': ' if key else ''}"), line


def test_a_budget_log_line_that_is_not_an_entry_is_one_line_naming_the_file_and_line(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / LOG).write_text("# budget history\nnot json\n", encoding="utf-8")
    assert_one_line_error(run_cli("budget", cwd=project), f"{LOG}:2: not a budget log entry")


def _small_files(limit: int) -> object:
    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_file_size


def test_a_budget_log_that_cannot_take_the_new_line_leaves_the_configuration_as_it_was(tmp_path: Path) -> None:
    """A file-size limit lets the small configuration be written but not the log, which already holds more
    than the limit: the update fails naming the log, and neither file changed."""
    project = make_project(tmp_path / "server", max_chars=7000)
    (project / LOG).write_text("# notes\n" + "# padding\n" * 1000, encoding="utf-8")
    config_before, log_before = (project / "pyproject.toml").read_bytes(), (project / LOG).read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "toolsurface", "budget", "--update", "--reason", "set to the list"],
        cwd=project, capture_output=True, text=True, timeout=120, preexec_fn=_small_files(4096),  # type: ignore[arg-type]
    )  # fmt: skip
    assert_one_line_error(Run(done.returncode, done.stdout, done.stderr), f"cannot write {project / LOG}")
    assert (project / "pyproject.toml").read_bytes() == config_before
    assert (project / LOG).read_bytes() == log_before
    assert sorted(p.name for p in project.iterdir()) == ["pyproject.toml", "surfaces", LOG]


def test_a_read_only_budget_log_is_refused_before_the_configuration_is_touched(tmp_path: Path) -> None:
    """A log this process may not write (mode 0444; for root, which writes any mode, the immutable
    attribute) is refused at once, though a rename over it would succeed."""
    project = make_project(tmp_path / "server", max_chars=7000)
    log = project / LOG
    log.write_text("", encoding="utf-8")
    before = (project / "pyproject.toml").read_bytes()
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(log)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.fail(f"chattr +i is not available here: {done.stderr!r}")
    else:
        log.chmod(0o444)
    try:
        run = run_cli("budget", "--update", "--reason", "set to the list", cwd=project)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(log)], check=True)
    assert_one_line_error(run, f"cannot write {log}")
    assert (project / "pyproject.toml").read_bytes() == before and log.read_bytes() == b""


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"format": "toolsurface-budget-log/1", "chars": 1e400}', "not a budget log entry"),
        ("[" * 100_000 + "]" * 100_000, "nests 100000 levels deep"),
    ],
    ids=["1e400", "nested-100000"],
)
def test_a_budget_log_line_that_is_no_entry_is_one_line_naming_the_file_and_line(
    tmp_path: Path, line: str, problem: str
) -> None:
    project = make_project(tmp_path)
    entry = (
        '{"time": "2026-01-01T00:00:00Z", "revision": null, "target": "v2", "step": "lower", '
        '"max_chars": {"old": 1e400, "new": 6000}, "max_tokens": {"old": null, "new": null}, "chars": 6000, '
        '"tokens": null, "reason": "r", "tools": {}, "format": "toolsurface-budget-log/1"}'
    )
    (project / LOG).write_text("# notes\n" + (entry if "1e400" in line else line) + "\n", encoding="utf-8")
    assert_one_line_error(run_cli("budget", cwd=project), f"{LOG}:2: not a budget log entry", problem.split()[0])


def test_a_fifo_where_the_budget_log_is_is_refused_without_waiting(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    os.mkfifo(project / LOG)
    assert_one_line_error(run_cli("budget", cwd=project, timeout=30), LOG, "a FIFO")


def test_a_configuration_nested_500_levels_deep_is_one_line_naming_it(tmp_path: Path) -> None:
    project = make_project(tmp_path, extra="deep = " + "[" * 500 + "]" * 500 + "\n")
    assert_one_line_error(run_cli("budget", cwd=project), "pyproject.toml", "nest too deeply")


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_timeout_that_is_not_a_finite_number_of_seconds_is_refused(tmp_path: Path, value: str) -> None:
    project = make_project(tmp_path, extra=f"timeout = {value}\n")
    assert_one_line_error(run_cli("config", cwd=project), "timeout", "expected a number of seconds above 0")


def test_a_line_break_in_a_target_key_keeps_its_error_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolsurface.targets."a\\nb"]\nsurface = "v2"\nmax-chars = -1\n', encoding="utf-8"
    )
    assert_one_line_error(run_cli("config", cwd=tmp_path), 'targets."a\\nb".max-chars')


def _entry_line(**changes: object) -> str:
    entry: dict[str, object] = {
        "time": "2026-01-01T00:00:00Z", "revision": None, "target": "v2", "step": "lower",
        "max_chars": {"old": 8000, "new": 7000}, "max_tokens": {"old": None, "new": None}, "chars": 7000,
        "tokens": None, "reason": "first", "tools": {}, "format": "toolsurface-budget-log/1",
    }  # fmt: skip
    return json.dumps(entry | changes)


@pytest.mark.parametrize(
    ("kind", "needles"),
    [
        ("truncated", (f"{LOG}:2: the budget log's last line is cut off",)),
        ("tokens-true", (f"{LOG}:1: not a budget log entry", "tokens is true, not a number of tokens")),
        ("chars-true", (f"{LOG}:1: not a budget log entry", "max_chars.new is true, not a number of characters")),
        ("tool-size-true", (f"{LOG}:1: not a budget log entry", "tools is not a table of sizes")),
        ("symbolic-link", ("the budget log is a symbolic link (to ", "name the file itself")),
        ("hard-link", ("the budget log has 2 names (hard links)",)),
    ],
)
def test_a_budget_log_that_an_update_would_damage_is_refused_in_one_line_and_nothing_changes(
    tmp_path: Path, kind: str, needles: tuple[str, ...]
) -> None:
    """A last line cut off (the new lines would follow it, leaving it broken in the middle), a figure that is
    true rather than a number, and a log that is a link (replacing it whole would cut it from its other name)
    are each refused before anything is measured or written."""
    project = make_project(tmp_path / "server", max_chars=7000)
    log, elsewhere = project / LOG, tmp_path / "kept.log"
    if kind == "truncated":
        log.write_text(_entry_line() + "\n" + _entry_line()[:50], encoding="utf-8")
    elif kind == "tokens-true":
        log.write_text(_entry_line(tokens=True) + "\n", encoding="utf-8")
    elif kind == "chars-true":
        log.write_text(_entry_line(max_chars={"old": 8000, "new": True}) + "\n", encoding="utf-8")
    elif kind == "tool-size-true":
        log.write_text(_entry_line(tools={"t": True}) + "\n", encoding="utf-8")
    else:
        elsewhere.write_text(_entry_line() + "\n", encoding="utf-8")
        if kind == "symbolic-link":
            log.symlink_to(elsewhere)
        else:
            os.link(elsewhere, log)
    files = [project / "pyproject.toml", log, elsewhere]
    before = [(path.is_symlink(), path.read_bytes() if path.exists() else None) for path in files]
    for verb in (("--update",), ("--raise",)):
        run = run_cli("budget", *verb, "--reason", "set to the list", cwd=project)
        assert_one_line_error(run, *needles)
        assert run.stdout == ""
    assert [(path.is_symlink(), path.read_bytes() if path.exists() else None) for path in files] == before
