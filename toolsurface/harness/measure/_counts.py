"""Token counters as `measure` sees them: o200k (built in, the default) and any other counter that counts the
request a model is sent with a tools list, and each counter's figures for one list.

A counter other than o200k counts a whole request (its framing included), so the tools' tokens are the request
with the list minus the same request with no tools (the framing, a figure of its own), and a tool's marginal
tokens are the request with the list minus the request without that tool. Where the provider adds a prompt of
its own once a request has any tool (Anthropic's tool-use system prompt), the framing is the request with one
minimal tool less that tool (its cost is what a second minimal tool adds), so the tools' tokens leave that
prompt out, as any client session with tools of its own pays it anyway; it is a figure of its own
(`tool_prompt`). The counters themselves live in harness.counters; this module only states what `measure`
asks of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "O200K",
    "O200K_COUNTER",
    "CounterFigures",
    "CounterInfo",
    "ListCounter",
    "ToolCount",
    "adds_tool_prompt",
    "counter_figures",
    "framing_lists",
    "framing_of",
    "is_o200k",
]

# The id of the built-in counter: tiktoken's o200k_base over the compact JSON of the tools array.
O200K = "o200k"


class ListCounter(Protocol):
    """Counts the request a model is sent with a tools list, as one model family counts it."""

    @property
    def id(self) -> str:
        """As asked for: `harmony`, `anthropic:MODEL`..."""

    @property
    def name(self) -> str:
        """How its figures are labelled (known once it has counted: the scripted endpoint's are named so)."""

    @property
    def label(self) -> str:
        """What it counts, in words, for a table's legend."""

    @property
    def source(self) -> str:
        """Where its counts came from: offline, or the endpoint that answered."""

    @property
    def standalone(self) -> bool:
        """Whether a tool's own figure (a request with that tool alone) is counted too; a keyed counter leaves
        it out, as each figure is a request to the provider."""

    def count_requests(self, lists: Sequence[Sequence[dict[str, Any]]]) -> list[int]:
        """Tokens of the request offering each tools list; an empty list is the request with no tools."""

    def count_texts(self, texts: Sequence[str]) -> list[int]:
        """Tokens of each text as a model reads a tool's answer of that text (an empty text is 0)."""


# The smallest tools a request can offer, to measure a provider's tool prompt with.
MINIMAL_TOOLS = (
    {"name": "a", "inputSchema": {"type": "object"}},
    {"name": "b", "inputSchema": {"type": "object"}},
)


def adds_tool_prompt(counter: ListCounter) -> bool:
    """Whether the counter's provider adds a prompt of its own to a request with any tool."""
    return bool(getattr(counter, "tool_prompt", False))


def framing_lists(counter: ListCounter) -> list[list[dict[str, Any]]]:
    """The requests a counter's framing is measured with: none, or one and two minimal tools besides."""
    if not adds_tool_prompt(counter):
        return [[]]
    return [[], [dict(MINIMAL_TOOLS[0])], [dict(t) for t in MINIMAL_TOOLS]]


def framing_of(counts: Sequence[int]) -> tuple[int, int | None]:
    """The framing and the provider's tool prompt (None: it adds none) from the framing requests' counts."""
    if len(counts) == 1:
        return counts[0], None
    none, one, two = counts
    framing = one - (two - one)
    return framing, framing - none


def is_o200k(counter: ListCounter | str) -> bool:
    return (counter if isinstance(counter, str) else counter.id) == O200K


class _O200k:
    """The built-in counter; `measure` counts its figures itself (a tool's marginal tokens from its
    neighbours, so a long list stays linear), so this is its name and a plain count of a list's text."""

    id = name = O200K
    label = "tiktoken o200k_base over the compact JSON of the tools array"
    source = "offline"
    standalone = True

    def count_requests(self, lists: Sequence[Sequence[dict[str, Any]]]) -> list[int]:
        from toolsurface.harness.measure._tokens import count_tokens
        from toolsurface.harness.output import compact_json

        return [count_tokens(compact_json(list(tools))) for tools in lists]

    def count_texts(self, texts: Sequence[str]) -> list[int]:
        from toolsurface.harness.measure._tokens import count_tokens

        return [count_tokens(text) if text else 0 for text in texts]


O200K_COUNTER: ListCounter = _O200k()


@dataclass(frozen=True)
class CounterInfo:
    """A counter a measurement used: its id as asked, the name its figures carry, what it counts, and where
    its counts came from."""

    id: str
    name: str
    label: str
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "label": self.label, "source": self.source}


@dataclass(frozen=True)
class ToolCount:
    name: str
    tokens: int | None
    marginal_tokens: int | None


@dataclass(frozen=True)
class CounterFigures:
    """One counter's figures for one list: the tools' tokens, the framing (the same request with no tools;
    None for o200k, which counts the list alone), the ratio to o200k's figure for the same list, per tool,
    growth by one kind and the size per number of kinds."""

    counter: str
    tokens: int
    framing: int | None
    ratio: float | None
    per_tool: list[ToolCount] = field(default_factory=list)
    growth_tokens: int | None = None
    by_kinds: list[int] = field(default_factory=list)
    # The provider's own prompt for a request with tools, inside the framing (None: it adds none).
    tool_prompt: int | None = None

    def to_json(self) -> dict[str, Any]:
        prompt = {} if self.tool_prompt is None else {"tool_prompt": self.tool_prompt}
        return {
            "counter": self.counter,
            "tokens": self.tokens,
            "framing": self.framing,
            **prompt,
            "ratio_to_o200k": round(self.ratio, 4) if self.ratio is not None else None,
            "growth_tokens": self.growth_tokens,
            "by_kinds": self.by_kinds,
            "per_tool": [
                {"name": t.name, "tokens": t.tokens, "marginal_tokens": t.marginal_tokens} for t in self.per_tool
            ],
        }


def counter_figures(
    counter: ListCounter,
    tools: Sequence[dict[str, Any]],
    o200k_tokens: int,
    grown: Sequence[dict[str, Any]] | None = None,
    points: Sequence[Sequence[dict[str, Any]]] = (),
) -> CounterFigures:
    """A request counter's figures for a list, every request it needs asked for at once (so a keyed counter
    can send what it has not cached side by side)."""
    tools = list(tools)
    without = [tools[:i] + tools[i + 1 :] for i in range(len(tools))]
    alone = [[tool] for tool in tools] if counter.standalone else []
    frames = framing_lists(counter)
    lists: list[Sequence[dict[str, Any]]] = [*frames, tools, *without, *alone]
    if grown is not None:
        lists.append(grown)
    lists += points
    counts = counter.count_requests(lists)
    framing, tool_prompt = framing_of(counts[: len(frames)])
    counts = [framing, *counts[len(frames) :]]
    whole = counts[1]
    at = 2
    marginal = [whole - n for n in counts[at : at + len(without)]]
    at += len(without)
    standalone: list[int | None] = [n - framing for n in counts[at : at + len(alone)]] if alone else [None] * len(tools)
    at += len(alone)
    growth: int | None = None
    if grown is not None:
        growth = counts[at] - whole
        at += 1
    by_kinds = [n - framing for n in counts[at:]]
    listed = whole - framing
    return CounterFigures(
        counter=counter.name,
        tokens=listed,
        framing=framing,
        ratio=listed / o200k_tokens if o200k_tokens else None,
        per_tool=[
            ToolCount(str(tool.get("name")), own, extra)
            for tool, own, extra in zip(tools, standalone, marginal, strict=True)
        ],
        growth_tokens=growth,
        by_kinds=by_kinds,
        tool_prompt=tool_prompt,
    )
