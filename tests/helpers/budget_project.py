"""A server project with its tool list under a budget: a copy of the Conderis v2 tools module (the eight tools
and their descriptions beside their handlers in one file, so the copy can be edited) with v2's SURFACE built
from the copy, and a pyproject.toml naming it; and a designer's own server alone in a folder, as init finds it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tests.conftest import ROOT, Run
from tests.helpers.paths import FIXTURES

TOOLS = ROOT / "toolsurface" / "surfaces" / "conderis" / "v2_tools.py"
V2 = ROOT / "toolsurface" / "surfaces" / "conderis" / "v2.py"
# A description of v2's project_store tool, as it is in the module's text (its last part a string of its own).
DESCRIPTION = '"Create or change a project. An omitted value is kept" + ours(", null clears it", 57) + "."'


def write_surface(path: Path) -> Path:
    """v2_tools.py and v2.py's SURFACE in one module, built from the copy: the tool texts live in the copy."""
    tools = TOOLS.read_text(encoding="utf-8")
    v2 = V2.read_text(encoding="utf-8")
    surface = (
        v2[v2.index("SURFACE = ") :]
        .replace("v2_surface(", "study(")
        .replace("    FINAL,\n", "    ToolsModule(__name__, (FINAL,)),\n    V2,\n")
    )
    imports = (
        "from toolsurface.surfaces.conderis._shared import ToolsModule, study\n"
        "from toolsurface.surfaces.conderis.instructions import V2\n"
        "from toolsurface.surfaces.conderis.v2_design import FINAL\n"
    )
    path.write_text(f"{tools}\n{imports}\n{surface}", encoding="utf-8")
    assert DESCRIPTION in path.read_text(encoding="utf-8")
    return path


def grow(path: Path, chars: int, text: str = DESCRIPTION) -> None:
    """Append `chars` characters to the description `text` in the module at `path`."""
    source = path.read_text(encoding="utf-8")
    assert text in source
    path.write_text(source.replace(text, text[:-1] + " " + "x" * (chars - 1) + '"'), encoding="utf-8")


SURFACE = "surfaces/conderis/v2.py"
HELP_DESK = FIXTURES / "servers" / "acme_help_desk.py"


def desk_project(tmp_path: Path) -> Path:
    """A folder holding a designer's server (tests/fixtures/servers/acme_help_desk.py as server.py) and nothing else:
    no pyproject.toml, no requirements."""
    folder = tmp_path / "desk"
    folder.mkdir()
    shutil.copy(HELP_DESK, folder / "server.py")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` and its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def make_project(root: Path, max_chars: int = 7000, extra: str = "") -> Path:
    """pyproject.toml with [tool.toolsurface] naming surfaces/conderis/v2.py (a copy) and max-chars."""
    (root / SURFACE).parent.mkdir(parents=True, exist_ok=True)
    write_surface(root / SURFACE)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "demo-server"\n\n[tool.toolsurface]\n'
        f'surface = "{SURFACE}"  # the eight tools\nmax-chars = {max_chars}\n{extra}',
        encoding="utf-8",
    )
    return root


# `budget` with the process made to wait, where the ratchet records the git revision, until the other process
# named by BARRIER_OTHER has come as far (10 s at most): two updates then take their step at the same moment.
_MEETING = """
import os, runpy, sys, time
from pathlib import Path
import toolsurface.harness.budget._ratchet as ratchet
mine, other = Path(os.environ["BARRIER_MINE"]), Path(os.environ["BARRIER_OTHER"])
revision = ratchet.git_revision
def meet(directory):
    mine.touch()
    deadline = time.monotonic() + 10
    while not other.exists() and time.monotonic() < deadline:
        time.sleep(0.002)
    return revision(directory)
ratchet.git_revision = meet
sys.argv = ["toolsurface", *sys.argv[1:]]
runpy.run_module("toolsurface", run_name="__main__")
"""


def updates_at_once(project: Path, *argvs: Sequence[str]) -> list[Run]:
    """Each `argvs` a `toolsurface budget ...` process in `project`, all started at once and meeting before
    their step; their results in the same order."""
    meeting = project.parent / f"{project.name}.meeting"
    shutil.rmtree(meeting, ignore_errors=True)
    meeting.mkdir()
    names = [meeting / str(n) for n in range(len(argvs))]
    processes = []
    for n, argv in enumerate(argvs):
        env = {**os.environ, "BARRIER_MINE": str(names[n]), "BARRIER_OTHER": str(names[(n + 1) % len(names)])}
        command = [sys.executable, "-c", _MEETING, "budget", *argv]
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        processes.append(subprocess.Popen(command, cwd=project, env=env, text=True, **pipes))
    runs = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        runs.append(Run(process.returncode, out, err))
    shutil.rmtree(meeting, ignore_errors=True)
    return runs
