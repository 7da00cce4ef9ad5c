"""`toolsurface init`: what a server project needs for CI, planned from one listing of its server and written at
once. The configuration (a target for the server, a budget from its size now plus a margin, its snapshot and
calls file), the snapshot diff compares with, starter queries and calls (drafts), and a GitHub workflow using the
Action. Nothing is ever written over: a file (or a configuration table) that exists already stops the plan."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.init._workflow import workflow_text
from toolsurface.harness.output import json_document

if TYPE_CHECKING:
    from toolsurface.harness.live import TakenSnapshot

__all__ = ["FOLDER", "InitFile", "InitPlan", "ServerEntry", "plan_init", "server_command", "write_init"]

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
    chars: int
    tokens: int
    max_chars: int
    max_tokens: int
    margin: float
    config: InitFile
    files: tuple[InitFile, ...]
    queries: int
    calls: int
    unmade: int

    @property
    def all_files(self) -> tuple[InitFile, ...]:
        return (self.config, *self.files)


def _env_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper() or "VALUE"


def _toml_string(text: str) -> str:
    # A JSON string is a TOML basic string: the same escapes.
    return json.dumps(text, ensure_ascii=False)


def _target_lines(server: ServerEntry, plan: dict[str, Any]) -> list[str]:
    """The target's keys as TOML lines, a comment saying where the budget came from."""
    from toolsurface.harness.redact import is_secret_name

    lines = [f"name = {_toml_string(server.name)}"]
    if server.command is not None:
        lines.append(f"command = [{', '.join(_toml_string(a) for a in server.command)}]")
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
    from datetime import UTC, datetime

    from toolsurface.harness.config import BudgetNote, budget_comment

    margin, today = plan["margin"], datetime.now(UTC).date().isoformat()
    notes = [
        BudgetNote("max-chars", plan["max_chars"], plan["chars"], "chars", margin, "toolsurface init", today),
        BudgetNote(
            "max-tokens", plan["max_tokens"], plan["tokens"], "o200k_base tokens", margin, "toolsurface init", today
        ),
    ]
    lines += [
        budget_comment(notes),
        f"max-chars = {plan['max_chars']}",
        f"max-tokens = {plan['max_tokens']}",
        "# budget --update lowers the budget to the list's size plus this much (percent), never raising it",
        f"ratchet-margin = {margin:g}",
        f"snapshot = {_toml_string(plan['snapshot'])}",
        f"calls = {_toml_string(plan['calls'])}",
    ]
    return lines


def _config_file(root: Path, lines: Sequence[str]) -> InitFile:
    """[tool.toolsurface] added to pyproject.toml, or a toolsurface.toml where there is no pyproject.toml."""
    import tomllib

    body = "\n".join(lines) + "\n"
    own = root / "toolsurface.toml"
    pyproject = root / "pyproject.toml"
    if own.exists():
        raise ToolsurfaceError(f"{own}: exists; this project is set up already (toolsurface init writes over nothing)")
    if not pyproject.is_file():
        return InitFile(Path("toolsurface.toml"), body, "the configuration: the server's target and its budget")
    text = pyproject.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ToolsurfaceError(f"{pyproject}: not valid TOML ({error}); fix it, then run toolsurface init") from None
    if isinstance(data.get("tool"), dict) and "toolsurface" in data["tool"]:
        raise ToolsurfaceError(
            f"{pyproject}: has a [tool.toolsurface] table already; this project is set up (init writes over nothing)"
        )
    joined = text if not text or text.endswith("\n") else text + "\n"
    added = f"{joined}\n[tool.toolsurface]\n{body}"
    try:
        tomllib.loads(added)
    except tomllib.TOMLDecodeError as error:
        raise ToolsurfaceError(
            f"{pyproject}: a [tool.toolsurface] table cannot be added to it as it is written ({error}); write"
            " toolsurface.toml beside it instead, or add the table by hand"
        ) from None
    return InitFile(Path("pyproject.toml"), added, "[tool.toolsurface]: the server's target and its budget", adds=True)


def plan_init(root: Path, taken: TakenSnapshot, server: ServerEntry, *, margin: float, action: str) -> InitPlan:
    """Every file for the project at `root`, from the server's list as just taken; the first that exists stops it."""
    from toolsurface.harness.analyze.findability import starter_queries
    from toolsurface.harness.config import with_margin
    from toolsurface.harness.measure import measure
    from toolsurface.harness.probe import starter_calls
    from toolsurface.harness.surface import meta_path, snapshot_text

    item = taken.as_snapshot()
    measured = measure([item], growth=False).surfaces[0]
    assert measured.tokens is not None
    folder = Path(FOLDER)
    snapshot = folder / f"{server.name}.json"
    queries_path, calls_path = folder / "queries.json", folder / "calls.json"
    max_chars, max_tokens = with_margin(measured.chars, margin), with_margin(measured.tokens, margin)
    figures = {
        "chars": measured.chars,
        "tokens": measured.tokens,
        "max_chars": max_chars,
        "max_tokens": max_tokens,
        "margin": margin,
        "snapshot": snapshot.as_posix(),
        "calls": calls_path.as_posix(),
    }
    config = _config_file(root, _target_lines(server, figures))
    queries = starter_queries([(server.name, taken.tools)])
    calls = starter_calls(server.name, taken.tools)
    files = (
        InitFile(snapshot, taken.text(), "the snapshot `toolsurface diff` compares the list with"),
        InitFile(meta_path(snapshot), json_document(taken.meta.to_json()), "how the snapshot was taken"),
        InitFile(queries_path, json_document(queries), "starter queries for findability (drafts)"),
        InitFile(calls_path, json_document(calls), "starter calls for probe and answer budgets (drafts)"),
        InitFile(WORKFLOW, workflow_text(root, action), "a GitHub workflow: the budget and the diff on every push"),
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
        chars=measured.chars,
        tokens=measured.tokens,
        max_chars=max_chars,
        max_tokens=max_tokens,
        margin=margin,
        config=config,
        files=files,
        queries=len(queries["queries"]),
        calls=len(calls["calls"]),
        unmade=sum(1 for c in calls["calls"] if c.get("times") == 0),
    )


def write_init(plan: InitPlan) -> list[Path]:
    """Every file of the plan at once, or none (a failure leaves the project as it was)."""
    from toolsurface.harness.files import ensure_directory, write_atomic_all

    for planned in plan.all_files:
        ensure_directory((plan.root / planned.path).parent)
    return write_atomic_all([(plan.root / f.path, f.text) for f in plan.all_files])


def server_command(server: ServerEntry) -> str:
    """The server as a printed command's last arguments."""
    return shlex.join(server.args)
