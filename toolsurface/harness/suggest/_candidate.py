"""The candidate: a surface's tools with each family made one tool and every other tool kept as it is, and the
mapping from each old tool to its call on the candidate (`toolsurface-mapping/1`, what `session replay --mapping`
reads)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.output import compact_json
from toolsurface.harness.suggest._families import Plan, find_plans
from toolsurface.harness.suggest._merge import Merged, merge_family

__all__ = ["PROPOSAL", "Candidate", "TurnedDown", "candidate_of"]

PROPOSAL = (
    "a proposal of toolsurface suggest, for the designer to edit: each family's tool keeps its tools' first"
    " sentences, and names in `fields` (without their descriptions) what one of them alone takes; put back what"
    " it needs"
)


@dataclass(frozen=True)
class TurnedDown:
    """A family found and not proposed, and why (as one tool it would be no smaller)."""

    tools: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Candidate:
    """The candidate of `surface` (named `name`): its tools in the order of the old ones (a family's where its
    first tool was), the families made one, the tools kept as they are and, of those, the ones whose names are in
    no pattern; the families turned down; `mapping` the document session replay reads."""

    surface: str
    name: str
    tools: list[dict[str, Any]]
    families: list[Merged]
    kept: list[str]
    unpatterned: list[str]
    turned_down: list[TurnedDown]
    mapping: dict[str, Any]

    @property
    def found(self) -> bool:
        return bool(self.families)


def _size(tools: Sequence[Mapping[str, Any]]) -> int:
    return sum(len(compact_json(dict(t))) for t in tools)


def candidate_of(surface: str, name: str, tools: Sequence[Mapping[str, Any]]) -> Candidate:
    """The candidate of a surface's tools: its families found (docs/suggest.md says the rule), each made one tool
    unless that tool would be no smaller than its members; `name` is what the candidate is called."""
    from toolsurface.harness.session.replay import MAPPING_FORMAT

    by_name = {str(t.get("name")): t for t in tools}
    names = list(by_name)

    def smaller(plan: Plan) -> str | None:
        members = set(plan.names)
        merged = merge_family(plan, by_name, [n for n in names if n not in members])
        before, after = _size([by_name[n] for n in plan.names]), _size([merged.tool])
        if after < before:
            return None
        return f"as one tool it is {after:,} chars against {before:,} as {len(members)}: it saves nothing"

    plans, unpatterned, refused = find_plans(tools, smaller)
    member_of = {name: plan for plan in plans for name in plan.names}
    in_use = {n for n in names if n not in member_of}
    families: list[Merged] = []
    for plan in plans:
        merged = merge_family(plan, by_name, in_use | {n for n in names if n not in plan.names})
        in_use.add(merged.name)
        families.append(merged)
    family_of = {name: merged for merged in families for name in merged.plan.names}
    out: list[dict[str, Any]] = []
    entries: dict[str, Any] = {}
    for old in names:
        family = family_of.get(old)
        if family is None:
            out.append(dict(by_name[old]))
            entries[old] = {"tool": old, "arguments": {}, "rename": {}}
            continue
        if family.plan.names[0] == old:
            out.append(family.tool)
        entries[old] = family.call(old)
    mapping = {"format": MAPPING_FORMAT, "from": surface, "to": name, "note": PROPOSAL, "tools": entries}
    return Candidate(
        surface=surface,
        name=name,
        tools=out,
        families=families,
        kept=[n for n in names if n not in family_of],
        unpatterned=[n.name for n in unpatterned],
        turned_down=[TurnedDown(plan.names, why) for plan, why in refused if not set(plan.names) & set(family_of)],
        mapping=mapping,
    )
