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
    CONCURRENCY_WORDS,
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
    REFERENCE_STR_ENDINGS,
    ROLE_WORDS,
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

# Verbs that change something besides the write verbs of item tools (run a query, stop a search, record feedback,
# manage a service): a name or first sentence with one is not a plain read, whatever other word of it reads.
_CHANGES = frozenset(
    {"run", "execute", "call", "invoke", "trigger", "start", "stop", "kill", "terminate", "simulate", "record"}
    | {"replace", "rename", "modify", "change", "manage", "apply", "toggle", "enable", "disable", "install"}
    | {"deploy", "open", "resolve", "generate", "convert", "save", "send", "publish", "sync", "lock", "unlock"}
)
_CHANGE_STEMS = frozenset(stems(_CHANGES | WRITE_VERBS))
_MANAGES = frozenset(stems({"manage", "modify"}))
# Verbs that only add: a tool named by one (and by no verb that overwrites) makes only additive updates.
_ADDS = frozenset({"create", "add", "insert", "post", "upload", "append"})
_OVERWRITES = frozenset({"update", "set", "edit", "patch", "put", "upsert", "replace", "write", "store", "save"})
_OVERWRITE_STEMS = frozenset(stems(_OVERWRITES | DESTRUCTIVE_VERBS | {"overwrite", "modify"}))

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


# Words that name a reference's slot rather than its thing (inward_issue_key, base_trace_id, last_commit_id).
_SLOT_WORDS = ROLE_WORDS | {"inward", "outward", "compare", "destination", "last", "current", "previous", "after"}


def _named_words(ref: Reference) -> list[str]:
    """The words of a reference's name before its ending, less the slot words it opens with."""
    words = ref.param.words[:-1] if len(ref.param.words) > 1 else []
    while words and words[0] in _SLOT_WORDS:
        words = words[1:]
    return words


def _thing(ref: Reference) -> tuple[str, ...]:
    """What a reference of a server not ours points at, as the words of its name before its ending, less the
    slot words it opens with: issue_type_id (issue type) and request_type_id (request type) point at two things,
    note_id and draft_note_id too. A name that is all slot or ending (id, parent_id) points at what its
    description says, or at nothing known (empty)."""
    words = _named_words(ref)
    if words:
        return tuple(stem(w) for w in words)
    return () if ref.noun in _GENERIC_STEMS else (ref.noun,)


def _groups(refs: list[Reference], concept: str, surface: LintView) -> list[tuple[str, list[Reference]]]:
    """The references of one concept that address one thing, each with the word naming it. Of a surface of ours
    the concept is one thing (its items are numbered alike across kinds). Of any other server, references naming
    different things (issue_number, pull_number) are apart, and an "item" concept is one thing only where its
    references name one (ticket_number and ticket_id, with a bare key) and not none (id, ref and key alone); a
    slot's name (target_project_id) is left out."""
    if surface.ours:
        return [(concept, refs)]
    by_thing: dict[tuple[str, ...], list[Reference]] = {}
    for r in refs:
        # A name that opens with its slot (target_project_id, base_trace_id) says the role a thing plays in this
        # tool, beside the thing's plain name elsewhere; it is no second name for it.
        if len(r.param.words) > 1 and r.param.words[0] in _SLOT_WORDS:
            continue
        by_thing.setdefault(_thing(r), []).append(r)
    named = [thing for thing in by_thing if thing]
    if concept == "item":
        if len(named) != 1:
            return []
        # A bare id or key joins the one thing where its tool speaks of that thing (ticket_get's key, not
        # press_key's key beside an insight set's id).
        [thing] = named
        bare = [r for r in by_thing.get((), []) if set(thing) <= _said(r.tool)]
        return [(_shown(by_thing[thing][0]), by_thing[thing] + bare)]
    return [(_shown(group[0]), group) for thing, group in by_thing.items() if thing]


def _said(tool: Tool) -> set[str]:
    """The stems of a tool's name and description."""
    return stems(tool.words) | stems(plain_words(tool.description))


def _shown(ref: Reference) -> str:
    """The words of a reference's name that name its thing, as written (issue type, project)."""
    words = _named_words(ref)
    if words:
        return " ".join(words)
    return next((w for text in _texts(ref.tool) for w in plain_words(text) if stem(w) == ref.noun), ref.noun)


@rule(
    "TS101",
    "addressing",
    "warning",
    checks="One item addressed under several parameter names (number next to taskNumber, id next to ref); a scope"
    " such as projectId is a concept of its own, and of a server not ours so is a slot (targetProjectId).",
    why="An agent that learned the item's name from one tool passes it to the next: under another name the call is"
    " refused, or worse, the value lands in a parameter that means something else. The design page of the 27 tools' switch to 8"
    " counted this first among the 27 tools' inconsistencies (addressing).",
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
    for concept, grouped in by_concept.items():
        for thing, refs in _groups(grouped, concept, surface):
            integers = _namings([r for r in refs if r.param.integer])
            strings = _namings([r for r in refs if not r.param.integer])
            if len(integers) < 2 and len(strings) < 2:
                continue
            parts = [
                f"{counted(len(names), f'{form} name')}: {_counted(names)}"
                for form, names in (("integer", integers), ("string", strings))
                if names
            ]
            # Of a server ours, an item that every specific reference calls alike is named (one ticket).
            specific = {r.noun for r in refs} - _GENERIC_STEMS
            words = [w for r in refs for w in r.param.words[:-1] if stem(w) in specific]
            named = words[0] if concept == "item" and len(specific) == 1 and words and surface.ours else thing
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


def _guards(tool: Tool, p: Param) -> bool:
    """A concurrency token of a tool that changes things: not a text about a version (version_comment), nor the
    reference to the version a tool works on (jira_update_version's version_id)."""
    words = p.words
    if not is_concurrency_token(p) or words[-1] not in CONCURRENCY_WORDS | REFERENCE_STR_ENDINGS | {"number", "tag"}:
        return False
    return not (words[-1] in REFERENCE_STR_ENDINGS and set(words[:-1]) <= set(tool.words))


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
            if _guards(tool, p):
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
        own = [p.name for p in tool.params if _guards(tool, p)]
        if len(own) > 1:
            message = f"{tool.name} takes {len(own)} concurrency tokens ({', '.join(own)}); which applies depends on what changes"
            findings.append(replace(_finding("concurrency", [tool.name], own, message), aspect="one-tool"))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# patch-rule: a patch object in some tools, omitted-keeps with clear flags (or null clears) in others


def _is_patch_object(p: Param) -> bool:
    described = re.search(r"\bfields to (change|update|set)\b|\b(json|merge) patch\b", p.description, re.I)
    return p.object and (p.flat in PATCH_NAMES or described is not None)


# Of the clear words, those that empty a field; remove and drop also name destroying a thing (remove_source_branch
# deletes the branch after the merge, dropTarget the collection renamed over).
_EMPTIES = frozenset({"clear", "unset", "reset"}) & CLEAR_WORDS


def _is_clear_flag(p: Param, tool: Tool) -> bool:
    """A flag that empties a field the tool sets: clearDue beside due, clearExpiry beside expiresAt."""
    if not (p.boolean and len(p.words) > 1 and p.words[0] in _EMPTIES):
        return False
    cleared = stem(p.words[1])
    for other in tool.params:
        field = stem(other.words[0])
        if (
            other is not p
            and min(len(field), len(cleared)) >= 3
            and (cleared.startswith(field) or field.startswith(cleared))
        ):
            return True
    return False


def _change_style(tool: Tool) -> tuple[str, list[str]] | None:
    """How a tool that changes an item it is given says what to change. Tools that only read, create or act
    (rename a collection) change no item's fields: nothing to keep or clear."""
    if tool.read_only is True or not set(tool.words) & _OVERWRITES:
        return None
    patches = [p.name for p in tool.params if _is_patch_object(p)]
    if patches:
        return "a patch object", patches
    flags = [p.name for p in tool.params if _is_clear_flag(p, tool)]
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
    checks="Two rules for changing an item in the tools that change one: a patch object in some, top-level fields"
    " with clear flags (clearDue) or where null clears in others.",
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
    """Why this boolean is a decision flag, or None: named after an action alone (approve, accept), or described as
    two opposite actions. A flag naming an action and its object (allowExternalLinks, remove_source_branch) is an
    option of what the tool does, not the choice between doing it and its opposite."""
    if not p.boolean or tool.read_only is True:
        return None
    first = p.words[0]
    if len(p.words) == 1 and (first in _ACTION_WORDS or first.removeprefix("un") in _ACTION_WORDS):
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
    checks="A boolean parameter that turns an action into its opposite: named after the action alone (approve true"
    " or false) or described as two opposite actions; an action value would name both.",
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


# Why-words that name a text of any purpose too (a worklog's comment, a note): a why only where described as one.
_ANY_TEXT = frozenset(stems({"comment", "note"}))
_SAYS_WHY = re.compile(r"\b(why|reason)", re.I)


def _is_why(p: Param) -> bool:
    if not p.string:
        return False
    last = stem(p.words[-1])
    if last in _ANY_TEXT:
        return _SAYS_WHY.search(p.description) is not None
    return last in stems(WHY_WORDS) or re.match(r"\s*why\b", p.description, re.I) is not None


@rule(
    "TS105",
    "reason",
    "warning",
    checks="Several parameter names for why a change is made (reason, explanation; a comment or note described as"
    " the reason).",
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


def _covers(said: set[str], tool: Tool, other: Param) -> bool:
    """Whether a flag's text (its words' stems, `said`) says it adds what another adds: every word of what the
    other adds (closed of includeClosed, status summary of include_status_summary), not only words of the things
    the flag's own tool lists (custom fields, in a tool listing custom fields)."""
    adds = stems(other.words[1:])
    return adds <= said and not adds <= stems(tool.words)


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
            if other.name == p.name or pair in seen or not _covers(covered, tool, other):
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
    """How a list tool pages, and the parameters that say so: an offset or a limit is a number (a `start` time is
    neither)."""
    kinds = {
        "offset": [p.name for p in tool.params if p.flat in OFFSET_NAMES and p.integer],
        "limit": [p.name for p in tool.params if p.flat in LIMIT_NAMES and p.integer],
        "cursor": [p.name for p in tool.params if p.flat in CURSOR_NAMES],
    }
    params = [n for names in kinds.values() for n in names]
    if kinds["cursor"]:
        return "cursor", params
    if kinds["offset"]:
        return ("offset/limit" if kinds["limit"] else "offset only"), params
    return ("limit only" if kinds["limit"] else "no paging"), params


def _pages(style: str) -> bool:
    return style in ("cursor", "offset/limit", "offset only")


def _caps_a_list(tool: Tool, style: str) -> bool:
    """A list that takes a limit and no way to the next page; a search's limit is how many of the best matches
    it returns (semantic_search's max_results), not a page."""
    return style == "limit only" and not stems(tool.words) & stems({"search", "find", "query"})


def _paging_styles(surface: LintView) -> list[Finding]:
    """List tools that page in two ways (a cursor and an offset), or a list that stops at its limit beside one
    that pages: the agent asks the one for what the other taught it, or reads one page. Tools that take no
    paging at all are named with them, not counted: a short list needs none."""
    styles: dict[str, list[str]] = {}
    params: list[str] = []
    capped = False
    for tool in surface.tools:
        if _is_list_tool(tool):
            style, names = _paging(tool)
            styles.setdefault(style, []).append(tool.name)
            params.extend(names)
            capped = capped or _caps_a_list(tool, style)
    paging = [style for style in styles if _pages(style)]
    if len(paging) < 2 and not (paging and capped):
        return []
    message = f"list tools page in {len(styles)} ways: {_counted(styles)}"
    return [_finding("filter-paging", (t for tools in styles.values() for t in tools), params, message)]


@rule(
    "TS106",
    "filter-paging",
    "warning",
    checks="Include flags whose meanings overlap, or read-only list tools that page in different ways (a cursor, an"
    " offset, or a limit and no next page).",
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
        # Clusters of one label are one meaning, said once; values unlike the rest are a meaning each.
        by_label: dict[tuple[str, int], list[_Use]] = {}
        for index, c in enumerate(clusters):
            if label := _cluster_label(c):
                by_label.setdefault((label, index if label == "another concept" else -1), []).extend(c)
        labelled = [(label, c) for (label, _), c in by_label.items()]
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


# "Permanent" and "forever" make an action irreversible only where it destroys ("delete permanently"); a permanent
# ignore or a setting kept forever can be undone.
_DESTROYS = re.compile(r"\b(delet|remov|purg|destroy|eras|drop|wip|truncat)\w*", re.I)
_ALWAYS_IRREVERSIBLE = re.compile(
    r"\b(irreversibl[ey]|cannot be undone|can't be undone|purge[sd]?|destroy(s|ed)?)\b", re.I
)


def _irreversible(text: str) -> bool:
    return _ALWAYS_IRREVERSIBLE.search(text) is not None or (
        IRREVERSIBLE.search(text) is not None and _DESTROYS.search(text) is not None
    )


def _choice_mixing_irreversible(tool: Tool) -> list[Finding]:
    """A boolean or enumerated choice whose alternatives include an irreversible action."""
    findings = []
    for p in tool.params:
        if not (p.boolean or len(p.values) >= 2):
            continue
        said = next((text for text in tool.about(p) if _irreversible(text)), None)
        if said:
            message = (
                f"{tool.name}: {p.name} chooses between an irreversible action and a reversible one ({said!r}); "
                "a client can allow or refuse only the whole tool"
            )
            findings.append(_finding("permission-split", [tool.name], [p.name], message))
    return findings


# A tool that writes what it read to a file ("the full logs are written to a file in this directory").
_TO_FILE = re.compile(r"\b(sav(e|es|ed|ing)|writ(e|es|ten|ing))\b[^.]*\b(file|folder|directory|disk)", re.I)
_WRITES_TO_FILE = re.compile(r"\b(file|folder|directory|path)\b[^.]*\b(sav(e|es|ed|ing)|writ(e|es|ten|ing)) ", re.I)


def _only_reads(tool: Tool) -> frozenset[str]:
    """The read verbs of a tool's name, where nothing else of it says it changes things: no write or other
    changing verb in its name or opening its description (`stop_search`, "Records feedback for a search"), no
    first sentence saying it manages or modifies, and no text saying it writes to a file. Empty where it may
    change things."""
    words = set(tool.words)
    reads = words & READ_VERBS
    if not reads or words & (WRITE_VERBS | _CHANGES):
        return frozenset()
    said = plain_words(tool.first_sentence)
    if said and (stem(said[0]) in _CHANGE_STEMS or stems(said) & _MANAGES):
        return frozenset()
    texts = [*tool.sentences, *(p.description for p in tool.params)]
    if any(_TO_FILE.search(text) or _WRITES_TO_FILE.search(text) for text in texts):
        return frozenset()
    return frozenset(reads)


def _only_adds(tool: Tool) -> str | None:
    """The verb a tool's name opens its writes with, where it only adds (create_issue, add_paragraph): None where
    a verb of its name or first sentence overwrites or destroys (create_or_update_file; create_commit_status,
    "Create or update the status of a commit")."""
    words = tool.words
    writes = [w for w in words if w in WRITE_VERBS]
    if not writes or writes[0] not in _ADDS or set(words) & (_OVERWRITES | DESTRUCTIVE_VERBS):
        return None
    if stems(plain_words(tool.first_sentence)) & _OVERWRITE_STEMS:
        return None
    return writes[0]


def _annotation_problems(tool: Tool) -> list[tuple[str, str, Severity | None]]:
    """What the tool's annotations say against its name, each as (aspect, what, a milder severity or None). A hint
    left out is a finding only where its default is wrong for the tool: readOnlyHint defaults to false (a tool
    that only reads is taken for one that changes things), destructiveHint to true (a tool that only adds is taken
    for one that destroys)."""
    words = set(tool.words)
    writes, destroys = words & WRITE_VERBS, words & DESTRUCTIVE_VERBS
    reads = _only_reads(tool)
    problems: list[tuple[str, str, Severity | None]] = []
    if tool.read_only is None and reads:
        said = (
            f"reads ({', '.join(sorted(reads))}) but has no readOnlyHint: clients that read the hint take it for a"
            " tool that changes things (the hint defaults to false) and ask before each call"
        )
        problems.append(("no-read-only", said, "info"))
    elif reads and tool.read_only is False:
        problems.append(("read-only-false", f"reads ({', '.join(sorted(reads))}) but readOnlyHint is false", None))
    elif writes and not words & (READ_VERBS | {"retrieve"}) and tool.read_only:
        problems.append(("read-only-true", f"writes ({', '.join(sorted(writes))}) but readOnlyHint is true", None))
    adds = _only_adds(tool)
    if tool.read_only is not True and tool.destructive is None and adds:
        said = (
            f"only adds ({adds}) but has no destructiveHint: clients that read the hint take it for a destructive"
            " tool (the hint defaults to true)"
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
    " action, whose readOnlyHint or destructiveHint contradicts its name, or that leaves out a hint whose default is"
    " wrong for it (readOnlyHint on a tool that only reads, destructiveHint on one that only adds).",
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


def _kind_values(tool: Tool) -> dict[str, str]:
    """The things a tool of a server not ours says it serves (stem -> word): the values of its kind parameter."""
    words = [v.split(":")[0] for p in tool.params if p.words[-1] in {"kind", "kinds"} for v in p.values]
    return {stem(w): w for w in words if stem(w) not in _NOT_KINDS}


@rule(
    "TS202",
    "first-sentence",
    "info",
    checks="A description whose first sentence names none of the kinds the tool serves (a surface's kinds, or what"
    " a kind parameter enumerates), the words a client's tool search matches.",
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
    """Passes when the first sentence names a kind the tool serves, or names an item kind of the surface itself.
    The kinds of a surface of ours are known; of any other server, those its kind parameters enumerate."""
    surface = given.view
    named_items = surface.item_nouns - _GENERIC_STEMS
    findings = []
    for tool in surface.tools:
        said = stems(plain_words(tool.first_sentence))
        if surface.ours:
            kinds = _served_kinds(tool, surface)
        else:
            # Of a server not ours, only what a kind parameter enumerates, where the first sentence names no noun of
            # the name either: a name's nouns are as often verbs (git_checkout, maps_geocode) or said another way
            # (GitLab projects for repositories) as things left out.
            kinds = {} if said & ({stem(w) for w in _name_nouns(tool)} - _NOT_KINDS) else _kind_values(tool)
        if not kinds or said & (kinds.keys() | named_items):
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
