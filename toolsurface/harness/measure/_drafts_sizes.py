"""What a server's drafts cost (`measure --drafts`), by the tools' counting rule, each figure labelled with its
proposal and version: the manifest beside the full list (SEP-2636), the groups listed, every group fetched, and the
tools reachable only through groups, counted and marked; and a row per thing a draft was not kept to (a manifest
that does not index tools/list, a digest that does not match, a group that names a tool twice or nests in a loop)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.measure._tokens import count_tokens
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import GROUPS_PROPOSAL, MANIFEST_PROPOSAL, DraftsRead, tool_digest

__all__ = ["DraftFigure", "DraftSizes", "GroupTool", "draft_sizes"]


@dataclass(frozen=True)
class DraftFigure:
    """One figure: what it is (a method's answer), the proposal it is of (None: the base protocol), how many
    entries, and the chars and tokens of its compact JSON as received."""

    what: str
    proposal: str | None
    entries: int
    chars: int
    tokens: int | None


@dataclass(frozen=True)
class GroupTool:
    """A tool a group gives (groups/get), and whether it is reachable only through groups (not in tools/list)."""

    group: str
    tool: str
    chars: int
    tokens: int | None
    only_in_groups: bool


@dataclass(frozen=True)
class DraftSizes:
    figures: list[DraftFigure] = field(default_factory=list)
    group_tools: list[GroupTool] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _figure(what: str, proposal: str | None, value: Sequence[Any], with_tokens: bool) -> DraftFigure:
    text = compact_json(list(value))
    return DraftFigure(what, proposal, len(value), len(text), count_tokens(text) if with_tokens else None)


def _manifest_problems(read: DraftsRead, tools: Sequence[Mapping[str, Any]]) -> list[str]:
    entries = read.manifest or []
    listed = {str(t.get("name")): t for t in tools}
    indexed = [str(e.get("name")) for e in entries]
    problems = []
    extra, missing = [n for n in indexed if n not in listed], [n for n in listed if n not in indexed]
    if extra or missing:
        said = [f"indexes {', '.join(extra)}, not in tools/list"] if extra else []
        said += [f"leaves out {', '.join(missing)}, in tools/list"] if missing else []
        problems.append(f"tools/manifest {' and '.join(said)} (SEP-2636: the same set of tools)")
    described = {str(t.get("name")): t for t in read.described}
    for entry in entries:
        name = str(entry.get("name"))
        schemas = [key for key in ("inputSchema", "outputSchema", "description") if key in entry]
        if schemas:
            problems.append(f"tools/manifest entry {name} carries {', '.join(schemas)} (SEP-2636: no definition)")
        if name not in listed:
            continue
        digest, size = tool_digest(listed[name])
        if (entry.get("digest"), entry.get("size")) == (digest, size):
            continue
        if name in described and tool_digest(described[name])[0] == entry.get("digest"):
            problems.append(f"tool {name}: tools/describe gives another definition than tools/list")
        else:
            problems.append(
                f"tool {name}: its manifest digest and size ({entry.get('digest')!s:.19}..., {entry.get('size')}) are"
                f" not those of its definition ({digest[:19]}..., {size})"
            )
    return problems


def _loops(fetched: Mapping[str, Mapping[str, Any]]) -> list[list[str]]:
    """Each loop of nested groups (a group inside itself, however deep), once."""
    children = {name: _nested(result) for name, result in fetched.items()}
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def walk(name: str, path: list[str]) -> None:
        for child in children.get(name, []):
            if child in path:
                loop = [*path[path.index(child) :], child]
                if frozenset(loop) not in seen:
                    seen.add(frozenset(loop))
                    found.append(loop)
            elif child in children:
                walk(child, [*path, child])

    for name in children:
        walk(name, [name])
    return found


def _contents(result: Mapping[str, Any]) -> Mapping[str, Any]:
    contents = result.get("contents")
    return contents if isinstance(contents, dict) else {}


def _nested(result: Mapping[str, Any]) -> list[str]:
    return [str(g.get("name")) for g in _contents(result).get("groups") or [] if isinstance(g, dict)]


def _group_tools(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [t for t in _contents(result).get("tools") or [] if isinstance(t, dict)]


def _group_problems(read: DraftsRead, tools: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    top = {str(t.get("name")) for t in tools}
    first: dict[str, tuple[str, str]] = {}
    for name, result in read.fetched.items():
        names = [str(t.get("name")) for t in _group_tools(result)]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            problems.append(f"group {name} names {', '.join(twice)} twice")
        for tool in _group_tools(result):
            tool_name, text = str(tool.get("name")), compact_json(tool)
            if tool_name in top:
                problems.append(
                    f"group {name} scopes {tool_name}, which tools/list lists too (a scoped tool is left out)"
                )
            elif tool_name in first and first[tool_name][1] != text:
                problems.append(f"tool {tool_name} differs between group {first[tool_name][0]} and group {name}")
            first.setdefault(tool_name, (name, text))
    problems += [f"groups loop: {' -> '.join(loop)}" for loop in _loops(read.fetched)]
    return problems


def draft_sizes(read: DraftsRead | None, tools: Sequence[Mapping[str, Any]], with_tokens: bool) -> DraftSizes | None:
    """The figures of what a server's drafts gave beside its full list; None where it advertises neither."""
    if read is None:
        return None
    figures = [_figure("tools/list", None, tools, with_tokens)]
    problems = list(read.failures)
    if read.manifest is not None:
        figures.append(_figure("tools/manifest", MANIFEST_PROPOSAL, read.manifest, with_tokens))
        problems += _manifest_problems(read, tools)
    group_tools: list[GroupTool] = []
    if read.groups is not None:
        figures.append(_figure("groups/list", GROUPS_PROPOSAL, read.groups, with_tokens))
        fetched = [{k: v for k, v in r.items() if k in ("instructions", "contents")} for r in read.fetched.values()]
        figures.append(_figure("groups/get, every group", GROUPS_PROPOSAL, fetched, with_tokens))
        top = {str(t.get("name")) for t in tools}
        scoped: dict[str, dict[str, Any]] = {}
        for group, result in read.fetched.items():
            for tool in _group_tools(result):
                name, text = str(tool.get("name")), compact_json(tool)
                group_tools.append(
                    GroupTool(group, name, len(text), count_tokens(text) if with_tokens else None, name not in top)
                )
                if name not in top:
                    scoped.setdefault(name, tool)
        figures.append(_figure("tools only in groups", GROUPS_PROPOSAL, list(scoped.values()), with_tokens))
        figures.append(
            _figure("every tool, listed and scoped", GROUPS_PROPOSAL, [*tools, *scoped.values()], with_tokens)
        )
        problems += _group_problems(read, tools)
    return DraftSizes(figures, group_tools, problems)
