"""init writes CI that runs on the first push: a command whose interpreter is a virtual environment's or at an
absolute path is written with CI's `python`; the workflow installs what the project declares, or, where it
declares nothing, the distributions its server imports (read with ast, named by the interpreter that runs the
server); `init --check` starts the written command the way CI will, in a fresh virtual environment with only
what the workflow installs, and says whether it started."""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml

from tests.conftest import run_cli
from tests.helpers.budget_project import desk_project, files_of
from toolsurface.harness.init import ci_command, project_setup, server_imports
from toolsurface.harness.init._command import python_script

WORKFLOW = Path(".github") / "workflows" / "toolsurface.yml"


def virtual_environment(folder: Path, *, with_ours: bool = True) -> Path:
    """`folder/.venv`, a real virtual environment (without pip, made in a moment); `with_ours`: it sees the
    packages of the Python running the tests (mcp, anyio) through a .pth file, as a designer's venv has the SDK."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / ".venv")], check=True, timeout=120)
    python = folder / ".venv" / "bin" / "python"
    if with_ours:
        done = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        (Path(done.stdout.strip()) / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", "utf-8")
    return python


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return desk_project(tmp_path)


def names_no_machine_path(text: str, project: Path) -> bool:
    """No virtual environment, no absolute path (a word starting with /) in `text`."""
    return ".venv" not in text and str(project) not in text and not re.search(r"""(^|[\s"'=\[,])/""", text)


def test_init_with_a_virtual_environments_python_writes_what_ci_can_run_and_says_what_ci_must_install(
    project: Path,
) -> None:
    """The issue's acceptance: in a folder with no pyproject, `init -- .venv/bin/python server.py`."""
    virtual_environment(project)
    done = run_cli("init", "--", ".venv/bin/python", "server.py", cwd=project)
    assert done.returncode == 0, done.stderr
    config = (project / "toolsurface.toml").read_text(encoding="utf-8")
    workflow = (project / WORKFLOW).read_text(encoding="utf-8")
    assert tomllib.loads(config)["command"] == ["python", "server.py"]
    assert names_no_machine_path(config, project) and names_no_machine_path(workflow, project), (config, workflow)
    pins = f"anyio=={metadata.version('anyio')} mcp=={metadata.version('mcp')}"
    assert {"run": f"python -m pip install {pins}"} in yaml.safe_load(workflow)["jobs"]["tool-list"]["steps"]
    assert (
        "the command is written as `python server.py`: .venv/bin/python is a virtual environment's, which CI does"
        " not have; there `python` is the one the workflow sets up"
    ) in done.stdout
    assert (
        "the project declares no Python packages (no pyproject.toml, setup.py or requirements*.txt), so CI will not"
        f" have what server.py imports (anyio, mcp): the workflow installs {pins} (as .venv/bin/python has them)"
    ) in done.stdout


def test_init_check_starts_the_command_as_ci_will_and_says_when_it_does_not(project: Path) -> None:
    assert run_cli("init", "--", sys.executable, "server.py", cwd=project).returncode == 0
    before = files_of(project)
    checked = run_cli("init", "--check", cwd=project, timeout=900)
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    pins = f"anyio=={metadata.version('anyio')} mcp=={metadata.version('mcp')}"
    lines = checked.stdout.splitlines()
    assert lines[0] == (
        "a fresh environment as CI's, then the workflow toolsurface.yml's install steps, in a copy of the project:"
    )
    assert lines[1].startswith("  python -m venv: done (")
    assert lines[2].startswith(f"  python -m pip install {pins}: done (")
    assert lines[3] == (
        "acme-help-desk: started as CI will start it: `python server.py` answered initialize (acme/help desk 0.1.0,"
        " 3 tools)"
    )
    assert files_of(project) == before

    # The same workflow without its install step: the server cannot start where CI runs it.
    workflow = project / WORKFLOW
    workflow.write_text(
        workflow.read_text(encoding="utf-8").replace(f"      - run: python -m pip install {pins}\n", "")
    )
    failed = run_cli("init", "--check", cwd=project, timeout=900)
    assert failed.returncode == 1, (failed.stdout, failed.stderr)
    last = failed.stdout.strip().splitlines()[-1]
    assert last.startswith("acme-help-desk: did not start as CI will start it: python server.py: exited with code 1")
    assert "ModuleNotFoundError: No module named 'anyio'" in last


def test_init_check_without_a_configuration_is_one_line(tmp_path: Path) -> None:
    done = run_cli("init", "--check", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "run toolsurface init -- CMD ARGS" in done.stderr


@pytest.mark.parametrize(
    ("argv", "written", "why"),
    [
        ((".venv/bin/python", "server.py"), ("python", "server.py"), "a virtual environment's"),
        ((".venv/bin/python3.11", "-m", "srv"), ("python", "-m", "srv"), "a virtual environment's"),
        (("/usr/bin/python3", "server.py"), ("python", "server.py"), "a path on this machine"),
        (("/usr/local/bin/node", "index.js"), ("node", "index.js"), "a path on this machine"),
        ((".venv/bin/my-server", "--stdio"), ("my-server", "--stdio"), "the project's install puts `my-server`"),
        (("python", "server.py"), ("python", "server.py"), None),
        (("uvx", "mcp-server-time"), ("uvx", "mcp-server-time"), None),
    ],
)
def test_a_command_is_written_as_ci_runs_it(
    tmp_path: Path, argv: tuple[str, ...], written: tuple[str, ...], why: str | None
) -> None:
    virtual_environment(tmp_path, with_ours=False)
    for name in ("python3.11", "my-server"):
        link = tmp_path / ".venv" / "bin" / name
        if not link.exists():
            link.symlink_to(tmp_path / ".venv" / "bin" / "python")
    command = ci_command(argv, tmp_path)
    assert command.argv == written
    assert (command.replaced, command.why is None) == ((None, True) if why is None else (argv[0], False))
    assert why is None or why in str(command.why)


def test_a_command_at_a_path_ci_cannot_know_is_kept_and_said() -> None:
    command = ci_command(("/opt/acme/bin/help-desk", "--stdio"), Path("/"))
    assert command.argv == ("/opt/acme/bin/help-desk", "--stdio") and command.machine_path == "/opt/acme/bin/help-desk"


@pytest.mark.parametrize(
    ("argv", "runs"),
    [
        (("python", "-u", "-X", "dev", "server.py", "--port", "1"), ("script", "server.py")),
        (("python", "-m", "acme.server"), ("module", "acme.server")),
        (("python", "-macme"), ("module", "acme")),
        (("python", "-c", "import acme"), None),
    ],
)
def test_what_a_python_command_runs(argv: tuple[str, ...], runs: tuple[str, str] | None) -> None:
    assert python_script(argv) == runs


def test_the_server_imports_are_read_through_its_own_modules_and_named_by_their_distributions(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "import json, os.path\nfrom mcp.server import Server\nimport yaml\nimport helpers\nfrom desk import tools\n"
        "try:\n    import no_such_module_anywhere\nexcept ImportError:\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "helpers.py").write_text("import click\nfrom . import nothing\n", encoding="utf-8")
    (tmp_path / "desk").mkdir()
    (tmp_path / "desk" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "desk" / "tools.py").write_text("import anyio\nimport desk.other\n", encoding="utf-8")
    folders = [tmp_path, tmp_path, tmp_path / "src"]
    found = server_imports(folders, [tmp_path / "server.py"], Path(sys.executable), script="server.py", interpreter="x")
    assert found.specs == [f"{name}=={metadata.version(name)}" for name in ("anyio", "click", "mcp", "PyYAML")]
    assert found.unknown == ("no_such_module_anywhere",) and found.source == "x"
    # An interpreter without the SDK: the MCP SDK's import name is its distribution's, unpinned.
    bare = virtual_environment(tmp_path / "bare", with_ours=False)
    alone = server_imports(folders, [tmp_path / "server.py"], bare, script="server.py", interpreter="bare")
    assert alone.specs == ["mcp"]
    assert alone.unknown == ("anyio", "click", "no_such_module_anywhere", "yaml")


@pytest.mark.parametrize(
    ("files", "runs"),
    [
        ({"pyproject.toml": '[project]\nname = "desk"\n'}, ["python -m pip install -e ."]),
        ({"setup.py": ""}, ["python -m pip install -e ."]),
        (
            {"requirements-dev.txt": "pytest\n", "requirements.txt": "mcp\n"},
            ["python -m pip install -r requirements.txt -r requirements-dev.txt"],
        ),
        ({"package.json": "{}", "package-lock.json": "{}"}, ["python -m pip install mcp", "npm ci"]),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, ["python -m pip install mcp"]),
    ],
    ids=["pyproject", "setup.py", "requirements", "package.json", "a-pyproject-of-tool-settings-only"],
)
def test_the_workflow_installs_what_the_project_declares_else_what_the_server_imports(
    tmp_path: Path, files: dict[str, str], runs: list[str]
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "server.py").write_text("import mcp\n", encoding="utf-8")
    imports = server_imports([tmp_path], [tmp_path / "server.py"], None, script="server.py", interpreter="python")
    setup = project_setup(tmp_path, imports)
    assert [line.removeprefix("      - run: ") for line in setup.lines if "- run: " in line] == runs
    assert ("      - uses: actions/setup-node@v4" in setup.lines) == ("package.json" in files)


def test_the_workflow_says_to_pin_a_commit_as_the_readme_does(tmp_path: Path) -> None:
    from tests.conftest import ROOT
    from toolsurface.harness.init import DEFAULT_ACTION, workflow_text

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "toolsurface has no release tag yet: pin a commit." in readme
    comment = next(
        line for line in workflow_text(project_setup(tmp_path), DEFAULT_ACTION).splitlines() if "OWNER:" in line
    )
    assert comment.endswith("toolsurface has no release tag yet: pin a commit") and "tag;" not in comment


def test_a_module_of_an_installed_package_is_named_by_its_distribution(tmp_path: Path) -> None:
    """`python -m mcp_server_time` in a folder that declares nothing: CI must install mcp-server-time."""
    found = server_imports(
        [tmp_path],
        [],
        Path(sys.executable),
        script="mcp_server_time",
        interpreter="python",
        modules=["mcp_server_time"],
    )
    assert found.specs == [f"mcp-server-time=={metadata.version('mcp-server-time')}"] and found.unknown == ()


def test_init_check_of_a_configuration_with_no_command_starts_nothing(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text('url = "http://127.0.0.1:9/mcp"\nmax-chars = 100\n', "utf-8")
    done = run_cli("init", "--check", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "no command target is configured (others: server): CI starts nothing, nothing was checked\n"
