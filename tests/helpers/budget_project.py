"""A server project with its tool list under a budget: a copy of the Conderis v2 tools module (the eight tools
and their descriptions beside their handlers in one file, so the copy can be edited) with v2's SURFACE built
from the copy, and a pyproject.toml naming it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT

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
