"""What one model request showed the model, part by part: the stub's tools and the client's own, each shown in
full or deferred; the searches its conversation made; the server's instructions found in what the model reads.

A tool sent with `defer_loading: true` is deferred, as the Anthropic API keeps it out of the model's context,
until a search result in the conversation references it (`tool_reference`): then it is shown. A stub tool the
request does not send at all but names (`mcp__stub__item_get` in a system note, or codex's deferred namespace
`mcp__stub`) is deferred by name. Deferred tools cost the model their names: a deferred part's chars are its
names', one per line; `sent_chars` is what the tools array carried of them, out of the model's sight.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from toolsurface.harness.endpoint._conversation import API_PREFIX, Conversation, ToolEntry
from toolsurface.harness.endpoint._scripted import SEARCH_TOOLS
from toolsurface.harness.output import compact_json

__all__ = ["RequestSplit", "SearchSeen", "ToolPart", "found_prefix", "split_request"]

_NAMED = re.compile(r"\bmcp__stub__[A-Za-z0-9_-]+|\bmcp_stub_[A-Za-z0-9_-]+")
# codex names the namespace it deferred ("Deferred tool namespaces: - mcp__stub"), not each tool.
_NAMESPACE = re.compile(r"\bmcp__stub\b(?!_)")
_LEAST_FOUND = 40


@dataclass(frozen=True)
class ToolPart:
    """Tools of one part, by name as sent: the compact JSON chars and o200k tokens the model reads of them."""

    tools: list[str] = field(default_factory=list)
    chars: int = 0
    tokens: int = 0
    sent_chars: int = 0


@dataclass(frozen=True)
class SearchSeen:
    """A call of the client's own tool search the conversation holds, and the tools its result referenced."""

    tool: str
    query: str | None
    returned: list[str]
    turn: int


@dataclass(frozen=True)
class RequestSplit:
    stub_shown: ToolPart
    stub_deferred: ToolPart
    builtin_shown: ToolPart
    builtin_deferred: ToolPart
    searches: list[SearchSeen]
    # None: the server gave no instructions; else the chars of them the model reads (0: left out).
    instructions_chars: int | None
    # What the model reads: the shown tools' JSON, the deferred tools' names, the system prompt and messages.
    context_chars: int


def _shown_part(entries: Sequence[ToolEntry], tokens: Callable[[str], int]) -> ToolPart:
    if not entries:
        return ToolPart()
    text = compact_json([e.value for e in entries])
    return ToolPart([e.name for e in entries], len(text), tokens(text))


def _deferred_part(
    names: Sequence[str], sent: Sequence[ToolEntry], tokens: Callable[[str], int], seen: Sequence[str] | None = None
) -> ToolPart:
    """`seen`: what the model reads of them, when not their names (a namespace named once)."""
    if not names:
        return ToolPart()
    text = "\n".join(names if seen is None else seen)
    return ToolPart(list(names), len(text), tokens(text), len(compact_json([e.value for e in sent])) if sent else 0)


def found_prefix(text: str, haystack: str) -> int:
    """The length of the longest start of `text` that `haystack` holds (a client may cut a long text short)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text[:middle] in haystack:
            low = middle
        else:
            high = middle - 1
    return low


def _searches(conversation: Conversation) -> list[SearchSeen]:
    return [
        SearchSeen(
            call.name,
            str(call.arguments["query"]) if "query" in call.arguments else None,
            list(call.references),
            n + 1,
        )
        for n, call in enumerate(conversation.calls)
        if call.name in SEARCH_TOOLS
    ]


def split_request(
    conversation: Conversation,
    is_stub: Callable[[str], bool],
    stub_tools: Collection[str],
    instructions: str | None,
    tokens: Callable[[str], int],
) -> RequestSplit:
    """`stub_tools`: the stub's own names (unprefixed), to find those the request only names; `instructions`:
    the server's, to find in what the model reads."""
    referenced = conversation.referenced
    parts: dict[tuple[bool, bool], list[ToolEntry]] = {(s, d): [] for s in (True, False) for d in (True, False)}
    for entry in conversation.entries:
        parts[(is_stub(entry.name), entry.deferred and entry.name not in referenced)].append(entry)
    sent = {e.name for e in conversation.entries}
    text = conversation.context_text
    named = [n for n in dict.fromkeys(_NAMED.findall(text)) if n not in sent and is_stub(n)]
    in_namespace: list[str] = []
    namespace = _NAMESPACE.search(text) if stub_tools else None
    if namespace is not None:
        prefix = API_PREFIX[conversation.api]
        in_namespace = [prefix + t for t in stub_tools if prefix + t not in sent and prefix + t not in named]
    stub_deferred = [e.name for e in parts[(True, True)]] + named + in_namespace
    seen = None
    if namespace is not None and in_namespace:
        seen = [e.name for e in parts[(True, True)]] + named + [namespace.group()]
    builtin_deferred = [e.name for e in parts[(False, True)]]
    shown = parts[(True, False)] + parts[(False, False)]
    context = len(compact_json([e.value for e in shown])) if shown else 0
    context += len("\n".join((stub_deferred if seen is None else seen) + builtin_deferred)) + len(text)
    wanted = (instructions or "").strip()
    found = found_prefix(wanted, text)
    # A start shorter than this is a coincidence of words, not the instructions.
    found = found if found >= min(len(wanted), _LEAST_FOUND) else 0
    return RequestSplit(
        stub_shown=_shown_part(parts[(True, False)], tokens),
        stub_deferred=_deferred_part(stub_deferred, parts[(True, True)], tokens, seen),
        builtin_shown=_shown_part(parts[(False, False)], tokens),
        builtin_deferred=_deferred_part(builtin_deferred, parts[(False, True)], tokens),
        searches=_searches(conversation),
        instructions_chars=found if wanted else None,
        context_chars=context,
    )
