"""toolsurface installed from its wheel beside a server project that has packages named as toolsurface's
subpackages (`harness`, `stubs`, `surfaces`, `sessions`): the wheel installs one import name, `toolsurface`, so
the project's packages stay its own wherever it runs, installing the project changes nothing of toolsurface's,
and the `toolsurface` fixture the wheel registers still measures and compares lists there."""

from __future__ import annotations

import os
import subprocess
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.helpers.wheel import built_wheel, fresh_wheel_python, wheel_python
from toolsurface.harness.surface import SurfaceDefinition, resolve

OWN = ("harness", "stubs", "surfaces", "sessions")

CONFTEST = """
import harness
import sessions
import stubs
import surfaces  # the project's own, imported before any test runs
"""

TESTS = """
import sys

import harness
import stubs
import surfaces
from mcp.server import MCPServer

app = MCPServer("demo")


@app.tool()
def add(a: int, b: int = 2) -> int:
    \"\"\"Add two numbers.\"\"\"
    return a + b


def own() -> list[str]:
    return [harness.WHOSE, stubs.WHOSE, surfaces.WHOSE, sys.modules["harness"].WHOSE]


def test_the_project_imports_its_own_packages(request):
    assert own() == ["the project's harness", "the project's stubs", "the project's surfaces", "the project's harness"]
    assert request.config.pluginmanager.has_plugin("toolsurface")


def test_the_fixture_measures_a_bundled_surface_and_the_project_server(toolsurface):
    assert toolsurface.assert_within("v2", max_chars=1_000_000, max_tokens=1_000_000).tools == {v2_tools}
    assert toolsurface.assert_matches_snapshot(app, "tools.snapshot.json") is None  # written
    assert toolsurface.assert_matches_snapshot(app, "tools.snapshot.json").cls is None  # compared, equal
    assert [t["name"] for t in toolsurface.tools(app)] == ["add"]


def test_the_project_packages_are_its_own_after_the_fixture_ran(toolsurface):
    toolsurface.measure("v2", tokens=False)
    import harness.part

    assert own() == ["the project's harness", "the project's stubs", "the project's surfaces", "the project's harness"]
    assert harness.part.WHOSE == "the project's harness.part"
"""


def make_project(root: Path) -> Path:
    project = root / "server-project"
    for name in OWN:
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text(f'WHOSE = "the project\'s {name}"\n', encoding="utf-8")
    (project / "harness" / "part.py").write_text('WHOSE = "the project\'s harness.part"\n', encoding="utf-8")
    (project / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n", encoding="utf-8")
    (project / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    tools = resolve("v2")
    assert isinstance(tools, SurfaceDefinition)
    tests = textwrap.dedent(TESTS).replace("{v2_tools}", str(len(tools.build_surface().tools)))
    (project / "tests").mkdir()
    (project / "tests" / "test_server.py").write_text(tests, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def python() -> Path:
    return wheel_python()


def run_project_tests(argv: list[str], project: Path) -> Run:
    # The inner run sees what a user's shell has: none of this run's pytest or CI settings, nothing on PYTHONPATH.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "PYTHON")) and k not in ("CI", "BUILD_NUMBER")
    }
    done = subprocess.run(
        [*argv, "-p", "no:cacheprovider", "-q"], cwd=project, env=env, capture_output=True, text=True, timeout=300
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("started", ["python -m pytest", "bin/pytest"])
def test_a_project_with_its_own_harness_stubs_and_surfaces_runs_green_with_toolsurface_installed(
    python: Path, tmp_path: Path, started: str
) -> None:
    project = make_project(tmp_path)
    argv = [str(python), "-m", "pytest"] if started == "python -m pytest" else [str(python.parent / "pytest")]
    run = run_project_tests(argv, project)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "3 passed" in run.stdout
    assert (project / "tools.snapshot.json").is_file()


def test_the_wheel_installs_toolsurface_and_its_dist_info_and_nothing_else(python: Path) -> None:
    with zipfile.ZipFile(built_wheel()) as wheel:
        record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
        tops = {line.split(",")[0].split("/")[0] for line in wheel.read(record).decode().splitlines() if line}
    assert tops == {"toolsurface", record.split("/")[0]}
    installed = next(python.parent.parent.glob("lib/python*/site-packages/toolsurface-*.dist-info/RECORD"))
    lines = installed.read_text(encoding="utf-8").splitlines()
    # Outside site-packages, only the console script (`../../../bin/toolsurface`).
    assert {line.split(",")[0].split("/")[0] for line in lines if not line.startswith("..")} == tops


def test_the_installed_report_page_carries_the_style_and_script_the_checkout_renders(
    python: Path, tmp_path: Path
) -> None:
    from toolsurface.harness.measure import measure
    from toolsurface.harness.report import build_bundle, render_page
    from toolsurface.harness.surface import resolve_all

    code = (
        "import sys\n"
        "from toolsurface.harness.measure import measure\n"
        "from toolsurface.harness.report import build_bundle, render_page\n"
        "from toolsurface.harness.surface import resolve_all\n"
        "sys.stdout.write(render_page(build_bundle(measure(resolve_all(['v2']))), {}))\n"
    )
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == render_page(build_bundle(measure(resolve_all(["v2"]))), {})
    assert "table.data th {" in done.stdout and "function sortRows(table)" in done.stdout


def test_the_installed_plugin_loads_nothing_of_toolsurface_but_itself(python: Path) -> None:
    code = (
        "import sys, toolsurface.pytest_plugin\n"
        "print(toolsurface.pytest_plugin.__file__)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('toolsurface', *{own})))"
    ).replace("{own}", repr(OWN))
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=60, cwd=python.parent)
    assert done.returncode == 0, done.stderr
    where, loaded = done.stdout.splitlines()
    assert Path(where).parent.parent.name == "site-packages"
    assert loaded == "['toolsurface', 'toolsurface.pytest_plugin']"


PROJECT_TOML = """
[build-system]
requires = ["hatchling>=1.25"]
build-backend = "hatchling.build"

[project]
name = "myproj"
version = "1.0"

[tool.hatch.build.targets.wheel]
packages = {packages}
"""


def _user_env() -> dict[str, str]:
    """What a user's shell has: none of this run's pytest or CI settings, nothing on PYTHONPATH."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "PYTHON")) and k not in ("CI", "BUILD_NUMBER")
    }


def _in(venv_python: Path, argv: list[str], cwd: Path, **env: str) -> Run:
    done = subprocess.run(argv, cwd=cwd, env={**_user_env(), **env}, capture_output=True, text=True, timeout=600)
    return Run(done.returncode, done.stdout, done.stderr)


def test_a_project_installed_beside_toolsurface_keeps_its_packages_and_leaves_toolsurface_working(
    tmp_path: Path,
) -> None:
    python = fresh_wheel_python(tmp_path / "venv")
    bin_dir = python.parent
    project = make_project(tmp_path)
    (project / "pyproject.toml").write_text(PROJECT_TOML.replace("{packages}", repr(list(OWN))), encoding="utf-8")
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]

    editable = _in(python, [*pip, "-e", "."], project)
    assert editable.returncode == 0, editable.stderr
    whose = (
        "import harness, stubs, surfaces, sessions; print(harness.WHOSE, stubs.WHOSE, surfaces.WHOSE, sessions.WHOSE)"
    )
    mine = "the project's harness the project's stubs the project's surfaces the project's sessions"
    assert _in(python, [str(python), "-c", whose], Path("/")).stdout.strip() == mine
    tests = _in(python, [str(bin_dir / "pytest"), "-p", "no:cacheprovider", "-q"], project)
    assert tests.returncode == 0 and "3 passed" in tests.stdout, tests.stdout[-4000:] + tests.stderr[-2000:]
    measured = _in(python, [str(bin_dir / "toolsurface"), "measure", "v2", "--format", "csv"], project, PYTHONPATH=".")
    assert measured.returncode == 0 and measured.stdout.splitlines()[1].startswith("v2,"), measured.stderr

    installed = _in(python, [*pip, "."], project)
    assert installed.returncode == 0, installed.stderr
    assert _in(python, [str(python), "-c", whose], Path("/")).stdout.strip() == mine
    again = _in(python, [str(bin_dir / "toolsurface"), "measure", "v2", "--format", "csv"], Path("/"))
    assert again.returncode == 0 and again.stdout == measured.stdout, again.stderr
    checked = _in(python, [str(python), "-m", "pip", "check"], tmp_path)
    assert checked.returncode == 0, checked.stdout
