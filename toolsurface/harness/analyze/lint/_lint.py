"""Running the lint rules over surfaces as clients receive them, less what the project's configuration turns off."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.lint._catalog import ServerSet, ServerTools
from toolsurface.harness.analyze.lint._model import Finding
from toolsurface.harness.analyze.lint._registry import rules
from toolsurface.harness.analyze.lint._result import LintResult, SurfaceLint
from toolsurface.harness.analyze.lint._settings import LintSettings
from toolsurface.harness.surface import Snapshot, SurfaceDefinition

# ---------------------------------------------------------------------------------------------------------------
# Running the rules


def _judged(
    found: Sequence[Finding], settings: LintSettings | None, tools: Callable[[Finding], list[str]]
) -> tuple[list[Finding], list[Finding]]:
    """The findings kept, and those the configuration turns off."""
    kept: list[Finding] = []
    off: list[Finding] = []
    for finding in found:
        (off if settings is not None and settings.off(finding.category, tools(finding)) else kept).append(finding)
    return kept, off


def lint_tools(
    name: str,
    tools: Sequence[Mapping[str, Any]],
    instructions: str | None = None,
    *,
    ours: bool = False,
    settings: LintSettings | None = None,
    file: Path | None = None,
    server_name: str | None = None,
    select: Sequence[str] | None = None,
) -> SurfaceLint:
    """Lint one surface's tools in wire form (name, description, inputSchema, annotations), and its server
    instructions where it has them. `ours`: a surface of ours with kinds, whose findings may speak of them;
    `settings`: the rules the project turns off, whose findings are counted apart; `server_name`: the name the
    user gives the server, where a finding depends on it; `select`: only these rules (by category)."""
    given = ServerTools(tuple(tools), instructions, ours, server_name, listed_name=name)
    chosen = [r for r in rules() if not r.among_servers and (select is None or r.name in select)]
    kept, off = _judged([f for r in chosen for f in r.run(given)], settings, lambda f: f.tools)
    return SurfaceLint(name=name, findings=kept, tools=[str(t.get("name")) for t in tools], suppressed=off, file=file)


def _ours(item: SurfaceDefinition | Snapshot) -> bool:
    return isinstance(item, SurfaceDefinition) and bool(item.kinds)


def _file(item: SurfaceDefinition | Snapshot) -> Path | None:
    """The file a surface was read from: a snapshot's, a `.py` module's (a live server's list has none)."""
    if isinstance(item, Snapshot):
        return item.path if item.origin is None else None
    return Path(item.source) if item.source.endswith(".py") and Path(item.source).is_file() else None


def lint(
    items: Sequence[SurfaceDefinition | Snapshot],
    settings: LintSettings | None = None,
    files: Sequence[Path | None] | None = None,
    *,
    server_names: Sequence[str | None] | None = None,
    select: Sequence[str] | None = None,
) -> LintResult:
    """Lint each surface as a client receives it: a definition is built and served, a snapshot is as recorded.
    `files`: where a surface that is no file came from (a live server's script), one per item or None;
    `server_names`: the name the user gives each server (a configuration's key, --server-name), or None;
    `select`: only these rules (by category)."""
    from toolsurface.harness.measure import listed

    given = list(files) if files is not None else [None] * len(items)
    names = list(server_names) if server_names is not None else [None] * len(items)
    result = LintResult(
        surfaces=[
            lint_tools(
                item.name,
                wire.tools,
                wire.parts.instructions,
                ours=_ours(item),
                settings=settings,
                file=_file(item) or file,
                server_name=server_name,
                select=select,
            )
            for item, wire, file, server_name in zip(items, listed(items), given, names, strict=True)
        ]
    )
    if settings is not None:
        _unmatched_tools(settings, result)
    return result


def lint_together(
    servers: Sequence[SurfaceDefinition | Snapshot],
    name: str,
    *,
    builtins: Mapping[str, Sequence[str]] | None = None,
    settings: LintSettings | None = None,
    select: Sequence[str] | None = None,
) -> SurfaceLint:
    """The clashes among servers a client runs together (a configuration), as one more surface called `name`:
    its findings name each tool as SERVER/TOOL. `builtins`: each client's own tools by name; unless given,
    those the client cards record."""
    from toolsurface.harness.measure import listed

    if builtins is None:
        from toolsurface.harness.agents import builtin_tools

        builtins = builtin_tools()

    lists = tuple((item.name, tuple(wire.tools)) for item, wire in zip(servers, listed(servers), strict=True))
    named = [(server, [str(t.get("name")) for t in tools]) for server, tools in lists]
    given = ServerSet(tuple((server, tuple(tools)) for server, tools in named), builtins, lists)
    chosen = [r for r in rules() if r.among_servers and (select is None or r.name in select)]
    found = [f for r in chosen for f in r.run(given)]
    kept, off = _judged(found, settings, lambda f: [tool.partition("/")[2] for tool in f.tools])
    every = [f"{server}/{tool}" for server, tools in named for tool in tools]
    return SurfaceLint(name=name, findings=kept, tools=every, suppressed=off)


def lint_configuration(
    items: Sequence[SurfaceDefinition | Snapshot],
    servers: Sequence[Snapshot],
    path: Path,
    *,
    given: Sequence[SurfaceDefinition | Snapshot] = (),
    settings: LintSettings | None = None,
    server_name: str | None = None,
    select: Sequence[str] | None = None,
) -> LintResult:
    """The surfaces given (`items`, judged under `server_name`) and each server of the client's configuration at
    `path` (judged under its key, the name its users' client gives it, its findings placed in that file), with
    the clashes among the configuration's servers and the `given` ones it also names as one more surface named
    after the file."""
    from dataclasses import replace

    result = lint(
        [*items, *servers],
        settings,
        [*([None] * len(items)), *([path] * len(servers))],
        server_names=[*([server_name] * len(items)), *(s.name for s in servers)],
        select=select,
    )
    together = lint_together([*servers, *given], f"{path.name} (all servers)", settings=settings, select=select)
    return replace(result, surfaces=[*result.surfaces, replace(together, file=path)])


def _unmatched_tools(settings: LintSettings, result: LintResult) -> None:
    """A notice for each tool the configuration turns rules off for that no surface linted has (renamed, or
    misspelt): its findings are reported."""
    from toolsurface.harness.notices import notice

    present = {tool for surface in result.surfaces for tool in surface.tools}
    missing = [tool for tool in settings.per_tool if tool not in present]
    if missing:
        names = ", ".join(missing)
        notice(
            f"{settings.key}.per-tool names {names}, which no surface linted has: nothing is turned off for"
            f" {'it' if len(missing) == 1 else 'them'}"
        )
