"""`toolsurface init`: what a server project needs for CI, planned from one listing of its server and written at
once. The configuration (a target for the server, a budget from its size now plus a margin, its snapshot and
calls file), the snapshot diff compares with, starter queries and calls (drafts), and a GitHub workflow using the
Action. The command is written as CI runs it (harness.init._command), and the workflow installs what the project
declares, or what its server imports when it declares nothing. Nothing is ever written over: a file (or a
configuration table) that exists already stops the plan, and every file is checked before any folder is made."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.init._command import CiCommand, ci_command, python_script
from toolsurface.harness.init._workflow import ProjectSetup, project_setup, workflow_text
from toolsurface.harness.output import json_document

if TYPE_CHECKING:
    from toolsurface.harness.live import TakenSnapshot

__all__ = [
    "FOLDER",
    "WORKFLOW",
    "InitBudget",
    "InitFile",
    "InitPlan",
    "ServerEntry",
    "plan_init",
    "server_command",
    "write_init",
]

# Where the snapshot and the starters go, beside the configuration.
FOLDER = ".toolsurface"
WORKFLOW = Path(".github") / "workflows" / "toolsurface.yml"


@dataclass(frozen=True)
class ServerEntry:
    """The server as the configuration names it: a command (run from the project's folder, its environment's
    variables by name) or a URL (its headers' values from the environment), with the name it goes by."""

    name: str
    command: tuple[str, ...] | None = None
    env: Mapping[str, str] | None = None
    url: str | None = None
    headers: Sequence[str] = ()
    # How the URL was read when listed (harness.protocol): HTTP+SSE is written down, so CI need not find it again.
    transport: str | None = None
    args: tuple[str, ...] = ()  # how a printed command names it
    # Where the command ran when listed (None: the project's folder).
    cwd: Path | None = None


@dataclass(frozen=True)
class InitBudget:
    """The budget init writes: the list's size now plus `margin` percent, rounded up."""

    chars: int
    tokens: int
    margin: float

    @property
    def max_chars(self) -> int:
        from toolsurface.harness.config import with_margin

        return with_margin(self.chars, self.margin)

    @property
    def max_tokens(self) -> int:
        from toolsurface.harness.config import with_margin

        return with_margin(self.tokens, self.margin)


@dataclass(frozen=True)
class InitFile:
    """One file of the plan, relative to the project; `adds` says a file that exists gains a table (pyproject)."""

    path: Path
    text: str
    what: str
    adds: bool = False


@dataclass(frozen=True)
class InitPlan:
    root: Path
    server: ServerEntry
    tools: int
    budget: InitBudget
    config: InitFile
    # The configuration's lines for the target (the table's, in a pyproject.toml).
    table: tuple[str, ...]
    files: tuple[InitFile, ...]
    queries: int
    calls: int
    unmade: int
    # The command as the configuration holds it (None: a URL), and what CI installs before it.
    command: CiCommand | None
    setup: ProjectSetup

    @property
    def all_files(self) -> tuple[InitFile, ...]:
        return (self.config, *self.files)

    def ci_lines(self) -> list[str]:
        """What CI will run and install, in words: the command as written, and what the workflow installs (or
        which of the server's imports CI will not have)."""
        lines = []
        command = self.command
        if command is not None and command.replaced is not None:
            lines.append(f"the command is written as `{shlex.join(command.argv)}`: {command.why}")
        if command is not None and command.machine_path is not None:
            lines.append(
                f"the command names {command.machine_path}, a path on this machine, which CI will not have: write"
                " the command in the configuration as CI can run it"
            )
        setup = self.setup
        if command is None and not setup.declared:
            return lines
        if setup.declared:
            lines.append(
                f"CI installs what the project declares ({', '.join(setup.declared)}): " + "; ".join(setup.installs)
            )
        imports = setup.imports
        if imports is not None and imports.requirements:
            modules = ", ".join(m for r in imports.requirements for m in r.modules)
            lines.append(
                f"the project declares no Python packages (no pyproject.toml, setup.py or requirements*.txt), so CI"
                f" will not have what {imports.script} imports ({modules}): the workflow installs"
                f" {' '.join(imports.specs)} (as {imports.source} has them); declare them to keep them in one place"
            )
        if imports is not None and imports.unknown:
            lines.append(
                f"{imports.script} imports {', '.join(imports.unknown)}, which no distribution of {imports.source}"
                " provides: add its install to the workflow"
            )
        if not setup.installs and (imports is None or not imports.unknown):
            lines.append(
                "CI installs nothing: the project declares no packages (pyproject.toml, setup.py, requirements*.txt,"
                " package.json)"
            )
        return lines


def _env_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper() or "VALUE"


def _toml_string(text: str) -> str:
    # A JSON string is a TOML basic string: the same escapes.
    return json.dumps(text, ensure_ascii=False)


def _target_lines(
    server: ServerEntry, command: CiCommand | None, budget: InitBudget, files: Mapping[str, str]
) -> list[str]:
    """The target's keys as TOML lines, a comment saying where the budget came from."""
    from datetime import UTC, datetime

    from toolsurface.harness.config import BudgetNote, budget_comment
    from toolsurface.harness.redact import is_secret_name

    lines = [f"name = {_toml_string(server.name)}"]
    if command is not None:
        lines.append(f"command = [{', '.join(_toml_string(a) for a in command.argv)}]")
        # Paths in the command are the project folder's, wherever toolsurface is run from.
        lines.append('cwd = "."')
        env = {
            name: (f"${{{_env_name(name)}}}" if is_secret_name(name) else value)
            for name, value in (server.env or {}).items()
        }
        if env:
            lines.append(
                "env = { " + ", ".join(f"{_toml_string(k)} = {_toml_string(v)}" for k, v in env.items()) + " }"
            )
    else:
        assert server.url is not None
        lines.append(f"url = {_toml_string(server.url)}")
        if server.transport == "sse":
            lines.append('transport = "sse"')
        if server.headers:
            pairs = [f"{_toml_string(h)} = {_toml_string('${' + _env_name(h) + '}')}" for h in server.headers]
            lines.append("headers = { " + ", ".join(pairs) + " }")
    today, by = datetime.now(UTC).date().isoformat(), "toolsurface init"
    notes = [
        BudgetNote("max-chars", budget.max_chars, budget.chars, "chars", budget.margin, by, today),
        BudgetNote("max-tokens", budget.max_tokens, budget.tokens, "o200k_base tokens", budget.margin, by, today),
    ]
    lines += [
        budget_comment(notes),
        f"max-chars = {budget.max_chars}",
        f"max-tokens = {budget.max_tokens}",
        "# budget --update lowers the budget to the list's size plus this much (percent), never raising it",
        f"ratchet-margin = {budget.margin:g}",
        *(f"{key} = {_toml_string(path)}" for key, path in files.items()),
    ]
    return lines


def _config_file(root: Path, lines: Sequence[str]) -> InitFile:
    """[tool.toolsurface] added to pyproject.toml (its bytes kept, the table in its line endings), or a
    toolsurface.toml where there is no pyproject.toml."""
    import tomllib

    from toolsurface.harness.files import read_text

    own = root / "toolsurface.toml"
    pyproject = root / "pyproject.toml"
    if own.exists():
        raise ToolsurfaceError(f"{own}: exists; this project is set up already (toolsurface init writes over nothing)")
    if not pyproject.is_file():
        body = "\n".join(lines) + "\n"
        return InitFile(Path("toolsurface.toml"), body, "the configuration: the server's target and its budget")
    text = read_text(pyproject, ToolsurfaceError, "file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ToolsurfaceError(f"{pyproject}: not valid TOML ({error}); fix it, then run toolsurface init") from None
    if isinstance(data.get("tool"), dict) and "toolsurface" in data["tool"]:
        raise ToolsurfaceError(
            f"{pyproject}: has a [tool.toolsurface] table already; this project is set up (init writes over nothing)"
        )
    newline = "\r\n" if "\r\n" in text else "\n"
    joined = text if not text or text.endswith("\n") else text + newline
    added = joined + newline + newline.join(["[tool.toolsurface]", *lines]) + newline
    try:
        tomllib.loads(added)
    except tomllib.TOMLDecodeError as error:
        raise ToolsurfaceError(
            f"{pyproject}: a [tool.toolsurface] table cannot be added to it as it is written ({error}); write"
            " toolsurface.toml beside it instead, or add the table by hand"
        ) from None
    return InitFile(Path("pyproject.toml"), added, "[tool.toolsurface]: the server's target and its budget", adds=True)


def _setup(root: Path, command: CiCommand | None, cwd: Path) -> ProjectSetup:
    """What the workflow installs: what the project declares; where it declares nothing for Python and the
    server is a Python script or module, what the server imports."""
    from toolsurface.harness.init._imports import own_files, server_imports

    setup = project_setup(root)
    python = command.interpreter if command is not None else None
    runs = python_script(command.given) if command is not None and python is not None else None
    if setup.declares_python or command is None or python is None or runs is None:
        return setup
    kind, name = runs
    folders = [cwd, root, root / "src"]
    outside: list[str] = []
    if kind == "script":
        script = cwd / name
        files = [script] if script.is_file() else []
    else:
        own = own_files(folders, name)
        # A module of an installed package (`python -m mcp_server_time`): its distribution is what CI needs.
        files, outside = (own, []) if own is not None else ([], [name])
    if not files and not outside:
        return setup
    imports = server_imports(folders, files, python, script=name, interpreter=command.given[0], modules=outside)
    return project_setup(root, imports)


def plan_init(root: Path, taken: TakenSnapshot, server: ServerEntry, *, margin: float, action: str) -> InitPlan:
    """Every file for the project at `root`, from the server's list as just taken; the first that exists stops it.
    `margin` is a percentage."""
    from concurrent.futures import ThreadPoolExecutor

    from toolsurface.harness.analyze.findability import starter_queries
    from toolsurface.harness.measure import measure
    from toolsurface.harness.probe import starter_calls
    from toolsurface.harness.surface import meta_path, snapshot_text

    cwd = server.cwd or root
    command = ci_command(server.command, cwd) if server.command is not None else None
    # What the server imports is asked of its interpreter (a process of its own) while the list is measured.
    with ThreadPoolExecutor(max_workers=1) as pool:
        setting_up = pool.submit(_setup, root, command, cwd)
        measured = measure([taken.as_snapshot()], growth=False).surfaces[0]
        assert measured.tokens is not None
        folder = Path(FOLDER)
        snapshot = folder / f"{server.name}.json"
        queries_path, calls_path = folder / "queries.json", folder / "calls.json"
        budget = InitBudget(measured.chars, measured.tokens, margin)
        files_named = {"snapshot": snapshot.as_posix(), "calls": calls_path.as_posix()}
        lines = _target_lines(server, command, budget, files_named)
        config = _config_file(root, lines)
        queries = starter_queries([(server.name, taken.tools)])
        calls = starter_calls(server.name, taken.tools)
        setup = setting_up.result()
    files = (
        InitFile(snapshot, taken.text(), "the snapshot `toolsurface diff` compares the list with"),
        InitFile(meta_path(snapshot), json_document(taken.meta.to_json()), "how the snapshot was taken"),
        InitFile(queries_path, json_document(queries), "starter queries for findability (drafts)"),
        InitFile(calls_path, json_document(calls), "starter calls for probe and answer budgets (drafts)"),
        InitFile(WORKFLOW, workflow_text(setup, action), "a GitHub workflow: the budget and the diff on every push"),
    )
    assert snapshot_text(taken.tools, taken.parts, taken.answers) == files[0].text
    for planned in files:
        if (root / planned.path).exists() or (root / planned.path).is_symlink():
            raise ToolsurfaceError(
                f"{root / planned.path}: exists; toolsurface init writes over nothing (move it away)"
            )
    return InitPlan(
        root=root,
        server=server,
        tools=measured.tools,
        budget=budget,
        config=config,
        table=tuple(lines),
        files=files,
        queries=len(queries["queries"]),
        calls=len(calls["calls"]),
        unmade=sum(1 for c in calls["calls"] if c.get("times") == 0),
        command=command,
        setup=setup,
    )


def write_init(plan: InitPlan) -> list[Path]:
    """Every file of the plan at once, or none: each is checked writable before any folder is made, and a
    failure leaves the project as it was (the folders made for it gone again)."""
    import contextlib

    from toolsurface.harness.files import check_writable, write_atomic_all

    for planned in plan.all_files:
        check_writable(plan.root / planned.path, make_folder=False)
    made: list[Path] = []
    try:
        for planned in plan.all_files:
            made += _make_folder((plan.root / planned.path).parent)
        return write_atomic_all([(plan.root / f.path, f.text) for f in plan.all_files])
    except (OSError, ToolsurfaceError) as error:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(error, OSError):
            raise ToolsurfaceError(f"cannot write {plan.root}: {error.strerror or error}") from None
        raise


def _make_folder(folder: Path) -> list[Path]:
    """`folder` made with its missing parents; those made, outermost first."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    for path in reversed(missing):
        path.mkdir()
    return list(reversed(missing))


def server_command(server: ServerEntry) -> str:
    """The server as a printed command's last arguments."""
    return shlex.join(server.args)
