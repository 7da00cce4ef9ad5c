"""The configured targets linted: each listed, its findings less what the configuration turns off, each finding
placed in the file the target comes from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from toolsurface.harness.analyze.lint import LintResult
    from toolsurface.harness.config._model import Config

__all__ = ["lint_targets", "server_script"]


def lint_targets(
    config: Config | None,
    *,
    server_name: str | None = None,
    select: Sequence[str] | None = None,
    on_listed: Callable[[], None] | None = None,
) -> tuple[LintResult, list[Any]]:
    """Each configured target listed and linted less what the configuration turns off, and what each was linted
    from; a finding's file is a surface's own, a server command's script, or the configuration that declares the
    target. `on_listed` is called once when a live target was listed."""
    from toolsurface.harness.analyze.lint import lint
    from toolsurface.harness.config._targets import list_target

    if config is None or not config.targets:
        where = f" ({config.path.name} has none)" if config is not None else ""
        raise ToolsurfaceError(
            "give a SURFACE..., --url URL, or -- CMD ARGS... (the server command after --), or configure targets"
            f" in [tool.toolsurface]{where}"
        )
    listed = [list_target(target) for target in config.targets]
    if any(one.live for one in listed) and on_listed is not None:
        on_listed()
    # A surface target's file is its own (a snapshot, a module); a server's, its script or the configuration.
    files = [
        None if t.target.surface is not None else server_script(t.target.command, t.target.cwd) or config.path
        for t in listed
    ]
    items = [t.item for t in listed]
    return lint(items, config.lint, files, server_names=[server_name] * len(listed), select=select), items


def server_script(argv: Sequence[str] | None, cwd: Path | None) -> Path | None:
    """The script a server command runs: its first argument that is a file (`python server.py`, `node
    build/index.js`), or the command itself where it is a script of the project's (`./server.py`)."""
    if not argv:
        return None
    base = cwd or Path.cwd()
    for arg in argv[1:]:
        if not arg.startswith("-") and (base / arg).is_file():
            return base / arg
    first = base / argv[0]
    return first if first.suffix in (".py", ".js", ".mjs", ".cjs", ".ts") and first.is_file() else None
