"""The GitHub workflow `toolsurface init` writes: on every push and pull request, the project's own setup (so a
server that imports its own packages starts), then the Action holding each configured target to its budget and
comparing it with its committed snapshot. The setup installs what the project declares (pyproject.toml,
setup.py, requirements*.txt, package.json); a project that declares nothing gets an install of the
distributions its server imports (harness.init._imports)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolsurface.harness.init._imports import ServerImports

__all__ = ["DEFAULT_ACTION", "ProjectSetup", "project_setup", "run_steps", "workflow_text"]

# Where the Action is published is the user's to say (`init --action OWNER/REPO@REF`): this project names no host.
DEFAULT_ACTION = "OWNER/toolsurface@main"
_STEP = "      - run: "


@dataclass(frozen=True)
class ProjectSetup:
    """What the workflow does before the Action: `declared`, the files the project declares its packages in;
    `imports`, for a project that declares none, what its server imports (installed by a step of its own)."""

    declared: tuple[str, ...]
    installs: tuple[str, ...]
    node: bool = False
    imports: ServerImports | None = None

    @property
    def declares_python(self) -> bool:
        return any(name != "package.json" for name in self.declared)

    @property
    def imports_install(self) -> str | None:
        """The step that installs what the server imports, when the project declares nothing for Python."""
        if self.imports is None or not self.imports.requirements:
            return None
        return "python -m pip install " + " ".join(self.imports.specs)

    @property
    def lines(self) -> list[str]:
        lines = []
        for command in self.installs:
            if command.startswith("npm "):
                lines.append("      - uses: actions/setup-node@v4")
            elif command == self.imports_install:
                lines.append(
                    "      # What the server imports: the project declares no packages (pyproject.toml,"
                    " requirements.txt); declared there, they are kept in one place"
                )
            lines.append(_STEP + command)
        return lines


def _declares_a_package(pyproject: Path) -> bool:
    """Whether pyproject.toml makes the folder installable (a [project] or a [build-system]), not only configures
    tools; one that cannot be read declares nothing (init refuses it before this is asked)."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False
    return "project" in data or "build-system" in data or "poetry" in data.get("tool", {})


def project_setup(root: Path, imports: ServerImports | None = None) -> ProjectSetup:
    """What the project at `root` declares, and the commands that install it; `imports` (what the server imports
    from other packages) is installed when it declares nothing for Python."""
    declared: list[str] = []
    installs: list[str] = []
    if (root / "pyproject.toml").is_file() and _declares_a_package(root / "pyproject.toml"):
        declared.append("pyproject.toml")
    declared += [name for name in ("setup.py", "setup.cfg") if (root / name).is_file()]
    if declared:
        installs.append("python -m pip install -e .")
    requirements = sorted(p.name for p in root.glob("requirements*.txt") if p.is_file())
    requirements.sort(key=lambda name: name != "requirements.txt")
    if requirements:
        declared += requirements
        installs.append("python -m pip install " + " ".join(f"-r {name}" for name in requirements))
    python_declared = bool(declared)
    node = (root / "package.json").is_file()
    if node:
        declared.append("package.json")
        installs.append("npm ci" if (root / "package-lock.json").is_file() else "npm install")
    setup = ProjectSetup(tuple(declared), tuple(installs), node, None if python_declared else imports)
    if setup.imports_install is None:
        return setup
    return ProjectSetup(tuple(declared), (setup.imports_install, *installs), node, imports)


def workflow_text(setup: ProjectSetup, action: str) -> str:
    placeholder = (
        [
            "      # OWNER: where toolsurface's Action is published (toolsurface init --action OWNER/REPO@REF);"
            " toolsurface has no release tag yet: pin a commit"
        ]
        if action == DEFAULT_ACTION
        else []
    )
    lines = [
        "# Written by toolsurface init: the MCP server's tool list held to its budget, and compared with its",
        "# committed snapshot (a breaking change fails the job), on every push and pull request.",
        "name: toolsurface",
        "on: [push, pull_request]",
        "jobs:",
        "  tool-list:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with: {python-version: '3.12'}",
        *setup.lines,
        *placeholder,
        f"      - uses: {action}",
        "        with: {snapshot: configured, fail-on: breaking}",
    ]
    return "\n".join(lines) + "\n"


def run_steps(workflow: str) -> list[str]:
    """The commands of a workflow's one-line `run:` steps, in order (what init writes; a step written over
    several lines is not read)."""
    runs = [
        line.strip().removeprefix("- run: ").strip()
        for line in workflow.splitlines()
        if line.strip().startswith("- run: ")
    ]
    return [run for run in runs if not run.startswith(("|", ">"))]
