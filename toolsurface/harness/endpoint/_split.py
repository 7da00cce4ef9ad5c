"""What one model request showed the model, part by part: the stub's tools and the client's own, each shown in
full or deferred; the searches its conversation made; the server's instructions found in what the model reads.

A tool sent with `defer_loading: true` is deferred, as the Anthropic API keeps it out of the model's context,
until a search result in the conversation references it (`tool_reference`): then it is shown. A stub tool the
request does not send at all but names (`mcp__stub__item_get` in a system note, or a deferred namespace
`mcp__stub`, the server's name being the run's) is deferred by name. Deferred tools cost the model their names: a deferred part's chars are its
names', one per line; `sent_chars` is what the tools array carried of them, out of the model's sight.

Given the client's naming rule and the server's tools as listed, the stub's tools are the ones that rule names
(harness.endpoint._sent), each recorded as it was carried; without them, a name with a prefix the clients of the
request's API put before the server's tools. A namespace's own envelope (its name and description, `mcp__stub`
among them) is a part of its own, the wrappers, and the server's instructions are looked for in those
descriptions as well as in the messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolsurface.harness.agents import ToolNaming, api_namespaces, api_prefixes
from toolsurface.harness.agents.base import SERVER_NAME
from toolsurface.harness.endpoint._conversation import Conversation, ToolEntry
from toolsurface.harness.endpoint._sent import SentTool, Sizes, match_sent
from toolsurface.harness.output import compact_json

__all__ = ["Naming", "RequestSplit", "SearchSeen", "ServerPart", "ToolPart", "found_prefix", "split_request"]

_LEAST_FOUND = 40
# A line's indent, which a client may put before each line of the instructions it quotes (4 spaces, say).
_INDENT = re.compile(r"\n[ \t]+")


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
    # What the model reads: the shown tools' JSON, the deferred tools' names, the namespaces' envelopes, the
    # system prompt and messages.
    context_chars: int
    # Each namespace's envelope without its tools (and without the server's instructions it holds).
    wrappers: ToolPart = field(default_factory=ToolPart)
    # Each of the server's tools as carried, when its tools as listed and the client's naming are known.
    stub_sent: list[SentTool] | None = None


@dataclass(frozen=True)
class ServerPart:
    """What one request carried of a server beside the run's (a neighbour in the client's config): its tools
    shown in full and deferred, the chars of its instructions the model reads (None: it gave none), and each of
    its tools as carried."""

    server: str
    shown: ToolPart
    deferred: ToolPart
    instructions_chars: int | None
    sent: list[SentTool] = field(default_factory=list)


@dataclass(frozen=True)
class Naming:
    """Who is naming the server's tools in these requests: the client's rule, the server's name in its config,
    and the server's tools as listed."""

    rule: ToolNaming
    server: str
    wire: Sequence[Mapping[str, Any]]


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


def _searches(conversation: Conversation, search_tools: Collection[str]) -> list[SearchSeen]:
    return [
        SearchSeen(
            call.name,
            str(call.arguments["query"]) if "query" in call.arguments else None,
            list(call.references),
            n + 1,
        )
        for n, call in enumerate(conversation.calls)
        if call.name in search_tools
    ]


def _wrappers(tools: Sequence[Any]) -> list[dict[str, Any]]:
    """Each namespace of the request (a Responses API tool holding tools) without its tools."""
    return [
        {**{k: v for k, v in tool.items() if k != "tools"}, "tools": []}
        for tool in tools
        if isinstance(tool, dict) and tool.get("type") == "namespace" and isinstance(tool.get("tools"), list)
    ]


def _unindented(text: str) -> tuple[str, list[int]]:
    """`text` with every line's indent taken off, and where in `text` each of its chars is."""
    kept: list[str] = []
    where: list[int] = []
    start = 0
    for match in _INDENT.finditer(text):
        kept.append(text[start : match.start() + 1])
        where.extend(range(start, match.start() + 1))
        start = match.end()
    kept.append(text[start:])
    where.extend(range(start, len(text)))
    return "".join(kept), where


def _found_in(wanted: str, text: str) -> int:
    """The chars of the longest start of `wanted` that `text` holds, as it is or with each line indented."""
    found = found_prefix(wanted, text)
    if found == len(wanted) or "\n" not in wanted[found:]:
        return found
    plain, where = _unindented(wanted)
    again = found_prefix(plain, _INDENT.sub("\n", text))
    return max(found, where[again - 1] + 1 if again else 0)


def _instructions_found(wanted: str, texts: Sequence[str]) -> tuple[int, int | None]:
    """The chars of the instructions found in the first text holding the most of them, and which text."""
    best, where = 0, None
    for n, text in enumerate(texts):
        found = _found_in(wanted, text) if wanted else 0
        # A start shorter than this is a coincidence of words, not the instructions.
        if found >= min(len(wanted), _LEAST_FOUND) and found > best:
            best, where = found, n
    return best, where


def _named_by(naming: Naming, text: str, sent: set[str]) -> tuple[list[str], bool]:
    """Names with the server's prefix the text holds that the request does not send, and whether the text
    names the server's namespace (one a client deferred) without the request sending it."""
    prefix = naming.rule.prefix(naming.server)
    found = re.findall(rf"(?<![\w.:-]){re.escape(prefix)}[.{naming.rule.allowed}]+", text)
    named = [n for n in dict.fromkeys(n.rstrip(".") for n in found) if n not in sent]
    namespace = naming.rule.namespace_name(naming.server)
    in_text = namespace is not None and re.search(rf"(?<![\w-]){re.escape(namespace)}\b(?!_)", text) is not None
    return named, in_text and not any(name.startswith(prefix) for name in sent)


def _patterns(api: str, server: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """What a tool name of the server looks like in text, by each prefix the clients of `api` put before its
    tools, and what its namespace looks like (a client may name the namespace it deferred, not each tool)."""
    prefixes = [p for p in api_prefixes(api, server) if p]
    namespaces = api_namespaces(api, server)
    named = re.compile("|".join(rf"\b{re.escape(p)}[A-Za-z0-9_-]+" for p in prefixes)) if prefixes else None
    namespace = re.compile("|".join(rf"\b{re.escape(n)}\b(?!_)" for n in namespaces)) if namespaces else None
    return named, namespace


def split_request(
    conversation: Conversation,
    is_stub: Callable[[str], bool],
    stub_tools: Collection[str],
    instructions: str | None,
    tokens: Callable[[str], int],
    naming: Naming | None = None,
    sizes: Sizes | None = None,
    *,
    server: str = SERVER_NAME,
    search_tools: Collection[str] = (),
    others: Collection[str] = (),
) -> RequestSplit:
    """`stub_tools`: the stub's own names (unprefixed), to find those the request only names; `instructions`:
    the server's, to find in what the model reads. With `naming`, the stub's tools are those its rule names;
    without it, those the clients of the request's API name for the server called `server`. `search_tools`: the
    client's own tool search, whose calls are the conversation's searches. `others`: tools (as sent) of the
    other servers in the client's config, which are neither the stub's nor the client's own."""
    referenced = conversation.referenced
    sent = {e.name for e in conversation.entries}
    text = conversation.context_text
    stub_sent: list[SentTool] | None = None
    namespace_text: str | None = None
    if naming is not None:
        named, namespace_named = _named_by(naming, text, sent)
        stub_sent, stub_names = match_sent(
            naming.wire,
            conversation.entries,
            named,
            namespace_named,
            referenced,
            naming.rule,
            naming.server,
            sizes or Sizes(tokens),
        )
        is_stub = stub_names.__contains__
        named = [t.sent_as for t in stub_sent if t.how == "named" and t.sent_as is not None]
        in_namespace = [naming.rule.full_name(t.tool, naming.server) for t in stub_sent if t.how == "namespace"]
        namespace_text = naming.rule.namespace_name(naming.server) if in_namespace else None
    else:
        named_pattern, namespace_pattern = _patterns(conversation.api, server)
        mentioned = named_pattern.findall(text) if named_pattern is not None else []
        named = [n for n in dict.fromkeys(mentioned) if n not in sent and is_stub(n)]
        in_namespace = []
        namespace = namespace_pattern.search(text) if namespace_pattern is not None and stub_tools else None
        if namespace is not None:
            prefix = namespace.group() + "__"
            in_namespace = [prefix + t for t in stub_tools if prefix + t not in sent and prefix + t not in named]
            namespace_text = namespace.group() if in_namespace else None
    parts: dict[tuple[bool, bool], list[ToolEntry]] = {(s, d): [] for s in (True, False) for d in (True, False)}
    for entry in conversation.entries:
        stub = is_stub(entry.name)
        if not stub and entry.name in others:
            continue
        parts[(stub, entry.deferred and entry.name not in referenced)].append(entry)
    stub_deferred = [e.name for e in parts[(True, True)]] + named + in_namespace
    seen = None
    if namespace_text is not None:
        seen = [e.name for e in parts[(True, True)]] + named + [namespace_text]
    builtin_deferred = [e.name for e in parts[(False, True)]]
    shown = parts[(True, False)] + parts[(False, False)]
    # The model reads the other servers' tools too (their parts are their own splits').
    shown_others = [
        e for e in conversation.entries if e.name in others and not (e.deferred and e.name not in referenced)
    ]
    deferred_others = [e.name for e in conversation.entries if e.name in others and e not in shown_others]
    wrappers = _wrappers(conversation.tools)
    wanted = (instructions or "").strip()
    descriptions = [str(w.get("description") or "") for w in wrappers]
    found, where = _instructions_found(wanted, [text, *descriptions])
    wrapper_text = compact_json(wrappers) if wrappers else ""
    everything = shown + shown_others
    context = len(compact_json([e.value for e in everything])) if everything else 0
    context += len("\n".join((stub_deferred if seen is None else seen) + builtin_deferred + deferred_others))
    context += len(text)
    context += len(wrapper_text)
    if where is not None and where > 0:
        # The instructions a namespace's description holds count as instructions, not as its envelope.
        held = wrappers[where - 1]
        wrappers[where - 1] = {**held, "description": str(held["description"]).replace(wanted[:found], "", 1)}
        wrapper_text = compact_json(wrappers)
    return RequestSplit(
        stub_shown=_shown_part(parts[(True, False)], tokens),
        stub_deferred=_deferred_part(stub_deferred, parts[(True, True)], tokens, seen),
        builtin_shown=_shown_part(parts[(False, False)], tokens),
        builtin_deferred=_deferred_part(builtin_deferred, parts[(False, True)], tokens),
        searches=_searches(conversation, search_tools),
        # Found whole, they count as the server sent them (`measure`'s figure), the ends a client trims included.
        instructions_chars=(len(instructions or "") if found == len(wanted) else found) if wanted else None,
        context_chars=context,
        wrappers=ToolPart(
            [str(w.get("name")) for w in wrappers], len(wrapper_text), tokens(wrapper_text) if wrappers else 0
        ),
        stub_sent=stub_sent,
    )
