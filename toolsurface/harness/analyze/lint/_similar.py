"""Tools a model is likely to take for each other (lint TS108, and TS404 among the servers of one configuration), and
parameter names that mean the same across tools (TS109).

Pairs come from each tool's nearest neighbours by meaning (the cosine of embedded names and descriptions), never
from all pairs. A pair's names must say one thing: the same words with a verb's synonym (ticket_search and
ticket_find), a variant (list_directory_with_sizes, add_footnote_enhanced), or one calls itself a deprecated copy
of the other by name; siblings that act differently on one thing (comment_add and comment_list, ticket_get and
ticket_close, a reading and a writing tool by their annotations) are never duplicates. The evidence is then
weighed: meaning, words (findability's BM25 each way, with the list's document frequencies) and parameters (the
same shapes under other names: `query` ~ `text`, `limit` ~ `max_results`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze._text import stem
from toolsurface.harness.analyze.lint._catalog import Example, ServerSet, ServerTools, example_tool, rule
from toolsurface.harness.analyze.lint._model import Finding
from toolsurface.harness.analyze.lint._view import OTHER_VERBS, READ_VERBS, WRITE_VERBS, Param, Tool, parse_tool

if TYPE_CHECKING:
    import numpy as np

__all__ = ["RULES", "Names", "ParamMatch", "SimilarPair", "near_duplicate", "similar_pairs", "synonym_findings"]

# ---------------------------------------------------------------------------------------------------------------
# Thresholds, tuned on the corpus of public servers' lists and the bundled surfaces (docs/analyze.md says how)

# Where more tools than this have names that say one thing, each is compared with this many nearest by meaning.
NEIGHBOURS = 5
# Cosines of wordllama's vectors of one server's unrelated tools lie mostly between 0.3 and 0.6: the names decide
# a pair, meaning only overrules names that say one thing of tools that do not (firecrawl's inspect_paper and
# read_paper, 0.48). Names that say the same need parameters of one shape too: shortcut's stories-create-subtask
# (a new story) and stories-add-subtask (an existing one) map 0.40 of theirs. A deprecated copy names its twin.
SAME_NAME_MEANING = 0.5
SAME_PARAMETERS = 0.5
COPY_MEANING = 0.5
# A variant by its name (add_footnote_enhanced beside add_footnote_to_document): alike in meaning and in words;
# the least true variant pair of the corpus is at 0.62 and 0.24.
VARIANT_MEANING = 0.6
VARIANT_WORDS_SHARE = 0.2
# Across servers (each server's prefix left out of its names): two servers' tools of one name that act on different
# products (GitHub's and GitLab's create_issue) lie at 0.38 to 0.66; tools of overlapping servers (two browsers,
# two file servers) at 0.70 and more, and alike in words or parameters too.
SERVERS_MEANING = 0.7
SERVERS_WORDS = 0.4
# Two parameters alike by the meaning of their names and descriptions, where no synonym group joins them.
PARAMETER_MEANING = 0.8
# Tools whose words give BM25's document frequencies: every tool of a list up to this many, a sample beyond.
WORD_SAMPLE = 2000

# ---------------------------------------------------------------------------------------------------------------
# What a tool does, by the verb of its name: tools of one thing with verbs of different actions are siblings.

ACTIONS: dict[str, frozenset[str]] = {
    "search": frozenset({"search", "find", "query", "lookup", "look", "locate", "grep", "match", "discover"}),
    "list": frozenset({"list", "browse", "enumerate", "ls"}),
    "get": frozenset({"get", "read", "fetch", "show", "describe", "view", "retrieve", "load", "inspect", "cat"}),
    "create": frozenset({"create", "add", "new", "insert", "make", "register"}),
    "update": frozenset({"update", "edit", "modify", "patch", "change", "set", "upsert"}),
    "delete": frozenset({"delete", "remove", "destroy", "erase", "purge", "drop", "del", "rm", "trash"}),
    "write": frozenset({"write", "save", "put", "store"}),
    "run": frozenset({"run", "execute", "exec", "invoke", "call"}),
}
_ACTION_OF = {verb: action for action, verbs in ACTIONS.items() for verb in verbs}
_VERBS = frozenset(_ACTION_OF) | READ_VERBS | WRITE_VERBS | OTHER_VERBS


def action(tool: Tool) -> str | None:
    """The action a tool's name says, a verb's class (find and search alike), or None where it names no verb."""
    for word in tool.words:
        if word in _VERBS:
            return _ACTION_OF.get(word, word)
    return None


def siblings(first: Tool, second: Tool, actions: tuple[str | None, str | None] | None = None) -> str | None:
    """Why two tools are siblings that act differently, where they are: verbs of different actions, or the
    annotations of a reading and a writing tool, or of a destructive and a harmless one. `actions`: the two
    tools' actions, where they are known already."""
    a, b = actions or (action(first), action(second))
    if a is not None and b is not None and a != b:
        return f"{a} and {b} differ"
    for hint, says in (("read_only", "reads"), ("destructive", "destroys")):
        x, y = getattr(first, hint), getattr(second, hint)
        if x is not None and y is not None and x != y:
            return f"one {says}, the other does not"
    return None


# ---------------------------------------------------------------------------------------------------------------
# Parameters that mean the same under other names. Names compare without separators or case (max_results,
# maxResults); a weak name (count, text, n) joins its group only with a word of the group's purpose in its
# description or its tool's action, since it often means something else (a count of retries, a comment's text).


@dataclass(frozen=True)
class SynonymGroup:
    concept: str
    names: frozenset[str]
    types: frozenset[str] = frozenset()
    weak: frozenset[str] = frozenset()
    cues: frozenset[str] = frozenset()
    actions: frozenset[str] = frozenset()
    # Named across tools by TS109 (ids are the addressing rule's, TS101).
    across: bool = True


_NUMBER = frozenset({"integer", "number"})
_STRING = frozenset({"string"})
SYNONYMS: tuple[SynonymGroup, ...] = (
    SynonymGroup(
        "limit",
        frozenset({"limit", "maxresults", "maxresult", "maxitems", "maxcount", "maxrecords", "maxrows"})
        | frozenset({"numresults", "pagesize", "perpage", "resultlimit", "resultslimit", "topk", "maxhits"}),
        _NUMBER,
        weak=frozenset({"count", "top", "k", "n", "size", "first", "num", "max"}),
        cues=frozenset({"maximum", "max", "most", "limit", "results", "return", "page"}),
        actions=frozenset({"search", "list"}),
    ),
    SynonymGroup("offset", frozenset({"offset", "skip", "startindex"}), _NUMBER),
    SynonymGroup("page", frozenset({"page", "pagenumber", "pagenum", "pageno", "pageindex"}), _NUMBER),
    SynonymGroup(
        "cursor",
        frozenset({"cursor", "pagetoken", "nexttoken", "nextpagetoken", "continuationtoken", "pagecursor"}),
        _STRING,
        weak=frozenset({"after", "startcursor"}),
        cues=frozenset({"cursor", "page", "token", "previous"}),
    ),
    SynonymGroup(
        "query",
        frozenset({"query", "q", "searchquery", "searchterm", "searchterms", "searchtext", "querytext"})
        | frozenset({"querystring", "keywords", "keyword", "searchstring"}),
        _STRING,
        weak=frozenset({"text", "search", "term", "terms", "phrase"}),
        cues=frozenset({"search", "query", "match", "matching", "find", "keywords", "look"}),
        actions=frozenset({"search", "list"}),
    ),
    SynonymGroup("path", frozenset({"path", "filepath", "fullpath", "absolutepath"}), _STRING),
    SynonymGroup("url", frozenset({"url", "link", "href", "pageurl", "webpageurl"}), _STRING),
    # A bare `sort` is as often the direction (asc, desc) or a signed field (-timestamp) as the field to sort by.
    SynonymGroup(
        "sort field",
        frozenset({"sortby", "orderby", "sortfield", "sortkey"}),
        _STRING,
        weak=frozenset({"sort"}),
        cues=frozenset({"field", "attribute", "column", "property", "key"}),
    ),
    SynonymGroup("direction", frozenset({"sortorder", "sortdirection", "direction", "orderdirection"}), _STRING),
    SynonymGroup("user", frozenset({"user", "username", "login", "userlogin"}), _STRING),
    SynonymGroup("email", frozenset({"email", "emailaddress", "mail"}), _STRING),
    SynonymGroup("language", frozenset({"language", "lang"}), _STRING),
    SynonymGroup("since", frozenset({"since", "startdate", "fromdate", "datefrom", "mindate"})),
    SynonymGroup("until", frozenset({"until", "enddate", "todate", "dateto", "maxdate"})),
    SynonymGroup("repository", frozenset({"repo", "repository", "reponame", "repositoryname"}), _STRING),
    SynonymGroup("format", frozenset({"format", "outputformat", "responseformat"}), _STRING),
    SynonymGroup("fields", frozenset({"fields", "select", "projection", "columns"})),
    SynonymGroup("id", frozenset({"id", "key", "identifier", "uuid"}), _STRING | _NUMBER, across=False),
)
_CUES = {group.concept: frozenset(stem(c) for c in group.cues) for group in SYNONYMS}


def _compatible(first: Param, second: Param) -> bool:
    """Types one value could be passed to both as: alike, numbers alike, or one of them untyped."""
    a = _NUMBER if first.types & _NUMBER else first.types
    b = _NUMBER if second.types & _NUMBER else second.types
    return not a or not b or bool(a & b)


def concepts(tool: Tool, param: Param) -> frozenset[str]:
    """The synonym groups a parameter of a tool belongs to."""
    return _concepts(action(tool), param)


@functools.lru_cache(maxsize=1 << 16)
def _concepts(verb: str | None, param: Param) -> frozenset[str]:
    found = set()
    for group in SYNONYMS:
        if group.types and param.types and not param.types & group.types:
            continue
        if param.flat in group.names:
            found.add(group.concept)
        elif param.flat in group.weak:
            said = {stem(w) for w in re.findall(r"[a-z]+", param.description.lower())}
            if said & _CUES[group.concept] or verb in group.actions:
                found.add(group.concept)
    return frozenset(found)


@dataclass(frozen=True)
class ParamMatch:
    """A parameter of one tool taken for one of the other's: by the same name, a synonym group, or meaning."""

    first: str
    second: str
    how: str  # "same", a synonym group's concept, or "meaning"

    @property
    def renamed(self) -> bool:
        return self.how != "same"

    def __str__(self) -> str:
        return f"{self.first} ~ {self.second}"


def _param_text(param: Param) -> str:
    return f"{' '.join(param.words)}. {param.description[:200]}"


def parameter_mapping(
    first: Tool, second: Tool, vectors: Mapping[str, np.ndarray] | None = None
) -> tuple[ParamMatch, ...]:
    """First's parameters matched one to one with second's: by name, then by synonym group, then (where `vectors`
    of the parameters' texts are given) by meaning, each only with a type one value could be passed to both as."""
    left = list(first.params)
    right = list(second.params)
    found: list[ParamMatch] = []

    def take(a: Param, b: Param, how: str) -> None:
        found.append(ParamMatch(a.name, b.name, how))
        left.remove(a)
        right.remove(b)

    for a in list(left):
        same = next((b for b in right if b.flat == a.flat and _compatible(a, b)), None)
        if same is not None:
            take(a, same, "same")
    theirs = {id(b): concepts(second, b) for b in right}
    for a in list(left):
        ours = concepts(first, a)
        joined = next((b for b in right if _compatible(a, b) and ours & theirs[id(b)]), None)
        if joined is not None:
            take(a, joined, min(ours & theirs[id(joined)]))
    if vectors is not None and left and right:
        scored = sorted(
            (-float(vectors[_param_text(a)] @ vectors[_param_text(b)]), i, j)
            for i, a in enumerate(left)
            for j, b in enumerate(right)
            if _compatible(a, b)
        )
        used: set[tuple[str, int]] = set()
        matched = []
        for negative, i, j in scored:
            if -negative < PARAMETER_MEANING:
                break
            if ("a", i) not in used and ("b", j) not in used:
                used |= {("a", i), ("b", j)}
                matched.append((left[i], right[j]))
        for a, b in matched:
            take(a, b, "meaning")
    order = {p.name: i for i, p in enumerate(first.params)}
    return tuple(sorted(found, key=lambda m: order[m.first]))


def parameter_share(first: Tool, second: Tool, mapping: Sequence[ParamMatch]) -> float:
    """How much of both tools' parameters the mapping covers (1 for two tools without any)."""
    total = len(first.params) + len(second.params)
    return 2 * len(mapping) / total if total else 1.0


# ---------------------------------------------------------------------------------------------------------------
# What two names say apart

# Words that join a name's words and say nothing of what it does (delete_footnote_from_document); after those of
# place, a name says where a tool acts rather than what it does.
_PLACING = frozenset({"to", "from", "for", "of", "in", "on", "by", "at", "into"})
_JOINING = _PLACING | {"a", "an", "the", "and", "or"}
# Words that make a variant of one tool: add_footnote_enhanced beside add_footnote_to_document, search_v2.
VARIANT_WORDS = frozenset(
    {"enhanced", "robust", "advanced", "improved", "extended", "simple", "basic", "legacy", "old", "alt", "plus"}
    | {"alternative", "fast", "quick", "safe", "beta", "experimental", "deprecated", "lite", "full", "new"}
)
# A tool that calls itself a copy of another it names: "DEPRECATED: Use read_text_file instead".
_COPY = re.compile(r"\b(deprecated|legacy|alias|same as|identical to|superseded|replaced by|obsolete)\b", re.I)
_MENTIONED = re.compile(r"[\w.-]*\w")


@dataclass(frozen=True)
class Names:
    """How two tools' names differ: `same` (their words alike but for a verb's synonym and joining words: search
    and find, create and add), `variant` (one is the other with a variant word or a `with` tail), `copy` (one's
    title or description calls it a deprecated copy of the other, by name), or None where they say different
    things. `extra`: the words one has and the other lacks."""

    how: str | None
    extra: tuple[str, ...] = ()
    # The tool that calls itself a copy, for `copy`.
    copy: str = ""


@dataclass(frozen=True)
class NameWords:
    """A tool's name as compared with another's: its words (a verb as its action, joining words left out, a `with`
    and what follows it one word, v and 2 one word), and the words of its server that set no tool apart (what
    the whole server works on)."""

    words: frozenset[str]
    context: frozenset[str]
    action: str | None
    # The tools it calls itself a copy of (the names its title or description gives, where it says so).
    copy_of: frozenset[str]

    @classmethod
    def of(
        cls, tool: Tool, server: frozenset[str] = frozenset(), prefix: frozenset[str] = frozenset(), title: str = ""
    ) -> NameWords:
        """`server`: the server's context words; `prefix`: words left out altogether (a server's prefix, browser_
        in every tool of a browser server, where tools of several servers are compared); `title`: the tool's."""
        joined: list[str] = []
        for word in [w for w in tool.words if w not in prefix] or tool.words:
            if joined and joined[-1] == "v" and word.isdigit():
                joined[-1] = f"v{word}"
            else:
                joined.append(word)
        if "with" in joined[1:]:
            cut = joined.index("with", 1)
            joined = [*joined[:cut], " ".join(joined[cut:])]
        kept = frozenset(_ACTION_OF.get(w, w) for w in joined if w not in _JOINING)
        said = f"{title} {tool.description}"
        copy_of = frozenset(_MENTIONED.findall(said)) if _COPY.search(said) else frozenset()
        return cls(kept, server, action(tool), copy_of)

    def key(self, context: bool = True) -> frozenset[str]:
        """What the name says once variant words (and its server's context words, unless `context` is False) are
        left out: names that say one thing or are variants of one tool share it."""
        return frozenset(w for w in self.words if not (context and w in self.context) and not _variant(w))


def _variant(word: str) -> bool:
    return word in VARIANT_WORDS or word.startswith("with ") or re.fullmatch(r"v?\d+", word) is not None


def names_differ(first: Tool, second: Tool, names: tuple[NameWords, NameWords] | None = None) -> Names:
    """How the names of two tools differ (`names`: their NameWords, where their servers' words are known)."""
    a, b = names or (NameWords.of(first), NameWords.of(second))
    extra = tuple(sorted(a.words ^ b.words))
    if second.name in a.copy_of or first.name in b.copy_of:
        return Names("copy", extra, first.name if second.name in a.copy_of else second.name)
    if a.words == b.words:
        return Names("same")
    telling = sorted(w for w in extra if w not in a.context | b.context)
    if telling and all(_variant(w) for w in telling):
        return Names("variant", tuple(telling))
    return Names(None, extra)


def _counted_words(tools: Sequence[Tool]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for tool in tools:
        for word in set(tool.words):
            counted[word] = counted.get(word, 0) + 1
    return counted


def context_words(tools: Sequence[Tool]) -> frozenset[str]:
    """Words of a list's names that set no tool apart: those in a third of its names or more (the product, what
    the whole server works on) and those after a joining word anywhere (where a tool acts rather than what it
    does: the document of delete_footnote_from_document)."""
    places = {w for t in tools for before, w in zip(t.words, t.words[1:], strict=False) if before in _PLACING}
    if len(tools) < 3:
        return frozenset(places)
    return frozenset(places | {w for w, count in _counted_words(tools).items() if count * 3 >= len(tools)})


def prefix_words(tools: Sequence[Tool]) -> frozenset[str]:
    """The word that opens four names in five of a list or more: its prefix (browser_ of a browser server)."""
    if len(tools) < 3:
        return frozenset()
    opening: dict[str, int] = {}
    for tool in tools:
        opening[tool.words[0]] = opening.get(tool.words[0], 0) + 1
    return frozenset(w for w, count in opening.items() if count * 5 >= len(tools) * 4)


def _name_words(tools: Sequence[Tool], titles: Sequence[str], servers: Sequence[str] | None) -> list[NameWords]:
    """Each tool's NameWords with its server's context words; across servers, each server's prefix left out."""
    if servers is None:
        context = context_words(tools)
        return [NameWords.of(t, context, title=title) for t, title in zip(tools, titles, strict=True)]
    by_server: dict[str, list[Tool]] = {}
    for tool, server in zip(tools, servers, strict=True):
        by_server.setdefault(server, []).append(tool)
    contexts = {server: context_words(listed) for server, listed in by_server.items()}
    prefixes = {server: prefix_words(listed) for server, listed in by_server.items()}
    return [
        NameWords.of(t, contexts[s], prefixes[s], title) for t, s, title in zip(tools, servers, titles, strict=True)
    ]


# ---------------------------------------------------------------------------------------------------------------
# Pairs


@dataclass(frozen=True)
class SimilarPair:
    """Two tools among each other's nearest by meaning, how their names differ, and how alike they are: in meaning
    (cosine), in words (0 to 1) and in parameters (the mapping, and the share of both tools' parameters it covers)."""

    first: Tool
    second: Tool
    names_differ: Names
    meaning: float
    words: float
    mapping: tuple[ParamMatch, ...]
    params: float
    # The servers of each, for a pair across the servers of a configuration.
    servers: tuple[str, str] | None = None

    @property
    def names(self) -> list[str]:
        if self.servers is None:
            return [self.first.name, self.second.name]
        return [f"{self.servers[0]}/{self.first.name}", f"{self.servers[1]}/{self.second.name}"]


def _words(tools: Sequence[Mapping[str, Any]], pairs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], float]:
    """Each pair's likeness in words, 0 to 1: each tool's BM25 against the other as a share of its score against
    itself (findability's scorer, the list's document frequencies), the mean of both ways. Beyond WORD_SAMPLE
    tools, document frequencies are those of the paired tools and an even sample of the rest."""
    from toolsurface.harness.analyze.findability import bm25_pairs

    paired = sorted({i for p in pairs for i in p})
    step = max(1, -(-len(tools) // WORD_SAMPLE))
    chosen = sorted(set(paired) | set(range(0, len(tools), step)))
    at = {n: position for position, n in enumerate(chosen)}
    asked = sorted({(i, j) for i, j in pairs} | {(j, i) for i, j in pairs} | {(i, i) for i in paired})
    found = bm25_pairs([tools[n] for n in chosen], [(at[i], at[j]) for i, j in asked], use_stem=True)
    scores = dict(zip(asked, found, strict=True))

    def share(query: int, other: int) -> float:
        whole = scores[(query, query)]
        return min(scores[(query, other)] / whole, 1.0) if whole > 0 else 0.0

    return {(i, j): (share(i, j) + share(j, i)) / 2 for i, j in pairs}


def _title(tool: Mapping[str, Any]) -> str:
    title = tool.get("title")
    return title if isinstance(title, str) else ""


def _candidates(
    tools: Sequence[Mapping[str, Any]], names: Sequence[NameWords], read: Sequence[Tool], servers: Sequence[str] | None
) -> list[tuple[int, int]]:
    """Pairs whose names say one thing (the same key) or where one calls itself a copy of the other, of different
    servers where `servers` are given, siblings left out; a name shared by more than NEIGHBOURS tools pairs each
    with its NEIGHBOURS nearest by meaning among them only. Servers' context words differ, so across servers the
    keys keep them. Two tools of one name in one server are TS001's (malformed-tool), not a pair."""
    by_key: dict[frozenset[str], list[int]] = {}
    for n, named in enumerate(names):
        by_key.setdefault(named.key(context=servers is None), []).append(n)
    by_name: dict[str, list[int]] = {}
    for n, tool in enumerate(read):
        by_name.setdefault(tool.name, []).append(n)
    pairs: set[tuple[int, int]] = set()
    for group in by_key.values():
        if len(group) > NEIGHBOURS + 1:
            pairs |= _nearest_within(group, tools)
        else:
            pairs |= {(a, b) for x, a in enumerate(group) for b in group[x + 1 :]}
    for n, named in enumerate(names):
        for other in named.copy_of & by_name.keys():
            pairs |= {(min(n, o), max(n, o)) for o in by_name[other] if o != n}
    return sorted(
        (i, j)
        for i, j in pairs
        if (servers[i] != servers[j] if servers is not None else read[i].name != read[j].name)
        and siblings(read[i], read[j], (names[i].action, names[j].action)) is None
    )


def _nearest_within(group: Sequence[int], tools: Sequence[Mapping[str, Any]]) -> set[tuple[int, int]]:
    from toolsurface.harness.analyze._embed import embedder
    from toolsurface.harness.analyze._similar import nearest_pairs, tool_text

    vectors = embedder().vectors([tool_text(tools[n]) for n in group])
    return {(group[i], group[j]) for i, j, _ in nearest_pairs(vectors, floor=-1.0, k=NEIGHBOURS)}


def similar_pairs(
    tools: Sequence[Mapping[str, Any]], servers: Sequence[str] | None = None, *, parsed: Sequence[Tool] | None = None
) -> list[SimilarPair]:
    """The pairs of a list (wire form) whose names say one thing, scored by meaning, words and parameters.
    `servers`: each tool's server, for pairs of tools of different servers only; `parsed`: the tools as lint reads
    them, where they are at hand. Candidates come from an index of what names say, never from all pairs; the
    embedding model is loaded only where there is a candidate pair."""
    if len(tools) < 2:
        return []
    read = list(parsed) if parsed is not None else [parse_tool(t) for t in tools]
    names = _name_words(read, [_title(t) for t in tools], servers)
    pairs = _candidates(tools, names, read, servers)
    if not pairs:
        return []
    from toolsurface.harness.analyze._embed import embedder
    from toolsurface.harness.analyze._similar import tool_text

    model = embedder()
    paired = sorted({n for pair in pairs for n in pair})
    embedded = dict(zip(paired, model.vectors([tool_text(tools[n]) for n in paired]), strict=True))
    words = _words(tools, pairs)
    texts = sorted({_param_text(p) for pair in pairs for n in pair for p in read[n].params})
    vectors = dict(zip(texts, model.vectors(texts), strict=True)) if texts else {}
    found = []
    for i, j in pairs:
        first, second = read[i], read[j]
        mapping = parameter_mapping(first, second, vectors)
        differ = names_differ(first, second, (names[i], names[j]))
        where = (servers[i], servers[j]) if servers is not None else None
        meaning = float(embedded[i] @ embedded[j])
        share = parameter_share(first, second, mapping)
        found.append(SimilarPair(first, second, differ, meaning, words[(i, j)], mapping, share, where))
    return found


def near_duplicate(pair: SimilarPair) -> bool:
    """Whether a model is likely to take one tool of the pair for the other. In one server: a copy that names the
    tool replacing it; names that say the same (search and find) with parameters of one shape; a variant alike in
    meaning and words with parameters of one shape. Across servers (prefixes left out of the names): names that say
    one thing, descriptions alike in meaning, and alike in words or with parameters of one shape."""
    if siblings(pair.first, pair.second) is not None:
        return False
    how = pair.names_differ.how
    if pair.servers is not None:
        alike = pair.words >= SERVERS_WORDS or pair.params >= SAME_PARAMETERS
        return how is not None and pair.meaning >= SERVERS_MEANING and alike
    if how == "copy":
        return pair.meaning >= COPY_MEANING
    if how == "same":
        return pair.meaning >= SAME_NAME_MEANING and pair.params >= SAME_PARAMETERS
    if how == "variant":
        return pair.meaning >= VARIANT_MEANING and pair.words >= VARIANT_WORDS_SHARE and pair.params >= SAME_PARAMETERS
    return False


def _names_say(pair: SimilarPair) -> str:
    how = pair.names_differ.how
    if how == "copy":
        return f"{pair.names_differ.copy} calls itself a deprecated copy of the other"
    if how == "variant":
        return f"one is a variant of the other ({', '.join(pair.names_differ.extra)})"
    a, b = set(pair.first.words), set(pair.second.words)
    if a == b:
        return "one name" if pair.first.name == pair.second.name else "their names have the same words"
    return f"their names say one thing ({' ~ '.join([*sorted(a - b), *sorted(b - a)])})"


def _evidence(pair: SimilarPair) -> str:
    said = [f"meaning {pair.meaning:.2f}, words {pair.words:.2f}"]
    renamed = [str(m) for m in pair.mapping if m.renamed]
    same = [m.first for m in pair.mapping if not m.renamed]
    if renamed:
        said.append(f"parameters {', '.join(renamed)}")
    if same:
        said.append(f"both take {', '.join(same)}")
    return "; ".join(said)


def _duplicate_finding(category: str, pair: SimilarPair) -> Finding:
    a, b = pair.names
    message = (
        f"{a} and {b} read as one tool: {_names_say(pair)}; {_evidence(pair)}; a model may call either for the other"
    )
    renamed = [name for m in pair.mapping if m.renamed for name in (m.first, m.second)]
    return Finding(category, [a, b], list(dict.fromkeys(renamed)), message)


def synonym_findings(tools: Iterable[Tool]) -> list[Finding]:
    """Per synonym group, the names a list's tools give it where there are two or more (max_results and
    maxResults are one name spelt two ways). A group of which one tool takes two names is left out: they mean
    different things there (GitLab's order_by and sort, the field and the direction), so they are no synonyms."""
    groups = {g.concept for g in SYNONYMS if g.across}
    uses: dict[str, list[tuple[Tool, Param]]] = {}
    for tool in tools:
        for param in tool.params:
            for concept in concepts(tool, param) & groups:
                uses.setdefault(concept, []).append((tool, param))
    findings = []
    for concept, found in uses.items():
        # Per name (its spellings alike), each spelling and the tools that take the name.
        spelt: dict[str, dict[str, None]] = {}
        taking: dict[str, dict[str, None]] = {}
        per_tool: dict[str, set[str]] = {}
        for tool, param in found:
            spelt.setdefault(param.flat, {})[param.name] = None
            taking.setdefault(param.flat, {})[tool.name] = None
            per_tool.setdefault(tool.name, set()).add(param.flat)
        if len(spelt) < 2 or any(len(flats) > 1 for flats in per_tool.values()):
            continue
        listed = "; ".join(f"{'/'.join(spelt[f])} ({', '.join(taking[f])})" for f in spelt)
        message = f"{len(spelt)} names for one {concept}: {listed}; a model that learned one passes it to the others"
        counts = sorted((len(t) for t in taking.values()), reverse=True)
        if counts[0] > counts[1]:
            most = max(taking, key=lambda f: len(taking[f]))
            message += f" (most tools say {next(iter(spelt[most]))})"
        every = list(dict.fromkeys(t.name for t, _ in found))
        names = [name for spellings in spelt.values() for name in spellings]
        findings.append(Finding("parameter-synonyms", every, names, message, aspect=concept))
    return findings


# ---------------------------------------------------------------------------------------------------------------
# The rules


_TICKET_SEARCH = example_tool(
    "ticket_search",
    "Search tickets by words in their title or body. Returns each match's key and title.",
    {"query": "string", "limit": "integer"},
    read_only=True,
)


@rule(
    "TS108",
    "near-duplicate",
    "warning",
    checks="Two tools of one server a model is likely to take for each other: names that say one thing (the same"
    " words but for a verb's synonym, a variant such as _v2 or _enhanced, or a deprecated copy naming its"
    " replacement), descriptions alike in meaning (embeddings) and in words (BM25), and parameters of one shape"
    " under other names (query ~ text, limit ~ max_results). Siblings that act differently on one thing"
    " (comment_add and comment_list, ticket_get and ticket_close, a reading and a writing tool) are not.",
    why="A model picks a tool by its name and description; two that read alike split its calls between them, and the"
    " one it picks may be the deprecated copy, or be passed the other's parameter names. Peers raise such pairs"
    " (mcp-quality's confusable pairs, TDQS's shadow tools) with many false alarms on siblings such as"
    " create_entities and delete_entities; this rule names a pair only where the names say one thing.",
    source="issue 49; mcp-quality 0.7.0 (confusable pairs), Glama TDQS (shadow tools)",
    fix="Keep one of the two (remove the deprecated copy, or fold the variant into the other as a parameter), or"
    " name each after what it does that the other does not.",
    bad=Example.of(
        _TICKET_SEARCH,
        example_tool(
            "ticket_find",
            "Finds tickets whose title or body holds the words. Returns the key and title of each.",
            {"text": "string", "max_results": "integer"},
            read_only=True,
        ),
    ),
    good=Example.of(
        _TICKET_SEARCH,
        example_tool(
            "ticket_close",
            "Close a ticket, with the reason shown to the customer.",
            {"key": "string", "reason": "string"},
            read_only=False,
        ),
    ),
)
def _near_duplicate(given: ServerTools) -> list[Finding]:
    pairs = similar_pairs(given.tools, parsed=given.view.tools)
    return [_duplicate_finding("near-duplicate", p) for p in pairs if near_duplicate(p)]


@rule(
    "TS109",
    "parameter-synonyms",
    "warning",
    checks="One thing asked for under different parameter names across a server's tools: limit in some and"
    " max_results in others, query beside q or keywords, path beside file_path (item ids are TS101's, reasons"
    " TS105's). Names that one tool takes side by side (order_by and sort) mean different things and are left out.",
    why="A model carries a parameter name from one tool to the next: under another name the value is refused, or"
    " dropped as an unknown field, and the call does something else than asked.",
    source="issue 49; the Conderis design page, docs/conderis.md (Why: naming)",
    fix="Name the thing one way in every tool that takes it.",
    bad=Example.of(
        example_tool("ticket_search", "Search tickets.", {"query": "string", "limit": "integer"}, read_only=True),
        example_tool(
            "comment_search", "Search comments.", {"query": "string", "max_results": "integer"}, read_only=True
        ),
    ),
    good=Example.of(
        example_tool("ticket_search", "Search tickets.", {"query": "string", "limit": "integer"}, read_only=True),
        example_tool("comment_search", "Search comments.", {"query": "string", "limit": "integer"}, read_only=True),
    ),
)
def _parameter_synonyms(given: ServerTools) -> list[Finding]:
    return synonym_findings(given.view.tools)


def _servers(**listed: Sequence[Mapping[str, Any]]) -> Example:
    return Example(servers=tuple((server, tuple(tools)) for server, tools in listed.items()))


_BROWSER = (
    example_tool(
        "browser_hover",
        "Hover over an element of the page, by its reference from the page snapshot.",
        {"ref": "string"},
    ),
    example_tool(
        "browser_click", "Click an element of the page, by its reference from the page snapshot.", {"ref": "string"}
    ),
    example_tool("browser_navigate", "Navigate the page to a URL.", {"url": "string"}),
)


@rule(
    "TS404",
    "near-duplicate-servers",
    "warning",
    checks="Tools of two servers of one configuration that a model is likely to take for each other: names that say"
    " one thing once each server's prefix is left out (browser_hover and hover), descriptions alike in meaning,"
    " and alike in words or with parameters of one shape.",
    why="Servers configured together often overlap (two browsers, two file servers): the model is shown both tools,"
    " told apart by the server's prefix alone, and splits its calls between them or calls the one the user did"
    " not mean.",
    source="issue 49",
    fix="Keep one server for what both do, or turn the overlapping tools off in one of them.",
    bad=_servers(
        browser=_BROWSER,
        devtools=(example_tool("hover", "Hover over an element of the page by its reference.", {"ref": "string"}),),
    ),
    good=_servers(
        browser=_BROWSER,
        issues=(example_tool("issue_create", "Open an issue in a repository.", {"title": "string"}),),
    ),
    scope="servers",
)
def _near_duplicate_servers(given: ServerSet) -> list[Finding]:
    tools = [tool for _, listed in given.lists for tool in listed]
    servers = [server for server, listed in given.lists for _ in listed]
    pairs = similar_pairs(tools, servers)
    return [_duplicate_finding("near-duplicate-servers", p) for p in pairs if near_duplicate(p)]


RULES = (_near_duplicate, _parameter_synonyms, _near_duplicate_servers)
