"""The lint rules, one per category."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from toolsurface.harness.analyze._text import plain_words, stem, stems
from toolsurface.harness.analyze.lint._catalog import Example, ServerTools, example_tool, rule
from toolsurface.harness.analyze.lint._model import Finding, Severity
from toolsurface.harness.analyze.lint._view import (
    _GENERIC_STEMS,
    _INSTEAD,
    _NOT_KINDS,
    _NULL_CLEARS,
    _TRUE_FALSE,
    _TYPE_OF,
    CLEAR_WORDS,
    CURSOR_NAMES,
    DESTRUCTIVE_VERBS,
    INCLUDE_PREFIXES,
    IRREVERSIBLE,
    LIMIT_NAMES,
    LIST_WORDS,
    OFFSET_NAMES,
    OPPOSITES,
    PATCH_NAMES,
    READ_VERBS,
    UNDO_WORDS,
    WHY_WORDS,
    WRITE_VERBS,
    LintView,
    Param,
    Reference,
    Tool,
    _counted,
    _finding,
    _name_nouns,
    _reference_noun,
    _texts,
    is_concurrency_token,
    is_reference,
)
from toolsurface.harness.output import counted

__all__ = ["RULES"]

# ---------------------------------------------------------------------------------------------------------------
# addressing: one concept, several parameter names


def _concept(ref: Reference, surface: LintView) -> str:
    """Items are one concept however a tool names their kind: what the surface numbers or gives typed references
    (kind:<id>), generic item words, and what a tool's first sentence acts on ("Decides a deletion request").
    A scope (projectId), a qualifier (organizationId next to a memory id) and a thing with tools of its own
    that is not numbered (macro_id, beside macro_list) are each a concept of their own."""
    if ref.noun in surface.item_nouns:
        return "item"
    if ref.param.name in surface.scopes or ref.noun in surface.name_nouns:
        return ref.noun
    return "item" if ref.noun in stems(plain_words(ref.tool.first_sentence)) else ref.noun


def _namings(refs: Sequence[Reference]) -> dict[str, list[str]]:
    found: dict[str, dict[str, None]] = {}
    for r in refs:
        found.setdefault(r.param.name, {})[r.tool.name] = None
    return {name: list(tools) for name, tools in found.items()}


@rule(
    "TS101",
    "addressing",
    "warning",
    checks="One item addressed under several parameter names (number next to taskNumber, id next to ref); a scope"
    " such as projectId is a concept of its own.",
    why="An agent that learned the item's name from one tool passes it to the next: under another name the call is"
    " refused, or worse, the value lands in a parameter that means something else. The Conderis design page counted this"
    " first among the 27 tools' inconsistencies (addressing).",
    source="the Conderis design page, docs/conderis.md (Why: addressing)",
    fix="Give the item one parameter name and one type in every tool that takes it.",
    bad=Example.of(
        example_tool(
            "ticket_get",
            "Read a ticket.",
            {"number": {"type": "integer", "description": "The number of the ticket."}},
            read_only=True,
        ),
        example_tool(
            "ticket_close",
            "Close a ticket.",
            {"ticketNumber": {"type": "integer", "description": "The number of the ticket."}},
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "ticket_get",
            "Read a ticket.",
            {"number": {"type": "integer", "description": "The number of the ticket."}},
            read_only=True,
        ),
        example_tool(
            "ticket_close",
            "Close a ticket.",
            {"number": {"type": "integer", "description": "The number of the ticket."}},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _addressing(given: ServerTools) -> list[Finding]:
    """Per concept, integers and strings are compared apart: `number` for numbered items next to `ref` for typed
    references is one name per form; number next to taskNumber, or id next to ref, is not."""
    surface = given.view
    by_concept: dict[str, list[Reference]] = {}
    for ref in surface.references:
        by_concept.setdefault(_concept(ref, surface), []).append(ref)
    findings = []
    for concept, refs in by_concept.items():
        integers = _namings([r for r in refs if r.param.integer])
        strings = _namings([r for r in refs if not r.param.integer])
        if len(integers) < 2 and len(strings) < 2:
            continue
        parts = [
            f"{counted(len(names), f'{form} name')}: {_counted(names)}"
            for form, names in (("integer", integers), ("string", strings))
            if names
        ]
        # Of a server not ours, an item that every specific reference calls alike is named (one ticket).
        specific = {r.noun for r in refs} - _GENERIC_STEMS
        words = [w for r in refs for w in r.param.words[:-1] if stem(w) in specific]
        named = words[0] if concept == "item" and len(specific) == 1 and words and not surface.ours else concept
        findings.append(
            _finding(
                "addressing",
                (r.tool.name for r in refs),
                [*integers, *strings],
                f"one {named} is addressed under several names; " + "; ".join(parts),
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------------------------
# concurrency: several names for the token that guards a change, and tools that take two


@rule(
    "TS102",
    "concurrency",
    "warning",
    checks="Several names for the token that guards a change (version, etag, revisionId), or a tool that takes two.",
    why="The token an agent read with one tool must come back under the name the next tool asks for; two names for"
    " it are two things to remember, and a tool that takes two leaves the agent guessing which applies.",
    source="the Conderis design page, docs/conderis.md (Why: concurrency tokens)",
    fix="Name the token one way across the list (e.g. version), and take one per tool.",
    bad=Example.of(
        example_tool(
            "note_update",
            "Update a note's text.",
            {"number": "integer", "etag": "string"},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "note_rename",
            "Rename a note.",
            {"number": "integer", "version": "integer"},
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "note_update",
            "Update a note's text.",
            {"number": "integer", "version": "integer"},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "note_rename",
            "Rename a note.",
            {"number": "integer", "version": "integer"},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _concurrency(given: ServerTools) -> list[Finding]:
    surface = given.view
    names: dict[str, list[str]] = {}
    # A token guards a change: a tool that only reads takes a version to choose what to read.
    changing = [tool for tool in surface.tools if tool.read_only is not True]
    for tool in changing:
        for p in tool.params:
            if is_concurrency_token(p):
                names.setdefault(p.name, []).append(tool.name)
    if len(names) < 2:
        return []
    findings = [
        _finding(
            "concurrency",
            (t for tools in names.values() for t in tools),
            names,
            f"{len(names)} names for the concurrency token: {_counted(names)}",
        )
    ]
    for tool in changing:
        own = [p.name for p in tool.params if is_concurrency_token(p)]
        if len(own) > 1:
            message = f"{tool.name} takes {len(own)} concurrency tokens ({', '.join(own)}); which applies depends on what changes"
            findings.append(replace(_finding("concurrency", [tool.name], own, message), aspect="one-tool"))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# patch-rule: a patch object in some tools, omitted-keeps with clear flags (or null clears) in others


def _is_patch_object(p: Param) -> bool:
    described = re.search(r"\bfields to (change|update|set)\b|\b(json|merge) patch\b", p.description, re.I)
    return p.object and (p.flat in PATCH_NAMES or described is not None)


def _is_clear_flag(p: Param) -> bool:
    return p.boolean and len(p.words) > 1 and p.words[0] in CLEAR_WORDS


def _change_style(tool: Tool) -> tuple[str, list[str]] | None:
    if tool.read_only is True:
        return None
    patches = [p.name for p in tool.params if _is_patch_object(p)]
    if patches:
        return "a patch object", patches
    flags = [p.name for p in tool.params if _is_clear_flag(p)]
    if flags:
        return "top-level fields with clear flags", flags
    nullable = [p.name for p in tool.params if "null" in p.types]
    if nullable or any(_NULL_CLEARS.search(text) for text in _texts(tool)):
        return "top-level fields where null clears", []
    return None


@rule(
    "TS103",
    "patch-rule",
    "warning",
    checks="Two rules for changing an item: a patch object in some tools, top-level fields with clear flags or"
    " where null clears in others.",
    why="An agent that learned how one tool changes an item applies the same rule to the next; under two rules it"
    " clears what it meant to keep, or cannot clear at all.",
    source="the Conderis design page, docs/conderis.md (Why: patch rules)",
    fix="Pick one way to change an item (top-level fields where null clears, or one patch object) for every tool.",
    bad=Example.of(
        example_tool(
            "card_edit",
            "Change a card.",
            {"number": "integer", "patch": {"type": "object", "description": "The fields to change."}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "card_store",
            "Store a card; omitted fields are kept.",
            {
                "number": "integer",
                "due": "string",
                "clearDue": {"type": "boolean", "description": "Remove the due date."},
            },
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "card_edit",
            "Change a card; an omitted field is kept, null clears it.",
            {"number": "integer", "title": {"type": ["string", "null"]}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "card_store",
            "Store a card; an omitted field is kept, null clears it.",
            {"number": "integer", "due": {"type": ["string", "null"]}},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _patch_rule(given: ServerTools) -> list[Finding]:
    surface = given.view
    styles: dict[str, list[tuple[str, list[str]]]] = {}
    for tool in surface.tools:
        style = _change_style(tool)
        if style is not None:
            styles.setdefault(style[0], []).append((tool.name, style[1]))
    if len(styles) < 2:
        return []
    parts = [f"{style} in {', '.join(t for t, _ in uses)}" for style, uses in styles.items()]
    return [
        _finding(
            "patch-rule",
            (t for uses in styles.values() for t, _ in uses),
            (p for uses in styles.values() for _, params in uses for p in params),
            f"{len(styles)} rules for changing an item: " + "; ".join(parts),
        )
    ]


# ---------------------------------------------------------------------------------------------------------------
# decision-flag: a boolean that turns an action into its opposite

_ACTION_WORDS = {w for pair in OPPOSITES for w in pair} | UNDO_WORDS
_OPPOSITE_STEMS = {frozenset((stem(a), stem(b))) for a, b in OPPOSITES}


def _opposite(first: str, second: str) -> bool:
    a, b = stem(first), stem(second)
    return frozenset((a, b)) in _OPPOSITE_STEMS or a == f"un{b}" or b == f"un{a}"


def decision_flag(tool: Tool, p: Param) -> str | None:
    """Why this boolean is a decision flag, or None: named after an action, or described as two opposite actions."""
    if not p.boolean or tool.read_only is True:
        return None
    first = p.words[0]
    if first in _ACTION_WORDS or first.removeprefix("un") in _ACTION_WORDS:
        return f"named after the action {first!r}"
    both = _TRUE_FALSE.search(p.description)
    if both and stem(both.group(1)) != stem(both.group(2)):
        return f"true to {both.group(1)}, false to {both.group(2)}"
    instead = _INSTEAD.search(p.description)
    if instead and _opposite(instead.group(1), instead.group(2)):
        return f"{instead.group(1)} instead of {instead.group(2)}"
    return None


@rule(
    "TS104",
    "decision-flag",
    "warning",
    checks="A boolean parameter that turns an action into its opposite (approve true or false); an action value"
    " would name both.",
    why="A flag named after one action makes the other its false value: an agent that leaves it out, or reads it"
    " the wrong way round, does the opposite of what it meant, and a client can allow only both or neither.",
    source="the Conderis design page, docs/conderis.md (Why: decisions)",
    fix="Take an action (or decision) string whose values name both actions.",
    bad=Example.of(
        example_tool(
            "invite_answer",
            "Answer an invite.",
            {
                "number": "integer",
                "accept": {"type": "boolean", "description": "true to accept the invite, false to decline it."},
            },
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "invite_answer",
            "Answer an invite.",
            {"number": "integer", "decision": {"type": "string", "enum": ["accept", "decline"]}},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _decision_flag(given: ServerTools) -> list[Finding]:
    surface = given.view
    flags: dict[str, list[tuple[str, str]]] = {}
    for tool in surface.tools:
        for p in tool.params:
            why = decision_flag(tool, p)
            if why:
                flags.setdefault(p.name, []).append((tool.name, p.description or why))
    return [
        _finding(
            "decision-flag",
            (t for t, _ in uses),
            [name],
            f"{name}: bool turns an action into its opposite in {', '.join(t for t, _ in uses)} ({uses[0][1]!r}); "
            "an action value would name both",
        )
        for name, uses in flags.items()
    ]


# ---------------------------------------------------------------------------------------------------------------
# reason: why a change is made, under several names


def _is_why(p: Param) -> bool:
    return p.string and (
        stem(p.words[-1]) in stems(WHY_WORDS) or re.match(r"\s*why\b", p.description, re.I) is not None
    )


@rule(
    "TS105",
    "reason",
    "warning",
    checks="Several parameter names for why a change is made (reason, comment, note).",
    why="The agent gives the why of a change under the name one tool taught it; under another name the next tool"
    " refuses the call or drops the text.",
    source="the Conderis design page, docs/conderis.md (Why: reasons)",
    fix="Call it one thing (e.g. reason) in every tool that takes it.",
    bad=Example.of(
        example_tool(
            "order_cancel",
            "Cancel an order.",
            {"number": "integer", "reason": {"type": "string", "description": "Why the order is canceled."}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "order_refund",
            "Refund an order.",
            {"number": "integer", "justification": "string"},
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "order_cancel",
            "Cancel an order.",
            {"number": "integer", "reason": {"type": "string", "description": "Why the order is canceled."}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "order_refund",
            "Refund an order.",
            {"number": "integer", "reason": "string"},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _reason(given: ServerTools) -> list[Finding]:
    surface = given.view
    names: dict[str, list[str]] = {}
    for tool in surface.tools:
        for p in tool.params:
            if _is_why(p):
                names.setdefault(p.name, []).append(tool.name)
    if len(names) < 2:
        return []
    return [
        _finding(
            "reason",
            (t for tools in names.values() for t in tools),
            names,
            f"{len(names)} names for why a change is made: {_counted(names)}",
        )
    ]


# ---------------------------------------------------------------------------------------------------------------
# filter-paging: include flags that overlap in meaning; list tools that page in different ways


def _include_subject(p: Param) -> str | None:
    words = p.words
    return stem(words[1]) if p.boolean and len(words) > 1 and words[0] in INCLUDE_PREFIXES else None


def _include_overlaps(surface: LintView) -> list[Finding]:
    flags = [(t, p, s) for t in surface.tools for p in t.params if (s := _include_subject(p))]
    by_subject: dict[str, list[int]] = {}
    for index, (_, _, subject) in enumerate(flags):
        by_subject.setdefault(subject, []).append(index)
    findings: list[Finding] = []
    seen: set[frozenset[str]] = set()
    for tool, p, _ in flags:
        covered = stems(w for text in tool.about(p) for w in plain_words(text))
        # Only the flags whose subject this one covers, in list order.
        candidates = sorted(index for subject in covered for index in by_subject.get(subject, ()))
        for other_tool, other, _ in (flags[index] for index in candidates):
            pair = frozenset((p.name, other.name))
            if other.name == p.name or pair in seen:
                continue
            seen.add(pair)
            message = (
                f"{p.name} in {tool.name} also covers what {other.name} adds in {other_tool.name}: "
                f"{p.description or tool.about(p)[-1]!r}"
            )
            findings.append(_finding("filter-paging", [tool.name, other_tool.name], [p.name, other.name], message))
    return findings


def _is_list_tool(tool: Tool) -> bool:
    said = stems(tool.words) | stems(plain_words(tool.first_sentence))
    return tool.read_only is True and bool(said & stems(LIST_WORDS))


def _paging(tool: Tool) -> tuple[str, list[str]]:
    kinds = {
        "offset": [p.name for p in tool.params if p.flat in OFFSET_NAMES],
        "limit": [p.name for p in tool.params if p.flat in LIMIT_NAMES],
        "cursor": [p.name for p in tool.params if p.flat in CURSOR_NAMES],
    }
    params = [n for names in kinds.values() for n in names]
    if kinds["cursor"]:
        return "cursor", params
    if kinds["offset"]:
        return ("offset/limit" if kinds["limit"] else "offset only"), params
    return ("limit only" if kinds["limit"] else "no paging"), params


def _paging_styles(surface: LintView) -> list[Finding]:
    styles: dict[str, list[str]] = {}
    params: list[str] = []
    for tool in surface.tools:
        if _is_list_tool(tool):
            style, names = _paging(tool)
            styles.setdefault(style, []).append(tool.name)
            params.extend(names)
    if len(styles) < 2:
        return []
    message = f"list tools page in {len(styles)} ways: {_counted(styles)}"
    return [_finding("filter-paging", (t for tools in styles.values() for t in tools), params, message)]


@rule(
    "TS106",
    "filter-paging",
    "warning",
    checks="Include flags whose meanings overlap, or read-only list tools that page in different ways (cursor,"
    " offset and limit, none).",
    why="An agent pages the way the first list tool taught it; a second way leaves it reading one page, or asking"
    " for a cursor a tool does not give. Flags that overlap make two ways to ask for the same items.",
    source="the Conderis design page, docs/conderis.md (Why: filters and paging)",
    fix="Page every list tool one way (a cursor, or offset and limit), and keep one flag per thing a filter adds.",
    bad=Example.of(
        example_tool("song_list", "List songs.", {"limit": "integer"}, read_only=True),
        example_tool(
            "album_search", "Search albums by title.", {"query": "string", "cursor": "string"}, read_only=True
        ),
    ),
    good=Example.of(
        example_tool("song_list", "List songs.", {"limit": "integer", "cursor": "string"}, read_only=True),
        example_tool(
            "album_search",
            "Search albums by title.",
            {"query": "string", "limit": "integer", "cursor": "string"},
            read_only=True,
        ),
    ),
)
def _filter_paging(given: ServerTools) -> list[Finding]:
    surface = given.view
    return _include_overlaps(surface) + _paging_styles(surface)


# ---------------------------------------------------------------------------------------------------------------
# overloaded-word: one parameter name for two concepts


@dataclass
class _Use:
    tool: str
    values: set[str]
    label: str | None


def _use(tool: Tool, p: Param, surface: LintView) -> _Use:
    """A parameter's concept in one tool: "type of X" in its text, item kinds when every value names one."""
    values = {v.lower() for v in p.values}
    typed = next((m.group(1) for text in tool.about(p) if (m := _TYPE_OF.search(text))), None)
    if typed:
        label: str | None = f"{typed.lower()} type"
    elif values and all(stem(v.split(":")[0]) in surface.vocabulary for v in values):
        label = "item kind"
    else:
        label = "another concept" if values else None
    return _Use(tool.name, values, label)


def _merge_overlapping(uses: list[_Use]) -> list[list[_Use]]:
    """Uses whose enumerated values overlap name the same concept (and so, transitively, do uses that overlap
    one of those); in list order, each cluster by its first use. A union-find over the values, so a name
    used by thousands of tools costs linear time."""
    parent = list(range(len(uses)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    first_with: dict[str, int] = {}
    for index, use in enumerate(uses):
        for value in use.values:
            other = first_with.setdefault(value, index)
            low, high = sorted((root(index), root(other)))
            parent[high] = low
    clusters: dict[int, list[_Use]] = {}
    for index, use in enumerate(uses):
        clusters.setdefault(root(index), []).append(use)
    return list(clusters.values())


def _cluster_label(cluster: list[_Use]) -> str | None:
    """A "type of X" phrase wins over what the values suggest."""
    labels = [u.label for u in cluster if u.label]
    typed = [label for label in labels if label.endswith(" type")]
    return (typed or labels)[0] if labels else None


def _shown_label(label: str, surface: LintView) -> str:
    """A concept as the message names it: a server not ours has no kinds, it has the things its tools work on."""
    return label if label != "item kind" or surface.ours else "what the tools work on"


@rule(
    "TS107",
    "overloaded-word",
    "warning",
    checks="One parameter name that means two things in different tools.",
    why="An agent carries a parameter's meaning from one tool to the next: a name that means a kind of item in"
    " one tool and a role in another gets values of the wrong set.",
    source="the Conderis design page, docs/conderis.md (Why: the word kind)",
    fix="Give each concept its own parameter name (kind for what an item is, role or type for the rest).",
    bad=Example.of(
        example_tool(
            "file_create",
            "Create a file or folder.",
            {"name": "string", "kind": {"type": "string", "description": "file or folder."}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "folder_share",
            "Share a folder with a person.",
            {"kind": {"type": "string", "description": "viewer, editor or owner."}},
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "file_create",
            "Create a file or folder.",
            {"name": "string", "kind": {"type": "string", "description": "file or folder."}},
            read_only=False,
            destructive=False,
        ),
        example_tool(
            "folder_share",
            "Share a folder with a person.",
            {"role": {"type": "string", "description": "viewer, editor or owner."}},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _overloaded_word(given: ServerTools) -> list[Finding]:
    surface = given.view
    by_name: dict[str, list[tuple[Tool, Param]]] = {}
    for tool in surface.tools:
        for p in tool.params:
            by_name.setdefault(p.name, []).append((tool, p))
    findings = []
    for name, pairs in by_name.items():
        if len(pairs) < 2:
            continue
        clusters = _merge_overlapping([_use(t, p, surface) for t, p in pairs])
        labelled = [(label, c) for c in clusters if (label := _cluster_label(c))]
        if len({label for label, _ in labelled}) < 2:
            continue
        parts = [
            f"{_shown_label(label, surface)} in {', '.join(u.tool for u in c)}"
            + (f" ({', '.join(sorted({v for u in c for v in u.values}))})" if any(u.values for u in c) else "")
            for label, c in labelled
        ]
        findings.append(
            _finding(
                "overloaded-word",
                (u.tool for _, c in labelled for u in c),
                [name],
                f"{name} means {len(labelled)} things: " + "; ".join(parts),
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------------------------
# permission-split: read, write and irreversible mixed in one tool, or annotations that say otherwise


def _choice_mixing_irreversible(tool: Tool) -> list[Finding]:
    """A boolean or enumerated choice whose alternatives include an irreversible action."""
    findings = []
    for p in tool.params:
        if not (p.boolean or len(p.values) >= 2):
            continue
        said = next((text for text in tool.about(p) if IRREVERSIBLE.search(text)), None)
        if said:
            message = (
                f"{tool.name}: {p.name} chooses between an irreversible action and a reversible one ({said!r}); "
                "a client can allow or refuse only the whole tool"
            )
            findings.append(_finding("permission-split", [tool.name], [p.name], message))
    return findings


def _annotation_problems(tool: Tool) -> list[tuple[str, str, Severity | None]]:
    """What the tool's annotations say against its name, each as (aspect, what, a milder severity or None). A hint
    left out is a finding only where its default is wrong for the tool: readOnlyHint defaults to false (a tool
    that only reads is taken for one that changes things), destructiveHint to true (a tool that only adds or
    changes is taken for one that destroys)."""
    words = set(tool.words)
    reads, writes, destroys = words & READ_VERBS, words & WRITE_VERBS, words & DESTRUCTIVE_VERBS
    problems: list[tuple[str, str, Severity | None]] = []
    if tool.read_only is None and reads and not writes:
        said = (
            f"reads ({', '.join(sorted(reads))}) but has no readOnlyHint: clients that read the hint take it for a"
            " tool that changes things (the hint defaults to false) and ask before each call"
        )
        problems.append(("no-read-only", said, "info"))
    elif reads and not writes and tool.read_only is False:
        problems.append(("read-only-false", f"reads ({', '.join(sorted(reads))}) but readOnlyHint is false", None))
    elif writes and not reads and tool.read_only:
        problems.append(("read-only-true", f"writes ({', '.join(sorted(writes))}) but readOnlyHint is true", None))
    if tool.read_only is not True and tool.destructive is None and writes and not reads and not destroys:
        said = (
            f"writes ({', '.join(sorted(writes))}) without destroying but has no destructiveHint: clients that read"
            " the hint take it for a destructive tool (the hint defaults to true)"
        )
        problems.append(("no-destructive", said, "info"))
    if destroys and tool.destructive is False:
        said = f"is named {', '.join(sorted(destroys))}, not an additive update, but destructiveHint is false"
        problems.append(("destructive-false", said, None))
    return problems


@rule(
    "TS201",
    "permission-split",
    "warning",
    checks="A tool a client can only allow or refuse whole though one choice picks an irreversible or a reversible"
    " action, or whose readOnlyHint or destructiveHint annotation is missing or contradicts its name.",
    why="Clients ask for, allow and refuse permission per tool, and read the annotations to decide whether to ask:"
    " a tool that mixes a reversible and an irreversible action, or says it only reads when it writes, is allowed"
    " or refused as a whole on a wrong premise.",
    source="MCP specification, tool annotations (readOnlyHint, destructiveHint)",
    fix="Split the irreversible choice into its own tool, and state readOnlyHint (and destructiveHint where it"
    " writes) as the tool behaves.",
    bad=Example.of(
        example_tool("photo_delete", "Delete a photo.", {"number": "integer"}, read_only=False, destructive=False),
    ),
    good=Example.of(
        example_tool("photo_delete", "Delete a photo.", {"number": "integer"}, read_only=False, destructive=True),
    ),
)
def _permission_split(given: ServerTools) -> list[Finding]:
    surface = given.view
    findings = []
    for tool in surface.tools:
        if tool.read_only is not True:
            findings.extend(_choice_mixing_irreversible(tool))
        for aspect, problem, level in _annotation_problems(tool):
            finding = _finding("permission-split", [tool.name], [], f"{tool.name} {problem}")
            findings.append(replace(finding, level=level, aspect=aspect))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# first-sentence: a client's tool search finds a tool by its words; the first sentence should name what it works on


def _served_kinds(tool: Tool, surface: LintView) -> dict[str, str]:
    """Kinds (stem -> word) the tool serves beyond its first sentence: nouns of its name, the values of its kind
    parameter, what its references point at (not the scope), and kind words in the rest of its description."""
    words = list(_name_nouns(tool))
    for p in tool.params:
        if p.words[-1] in {"kind", "kinds"}:
            words.extend(v.split(":")[0] for v in p.values)
        if is_reference(p) and p.name not in surface.scopes:
            words.append(_reference_noun(p))
    words.extend(w for w in plain_words(tool.rest) if stem(w) in surface.vocabulary)
    kinds: dict[str, str] = {}
    for word in words:
        if stem(word) not in _NOT_KINDS:
            kinds.setdefault(stem(word), word)
    return kinds


@rule(
    "TS202",
    "first-sentence",
    "info",
    checks="A description whose first sentence names none of the things the tool works on, the words a client's"
    " tool search matches.",
    why="Clients that load tools on demand search names and descriptions, and weigh the first sentence most; a"
    " first sentence that names none of the tool's things is found only by its name.",
    source="the Conderis design page, docs/conderis.md (keyword findability); clients' tool search",
    fix='Open the description with what the tool does to which things ("Store a recipe or a menu.").',
    bad=Example.of(
        example_tool(
            "item_store",
            "Store one item. Allowed kinds: recipe, menu.",
            {"kind": {"type": "string", "description": "recipe or menu."}},
            read_only=False,
            destructive=False,
        ),
    ),
    good=Example.of(
        example_tool(
            "item_store",
            "Store a recipe or a menu.",
            {"kind": {"type": "string", "description": "recipe or menu."}},
            read_only=False,
            destructive=False,
        ),
    ),
)
def _first_sentence(given: ServerTools) -> list[Finding]:
    """Passes when the first sentence names a kind the tool serves, or names an item kind of the surface itself."""
    surface = given.view
    named_items = surface.item_nouns - _GENERIC_STEMS
    findings = []
    for tool in surface.tools:
        kinds = _served_kinds(tool, surface)
        if not kinds or stems(plain_words(tool.first_sentence)) & (kinds.keys() | named_items):
            continue
        served = "the kinds it serves" if surface.ours else "the things the tool works on"
        searched = "on-demand clients search for" if surface.ours else "a client's tool search matches"
        message = (
            f"{tool.name}: the first sentence {tool.first_sentence or '(none)'!r} names none of {served} "
            f"({', '.join(kinds.values())}), the words {searched}"
        )
        findings.append(_finding("first-sentence", [tool.name], [], message))
    return findings


RULES = (
    _addressing,
    _concurrency,
    _patch_rule,
    _decision_flag,
    _reason,
    _filter_paging,
    _overloaded_word,
    _permission_split,
    _first_sentence,
)
