"""A tool's name read as an operation on a noun: `memory_store` is store on memory, `get_merge_request` get on
merge_request, `jira_get_issue` get on issue within jira; a name with no verb first or last (`system_memory`,
`item_history`) is in no pattern. Words come from the project's text model, verbs from the lint's word groups."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolsurface.harness.analyze import name_words, stem
from toolsurface.harness.analyze.lint import DESTRUCTIVE_VERBS, LIST_WORDS, OTHER_VERBS, READ_VERBS, WRITE_VERBS

__all__ = [
    "LIST_OPERATION",
    "VERBS",
    "Access",
    "NamedTool",
    "Style",
    "name_style",
    "read_name",
    "read_names",
    "styled",
]

# Verbs tool names use beyond the lint's groups (what a name promises about reading and writing).
_MORE_VERBS = frozenset(
    {"recall", "unapprove", "protect", "unprotect", "publish", "unpublish", "resolve", "mark", "download", "export"}
    | {"rename", "copy", "clear", "sort", "format", "replace", "transition", "link", "unlink", "watch", "unwatch"}
    | {"unassign", "fork", "push", "pull", "trace", "analyze", "generate", "install", "uninstall", "apply", "convert"}
    | {"enable", "disable", "toggle", "start", "stop", "restart", "retry", "reply", "invite", "share", "lock"}
    | {"unlock", "subscribe", "unsubscribe", "count", "sync", "summarize", "deploy", "open", "reopen", "unarchive"}
    | {"unblock", "duplicate", "transfer", "schedule", "unschedule", "pause", "resume", "trigger", "test", "verify"}
    | {"cancel", "accept", "decline", "follow", "unfollow", "pin", "unpin", "grant", "revoke", "allow", "deny"}
    | {"navigate", "click", "type", "fill", "hover", "press", "scroll", "select", "upload", "capture", "take"}
    | {"load", "retrieve", "lookup", "modify", "change", "register", "batch", "highlight", "customize", "wait"}
    | {"evaluate", "emulate", "resize", "drag", "handle", "close", "new", "query", "list", "describe", "inspect"}
)
VERBS = READ_VERBS | WRITE_VERBS | DESTRUCTIVE_VERBS | OTHER_VERBS | LIST_WORDS | _MORE_VERBS
# The list words are one operation for a family (list, search, queue, browse, find: `item_list` takes them all);
# every other verb is an operation of its own.
LIST_OPERATION = "list"
# Words that end the noun of a verb-first name: what follows says where or how (add_footnote_to_document).
_PREPOSITIONS = frozenset(
    {"to", "from", "in", "on", "for", "by", "with", "near", "after", "before", "between", "below", "above", "into"}
)

_ARTICLES = frozenset({"a", "an", "the"})

Access = Literal["read", "write", "destructive"]
Style = Literal["_", "-", ".", "camel"]
_CAMEL = re.compile(r"[a-z0-9][A-Z]")


@dataclass(frozen=True)
class NamedTool:
    """A tool's name read as an operation on a noun. `scope`: words before a verb-first name's verb (`jira` of
    jira_get_issue); `qualifier`: what follows the noun after a preposition (`to_document`); `verb` None: the
    name is in no pattern. `access`: what the tool does by its annotations, else by its verb."""

    name: str
    words: tuple[str, ...]
    scope: tuple[str, ...]
    verb: str | None
    noun: tuple[str, ...]
    qualifier: tuple[str, ...]
    verb_first: bool
    access: Access
    style: Style

    def written(self, words: Sequence[str]) -> tuple[str, ...]:
        """Words of this name as the name writes them (`API`, not `api`); a word it does not hold, as given."""
        lower, shown, at = self.name.lower(), [], 0
        for word in words:
            found = lower.find(word, at)
            if found < 0:
                shown.append(word)
                continue
            shown.append(self.name[found : found + len(word)])
            at = found + len(word)
        return tuple(shown)

    @property
    def operation(self) -> str | None:
        """The verb as a family groups it: the list words are one."""
        if self.verb is None:
            return None
        return LIST_OPERATION if self.verb in LIST_WORDS else self.verb

    @property
    def head(self) -> str | None:
        """The noun's last word, stemmed: `emoji_reactions` and `note_emoji_reaction` share `reaction`."""
        return stem(self.noun[-1]) if self.noun else None

    @property
    def noun_key(self) -> tuple[str, ...]:
        """The noun as families compare it (issues and issue alike)."""
        return tuple(stem(w) for w in self.noun)

    @property
    def kind_words(self) -> tuple[str, ...]:
        """The noun with what qualifies it: the value a kind family's member goes by."""
        return self.noun + self.qualifier


def _hint(tool: Mapping[str, Any], key: str) -> bool | None:
    annotations = tool.get("annotations")
    value = annotations.get(key) if isinstance(annotations, dict) else None
    return value if isinstance(value, bool) else None


def _access(tool: Mapping[str, Any], verb: str | None) -> Access:
    """Reading, writing or destroying: by the annotations where they say, else by the verb."""
    read_only, destructive = _hint(tool, "readOnlyHint"), _hint(tool, "destructiveHint")
    if read_only is True:
        return "read"
    if read_only is False:
        return "destructive" if destructive is True or (destructive is None and verb in DESTRUCTIVE_VERBS) else "write"
    if destructive is True or verb in DESTRUCTIVE_VERBS:
        return "destructive"
    return "read" if verb in READ_VERBS or verb in LIST_WORDS else "write"


def name_style(name: str) -> Style:
    """How a name joins its words: snake_case, kebab-case, dotted or camelCase."""
    marks: tuple[Style, ...] = ("_", "-", ".")
    for mark in marks:
        if mark in name:
            return mark
    return "camel" if _CAMEL.search(name) else "_"


def styled(words: Sequence[str], style: Style) -> str:
    """Words joined as a name of `style` is."""
    if style == "camel":
        return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]) if words else ""
    return style.join(words)


def _noun_and_qualifier(words: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    for at, word in enumerate(words):
        if word in _PREPOSITIONS and at > 0:
            return tuple(words[:at]), tuple(words[at:])
    return tuple(words), ()


def _scoped(words: Sequence[str]) -> bool | None:
    """Whether a name reads as scope, verb, noun (jira_get_issue) rather than noun, verb (task_assignee_list): None
    where both or neither could be (performance_start_trace: trace is a verb too)."""
    if len(words) < 3 or words[0] in VERBS:
        return None
    second, last = words[1] in VERBS, words[-1] in VERBS
    return second if second != last else None


def read_name(tool: Mapping[str, Any], scoped_first: bool = False) -> NamedTool:
    """The name's verb and noun: a verb first (get_issue), second after one word of scope (jira_get_issue) or last
    (memory_store); none of these, no pattern. `scoped_first`: where a name could read both ways, it reads as
    scope, verb, noun (as most of its list's names that read one way only do)."""
    name = str(tool.get("name"))
    words = tuple(name_words(name))
    style = name_style(name)
    scope: tuple[str, ...] = ()
    verb: str | None = None
    noun: tuple[str, ...] = ()
    qualifier: tuple[str, ...] = ()
    verb_first = False
    scoped = _scoped(words)
    if len(words) >= 2 and words[0] in VERBS:
        verb, verb_first = words[0], True
        noun, qualifier = _noun_and_qualifier(words[1:])
    elif len(words) >= 3 and words[1] in VERBS and (scoped or (scoped is None and scoped_first)):
        scope, verb, verb_first = words[:1], words[1], True
        noun, qualifier = _noun_and_qualifier(words[2:])
    elif len(words) >= 2 and words[-1] in VERBS:
        verb, noun = words[-1], words[:-1]
    noun = tuple(w for w in noun if w not in _ARTICLES) or noun
    return NamedTool(name, words, scope, verb, noun, qualifier, verb_first, _access(tool, verb), style)


def read_names(tools: Sequence[Mapping[str, Any]]) -> list[NamedTool]:
    """Each tool's name read, a name that could read two ways read as most of the list's names that read one way."""
    said = [_scoped(tuple(name_words(str(t.get("name"))))) for t in tools]
    scoped_first = sum(1 for s in said if s is True) > sum(1 for s in said if s is False)
    return [read_name(t, scoped_first) for t in tools]
