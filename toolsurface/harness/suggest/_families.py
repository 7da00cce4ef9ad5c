"""Finding families: tools that could be one. The rule, as docs/suggest.md states it:

- A *kind family* is one operation over several nouns (`memory_store`, `page_store`: store on memory and page; the
  list words list, search, queue, browse and find are one operation). Nouns that end in the same word are grouped
  first (`list_issue_emoji_reactions`, `list_merge_request_emoji_reactions`), any nouns after.
- An *action family* is one noun under several operations (`task_claim`, `task_complete`: an `action` names them).
- Its tools read alike, or write alike, or destroy alike (by their annotations, else their verbs), within one
  scope (`jira_` apart from `confluence_`), each noun or operation once.
- Their schemas agree: a parameter two of them name has one type in all (a tool whose type differs is kept apart,
  and said), and they mostly share their parameters: a tool's share is how many of its parameters another member
  takes too; a tool that shares none leaves, then the one that shares least, until the mean share is at least a
  half.
- Families whose tools share most are formed first (nouns of one last word before any nouns), each tool in one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolsurface.harness.analyze import stem
from toolsurface.harness.suggest._names import NamedTool, read_names
from toolsurface.harness.suggest._schemas import parameters, schema_type, shares

__all__ = ["MOSTLY", "Grouping", "KeptApart", "Plan", "find_plans"]

# The mean share of a family's parameters its tools must take together: "mostly", more than half.
MOSTLY = 0.5
# A kind family of nouns that share no word takes at most this many times the parameters of its largest tool.
WIDEST = 2

Grouping = Literal["kind", "action"]


@dataclass(frozen=True)
class KeptApart:
    """A tool that would have joined a family, and why it did not."""

    tool: str
    why: str


@dataclass(frozen=True)
class Plan:
    """A family found: how its tools are grouped, its tools (as their names read), the mean share of their
    parameters, and the tools kept apart from it."""

    grouping: Grouping
    members: tuple[NamedTool, ...]
    agreement: float
    kept_apart: tuple[KeptApart, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.members)


# The passes of kind families, first to last: nouns of one last word, nouns of one first word, any nouns.
_ENDING, _OWNER, _ANY = 3, 2, 1


@dataclass(frozen=True)
class _Group:
    grouping: Grouping
    key: tuple[Any, ...]
    # Nouns of one last word (a kind family's first pass) go before any nouns.
    tier: int
    members: tuple[NamedTool, ...]


def _one_each(grouping: Grouping, members: Sequence[NamedTool]) -> list[NamedTool]:
    """Each noun (a kind family) or operation (an action family) once: of a noun two list words name
    (list_projects, search_projects), the one of the verb most of them use, else the first."""
    if grouping == "action":
        seen_verbs: dict[str, NamedTool] = {}
        for m in members:
            seen_verbs.setdefault(m.verb or "", m)
        return list(seen_verbs.values())
    verbs = Counter(m.verb for m in members)
    chosen: dict[tuple[str, ...], NamedTool] = {}
    for m in members:
        key = m.noun_key + m.qualifier
        held = chosen.get(key)
        if held is None or verbs[m.verb] > verbs[held.verb]:
            chosen[key] = m
    return [m for m in members if chosen.get(m.noun_key + m.qualifier) is m]


def _conflicts(
    members: list[NamedTool], params: Mapping[str, dict[str, Any]]
) -> tuple[list[NamedTool], list[KeptApart]]:
    """The members whose parameters of one name have one type; a tool whose type is not the one most of them
    give is kept apart, naming the parameter."""
    kept_apart: list[KeptApart] = []
    while True:
        types: dict[str, dict[str, list[NamedTool]]] = {}
        for m in members:
            for name, schema in params[m.name].items():
                found = schema_type(schema)
                if found is not None:
                    types.setdefault(name, {}).setdefault(found, []).append(m)
        clash = next(((name, by) for name, by in types.items() if len(by) > 1), None)
        if clash is None:
            return members, kept_apart
        name, by = clash
        ranked = sorted(by.items(), key=lambda item: (-len(item[1]), members.index(item[1][0])))
        _, main = ranked[0]
        for _, tools in ranked[1:]:
            for tool in tools:
                said = f"{name} is {_declared(params[tool.name][name])} there"
                said += f", {_declared(params[main[0].name][name])} in {main[0].name}"
                kept_apart.append(KeptApart(tool.name, said))
                members = [m for m in members if m is not tool]


def _declared(schema: Any) -> str:
    """A parameter's type as its schema declares it."""
    declared = schema.get("type") if isinstance(schema, dict) else None
    return declared if isinstance(declared, str) else str(schema_type(schema))


def _shares(members: Sequence[NamedTool], params: Mapping[str, dict[str, Any]]) -> list[float]:
    found = []
    for m in members:
        own = params[m.name]
        if not own:
            found.append(1.0)
            continue
        others = [params[o.name] for o in members if o is not m]
        found.append(shares(own, others) / len(own))
    return found


def _agreeing(members: list[NamedTool], params: Mapping[str, dict[str, Any]]) -> tuple[list[NamedTool], float]:
    """The members that mostly share their parameters, and their mean share: a tool that shares none leaves, then
    the one that shares least, until the mean is at least MOSTLY."""
    while len(members) >= 2:
        found = _shares(members, params)
        mean = sum(found) / len(found)
        lowest = min(range(len(found)), key=lambda n: (found[n], -n))
        if found[lowest] > 0 and mean >= MOSTLY:
            return members, mean
        members = [m for n, m in enumerate(members) if n != lowest]
    return members, 0.0


def _parts(members: Sequence[NamedTool]) -> int:
    """How many members name a part of the shared first noun word (merge_request_notes), not the noun alone."""
    return sum(1 for m in members if len(m.noun) > 1)


def _narrow(members: list[NamedTool], params: Mapping[str, dict[str, Any]]) -> list[NamedTool]:
    """Nouns of nothing in common make one tool only where it is not much larger than the largest of them: of
    more parameters than WIDEST times the largest's, the tool with the most parameters no other takes leaves."""
    while len(members) >= 2:
        names = [set(params[m.name]) for m in members]
        union = set().union(*names)
        if len(union) <= WIDEST * max(len(n) for n in names):
            return members
        alone = [len(n - set().union(*(o for o in names if o is not n))) for n in names]
        members = [m for k, m in enumerate(members) if k != max(range(len(members)), key=lambda i: (alone[i], i))]
    return members


def _plan(group: _Group, taken: set[str], params: Mapping[str, dict[str, Any]]) -> Plan | None:
    members = _one_each(group.grouping, [m for m in group.members if m.name not in taken])
    if len(members) < 2 or (group.tier == _OWNER and _parts(members) < 2):
        return None
    members, kept_apart = _conflicts(members, params)
    if group.tier == _ANY:
        members = _narrow(members, params)
    members, agreement = _agreeing(members, params)
    if len(members) < 2 or (group.tier == _OWNER and _parts(members) < 2):
        return None
    # Said only of a tool that would have joined: one that shares most of its parameters with the family.
    joined = [params[m.name] for m in members]
    near = [k for k in kept_apart if shares(params[k.tool], joined, by_name=True) * 2 >= len(params[k.tool])]
    return Plan(group.grouping, tuple(members), round(agreement, 4), tuple(near))


def _groups(named: Sequence[NamedTool]) -> list[_Group]:
    """Every set of tools a family may come from: one operation on nouns of one last word, one operation on any
    nouns, one noun under operations; each within one scope and one access."""
    keyed: dict[tuple[Any, ...], list[NamedTool]] = {}
    for tool in named:
        if tool.verb is None or not tool.noun or tool.noun[0] in ("or", "and"):
            continue
        base = (tool.scope, tool.access)
        keyed.setdefault(("kind", _ENDING, *base, tool.operation, tool.head), []).append(tool)
        keyed.setdefault(("kind", _ANY, *base, tool.operation), []).append(tool)
        keyed.setdefault(("action", _ANY, *base, tool.noun_key), []).append(tool)
        # The noun itself beside its parts: get_merge_request beside get_merge_request_notes.
        keyed.setdefault(("kind", _OWNER, *base, tool.operation, "of", stem(tool.noun[0])), []).append(tool)
    return [_Group(key[0], key, key[1], tuple(members)) for key, members in keyed.items() if len(members) >= 2]


def find_plans(
    tools: Sequence[Mapping[str, Any]], accept: Callable[[Plan], str | None] | None = None
) -> tuple[list[Plan], list[NamedTool], list[tuple[Plan, str]]]:
    """The families of a list, each tool in one at most, those whose tools share most first; the tools whose
    names are in no pattern; and the families `accept` turned down, with why (it says why, or None to take one)."""
    named = read_names(tools)
    params = {n.name: parameters(t) for n, t in zip(named, tools, strict=True)}
    order = {n.name: at for at, n in enumerate(named)}
    groups = _groups(named)
    taken: set[str] = set()
    plans: list[Plan] = []
    refused: list[tuple[Plan, str]] = []
    refused_keys: set[tuple[str, ...]] = set()
    pending = {n: _plan(g, taken, params) for n, g in enumerate(groups)}
    holding: dict[str, list[int]] = {}
    for n, group in enumerate(groups):
        for member in group.members:
            holding.setdefault(member.name, []).append(n)
    while True:
        ready = [(n, p) for n, p in pending.items() if p is not None and p.names not in refused_keys]
        if not ready:
            break
        _, best = max(
            ready,
            key=lambda item: (groups[item[0]].tier, item[1].agreement, len(item[1].members), -order[item[1].names[0]]),
        )
        why = accept(best) if accept is not None else None
        if why is not None:
            refused.append((best, why))
            refused_keys.add(best.names)
            continue
        plans.append(best)
        taken.update(best.names)
        for n in sorted({n for name in best.names for n in holding[name]}):
            pending[n] = _plan(groups[n], taken, params)
    plans.sort(key=lambda p: order[p.names[0]])
    unpatterned = [n for n in named if n.verb is None]
    return plans, unpatterned, refused
