"""The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself in a temporary git repository with the
hooks installed from this checkout (`repo:` its path, `rev:` its HEAD): a commit that pushes the configured list
over its budget fails; a server that imports the project's own package is listed by the hook that runs in the
project's environment, and the isolated hook's failure on it says to use that one."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.helpers.budget_project import SURFACE, grow, make_project


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


def test_the_hooks_file_names_the_budget_hook_isolated_and_in_the_projects_environment() -> None:
    isolated, system = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isolated["id"] == "toolsurface-budget" and isolated["language"] == "python"
    assert system["id"] == "toolsurface-budget-system" and system["language"] == "system"
    for hook in (isolated, system):
        assert hook["entry"] == "toolsurface budget" and hook["pass_filenames"] is False
    assert system["files"] == isolated["files"]


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


SERVER = """\
import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from helpdesk_core import TOOLS


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(**tool) for tool in TOOLS])


async def main():
    server = Server("acme/help desk", version="1.0.0", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
"""
CORE = """\
TOOLS = [
    {"name": "ticket_get", "description": "One ticket by its id.",
     "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
]
"""


def project_with_own_package(root: Path, environment_dir: Path) -> tuple[Path, dict[str, str]]:
    """A server project whose server imports its own package (src/helpdesk_core, installed in the project's
    environment as an editable install is, by a .pth file), and the PATH of that environment made active: its
    `python` first, then this interpreter's scripts (toolsurface, installed there as a dev dependency is)."""
    (root / "src" / "helpdesk_core").mkdir(parents=True)
    (root / "src" / "helpdesk_core" / "__init__.py").write_text(CORE, encoding="utf-8")
    (root / "server.py").write_text(SERVER, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "helpdesk"\n\n[tool.toolsurface]\ncommand = ["python", "server.py"]\nmax-chars = 2000\n',
        encoding="utf-8",
    )
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(environment_dir)], check=True, timeout=120)
    purelib = sysconfig.get_paths(vars={"base": str(environment_dir), "platbase": str(environment_dir)})["purelib"]
    ours = sysconfig.get_paths()["purelib"]
    (Path(purelib) / "helpdesk.pth").write_text(f"{root / 'src'}\n{ours}\n", encoding="utf-8")
    path = os.pathsep.join([str(environment_dir / "bin"), str(Path(sys.executable).parent), os.environ["PATH"]])
    return root, {"PATH": path, "VIRTUAL_ENV": str(environment_dir)}


def use_hook(repo: Path, revision: str, hook: str) -> None:
    (repo / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": str(ROOT), "rev": revision, "hooks": [{"id": hook}]}]}), encoding="utf-8"
    )


def test_the_system_hook_lists_a_server_that_imports_the_projects_own_package_where_the_isolated_one_cannot(
    tmp_path: Path, environment: dict[str, str]
) -> None:
    revision = checkout_revision()
    repo, active = project_with_own_package(tmp_path / "server", tmp_path / "project-env")
    env = {**environment, **active}
    git("init", "-q", cwd=repo, env=env)
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr

    use_hook(repo, revision, "toolsurface-budget-system")
    git("add", "-A", cwd=repo, env=env)
    done = git("commit", "-m", "the server and its budget", cwd=repo, env=env, check=False)
    assert done.returncode == 0, done.stdout
    assert "toolsurface budget (project environment)" in done.stdout and "Passed" in done.stdout

    use_hook(repo, revision, "toolsurface-budget")
    (repo / "server.py").write_text(SERVER + "# the same server\n", encoding="utf-8")
    git("add", "-A", cwd=repo, env=env)
    isolated = git("commit", "-m", "the isolated hook", cwd=repo, env=env, check=False)
    assert isolated.returncode != 0
    assert "No module named 'helpdesk_core'" in isolated.stdout
    assert "use the toolsurface-budget-system hook" in isolated.stdout
