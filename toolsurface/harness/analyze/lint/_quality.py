"""Description quality (lint TS203-TS208): what a tool's text shows without a model of the components and smells
two 2026 studies define. *MCP Tool Descriptions Are Smelly* (arXiv 2602.14878: 856 tools on 103 servers) scores
six components (purpose, usage guidelines, limitations, parameter explanation, length and completeness, examples);
*From Docs to Descriptions* (arXiv 2602.18914: 10,831 servers) names 18 smells in four dimensions (accuracy,
functionality, information completeness, conciseness). What needs a reader (is the purpose right, do parameter
meanings match the code) is left to `lint --judge`.

Each finding says what a typical fix would add to the list in o200k tokens (`cost_tokens`, negative where the fix
saves): the first study found that descriptions augmented in every component cost 67 % more agent steps, and that
compact ones kept most of the gain. The fix texts and their counts are FIX_TEXTS, counted once with the project's
counter (a test holds the two together), so lint needs no tokenizer unless a description's length is judged."""

from __future__ import annotations

import functools
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolsurface.harness.analyze._text import name_words, plain_words, stem
from toolsurface.harness.analyze.lint._catalog import Example, ServerTools, example_tool, rule
from toolsurface.harness.analyze.lint._model import Finding, Severity
from toolsurface.harness.analyze.lint._view import (
    CURSOR_NAMES,
    DESTRUCTIVE_VERBS,
    LIMIT_NAMES,
    LIST_WORDS,
    OFFSET_NAMES,
    READ_VERBS,
    WRITE_VERBS,
    Param,
    Tool,
)

__all__ = ["FIX_TEXTS", "RULES", "fix_tokens"]

_SMELLY = "arXiv 2602.14878 (MCP Tool Descriptions Are Smelly)"
_DOCS = "arXiv 2602.18914 (From Docs to Descriptions)"

# ---------------------------------------------------------------------------------------------------------------
# What a typical fix adds: a text per kind of fix, and its o200k tokens (tests/analyze/test_lint_quality.py counts
# each with toolsurface.harness.measure.count_tokens and holds these figures to it). A description's sentence is
# counted with the space before it; a parameter's description as the JSON it adds to the parameter's schema.

FIX_TEXTS: dict[str, tuple[str, int]] = {
    "purpose": ("Search the help desk's tickets by words in their title or body.", 14),
    "returns": (" Returns each match's key, title and status, newest first.", 13),
    "usage": (" Use it when the customer has asked for it; it returns the changed ticket's key.", 18),
    "parameter": (',"description":"The ticket\'s key, e.g. TD-1."', 15),
    "parameter-form": (" e.g. TD-1, as ticket_search returns it", 12),
    "paging": (" Returns at most limit matches (default 20); pass the cursor it returns to read the next page.", 21),
    "irreversible": (" The deletion is permanent and cannot be undone.", 9),
    "vague-verb": ("Create, update or close", 5),
}


def fix_tokens(kind: str, times: int = 1) -> int:
    return FIX_TEXTS[kind][1] * times


def _adds(tokens: int) -> str:
    return f"a fix adds about {tokens} tokens a request"


# ---------------------------------------------------------------------------------------------------------------
# Words


# Words that carry no meaning of their own in a tool's description: articles, pronouns, auxiliaries, and the
# words descriptions wrap a tool's name in ("This tool allows you to ...").
def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FILLER = _words(
    """a an the this that these those it its of to for in on at by with from into as and or is are be been can
    will may you your we our all any some one given specified provided specific new existing current tool tools
    function method endpoint api mcp server allows allow lets let used use using helps help perform performs
    e g i"""
)
# Words that name no particular thing: filler in a tool's description ("Gets item details"), though in a
# parameter's ("The item's number") they say whose.
_GENERIC = _words(
    """data information info details detail object objects item items entry entries record records operation
    operations action actions request requests"""
)
# A word and the words that say the same of a tool (a description that swaps one for another repeats the name).
_SAME = {
    "get": ("retrieve", "fetch", "obtain", "return", "read", "show", "view", "look", "lookup"),
    "list": ("enumerate", "show", "get", "retrieve", "fetch", "return"),
    "create": ("add", "make", "new", "insert"),
    "add": ("create", "insert", "append"),
    "delete": ("remove", "erase", "destroy"),
    "remove": ("delete",),
    "update": ("modify", "change", "edit", "set"),
    "edit": ("update", "modify", "change"),
    "search": ("find", "query", "look", "lookup"),
    "find": ("search", "query", "look"),
    "set": ("update", "change"),
}
# Verbs that say what a tool does without saying what ("Manages tickets", "Handles a dialog"), and those that
# do so only before a word for anything at all ("Performs operations on tickets", "Processes requests").
_VAGUE_ANY = frozenset(stem(v) for v in ("handle", "manage"))
_VAGUE_GENERIC = frozenset(stem(v) for v in ("process", "perform", "do", "does", "deal", "work", "interact"))
_ANYTHING = _words("things stuff tasks task work various multiple several different commands command")
# Openings that wrap a description's verb ("This tool lets you ...", "Used to ...").
_WRAPPER = re.compile(
    r"^\s*(?:(?:this|the|a)\s+)?(?:tool|function|method|endpoint)?\s*(?:that|which|to|for)?\s*"
    r"(?:(?:is\s+)?used\s+to|allows?\s+(?:you|users?|the\s+\w+)\s+to|lets?\s+(?:you|users?)|helps?\s+(?:you\s+)?(?:to\s+)?"
    r"|can\s+be\s+used\s+to|use\s+(?:this|it)\s+(?:tool\s+)?to)?\s*",
    re.I,
)
# Verbs that say what is done (a vague verb beside one of these is a heading: "Manage tickets: create, close").
_ACTION_VERBS = (
    READ_VERBS
    | WRITE_VERBS
    | _words(
        "retrieve return run execute navigate click type take capture convert generate calculate compute count check"
        " validate open close send upload download install start stop restart deploy build publish rename copy"
        " clone fork merge push pull commit lock unlock enable disable schedule cancel resolve reply post comment"
        " translate summarize analyze analyse parse format render resize evaluate test log record track print"
        " hover drag select press scroll wait fill submit snapshot screenshot query inspect monitor sort filter"
        " transfer refund pay charge invite share follow subscribe sync import export backup"
    )
)

# Words that name a part of an answer ("with their ids", "(name, status)").
_FIELDS = (
    r"(?:ids?|names?|titles?|status(?:es)?|urls?|paths?|offsets?|counts?|sizes?|dates?|times?|timestamps?|authors?"
    r"|scores?|types?|metadata|contents?|bod(?:y|ies)|snippets?|lines?|descriptions?|values?|states?"
    r"|labels?|tags?|versions?|emails?|fields?|properties|attributes?|keys?|text|structure|outline|xml|json|html"
    r"|markdown|csv|numbers?|total|summary|diff|points|timeseries)"
)
# A read verb whose object is a part or a form of the answer ("Get the total number of hosts", "Extract all text").
_READ_PART = re.compile(
    r"\b(?:get|gets|list|lists|extract|extracts|retrieve|retrieves|fetch|fetches|show|shows|find|finds|read|reads"
    r"|count|counts|compute|computes|calculate|calculates|echo(?:es)?|generates?|query|queries)\s+(?:[\w.'-]+\s+){0,4}?"
    + _FIELDS
    + r"\b|\bback\b|\bcount(?:s|ing)?\b|\bidentif(?:y|ies)\s+which\b"
    r"|\b(?:take|takes|capture|captures)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:screenshot|snapshot|image|picture)"
    r"|\b(?:convert|converts|turn|turns|translate|translates)\b.*\b(?:into|to)\b",
    re.I,
)
# Verbs that open a description of a tool that reads something and answers with it.
_READ_OPENERS = READ_VERBS | _words(
    "retrieve retrieves gets lists searches finds reads fetches shows extract extracts look"
)
# What a description says of what comes back: a return verb, the fields it lists, an order, a form, a yes/no.
_RETURNS = re.compile(
    r"\b(?:returns?|returned|returning|gives?|yields?|outputs?|responds?|response|results?|answers?|comes?\s+back"
    r"|provides?|produces?|including|includes|containing|contains|such\s+as|each\s+\w+'s|with\s+(?:its|their|the)"
    r"|whole|in\s+full|full"
    r"|newest|oldest|latest|sorted|ordered|ranked|as\s+(?:json|markdown|text|html|csv|a\s+list|an?\s+\w+\s+list|a\s+table)"
    r"|whether|true\s+if|if\s+any|how\s+(?:many|much|long)|the\s+(?:url|path|count|number|id|ids|key|keys)\s+of"
    r"|(?:best|most\s+\w+|matches|recent|first|last)\s+first|left\s+out|excluded|omitted|summar(?:y|ies)|overview"
    r"|with\s+\w+(?:\s+\w+)?,\s*\w+|(?:with|including|and\s+their|and\s+its)\s+(?:[\w/-]+\s+)?" + _FIELDS + r")\b"
    r"|:\s*\w|\([^)]*\b" + _FIELDS + r"\b",
    re.I,
)
# What a description says of when to use a tool: a condition, an alternative, an order, a requirement.
_USAGE = re.compile(
    r"\b(?:use\s+(?:this|it|when|to|for|only|instead|before|after)|when(?:ever)?|instead|rather\s+than|only"
    r"|before|after|unless|if\s+(?:you|the)|prefer|do\s+not|don't|never|must|should|requires?|needs?"
    r"|first|then|once|useful|ideal|suitable|intended|for\s+(?:example|instance)|supporting|for\s+\w+ing"
    r"|to\s+(?:help|allow|enable))\b",
    re.I,
)
_PAGING_SAID = re.compile(
    r"\b(?:pages?|paginat\w*|cursor|next|more\s+results|at\s+most|up\s+to|max(?:imum)?|limit(?:ed|s)?|first\s+\d+"
    r"|top\s+\d+|defaults?|truncat\w*|capped|offset|all\s+(?:results|matches)|every\s+(?:result|match))\b",
    re.I,
)
_UNDO_SAID = re.compile(
    r"\b(?:permanent(?:ly)?|irreversibl[ey]|undo(?:ne)?|cannot\s+be\s+(?:undone|reversed|recovered)|can't\s+be"
    r"|recover\w*|restor\w*|trash|bin|soft[- ]delet\w*|archiv\w*|revers\w*|forever|for\s+good|lost|gone"
    r"|overwrit\w*|replac\w*|destructive|careful|caution|warning|irrecoverabl[ey]|no\s+way\s+back)\b",
    re.I,
)
# Name verbs that destroy what they act on (remove only counts with destructiveHint: removing a label is undone
# by adding it back).
_DESTROYS = (DESTRUCTIVE_VERBS - {"remove"}) | {"drop"}
# What dropping destroys (dropping a file onto a page does not).
_STORES = _words("table tables collection collections database databases index indexes schema view column")


def _content(words: Iterable[str], filler: frozenset[str] = _FILLER | _GENERIC) -> set[str]:
    return {stem(w) for w in words if w not in filler and not w.isdigit() and len(w) > 1}


# What says more than words: a number, a quoted or marked value (#N, kind:<id>, a path), an example.
_FORM = re.compile(r"\d|[#<>/@`'\"=\[({]|\be\.g\.|\bi\.e\.|\bfor example\b|\bsuch as\b|\blike\b", re.I)


def _name_stems(words: Iterable[str]) -> set[str]:
    """A name's words as stems, with the words that say the same of a tool."""
    found: set[str] = set()
    for word in words:
        found.add(stem(word))
        found.update(stem(same) for same in _SAME.get(word, ()))
    return found


# Verbs in a name that act on something beyond reading it, besides those the lint view knows.
_ACTS = WRITE_VERBS | _words(
    "replace rename apply run execute click type navigate fill press drag upload install start stop restart deploy"
    " trigger send invoke generate convert"
)


def _reads(tool: Tool) -> bool:
    """A tool that only reads: readOnlyHint true, or no hint and a name that reads and does nothing else."""
    words = set(tool.words)
    if tool.read_only is not None:
        return tool.read_only and not words & _ACTS
    return bool(words & READ_VERBS) and not words & _ACTS


@dataclass(frozen=True)
class _Wire:
    """What the rules read of a tool that the lint view does not keep, each read when first asked for."""

    tool: Mapping[str, Any]

    @functools.cached_property
    def _input(self) -> Mapping[str, Any]:
        schema = self.tool.get("inputSchema")
        return schema if isinstance(schema, dict) else {}

    @functools.cached_property
    def required(self) -> frozenset[str]:
        found = self._input.get("required")
        return frozenset(str(n) for n in found) if isinstance(found, list) else frozenset()

    @functools.cached_property
    def schemas(self) -> Mapping[str, Mapping[str, Any]]:
        properties = self._input.get("properties")
        return {str(k): v for k, v in properties.items() if isinstance(v, dict)} if isinstance(properties, dict) else {}

    @functools.cached_property
    def output_schema(self) -> bool:
        output = self.tool.get("outputSchema")
        return isinstance(output, dict) and bool(output.get("properties") or output.get("type"))

    @functools.cached_property
    def definitions(self) -> Mapping[str, Any]:
        """The input schema's own definitions ($defs, definitions), which a parameter's $ref names."""
        found: dict[str, Any] = {}
        for key in ("$defs", "definitions"):
            given = self._input.get(key)
            if isinstance(given, dict):
                found.update(given)
        return found

    def takes_nothing(self, name: str) -> bool:
        """A parameter with nothing to fill: a constant, or an object that allows no property."""
        schema = self.schemas.get(name, {})
        empty = schema.get("properties") == {} and schema.get("additionalProperties") is False
        return schema.get("const") is not None or empty

    def inner_described(self, name: str) -> bool:
        """The parameter's schema describes it somewhere within: a branch of anyOf, its items, its properties,
        or the definition a $ref names (an object whose fields say what they are is explained where the model
        reads it)."""
        return _holds_description(self.schemas.get(name, {}), self.definitions, set(), 0)


# How deep into a parameter's schema a description is looked for.
_DEPTH = 6


def _holds_description(schema: Any, definitions: Mapping[str, Any], seen: set[str], depth: int) -> bool:
    if depth > _DEPTH or not isinstance(schema, dict):
        return False
    if str(schema.get("description") or "").strip():
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and ref not in seen:
        seen.add(ref)
        if _holds_description(definitions.get(ref.rsplit("/", 1)[-1]), definitions, seen, depth + 1):
            return True
    inner: list[Any] = []
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list):
            inner += schema[key]
    if isinstance(schema.get("items"), dict):
        inner.append(schema["items"])
    if isinstance(schema.get("properties"), dict):
        inner += list(schema["properties"].values())
    return any(_holds_description(one, definitions, seen, depth + 1) for one in inner)


# The list the rules last read, and its tools as they read them: each rule of a lint is given the same
# ServerTools, so the wire form is read once for all six, not once a rule.
_LAST: list[tuple[ServerTools, list[tuple[Tool, _Wire]]]] = []


def _tools(given: ServerTools) -> list[tuple[Tool, _Wire]]:
    if _LAST and _LAST[0][0] is given:
        return _LAST[0][1]
    read = list(zip(given.view.tools, (_Wire(t) for t in given.tools), strict=True))
    _LAST[:] = [(given, read)]
    return read


# ---------------------------------------------------------------------------------------------------------------
# TS203 purpose: no description, or one that says nothing but the name


_TOKEN = re.compile(r"[A-Za-z][\w'-]*")
_WORD = re.compile(r"\w+")


def _said(text: str) -> list[str]:
    """Every word of a text in lower case, identifiers and names of products (TraceQL, GitHub) among them: a
    name the tool's own does not hold says something."""
    return [token.lower().removesuffix("'s").strip("'") for token in _TOKEN.findall(text)]


# Texts repeat across a list (a parameter described alike in a hundred tools) and across the rules: each is read
# once. Bounded, so a list of distinct texts costs memory in proportion to one lint.
_TEXTS = 1 << 16


@functools.lru_cache(maxsize=_TEXTS)
def _said_content(text: str) -> frozenset[str]:
    return frozenset(_content(_said(text)))


@functools.lru_cache(maxsize=_TEXTS)
def _tokens(text: str) -> tuple[frozenset[str], str]:
    """The text's words in lower case (identifiers whole), and the same words joined by single spaces."""
    words = _WORD.findall(text.lower())
    return frozenset(words), f" {' '.join(words)} "


@functools.lru_cache(maxsize=_TEXTS)
def _stems_of(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _tokens(text)[0])


@functools.lru_cache(maxsize=_TEXTS)
def _plain_stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in plain_words(text))


# More words than a name and its wrapping ever take ("Retrieve profile information for a specific Jira user.").
_NAME_ONLY_MOST = 16


def _repeats_name(tool: Tool) -> bool:
    if len(tool.description.split()) > _NAME_ONLY_MOST:
        return False
    said = _said_content(tool.description) - {tool.name.lower()}
    return not said - _name_stems(tool.words)


@rule(
    "TS203",
    "purpose",
    "warning",
    checks='A tool with no description, or one that only repeats its name ("Ticket search." for ticket_search,'
    ' "Retrieves an issue." for get_issue).',
    why="A model picks a tool by its description: one that repeats the name says nothing the name did not, and"
    " the model guesses what the tool does, to what, and how it differs from its siblings. 56 % of 856 tools on 103"
    " servers did not state their purpose clearly (2602.14878); 73 % of 10,831 servers' descriptions repeated the"
    " tool's name (2602.18914), and fixing functionality smells moved selection most (+11.6 points).",
    source=f"{_SMELLY}: purpose; {_DOCS}: functionality (repeated tool name)",
    fix="Open the description with what the tool does to which things, in words its name does not already say"
    ' ("Search tickets by words in their title or body.").',
    bad=Example.of(
        example_tool("ticket_search", "Ticket search.", {"query": {"type": "string", "description": "Words."}}),
    ),
    good=Example.of(
        example_tool(
            "ticket_search",
            "Search tickets by words in their title or body.",
            {"query": {"type": "string", "description": "Words."}},
        ),
    ),
)
def _purpose(given: ServerTools) -> list[Finding]:
    findings = []
    cost = fix_tokens("purpose")
    for tool, _ in _tools(given):
        if not tool.description.strip():
            message = f"{tool.name} has no description: a model knows it by its name alone; {_adds(cost)}"
            findings.append(Finding("purpose", [tool.name], [], message, aspect="none", cost_tokens=cost))
        elif _repeats_name(tool):
            message = (
                f"{tool.name}: {_quoted(tool.description)} says nothing its name does not;"
                f" say what it does to which things ({_adds(cost)})"
            )
            findings.append(Finding("purpose", [tool.name], [], message, aspect="name", cost_tokens=cost))
    return findings


def _quoted(text: str, most: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= most else flat[: most - 1] + "\u2026")


# ---------------------------------------------------------------------------------------------------------------
# TS204 usage-returns: nothing about what comes back (a read tool), or neither when to use it nor what it gives


def _names_a_part(text: str) -> bool:
    """The text reads a part or form of the answer ("Get the total number of hosts"); a part named after "by" is
    how the tool is addressed ("Read a ticket by its key"), not what comes back."""
    return any(not re.search(r"\bby\b", m.group(0), re.I) for m in _READ_PART.finditer(text))


def _reading(tool: Tool) -> bool:
    """A read-only tool that reads something to answer with it (get, list, search...), not one that waits,
    selects or captures."""
    opening = plain_words(_WRAPPER.sub("", tool.first_sentence, count=1))[:1]
    return bool(set(tool.words) & READ_VERBS or (opening and opening[0] in _READ_OPENERS))


def _texts(tool: Tool) -> str:
    return " ".join([tool.description, *(p.description for p in tool.params)])


@rule(
    "TS204",
    "usage-returns",
    "info",
    checks="A tool without an outputSchema whose description is one sentence that, for a read-only tool, names"
    " nothing of what comes back (no return verb, field, form, order or count), or for another tool says neither"
    " when to use it nor what it gives back (a description that only repeats the name is TS203's).",
    why="A model that cannot tell what a tool answers calls it to find out, or calls the wrong one; without usage"
    " guidance it picks among siblings by their names. 89 % of the tools in 2602.14878 gave no usage guidelines,"
    " and thousands of tools in 2602.18914 left their return value undescribed (an information-completeness smell).",
    source=f"{_SMELLY}: usage guidelines; {_DOCS}: information completeness (missing return description)",
    fix='Add a sentence on what comes back ("Returns each match\'s key and title, newest first."), or an'
    " outputSchema; for a tool that changes things, when to use it and what it gives back.",
    bad=Example.of(example_tool("ticket_get", "Read a ticket by its key.", {"key": "string"}, read_only=True)),
    good=Example.of(
        example_tool(
            "ticket_get",
            "Read a ticket by its key: its title, status, customer and comments.",
            {"key": "string"},
            read_only=True,
        )
    ),
)
def _usage_returns(given: ServerTools) -> list[Finding]:
    findings = []
    for tool, wire in _tools(given):
        if len(tool.sentences) != 1 or wire.output_schema or _repeats_name(tool):
            continue
        text = tool.description
        if _RETURNS.search(text) or _names_a_part(text):
            continue
        opens = plain_words(_WRAPPER.sub("", tool.first_sentence, count=1))[:1]
        unmarked = tool.read_only is None and tool.destructive is not True and not set(tool.words) & _ACTS
        if _reads(tool) or (unmarked and opens and opens[0] in _READ_OPENERS):
            if not _reading(tool):
                continue
            cost = fix_tokens("returns")
            message = f"{tool.name} reads, and its one sentence names nothing of what comes back; {_adds(cost)}"
            findings.append(Finding("usage-returns", [tool.name], [], message, aspect="returns", cost_tokens=cost))
        elif not _USAGE.search(text):
            cost = fix_tokens("usage")
            message = f"{tool.name} says neither when to use it nor what it gives back; {_adds(cost)}"
            findings.append(Finding("usage-returns", [tool.name], [], message, aspect="usage", cost_tokens=cost))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# TS205 parameter-description: parameters without a description, or whose description repeats the name


def _mentioned(param: Param, text: str) -> bool:
    """The text names the parameter (`key`, "by its key", "max results", "absolute paths" for path)."""
    words, joined = _tokens(text)
    if param.name.lower() in words or f" {' '.join(param.words)} " in joined:
        return True
    return len(param.words) == 1 and stem(param.words[0]) in _stems_of(text)


def _explained(tool: Tool, param: Param, instructions: str, described: frozenset[str]) -> bool:
    """An undescribed parameter the list explains all the same: the tool's description or the server's
    instructions name it, another tool describes a parameter of that name (a list read whole explains a shared
    parameter once), or the description names every value it enumerates ("List customers, tickets or tags"
    beside kind: customer, ticket, tag)."""
    if param.name in described or _mentioned(param, tool.description):
        return True
    if instructions and _mentioned(param, instructions):
        return True
    said = _plain_stems(tool.description)
    if all(stem(w) in said for w in param.words):
        return True
    values = [v for v in param.values if v]
    return len(values) >= 2 and sum(stem(v.lower()) in said for v in values) * 2 >= len(values)


def _repeats(param: Param) -> bool:
    """A description that says nothing but the parameter's name ("The id of the project." for projectId)."""
    return _repeats_text(param.description, param.name)


@functools.lru_cache(maxsize=_TEXTS)
def _repeats_text(description: str, name: str) -> bool:
    if _FORM.search(description):
        return False
    own = {stem(w) for w in name_words(name)} | {name.lower()}
    return not _content(_said(description), _FILLER) - own


def _undescribed(tool: Tool, wire: _Wire, instructions: str, described: frozenset[str]) -> tuple[list[str], list[str]]:
    """The parameters with no description that nothing else explains, and those whose description repeats the
    parameter's name."""
    missing, repeating = [], []
    for p in tool.params:
        if wire.takes_nothing(p.name):
            continue
        if not p.description.strip():
            if not _explained(tool, p, instructions, described) and not wire.inner_described(p.name):
                missing.append(p.name)
        elif _repeats(p):
            repeating.append(p.name)
    return missing, repeating


@rule(
    "TS205",
    "parameter-description",
    "warning",
    checks="Parameters with no description that neither the tool's description, the server's instructions nor"
    " another tool's description of a parameter of that name explain,"
    ' or whose description repeats the parameter\'s name ("key": "The key."); a name left so in several tools is'
    " one finding. Information where no such parameter is required or a description only repeats the name.",
    why="A model fills a parameter from its name and type alone when nothing says what goes in it: the format, the"
    " unit, where the value comes from. Opaque parameters are one of the six components of 2602.14878, and 2602.18914"
    " counted thousands of tools whose parameters' meaning was missing or wrong.",
    source=f"{_SMELLY}: parameter explanation; {_DOCS}: accuracy (parameter semantics)",
    fix='Describe each parameter by what goes in it and its form ("The ticket\'s key, e.g. TD-1."), or name it in'
    " the tool's description.",
    bad=Example.of(
        example_tool(
            "ticket_close",
            "Close a ticket; returns its new status.",
            {"ticket_number": "integer"},
            required=["ticket_number"],
        ),
    ),
    good=Example.of(
        example_tool(
            "ticket_close",
            "Close a ticket; returns its new status.",
            {"ticket_number": {"type": "integer", "description": "The number the ticket was opened under."}},
            required=["ticket_number"],
        ),
    ),
)
def _parameter_description(given: ServerTools) -> list[Finding]:
    """A parameter name left undescribed (or repeated) in several tools is one finding naming them all; a tool's
    other such parameters are one finding of that tool."""
    found: list[tuple[Tool, _Wire, list[str], list[str]]] = []
    uses: dict[tuple[str, str], list[str]] = {}
    every = list(_tools(given))
    described = frozenset(p.name for tool, _ in every for p in tool.params if p.description.strip() and not _repeats(p))
    for tool, wire in every:
        missing, repeating = _undescribed(tool, wire, given.instructions or "", described)
        if missing or repeating:
            found.append((tool, wire, missing, repeating))
        for kind, names in (("missing", missing), ("repeating", repeating)):
            for name in names:
                uses.setdefault((name, kind), []).append(tool.name)
    required = {(tool.name, name) for tool, wire, _, _ in found for name in wire.required}
    findings = []
    for (name, kind), tools in uses.items():
        if len(tools) < 2:
            continue
        cost = fix_tokens("parameter" if kind == "missing" else "parameter-form", len(tools))
        said = "has no description" if kind == "missing" else "only repeats its name"
        message = f"{name} {said} in {len(tools)} tools ({_listed(tools)}); {_adds(cost)}"
        level: Severity | None = None if kind == "missing" and any((t, name) in required for t in tools) else "info"
        findings.append(
            Finding("parameter-description", tools, [name], message, level=level, aspect=kind, cost_tokens=cost)
        )
    for tool, wire, missing, repeating in found:
        alone = [
            [n for n in names if len(uses[n, kind]) < 2]
            for kind, names in (("missing", missing), ("repeating", repeating))
        ]
        own_missing, own_repeating = alone
        if not own_missing and not own_repeating:
            continue
        cost = fix_tokens("parameter", len(own_missing)) + fix_tokens("parameter-form", len(own_repeating))
        parts = []
        if own_missing:
            parts.append(f"{_listed(own_missing)} {'has' if len(own_missing) == 1 else 'have'} no description")
        if own_repeating:
            repeats = "repeats its name" if len(own_repeating) == 1 else "repeat their names"
            parts.append(f"{_listed(own_repeating)} only {repeats}")
        message = f"{tool.name}: {' and '.join(parts)}; {_adds(cost)}"
        own_level: Severity | None = None if set(own_missing) & wire.required else "info"
        named = [*own_missing, *own_repeating]
        findings.append(
            Finding("parameter-description", [tool.name], named, message, level=own_level, cost_tokens=cost)
        )
    return findings


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names) if len(names) <= 4 else f"{', '.join(names[:3])} and {len(names) - 3} more"


# ---------------------------------------------------------------------------------------------------------------
# TS206 unstated-limit: paging nobody describes; a destructive tool silent on whether it can be undone


def _is_list(tool: Tool) -> bool:
    said = {stem(w) for w in (*tool.words, *plain_words(tool.first_sentence))}
    return _reads(tool) and bool(said & {stem(w) for w in LIST_WORDS})


def _paging_unsaid(tool: Tool, wire: _Wire) -> list[str]:
    """The paging parameters of a list tool when neither its text nor their schemas say how it pages or caps."""
    paging = [
        p
        for p in tool.params
        if (p.flat in LIMIT_NAMES | OFFSET_NAMES and p.integer) or (p.flat in CURSOR_NAMES and p.string)
    ]
    if not paging or not _is_list(tool):
        return []
    said = [tool.description, *(p.description for p in paging)]
    if any(_PAGING_SAID.search(text) for text in said):
        return []
    bounded = ("default", "maximum", "exclusiveMaximum")
    if any(key in wire.schemas.get(p.name, {}) for p in paging for key in bounded):
        return []
    return [p.name for p in paging]


def _destroys(tool: Tool) -> str | None:
    """How a tool says it deletes what it acts on: a name that deletes (delete, purge, destroy, erase, wipe,
    truncate, drop), or a description that opens so. A destructiveHint alone is not enough: servers set it on
    clicks and searches too."""
    if tool.read_only is True or tool.destructive is False:
        return None
    words = set(tool.words)
    named = sorted(words & _DESTROYS if words & _STORES else words & _DESTROYS - {"drop"})
    if named:
        return f"is named {', '.join(named)}"
    opening = plain_words(_WRAPPER.sub("", tool.first_sentence, count=1))[:1]
    if opening and stem(opening[0]) in {stem(v) for v in _DESTROYS - {"drop"}}:
        return f"opens with {opening[0]!r}"
    return None


@rule(
    "TS206",
    "unstated-limit",
    "warning",
    checks="A limitation stated nowhere: a tool that deletes (delete, purge, destroy, erase, wipe, truncate or drop"
    " in its name, or opening its description) whose text does not say whether that can be undone; information: a"
    " list or search tool that pages or caps its results where neither its text nor its paging parameters'"
    " schemas say so.",
    why="A model that is not told a deletion is permanent does it as readily as any other call, and one that is not"
    " told results are paged reads the first page as all there is. Limitations are one of the six components of"
    " 2602.14878, missing from most of the tools it read.",
    source=f"{_SMELLY}: limitations",
    fix='Say it: "The deletion is permanent and cannot be undone." (or how to restore), and "Returns at most limit'
    ' matches (default 20); pass the cursor it returns for the next page." (in the description).',
    bad=Example.of(
        example_tool(
            "ticket_delete", "Delete a ticket and its comments.", {"key": "string"}, read_only=False, destructive=True
        ),
    ),
    good=Example.of(
        example_tool(
            "ticket_delete",
            "Delete a ticket and its comments; the deletion cannot be undone.",
            {"key": "string"},
            read_only=False,
            destructive=True,
        ),
    ),
)
def _unstated_limit(given: ServerTools) -> list[Finding]:
    findings = []
    for tool, wire in _tools(given):
        destroys = _destroys(tool)
        if destroys and not _UNDO_SAID.search(_texts(tool)):
            cost = fix_tokens("irreversible")
            message = f"{tool.name} {destroys} and does not say whether what it does can be undone; {_adds(cost)}"
            findings.append(Finding("unstated-limit", [tool.name], [], message, aspect="undo", cost_tokens=cost))
        paging = _paging_unsaid(tool, wire)
        if paging:
            cost = fix_tokens("paging")
            message = (
                f"{tool.name} pages or caps what it lists ({', '.join(paging)}) and says nothing of how: a model"
                f" may take one page for all; {_adds(cost)}"
            )
            findings.append(
                Finding("unstated-limit", [tool.name], paging, message, level="info", aspect="paging", cost_tokens=cost)
            )
    return findings


# ---------------------------------------------------------------------------------------------------------------
# TS207 vague-verb: "Manages tickets."


def _vague_verb(tool: Tool) -> str | None:
    """The vague verb that opens the first sentence when neither it nor the next names an action: handle or
    manage whatever follows, the others ("Perform operations", "Process requests") only before a word for
    anything at all ("Perform research" names an action)."""
    words = plain_words(_WRAPPER.sub("", tool.first_sentence, count=1))
    if not words:
        return None
    first = words[0]
    verb = stem(first)
    if verb in _VAGUE_ANY:
        pass
    elif verb in _VAGUE_GENERIC:
        following = [w for w in words[1:4] if w not in _FILLER]
        if not following or following[0] not in _GENERIC | _ANYTHING:
            return None
    else:
        return None
    actions = {stem(v) for v in _ACTION_VERBS}
    second = plain_words(tool.sentences[1]) if len(tool.sentences) > 1 else []
    if any(stem(w) in actions for w in (*words[1:], *second)):
        return None
    return first


@rule(
    "TS207",
    "vague-verb",
    "info",
    checks='A description whose first sentence says only a vague verb ("handle", "manage", "process", "do",'
    ' "perform") of what the tool does ("Manages tickets.", "Handles ticket operations.").',
    why="A vague verb names no action: a model cannot tell whether the tool reads, changes or deletes, nor tell it"
    " from its siblings. Unclear purpose was the most common smell in 2602.14878 (56 % of tools).",
    source=f"{_SMELLY}: purpose; {_DOCS}: functionality",
    fix='Name the actions ("Create, update or close tickets.") or split a tool that does several into one per action.',
    bad=Example.of(example_tool("tickets", "Manages tickets.", {"key": "string"})),
    good=Example.of(
        example_tool("tickets", "Manage tickets: create, update or close one by its key.", {"key": "string"})
    ),
)
def _vague(given: ServerTools) -> list[Finding]:
    findings = []
    cost = fix_tokens("vague-verb")
    for tool, _ in _tools(given):
        verb = _vague_verb(tool)
        if verb is not None:
            message = (
                f"{tool.name}: {_quoted(tool.first_sentence)} says only {verb!r} of what it does; name the actions"
                f" ({_adds(cost)})"
            )
            findings.append(Finding("vague-verb", [tool.name], [], message, cost_tokens=cost))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# TS208 length-outlier: a description far longer or shorter than the server's others

# Judged only on a server with this many described tools: fewer give no robust middle.
_MIN_TOOLS = 8
# An outlier: its log-length's robust z-score (0.6745 (x - median) / MAD, Iglewicz and Hoaglin) beyond this, and
# at least _RATIO times as long (or as short) as the median and _GAP characters away from it.
_Z = 3.5
_RATIO = 4.0
_GAP = 200
# A description far shorter than the others is judged only when it is this short (tokens): one of 70 tokens among
# siblings of 300 is a simple tool's, not a missing one's.
_SHORT_MOST = 20


def _outliers(lengths: Sequence[int]) -> list[int]:
    """The indexes of the lengths far from their median (robustly, on a log scale)."""
    logs = [math.log(n) for n in lengths]
    middle = statistics.median(logs)
    spread = statistics.median(abs(x - middle) for x in logs)
    median = math.exp(middle)
    if spread == 0:
        spread = 1e-9
    found = []
    for index, (length, log) in enumerate(zip(lengths, logs, strict=True)):
        z = 0.6745 * (log - middle) / spread
        ratio = length / median
        if abs(z) > _Z and abs(length - median) >= _GAP and (ratio >= _RATIO or ratio <= 1 / _RATIO):
            found.append(index)
    return found


@rule(
    "TS208",
    "length-outlier",
    "info",
    checks=f"On a server with {_MIN_TOOLS} or more described tools, a description far longer or far shorter than"
    f" the others: {_RATIO:g} times the median length or more (or a {_RATIO:g}th or less, and {_SHORT_MOST} tokens"
    f" at most), its log-length a robust outlier (modified z-score over {_Z:g}, from the median and the median"
    " absolute deviation).",
    why="Every description is sent with every request: one far longer than its siblings costs tokens each turn and"
    " buries its first sentence; one far shorter likely leaves out what the others say. 2602.14878 found that fuller"
    " descriptions raised task success but cost 67 % more steps, and that compact ones kept most of the gain;"
    " 2602.18914 counts verbosity among its conciseness smells.",
    source=f"{_SMELLY}: length and completeness; {_DOCS}: conciseness",
    fix="Bring it toward the server's other descriptions: move reference material to a resource or the server's"
    " instructions, or say what the short one leaves out.",
    bad=Example.of(
        *(
            example_tool(f"note_{verb}", f"{verb.capitalize()} a note of the project; returns the note's number.")
            for verb in ("get", "list", "create", "update", "delete", "archive", "restore", "move")
        ),
        example_tool(
            "note_search",
            "Search the project's notes. " + "Words are matched by their stems, in titles and bodies alike. " * 12,
        ),
    ),
    good=Example.of(
        *(
            example_tool(f"note_{verb}", f"{verb.capitalize()} a note of the project; returns the note's number.")
            for verb in ("get", "list", "create", "update", "delete", "archive", "restore", "move", "search")
        ),
    ),
)
def _length_outlier(given: ServerTools) -> list[Finding]:
    described = [t for t in given.view.tools if t.description.strip()]
    if len(described) < _MIN_TOOLS:
        return []
    found = _outliers([len(t.description) for t in described])
    if not found:
        return []
    from toolsurface.harness.measure import count_tokens

    # The median description's tokens (of the one at the median length): counting every description of a large
    # list would load nothing more but cost a pass over it.
    by_length = sorted(described, key=lambda t: len(t.description))
    middle = count_tokens(by_length[len(by_length) // 2].description)
    findings = []
    for index in found:
        tool = described[index]
        tokens = count_tokens(tool.description)
        if tokens < middle and tokens > _SHORT_MOST:
            continue
        cost = middle - tokens
        if tokens > middle:
            said = f"{tokens / max(middle, 1):.0f} times the median; cutting it to the median saves about {-cost} tokens a request"
        else:
            said = f"under a {max(middle, 1) / max(tokens, 1):.0f}th of the median; bringing it to the median adds about {cost} tokens a request"
        message = f"{tool.name}: its description is {tokens:,} tokens where the server's median is {middle:,}: {said}"
        aspect = "long" if tokens > middle else "short"
        findings.append(Finding("length-outlier", [tool.name], [], message, aspect=aspect, cost_tokens=cost))
    return findings


RULES = (_purpose, _usage_returns, _parameter_description, _unstated_limit, _vague, _length_outlier)
