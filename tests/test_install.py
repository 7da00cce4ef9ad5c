"""toolsurface installed from its wheel beside a server project that has packages named as toolsurface's own
(`harness`, `stubs`, `surfaces`): the project's pytest run keeps its own packages, and the `toolsurface`
fixture the wheel registers still measures and compares lists there."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from harness.surface import SurfaceDefinition, resolve
from tests.conftest import Run
from tests.wheel import wheel_python

OWN = ("harness", "stubs", "surfaces")

CONFTEST = """
import harness
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


def test_the_installed_plugin_is_a_module_of_its_own_that_loads_none_of_toolsurface_packages(python: Path) -> None:
    code = (
        "import sys, toolsurface_pytest\n"
        "print(toolsurface_pytest.__file__)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(toolsurface_pytest.OUR_PACKAGES)))"
    )
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=60, cwd=python.parent)
    assert done.returncode == 0, done.stderr
    where, loaded = done.stdout.splitlines()
    assert Path(where).parent.name == "site-packages"
    assert loaded == "[]"
