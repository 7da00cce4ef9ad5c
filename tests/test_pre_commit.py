"""The pre-commit hook (.pre-commit-hooks.yaml), run by pre-commit itself in a temporary git repository with the
hook installed from this checkout (`repo:` its path, `rev:` its HEAD): a commit that pushes the configured list
over its budget fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.budget_project import SURFACE, grow, make_project
from tests.conftest import ROOT


def git(*args: str, cwd: Path, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    """git, its stderr (where pre-commit's hooks report) joined to its stdout."""
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=check,
        timeout=900,
    )


def checkout_revision() -> str:
    """This checkout's HEAD, when it is a git repository whose HEAD has the hooks file."""
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    revision = done.stdout.strip()
    if done.returncode != 0 or not revision:
        pytest.skip("this checkout is not a git repository")
    shown = subprocess.run(["git", "cat-file", "-e", f"{revision}:.pre-commit-hooks.yaml"], cwd=ROOT, check=False)
    if shown.returncode != 0:
        pytest.skip(".pre-commit-hooks.yaml is not committed yet")
    return revision


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """git with a user and no outside configuration; pre-commit's cache shared by the module's tests."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    gitconfig = home / "gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n", encoding="utf-8"
    )
    # pip in pre-commit's environment compiles nothing ahead (most of what it installs is never imported), and a
    # hook's first run writes the bytecode of what it imports, as on a machine that lets Python write it.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **env,
        "PIP_COMPILE": "0",
        "PRE_COMMIT_HOME": str(home / "cache"),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def test_the_hooks_file_names_the_budget_hook() -> None:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "toolsurface-budget" and hook["entry"] == "toolsurface budget"
    assert hook["language"] == "python" and hook["pass_filenames"] is False


def test_pre_commit_fails_a_commit_that_pushes_the_list_over_budget(
    tmp_path: Path, environment: dict[str, str]
) -> None:
    revision = checkout_revision()
    repo = make_project(tmp_path / "server", max_chars=7000)
    (repo / "README.md").write_text("A server.\n", encoding="utf-8")
    (repo / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": str(ROOT), "rev": revision, "hooks": [{"id": "toolsurface-budget"}]}]}),
        encoding="utf-8",
    )
    git("init", "-q", cwd=repo, env=environment)
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=repo, env=environment, capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr

    git("add", "-A", cwd=repo, env=environment)
    first = git("commit", "-m", "the server and its budget", cwd=repo, env=environment, check=False)
    assert first.returncode == 0, first.stdout
    assert "toolsurface budget" in first.stdout and "Passed" in first.stdout

    grow(repo / SURFACE, 500)
    git("add", "-A", cwd=repo, env=environment)
    over = git("commit", "-m", "a longer description", cwd=repo, env=environment, check=False)
    assert over.returncode != 0
    assert "toolsurface budget" in over.stdout and "Failed" in over.stdout
    assert "v2: 8 tools" in over.stdout and "over budget (7,000 chars) by" in over.stdout
    assert git("log", "--oneline", cwd=repo, env=environment).stdout.count("\n") == 1

    git("reset", "-q", cwd=repo, env=environment)
    git("checkout", "--", SURFACE, cwd=repo, env=environment)
    (repo / "README.md").write_text("A server, documented.\n", encoding="utf-8")
    git("add", "README.md", cwd=repo, env=environment)
    docs = git("commit", "-m", "docs only", cwd=repo, env=environment, check=False)
    assert docs.returncode == 0, docs.stdout
    assert "Skipped" in docs.stdout
