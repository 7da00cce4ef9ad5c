"""The tools as the lint rules see them: word groups, parameters, item references and the surface's vocabulary."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.analyze._text import name_words, sentences, stem, stems
from toolsurface.harness.analyze.lint._model import Finding

# The verb groups are the face's too (toolsurface.harness.analyze.lint): suggest reads names by them.
__all__ = ["DESTRUCTIVE_VERBS", "LIST_WORDS", "OTHER_VERBS", "READ_VERBS", "WRITE_VERBS"]

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

_TYPED_REF = re.compile(r"\b([a-z]+):<")
_BULLET_KINDS = re.compile(r"^\s*[-*\u2022]\s*([a-z]+(?:,\s*[a-z]+)*)\s*:", re.M)
_NUMBER_OF = re.compile(r"\s*(?:the\s+)?number\s+of\s+(?:the|a|an)\b", re.I)
_ID_OF = re.compile(r"\s*(?:the\s+)?(?:id|identifier|reference|key)\s+of\s+(?:the|a|an)\b", re.I)
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


_GENERIC_STEMS = frozenset(stems(GENERIC_ITEM_WORDS))
_NOT_KINDS = frozenset(stems(GENERIC_ITEM_WORDS | FACET_WORDS))


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

    @functools.cached_property
    def flat(self) -> str:
        """The name in lower case without separators: `max_results`, `maxResults` and `MaxResults` alike."""
        return "".join(self.words)

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


def _hint(tool: Mapping[str, Any], key: str) -> bool | None:
    annotations = tool.get("annotations")
    value = annotations.get(key) if isinstance(annotations, dict) else None
    return value if isinstance(value, bool) else None


def parse_tool(tool: Mapping[str, Any]) -> Tool:
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


# Words that make a version a bound or a choice (fromVersion, max_version, apiVersion), not the state a change guards.
_NOT_GUARD_WORDS = frozenset(
    {"from", "to", "min", "max", "since", "until", "api", "schema", "protocol", "node", "python"}
)


def is_concurrency_token(param: Param) -> bool:
    words = param.words
    if set(words) & _NOT_GUARD_WORDS:
        return False
    return bool(set(words) & CONCURRENCY_WORDS) or words[:2] == ["if", "match"]


def is_reference(param: Param) -> bool:
    """An item reference: integers named number/...Number, strings named id/ref/...Id, or described so."""
    if is_concurrency_token(param) or param.name.lower() in ROLE_WORDS:
        return False
    last = param.words[-1]
    if param.integer and (last in REFERENCE_INT_ENDINGS or _NUMBER_OF.match(param.description)):
        return True
    # A bare `key` addresses an item ("TD-1"); a longer name ending in it is more often a secret or a setting.
    bare_key = param.words == ["key"]
    return param.string and (last in REFERENCE_STR_ENDINGS or bare_key or _ID_OF.match(param.description) is not None)


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
class LintView:
    tools: tuple[Tool, ...]
    references: tuple[Reference, ...]
    item_nouns: frozenset[str]  # stems of nouns the surface addresses as items
    vocabulary: frozenset[str]  # stems of the nouns naming the surface's kinds and things
    scopes: frozenset[str]  # names of scope references, e.g. projectId
    # A surface of ours, built from kinds: its findings may say "kind"; of any other server they speak as MCP does.
    ours: bool = False
    # Stems of the nouns in the tools' names (macro of macro_list): things with tools of their own.
    name_nouns: frozenset[str] = frozenset()


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


def build_surface(tools: Sequence[Mapping[str, Any]], ours: bool = False) -> LintView:
    parsed = tuple(parse_tool(t) for t in tools)
    references = tuple(Reference(t, p, _reference_noun(p)) for t in parsed for p in t.params if is_reference(p))
    item_nouns = _item_nouns(parsed, references)
    scopes = _scope_names(references, item_nouns)
    named = frozenset(stem(n) for t in parsed for n in _name_nouns(t))
    return LintView(parsed, references, item_nouns, _vocabulary(parsed, item_nouns), scopes, ours, named)


def _finding(category: str, tools: Iterable[str], parameters: Iterable[str], message: str) -> Finding:
    return Finding(category, _ordered(tools), _ordered(parameters), message)
