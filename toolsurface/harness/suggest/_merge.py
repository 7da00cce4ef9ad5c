"""A family made one tool, the seed's way: a `kind` (or `action`) parameter whose enum names the members, the
parameters every member takes once, the others kept with a line of which kinds take them, one description from
the shared part (the first sentences made one, or a line per kind where they differ), and a call of each old
tool as the new one (the mapping's entry)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.analyze import first_sentence, stem
from toolsurface.harness.suggest._families import Plan
from toolsurface.harness.suggest._names import NamedTool, Style, name_style, styled
from toolsurface.harness.suggest._schemas import common_description, merged_schema, parameters, required, type_hint

__all__ = ["Merged", "merge_family"]

# What a family's tool is named for where its nouns share no last word, in the order tried when a tool outside
# the family has the name.
_GENERIC = (("item", "items"), ("entry", "entries"), ("record", "records"))
_CAMEL = re.compile(r"[a-z0-9][A-Z]")


@dataclass(frozen=True)
class Merged:
    """One family's tool. `values`: each member's value of `parameter`, in the members' order; `shared`: the
    parameters every member takes; `notes`: what the designer should know (a name taken, a key left out)."""

    plan: Plan
    tool: dict[str, Any]
    parameter: str
    values: tuple[str, ...]
    shared: tuple[str, ...]
    notes: tuple[str, ...]
    # Per member, its parameters' new names (into the `fields` object).
    renames: tuple[dict[str, str], ...] = ()

    @property
    def name(self) -> str:
        return str(self.tool["name"])

    def call(self, member: str) -> dict[str, Any]:
        """The mapping's entry of one member: this tool, its value set."""
        at = self.plan.names.index(member)
        rename = dict(self.renames[at]) if self.renames else {}
        return {"tool": self.name, "arguments": {self.parameter: self.values[at]}, "rename": rename}


def _joined(words: Sequence[str], last: str = "or") -> str:
    shown = [w.replace("_", " ") for w in words]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} {last} {shown[-1]}"


def _article(phrase: str) -> str:
    first = phrase.split(" ", 1)[0]
    if first.endswith("s") and not first.endswith("ss"):
        return phrase
    return f"{'an' if phrase[:1] in 'aeiou' else 'a'} {phrase}"


def _common_tail(nouns: Sequence[tuple[str, ...]]) -> int:
    """How many last words all nouns share (as stems)."""
    count = 0
    while all(len(n) > count for n in nouns) and len({stem(n[-1 - count]) for n in nouns}) == 1:
        count += 1
    return count


def _common_head(nouns: Sequence[tuple[str, ...]]) -> int:
    """How many first words all nouns share (as stems)."""
    count = 0
    while all(len(n) > count for n in nouns) and len({stem(n[count]) for n in nouns}) == 1:
        count += 1
    return count


def _values(plan: Plan) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each member's value, and the words the family's tool is named for: the nouns' shared last words
    (emoji_reactions), else their shared first words (merge_request), else none."""
    members = plan.members
    if plan.grouping == "action":
        return tuple(m.verb or m.name for m in members), members[0].noun
    nouns = [m.noun for m in members]
    tail = _common_tail(nouns)
    head = 0 if tail else _common_head(nouns)
    # A qualifier every member has (near_text) says nothing of which member is which.
    same = members[0].qualifier if len({m.qualifier for m in members}) == 1 else None
    values = []
    for m in members:
        own = m.noun[: len(m.noun) - tail] if tail else m.noun[head:]
        qualifier = () if same is not None else m.qualifier
        values.append("_".join((*own, *qualifier) if own or qualifier else m.noun))
    if tail:
        return tuple(values), members[0].noun[len(members[0].noun) - tail :]
    return tuple(values), members[0].noun[:head]


def _plural(members: Sequence[NamedTool]) -> bool:
    plural = sum(1 for m in members if m.noun and m.noun[-1].endswith("s") and stem(m.noun[-1]) != m.noun[-1])
    return plural * 2 > len(members)


def _name_words(plan: Plan, noun: tuple[str, ...], generic: int) -> tuple[str, ...]:
    first = plan.members[0]
    if plan.grouping == "action":
        return (*first.scope, *noun, "read" if first.access == "read" else "action")
    verbs = Counter(m.verb for m in plan.members)
    verb = max(plan.members, key=lambda m: verbs[m.verb]).verb or ""
    if not noun:
        singular, plural = _GENERIC[generic]
        noun = (plural if first.verb_first and _plural(plan.members) else singular,)
    same = first.qualifier if len({m.qualifier for m in plan.members}) == 1 else ()
    return (*first.scope, verb, *noun, *same) if first.verb_first else (*noun, verb)


def _tool_name(plan: Plan, noun: tuple[str, ...], in_use: Collection[str]) -> tuple[str, str | None]:
    """The family's tool's name, and a note where the first choice is another tool's."""
    member = plan.members[0]
    style: Style = member.style

    def named(words: Sequence[str]) -> str:
        return styled(member.written(words), style)

    first = named(_name_words(plan, noun, 0))
    if first not in in_use:
        return first, None
    tries = [named(_name_words(plan, noun, n)) for n in range(1, len(_GENERIC))] if not noun else []
    tries.append(named([*_name_words(plan, noun, 0), "by", plan.grouping]))
    tries += [f"{first}{n}" for n in range(2, 100)]
    chosen = next(t for t in tries if t not in in_use)
    return chosen, f"{first} names another tool of the candidate, so this one is {chosen}"


def _parameter(plan: Plan, params: Sequence[Mapping[str, Any]]) -> str:
    """`kind` or `action`, unless a member takes a parameter of that name: then item_kind (itemKind, ...)."""
    names = [n for p in params for n in p]
    if plan.grouping not in names:
        return plan.grouping
    style: Style = "camel" if any(_CAMEL.search(n) for n in names) else name_style("_".join(names))
    for word in ("item", "family", "which"):
        found = styled([word, plan.grouping], style)
        if found not in names:
            return found
    return f"{plan.grouping}_{len(names)}"


def _template(sentence: str, member: NamedTool, value: str) -> str:
    """The sentence with the member's own noun (or verb, in an action family) marked, to compare with the others'."""
    words = [value.replace("_", " "), " ".join(member.noun)]
    for word in sorted({w for w in words if w}, key=len, reverse=True):
        sentence = re.sub(rf"\b{re.escape(word)}(e?s)?\b", "\0", sentence, flags=re.I)
    return sentence


def _generalised(texts: Sequence[str], members: Sequence[NamedTool], values: Sequence[str]) -> str | None:
    """The texts made one where each says the same of its own noun: `Stores a memory.` and `Stores a page.` are
    `Stores a memory or page.`; None where they differ otherwise."""
    templates = {_template(s, m, v) for s, m, v in zip(texts, members, values, strict=True)}
    if len(templates) != 1 or not all(texts):
        return None
    template = next(iter(templates))
    if "\0" not in template:
        return template
    return template.replace("\0", _joined(values), 1).replace("\0", "")


def _opening(sentences: Sequence[str], fallback: str) -> str:
    firsts = [s.split(" ", 1)[0] for s in sentences if s]
    counts = Counter(w for w in firsts if w.isalpha() and w[:1].isupper())
    return max(counts, key=lambda w: (counts[w], -firsts.index(w))) if counts else fallback.capitalize()


def _head(plan: Plan, firsts: Sequence[str], values: Sequence[str], noun: Sequence[str], parameter: str) -> str:
    if plan.grouping == "kind":
        opening = _opening(firsts, plan.members[0].verb or "use")
        return f"{opening} {_article(_joined(values))}, by {parameter}:"
    verbs = _joined(values)
    return f"{verbs[:1].upper()}{verbs[1:]} {_article(' '.join(noun) or 'item')}, by {parameter}:"


def _description(
    plan: Plan,
    descriptions: Sequence[str],
    values: Sequence[str],
    noun: Sequence[str],
    parameter: str,
    fields: Sequence[str],
) -> str:
    """One description from the shared part: the members' first sentences made one where they say the same of
    their own noun, else a head line and a line per kind (or action) with its own first sentence; a kind's line
    also names what it takes in `fields` (what `fields` holds per kind)."""
    firsts = [first_sentence(text) for text in descriptions]
    shared = _generalised(firsts, plan.members, values) if plan.grouping == "kind" else None
    lines = []
    for value, sentence, own, member in zip(values, firsts, fields, plan.members, strict=True):
        said = [sentence or member.name] if shared is None else []
        if own:
            said.append(own)
        if said:
            lines.append(f"- {value}: {' '.join(said)}")
    head = shared if shared is not None else _head(plan, firsts, values, noun, parameter)
    return "\n".join([head, *lines])


def _line(takers: Sequence[str], needers: Sequence[str], every: int) -> str:
    """Which kinds take a parameter, and which need it."""
    if len(takers) < every:
        return ""
    if needers and len(needers) < every:
        return f" Required for {_joined(needers, 'and')}."
    return ""


def _partial_line(takers: Sequence[str], needers: Sequence[str], others: Sequence[str]) -> str:
    """Of a parameter some kinds take: which (or which not, where most do), and which need it."""
    if len(takers) > len(others):
        said, there = f" Not for {_joined(others, 'and')}", "for the others"
    else:
        said, there = f" Only for {_joined(takers, 'and')}", "there"
    if needers:
        said += f"; required {there}" if len(needers) == len(takers) else f"; required for {_joined(needers, 'and')}"
    return said + "."


def _ended(text: str) -> str:
    return text if not text or text.endswith((".", "!", "?", ":")) else text + "."


@dataclass(frozen=True)
class _Layout:
    """Where each parameter of the members goes: `top` once each (with its holders), `inside` per member (the
    optional parameters at most half the members take, in the `fields` object), and the object's name."""

    top: dict[str, list[int]]
    inside: list[list[str]]
    holder: str | None


def _layout(params: Sequence[Mapping[str, Any]], needed: Sequence[set[str]], taken: set[str]) -> _Layout:
    order = list(dict.fromkeys(name for p in params for name in p))
    holders = {name: [n for n, p in enumerate(params) if name in p] for name in order}
    every = len(params)
    alone = {name for name, at in holders.items() if len(at) * 2 <= every and not any(name in needed[n] for n in at)}
    # An object of one parameter costs more than the parameter alone.
    if len(alone) < 2:
        alone = set()
    holder = None
    if alone:
        holder = next(n for n in ("fields", "kindFields", "kind_fields", "own_fields") if n not in taken)
    top = {name: at for name, at in holders.items() if name not in alone}
    inside = [[name for name in p if name in alone] for p in params]
    return _Layout(top, inside, holder)


def _field_list(schemas: Mapping[str, Any], names: Sequence[str], holder: str) -> str:
    if not names:
        return ""
    shown = []
    for name in names:
        hint = type_hint(schemas[name])
        shown.append(f"{name} ({hint})" if hint else name)
    return f"{holder}: {', '.join(shown)}."


def _input_schema(
    members: Sequence[Mapping[str, Any]],
    plan: Plan,
    values: Sequence[str],
    parameter: str,
    layout: _Layout,
) -> tuple[dict[str, Any], tuple[str, ...]]:
    params = [parameters(m) for m in members]
    needed = [set(required(m)) for m in members]
    every = len(members)
    # The head line says what the enum names ("..., by kind:").
    properties: dict[str, Any] = {parameter: {"type": "string", "enum": list(values)}}
    for name, holders in layout.top.items():
        takers = [values[n] for n in holders]
        needers = [values[n] for n in holders if name in needed[n]]
        if len(holders) < every:
            others = [v for n, v in enumerate(values) if n not in holders]
            line = _partial_line(takers, needers, others)
        else:
            line = _line(takers, needers, every)
        schemas = [params[n][name] if isinstance(params[n][name], dict) else {} for n in holders]
        said = [str(s.get("description") or "") for s in schemas]
        general = None
        if plan.grouping == "kind" and len(holders) > 1:
            general = _generalised(said, [plan.members[n] for n in holders], takers)
        text = general or common_description(schemas) or ""
        properties[name] = merged_schema(schemas, (_ended(text) + line).strip())
    if layout.holder is not None:
        word = "kind" if plan.grouping == "kind" else "action"
        properties[layout.holder] = {
            "type": "object",
            "description": f"What one {word} alone takes: see its line.",
        }
    always = [name for name, holders in layout.top.items() if len(holders) == every and all(name in n for n in needed)]
    given = members[0].get("inputSchema")
    first: dict[str, Any] = given if isinstance(given, dict) else {"type": "object"}
    schemas_of: list[Any] = [m.get("inputSchema") for m in members]
    merged: dict[str, Any] = {}
    for key, value in first.items():
        if key == "properties":
            merged[key] = properties
        elif key == "required":
            merged[key] = [parameter, *always]
        elif all(isinstance(s, dict) and s.get(key) == value for s in schemas_of[1:]):
            merged[key] = value
    merged.setdefault("type", "object")
    merged.setdefault("properties", properties)
    merged.setdefault("required", [parameter, *always])
    shared = tuple(name for name, holders in layout.top.items() if len(holders) == every)
    return merged, shared


def _annotations(members: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    found: list[dict[str, Any]] = []
    for m in members:
        said = m.get("annotations")
        found.append(said if isinstance(said, dict) else {})
    first = found[0]
    kept = {k: v for k, v in first.items() if k != "title" and all(a.get(k) == v for a in found[1:])}
    return kept or None


def merge_family(plan: Plan, tools: Mapping[str, Mapping[str, Any]], in_use: Collection[str]) -> Merged:
    """The family's one tool; `in_use`: the names of the tools beside it (kept, or other families')."""
    members = [tools[name] for name in plan.names]
    values, noun = _values(plan)
    name, taken = _tool_name(plan, noun, in_use)
    params = [parameters(m) for m in members]
    parameter = _parameter(plan, params)
    layout = _layout(params, [set(required(m)) for m in members], {*(n for p in params for n in p), parameter})
    holder = layout.holder or ""
    own = [_field_list(p, names, holder) for p, names in zip(params, layout.inside, strict=True)]
    said = [str(m.get("description") or "") for m in members]
    description = _description(plan, said, values, noun, parameter, own)
    schema, shared = _input_schema(members, plan, values, parameter, layout)
    notes = [taken] if taken else []
    built: dict[str, Any] = {}
    for key, value in members[0].items():
        if key == "name":
            built[key] = name
        elif key == "description":
            built[key] = description
        elif key == "inputSchema":
            built[key] = schema
        elif key == "annotations":
            kept = _annotations(members)
            if kept is not None:
                built[key] = kept
        elif all(m.get(key) == value for m in members[1:]):
            built[key] = value
        else:
            notes.append(f"{key} left out: the members' differ")
    built.setdefault("description", description)
    built.setdefault("inputSchema", schema)
    notes += [f"{k.tool} kept apart: {k.why}" for k in plan.kept_apart]
    renames = tuple({n: f"{holder}.{n}" for n in names} for names in layout.inside)
    return Merged(plan, built, parameter, values, shared, tuple(notes), renames)
