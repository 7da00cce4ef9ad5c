"""Consistency lint: finds, across the tools of one surface, the kinds of inconsistency the seed lists.

Every rule works on the tools as a client received them (names, JSON types, descriptions, annotations) and on
general word groups; no rule knows a bundled tool name. The library never prints: `lint_rich` builds tables that
the CLI renders.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.snapshot_file import Snapshot
from harness.surface import SurfaceDefinition

if TYPE_CHECKING:
    from rich.table import Table

__all__ = [
    "CATEGORIES",
    "Finding",
    "LintResult",
    "SurfaceLint",
    "lint",
    "lint_rich",
    "lint_tools",
]

CATEGORIES = (
    "addressing",
    "concurrency",
    "patch-rule",
    "decision-flag",
    "reason",
    "filter-paging",
    "overloaded-word",
    "permission-split",
    "first-sentence",
)


# ---------------------------------------------------------------------------------------------------------------
# Records across the boundary


@dataclass(frozen=True)
class Finding:
    category: str
    tools: list[str]
    parameters: list[str]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "tools": self.tools, "parameters": self.parameters, "message": self.message}


@dataclass(frozen=True)
class SurfaceLint:
    name: str
    findings: list[Finding]

    @property
    def categories(self) -> list[str]:
        found = {f.category for f in self.findings}
        return [c for c in CATEGORIES if c in found]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "findings": [f.to_json() for f in self.findings]}


@dataclass(frozen=True)
class LintResult:
    surfaces: list[SurfaceLint]

    def to_json(self) -> dict[str, Any]:
        return {"surfaces": [s.to_json() for s in self.surfaces]}


# ---------------------------------------------------------------------------------------------------------------
# Word groups. Each is a synonym group or lexicon the rules below share; matching is on lower-case words.

# Generic words for "a thing the surface stores"; they address items but name no kind a client could search for.
GENERIC_ITEM_WORDS = frozenset({"item", "entry", "object", "record", "resource", "document", "element", "thing"})
# Nouns in tool names that describe a view of items rather than a kind of item.
FACET_WORDS = frozenset({"history", "queue", "list", "log", "guide", "status", "info", "details", "summary", "result"})
# Role names of a reference slot (parent page, target item). A bare role name is a field of the change, not the
# way the tool addresses its item; only suffixed forms such as sourceNumber count as addressing.
ROLE_WORDS = frozenset({"parent", "child", "target", "source", "other", "from", "to", "related", "base", "head"})
# Item-reference endings: integers named ...number, strings named ...id / ...ref.
REFERENCE_INT_ENDINGS = frozenset({"number"})
REFERENCE_STR_ENDINGS = frozenset({"id", "ref", "reference", "identifier", "uuid"})
# Concurrency tokens: one concept (the state you read) that surfaces name in many ways.
CONCURRENCY_WORDS = frozenset({"version", "revision", "etag", "rev"})
# Patch objects: an object parameter carrying the fields to change.
PATCH_NAMES = frozenset({"patch", "changes", "diff", "delta", "update", "updates"})
# Clear flags: booleans that remove a field, the alternative to "null clears it".
CLEAR_WORDS = frozenset({"clear", "remove", "unset", "reset", "drop"})
# Actions and their opposites. A boolean named after one of them turns the action into its opposite.
OPPOSITES = (
    ("approve", "reject"),
    ("accept", "reject"),
    ("accept", "decline"),
    ("allow", "deny"),
    ("grant", "revoke"),
    ("archive", "restore"),
    ("archive", "unarchive"),
    ("delete", "restore"),
    ("lock", "unlock"),
    ("block", "unblock"),
    ("enable", "disable"),
    ("publish", "unpublish"),
    ("open", "close"),
    ("pin", "unpin"),
    ("assign", "unassign"),
    ("add", "remove"),
    ("follow", "unfollow"),
    ("subscribe", "unsubscribe"),
)
UNDO_WORDS = frozenset({"undo", "revert", "reverse", "invert", "negate"})
# Why-words: one concept (why a change is made) under many names.
WHY_WORDS = frozenset({"reason", "explanation", "justification", "rationale", "comment", "note", "why", "motivation"})
# Filters that widen a list; the word after the prefix is what they add.
INCLUDE_PREFIXES = frozenset({"include", "with", "show"})
# Paging parameters, by full lower-case name.
OFFSET_NAMES = frozenset({"offset", "skip", "page", "pagenumber", "start"})
LIMIT_NAMES = frozenset({"limit", "maxresults", "pagesize", "perpage", "top", "first", "count"})
CURSOR_NAMES = frozenset({"cursor", "pagetoken", "nexttoken", "after", "startcursor", "continuationtoken"})
# Words that make a tool a list tool when its name or first sentence says them (compared as stems).
LIST_WORDS = frozenset({"list", "search", "queue", "browse", "find"})
# Verbs in tool names: what a name promises about reading, writing and destroying.
READ_VERBS = frozenset(
    {"get", "list", "search", "read", "find", "query", "fetch", "show", "describe", "view", "browse"}
)
DESTRUCTIVE_VERBS = frozenset({"delete", "remove", "purge", "destroy", "erase", "drop", "wipe", "truncate"})
WRITE_VERBS = DESTRUCTIVE_VERBS | frozenset(
    {"create", "update", "store", "patch", "set", "add", "put", "post", "write", "edit", "move", "claim", "complete"}
    | {"review", "withdraw", "archive", "restore", "approve", "reject", "relate", "block", "assign", "save", "upsert"}
    | {"insert", "merge", "close", "submit", "send", "upload", "decide", "cancel", "import"}
)
OTHER_VERBS = frozenset({"act", "do", "run", "use", "execute", "call", "check", "validate"})
# Words that make an action irreversible.
IRREVERSIBLE = re.compile(
    r"\b(permanent(ly)?|irreversibl[ey]|cannot be undone|can't be undone|purge[sd]?|destroy(s|ed)?|forever)\b", re.I
)


# ---------------------------------------------------------------------------------------------------------------
# Text helpers

_NAME_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z_']*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_TYPED_REF = re.compile(r"\b([a-z]+):<")
_BULLET_KINDS = re.compile(r"^\s*[-*\u2022]\s*([a-z]+(?:,\s*[a-z]+)*)\s*:", re.M)
_NUMBER_OF = re.compile(r"\s*(?:the\s+)?number\s+of\s+(?:the|a|an)\b", re.I)
_ID_OF = re.compile(r"\s*(?:the\s+)?(?:id|identifier|reference)\s+of\s+(?:the|a|an)\b", re.I)
_OF_THING = re.compile(
    r"\b(?:number|id|identifier|reference)\s+of\s+(?:the|a|an|this|one)\s+([a-z][a-z ]*?)\s*"
    r"(?=\b(?:in|to|for|from|with|that|which|whose|of|on)\b|[,.;:()]|$)",
    re.I,
)
_TYPE_OF = re.compile(r"\b(?:type|kind|sort|category)\s+of\s+(?:the\s+|a\s+|an\s+)?([a-z]+)", re.I)
_TRUE_FALSE = re.compile(r"\btrue\b[^,;]*?\bto\s+(\w+).*?\bfalse\b[^,;]*?\bto\s+(\w+)", re.I)
_INSTEAD = re.compile(r"^\s*(\w+)\b.*?\binstead of\s+(\w+)", re.I)
_NULL_CLEARS = re.compile(r"\bnull\s+(clears|removes|deletes|unsets|resets)\b", re.I)
_VALUE = re.compile(r"^[\w:<>-]+$")


def name_words(name: str) -> list[str]:
    """`baseRevisionId` -> base, revision, id; `issue_list` -> issue, list."""
    return list(_name_words(name))


@functools.cache
def _name_words(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _NAME_WORD.findall(name)) or (name.lower(),)


# Memoised: a large surface stems the same few thousand words hundreds of thousands of times.
@functools.cache
def stem(word: str) -> str:
    """A crude stem, enough to match relations/relate, memories/memory, closed/close."""
    w = word.lower().removesuffix("'s").strip("'")
    for suffix, replacement in (
        ("ies", "y"),
        ("ions", ""),
        ("ion", ""),
        ("ing", ""),
        ("es", ""),
        ("ed", ""),
        ("s", ""),
        ("e", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)] + replacement
    return w


def plain_words(text: str) -> list[str]:
    """Words of prose; identifiers such as issue_list or includeClosed are code, not words, and are left out."""
    words = []
    for token in _TOKEN.findall(text):
        if "_" in token or re.search(r"[a-z][A-Z]", token):
            continue
        words.append(token.lower().removesuffix("'s").strip("'"))
    return words


def stems(words: Iterable[str]) -> set[str]:
    return {stem(w) for w in words}


_GENERIC_STEMS = frozenset(stems(GENERIC_ITEM_WORDS))
_NOT_KINDS = frozenset(stems(GENERIC_ITEM_WORDS | FACET_WORDS))


def sentences(text: str) -> list[str]:
    found: list[str] = []
    for line in text.splitlines():
        found.extend(part.strip() for part in _SENTENCE_END.split(line) if part.strip())
    return found


def mentions(text: str, word: str) -> bool:
    return _mention(word).search(text) is not None


@functools.cache
def _mention(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w:]){re.escape(word)}(?![\w])")


def _ordered(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _counted(names_to_tools: dict[str, list[str]]) -> str:
    return ", ".join(f"{name} ({', '.join(tools)})" for name, tools in names_to_tools.items())


# ---------------------------------------------------------------------------------------------------------------
# The tools as the rules see them


@dataclass(frozen=True)
class Param:
    name: str
    types: frozenset[str]
    description: str
    values: tuple[str, ...]

    @functools.cached_property
    def words(self) -> list[str]:
        return name_words(self.name)

    @property
    def integer(self) -> bool:
        return bool(self.types & {"integer", "number"})

    @property
    def string(self) -> bool:
        return "string" in self.types

    @property
    def boolean(self) -> bool:
        return "boolean" in self.types

    @property
    def object(self) -> bool:
        return "object" in self.types


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: tuple[Param, ...]
    read_only: bool | None
    destructive: bool | None

    @functools.cached_property
    def words(self) -> list[str]:
        return name_words(self.name)

    @functools.cached_property
    def sentences(self) -> list[str]:
        return sentences(self.description)

    @property
    def first_sentence(self) -> str:
        found = self.sentences
        return found[0] if found else ""

    @property
    def rest(self) -> str:
        return " ".join(self.sentences[1:])

    def about(self, param: Param) -> list[str]:
        """The parameter's description and the tool's sentences that name it or one of its values."""
        found = self._about.get(param.name)
        if found is None or found[0] is not param:
            names = [param.name, *param.values]
            sentences = [s for s in self.sentences if any(mentions(s, n) for n in names)]
            found = self._about[param.name] = (param, [param.description, *sentences])
        return found[1]

    @functools.cached_property
    def _about(self) -> dict[str, tuple[Param, list[str]]]:
        return {}


def _types(schema: dict[str, Any]) -> frozenset[str]:
    found: set[str] = set()
    declared = schema.get("type")
    if isinstance(declared, str):
        found.add(declared)
    elif isinstance(declared, list):
        found.update(t for t in declared if isinstance(t, str))
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or []:
            if isinstance(option, dict):
                found |= _types(option)
    if "enum" in schema and not found:
        found.add("string")
    return frozenset(found)


def _values(schema: dict[str, Any], description: str) -> tuple[str, ...]:
    """Enumerated values: a schema enum, or a list such as "low, normal, high or urgent" opening the description."""
    enum = schema.get("enum")
    if isinstance(enum, list):
        return tuple(str(v) for v in enum if v is not None)
    if description.lower().startswith("e.g"):
        return ()
    head = re.split(r"\.(?:\s|$)|;", description, maxsplit=1)[0]
    head = re.sub(r"\([^)]*\)", "", head)
    items = [i.strip() for i in re.split(r",|\bor\b", head) if i.strip()]
    if len(items) >= 2 and all(_VALUE.match(i) for i in items):
        return tuple(items)
    return ()


def _param(name: str, schema: Any) -> Param:
    schema = schema if isinstance(schema, dict) else {}
    description = str(schema.get("description") or "")
    return Param(name=name, types=_types(schema), description=description, values=_values(schema, description))


def _hint(tool: dict[str, Any], key: str) -> bool | None:
    annotations = tool.get("annotations")
    value = annotations.get(key) if isinstance(annotations, dict) else None
    return value if isinstance(value, bool) else None


def parse_tool(tool: dict[str, Any]) -> Tool:
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    params = tuple(_param(str(n), s) for n, s in (properties or {}).items())
    return Tool(
        name=str(tool.get("name")),
        description=str(tool.get("description") or ""),
        params=params,
        read_only=_hint(tool, "readOnlyHint"),
        destructive=_hint(tool, "destructiveHint"),
    )


# ---------------------------------------------------------------------------------------------------------------
# Item references and the surface's vocabulary, shared by several rules


def is_concurrency_token(param: Param) -> bool:
    words = param.words
    return bool(set(words) & CONCURRENCY_WORDS) or words[:2] == ["if", "match"]


def is_reference(param: Param) -> bool:
    """An item reference: integers named number/...Number, strings named id/ref/...Id, or described so."""
    if is_concurrency_token(param) or param.name.lower() in ROLE_WORDS:
        return False
    last = param.words[-1]
    if param.integer and (last in REFERENCE_INT_ENDINGS or _NUMBER_OF.match(param.description)):
        return True
    return param.string and (last in REFERENCE_STR_ENDINGS or _ID_OF.match(param.description) is not None)


def _reference_noun(param: Param) -> str:
    """What a reference points at: "the number of the source item" -> item, proposalId -> proposal."""
    described = _OF_THING.search(param.description)
    if described:
        return stem(described.group(1).split()[-1])
    words = param.words
    if len(words) > 1 and words[-2] not in ROLE_WORDS:
        return stem(words[-2])
    typed = _TYPED_REF.findall(param.description)
    return stem(typed[0]) if typed else "item"


@dataclass(frozen=True)
class Reference:
    tool: Tool
    param: Param
    noun: str


@dataclass(frozen=True)
class Surface:
    tools: tuple[Tool, ...]
    references: tuple[Reference, ...]
    item_nouns: frozenset[str]  # stems of nouns the surface addresses as items
    vocabulary: frozenset[str]  # stems of the nouns naming the surface's kinds and things
    scopes: frozenset[str]  # names of scope references, e.g. projectId


def _name_nouns(tool: Tool) -> list[str]:
    verbs = READ_VERBS | WRITE_VERBS | OTHER_VERBS
    return [w for w in tool.words if w not in verbs and not w.isdigit()]


def _item_nouns(tools: Sequence[Tool], references: Sequence[Reference]) -> frozenset[str]:
    """Numbered things, things with a typed reference (kind:<id>), and the generic item words."""
    numbered = {r.noun for r in references if r.param.integer}
    typed = {stem(n) for t in tools for text in _texts(t) for n in _TYPED_REF.findall(text)}
    return frozenset(numbered | typed | _GENERIC_STEMS)


def _texts(tool: Tool) -> list[str]:
    return [tool.description, *(p.description for p in tool.params)]


def _vocabulary(tools: Sequence[Tool], item_nouns: frozenset[str]) -> frozenset[str]:
    """Item nouns, nouns in tool names and kinds that descriptions list as bullets ("- task: ...")."""
    named = {stem(n) for t in tools for n in _name_nouns(t)}
    bulleted = {stem(k) for t in tools for m in _BULLET_KINDS.findall(t.description) for k in m.split(",")}
    return frozenset(item_nouns | named | bulleted)


def _scope_names(references: Sequence[Reference], item_nouns: frozenset[str]) -> frozenset[str]:
    """Scope references (the container most tools take, e.g. projectId): string references to a non-item noun
    that appear in more than half of the tools that take any reference."""
    referencing = {r.tool.name for r in references}
    counts: dict[str, set[str]] = {}
    for r in references:
        if r.param.string and r.noun not in item_nouns:
            counts.setdefault(r.param.name, set()).add(r.tool.name)
    return frozenset(name for name, tools in counts.items() if len(tools) * 2 > len(referencing))


def build_surface(tools: Sequence[dict[str, Any]]) -> Surface:
    parsed = tuple(parse_tool(t) for t in tools)
    references = tuple(Reference(t, p, _reference_noun(p)) for t in parsed for p in t.params if is_reference(p))
    item_nouns = _item_nouns(parsed, references)
    scopes = _scope_names(references, item_nouns)
    return Surface(parsed, references, item_nouns, _vocabulary(parsed, item_nouns), scopes)


def _finding(category: str, tools: Iterable[str], parameters: Iterable[str], message: str) -> Finding:
    return Finding(category, _ordered(tools), _ordered(parameters), message)


# ---------------------------------------------------------------------------------------------------------------
# addressing: one concept, several parameter names


def _concept(ref: Reference, surface: Surface) -> str:
    """Items are one concept however a tool names their kind: what the surface numbers or gives typed references
    (kind:<id>), generic item words, and what a tool's first sentence acts on ("Decides a deletion request").
    A scope (projectId) or a qualifier (organizationId next to a memory id) is a concept of its own."""
    if ref.noun in surface.item_nouns:
        return "item"
    if ref.param.name in surface.scopes:
        return ref.noun
    return "item" if ref.noun in stems(plain_words(ref.tool.first_sentence)) else ref.noun


def _namings(refs: Sequence[Reference]) -> dict[str, list[str]]:
    found: dict[str, dict[str, None]] = {}
    for r in refs:
        found.setdefault(r.param.name, {})[r.tool.name] = None
    return {name: list(tools) for name, tools in found.items()}


def check_addressing(surface: Surface) -> list[Finding]:
    """Per concept, integers and strings are compared apart: `number` for numbered items next to `ref` for typed
    references is one name per form; number next to taskNumber, or id next to ref, is not."""
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
            f"{len(names)} {form} names: {_counted(names)}"
            for form, names in (("integer", integers), ("string", strings))
            if names
        ]
        findings.append(
            _finding(
                "addressing",
                (r.tool.name for r in refs),
                [*integers, *strings],
                f"one {concept} is addressed under several names; " + "; ".join(parts),
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------------------------
# concurrency: several names for the token that guards a change, and tools that take two


def check_concurrency(surface: Surface) -> list[Finding]:
    names: dict[str, list[str]] = {}
    for tool in surface.tools:
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
    for tool in surface.tools:
        own = [p.name for p in tool.params if is_concurrency_token(p)]
        if len(own) > 1:
            message = f"{tool.name} takes {len(own)} concurrency tokens ({', '.join(own)}); which applies depends on what changes"
            findings.append(_finding("concurrency", [tool.name], own, message))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# patch-rule: a patch object in some tools, omitted-keeps with clear flags (or null clears) in others


def _is_patch_object(p: Param) -> bool:
    described = re.search(r"\bfields to (change|update|set)\b|\b(json|merge) patch\b", p.description, re.I)
    return p.object and (p.name.lower() in PATCH_NAMES or described is not None)


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


def check_patch_rule(surface: Surface) -> list[Finding]:
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


def check_decision_flag(surface: Surface) -> list[Finding]:
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


def check_reason(surface: Surface) -> list[Finding]:
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


def _include_overlaps(surface: Surface) -> list[Finding]:
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
        "offset": [p.name for p in tool.params if p.name.lower() in OFFSET_NAMES],
        "limit": [p.name for p in tool.params if p.name.lower() in LIMIT_NAMES],
        "cursor": [p.name for p in tool.params if p.name.lower() in CURSOR_NAMES],
    }
    params = [n for names in kinds.values() for n in names]
    if kinds["cursor"]:
        return "cursor", params
    if kinds["offset"]:
        return ("offset/limit" if kinds["limit"] else "offset only"), params
    return ("limit only" if kinds["limit"] else "no paging"), params


def _paging_styles(surface: Surface) -> list[Finding]:
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


def check_filter_paging(surface: Surface) -> list[Finding]:
    return _include_overlaps(surface) + _paging_styles(surface)


# ---------------------------------------------------------------------------------------------------------------
# overloaded-word: one parameter name for two concepts


@dataclass
class _Use:
    tool: str
    values: set[str]
    label: str | None


def _use(tool: Tool, p: Param, surface: Surface) -> _Use:
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


def check_overloaded_word(surface: Surface) -> list[Finding]:
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
            f"{label} in {', '.join(u.tool for u in c)}"
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


def _annotation_problems(tool: Tool) -> list[str]:
    words = set(tool.words)
    reads, writes, destroys = words & READ_VERBS, words & WRITE_VERBS, words & DESTRUCTIVE_VERBS
    problems = []
    if tool.read_only is None:
        problems.append("has no readOnlyHint")
    elif reads and not writes and tool.read_only is False:
        problems.append(f"reads ({', '.join(sorted(reads))}) but readOnlyHint is false")
    elif writes and not reads and tool.read_only:
        problems.append(f"writes ({', '.join(sorted(writes))}) but readOnlyHint is true")
    if tool.read_only is False and tool.destructive is None:
        problems.append("writes but has no destructiveHint")
    if destroys and tool.destructive is False:
        problems.append(f"is named {', '.join(sorted(destroys))}, not an additive update, but destructiveHint is false")
    return problems


def check_permission_split(surface: Surface) -> list[Finding]:
    findings = []
    for tool in surface.tools:
        if tool.read_only is not True:
            findings.extend(_choice_mixing_irreversible(tool))
        for problem in _annotation_problems(tool):
            findings.append(_finding("permission-split", [tool.name], [], f"{tool.name} {problem}"))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# first-sentence: on-demand clients find a tool by its words; the first sentence should name a kind it serves


def _served_kinds(tool: Tool, surface: Surface) -> dict[str, str]:
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


def check_first_sentence(surface: Surface) -> list[Finding]:
    """Passes when the first sentence names a kind the tool serves, or names an item kind of the surface itself."""
    named_items = surface.item_nouns - _GENERIC_STEMS
    findings = []
    for tool in surface.tools:
        kinds = _served_kinds(tool, surface)
        if not kinds or stems(plain_words(tool.first_sentence)) & (kinds.keys() | named_items):
            continue
        message = (
            f"{tool.name}: the first sentence {tool.first_sentence or '(none)'!r} names none of the kinds it serves "
            f"({', '.join(kinds.values())}), the words on-demand clients search for"
        )
        findings.append(_finding("first-sentence", [tool.name], [], message))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# Running the rules

RULES: tuple[Callable[[Surface], list[Finding]], ...] = (
    check_addressing,
    check_concurrency,
    check_patch_rule,
    check_decision_flag,
    check_reason,
    check_filter_paging,
    check_overloaded_word,
    check_permission_split,
    check_first_sentence,
)


def lint_tools(name: str, tools: Sequence[dict[str, Any]]) -> SurfaceLint:
    """Lint one surface's tools in wire form (name, description, inputSchema, annotations)."""
    surface = build_surface(tools)
    return SurfaceLint(name=name, findings=[f for rule in RULES for f in rule(surface)])


def lint(items: Sequence[SurfaceDefinition | Snapshot]) -> LintResult:
    """Lint each surface as a client receives it: a definition is built and served, a snapshot is as recorded."""
    import anyio

    from harness.measure import wire_list

    async def run() -> list[SurfaceLint]:
        return [lint_tools(item.name, (await wire_list(item)).tools) for item in items]

    return LintResult(surfaces=anyio.run(run))


def lint_rich(result: LintResult) -> list[Table]:
    """One table per surface: category, tools, parameters, message."""
    from rich.table import Table

    tables = []
    for surface in result.surfaces:
        categories = surface.categories
        title = f"{surface.name}: {len(surface.findings)} findings in {len(categories)} categories"
        table = Table(title=title, caption=None if surface.findings else "no inconsistencies found", expand=True)
        table.add_column("category", no_wrap=True)
        table.add_column("tools", ratio=2, overflow="fold")
        table.add_column("parameters", ratio=2, overflow="fold")
        table.add_column("message", ratio=5, overflow="fold")
        for f in surface.findings:
            table.add_row(f.category, ", ".join(f.tools), ", ".join(f.parameters), f.message)
        tables.append(table)
    return tables
