"""List size, tokens, per-tool cost and growth per kind, from tool lists as a client received them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from harness.errors import InvalidToolList
from harness.measure._tokens import ENCODING_NAME, count_tokens
from harness.measure._wire import PROTOCOL_VERSION, WireList, list_surface
from harness.surface import Kind, Snapshot, SurfaceDefinition

__all__ = [
    "Growth",
    "KindsPoint",
    "Measurable",
    "Measurement",
    "SurfaceMeasurement",
    "ToolSize",
    "compact_json",
    "list_text",
    "listed",
    "marginal_tokens",
    "measure",
    "snapshot_protocol",
    "wire_list",
]

Measurable = SurfaceDefinition | Snapshot


def compact_json(value: Any) -> str:
    """The counting rule: compact separators, key order as received, non-ASCII unescaped."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def list_text(tools: Sequence[dict[str, Any]]) -> str:
    return compact_json(list(tools))


@dataclass(frozen=True)
class ToolSize:
    name: str
    chars: int
    tokens: int | None
    marginal_tokens: int | None


@dataclass(frozen=True)
class Growth:
    """What one more kind costs: the change in tools, chars and tokens, and which tools it touched."""

    kind: str
    tools: int
    chars: int
    tokens: int | None
    added_tools: list[str] = field(default_factory=list)
    removed_tools: list[str] = field(default_factory=list)
    changed_tools: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KindsPoint:
    """The list built with the first `kinds` kinds; `kind` is the one this point added."""

    kinds: int
    kind: str
    tools: int
    chars: int
    tokens: int | None


@dataclass(frozen=True)
class SurfaceMeasurement:
    name: str
    title: str
    source: str
    protocol_version: str | None
    tools: int
    chars: int
    tokens: int | None
    per_tool: list[ToolSize]
    growth: Growth | None
    by_kinds: list[KindsPoint]
    text: str = field(repr=False, compare=False, default="")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["text"]
        return data

    def largest(self, count: int) -> list[ToolSize]:
        return sorted(self.per_tool, key=lambda t: t.chars, reverse=True)[:count]


@dataclass(frozen=True)
class Measurement:
    encoding: str
    protocol_version: str
    surfaces: list[SurfaceMeasurement]

    def to_json(self) -> dict[str, Any]:
        return {
            "encoding": self.encoding,
            "protocol_version": self.protocol_version,
            "surfaces": [s.to_json() for s in self.surfaces],
        }


def snapshot_protocol(item: Snapshot, protocol: str | None = None) -> str:
    """The version a snapshot was taken in; one asked for that differs is refused (its key order is not
    what a client of that version receives)."""
    recorded = item.protocol_version
    if protocol is not None and recorded is not None and recorded != protocol:
        raise InvalidToolList(
            f"{item.path}: recorded in MCP protocol {recorded}, not {protocol}; a snapshot is measured as it"
            f" was taken (take it again with snapshot --protocol {protocol})"
        )
    return recorded or "unknown"


async def wire_list(item: Measurable, kinds: Sequence[Kind] | None = None, protocol: str | None = None) -> WireList:
    """The tools as a client receives them: a definition is built and served, in `protocol` (default: the
    default version); a snapshot is as recorded, and refused when asked for a version it was not taken in."""
    if isinstance(item, Snapshot):
        if kinds is not None:
            raise InvalidToolList(f"{item.path}: a snapshot cannot be rebuilt with other kinds")
        return WireList(tools=item.tools, protocol_version=snapshot_protocol(item, protocol))
    asked = protocol or PROTOCOL_VERSION
    wire = await list_surface(item.build_surface(kinds), protocol=asked)
    if wire.protocol_version != asked:
        raise InvalidToolList(f"the MCP client negotiated protocol {wire.protocol_version}, not {asked}")
    return wire


def listed(items: Sequence[Measurable], protocol: str | None = None) -> list[WireList]:
    """Each surface as a client receives it, all in one event loop: the one way the analyzers, snapshots and
    sessions read a list (`wire_list` is its async form)."""
    import anyio

    async def listing() -> list[WireList]:
        return [await wire_list(item, protocol=protocol) for item in items]

    return anyio.run(listing)


def _list_window(texts: Sequence[str], indexes: Sequence[int], first: int, last: int) -> str:
    """Part of the list text: the tools at `indexes`, between the characters that surround tools first..last."""
    before = "[" if first == 0 else ","
    after = "]" if last == len(texts) - 1 else ","
    inner = ",".join(texts[i] for i in indexes)
    return before + inner + after if inner else before + after


def marginal_tokens(texts: Sequence[str]) -> list[int]:
    """Tokens each tool adds to the list: the list's tokens minus those of the list without it.

    o200k_base merges only inside pre-tokens, and a pre-token never reaches across a whole tool, so the
    difference is decided next to the tool: it is computed on the tool with its two neighbours, with and
    without it. That keeps 10,000 tools linear; tests check it against the whole-list difference.
    """
    out = []
    for index in range(len(texts)):
        first, last = max(0, index - 1), min(len(texts) - 1, index + 1)
        around = range(first, last + 1)
        with_tool = _list_window(texts, around, first, last)
        without = _list_window(texts, [i for i in around if i != index], first, last)
        out.append(count_tokens(with_tool) - count_tokens(without))
    return out


def _per_tool(tools: list[dict[str, Any]], with_tokens: bool) -> list[ToolSize]:
    texts = [compact_json(tool) for tool in tools]
    marginal = marginal_tokens(texts) if with_tokens else [None] * len(texts)
    return [
        ToolSize(
            name=str(tool.get("name")),
            chars=len(text),
            tokens=count_tokens(text) if with_tokens else None,
            marginal_tokens=extra,
        )
        for tool, text, extra in zip(tools, texts, marginal, strict=True)
    ]


def _growth(base: WireList, grown: WireList, kind: Kind, with_tokens: bool) -> Growth:
    before = {str(t.get("name")): compact_json(t) for t in base.tools}
    after = {str(t.get("name")): compact_json(t) for t in grown.tools}
    base_text, grown_text = list_text(base.tools), list_text(grown.tools)
    return Growth(
        kind=kind.name,
        tools=len(grown.tools) - len(base.tools),
        chars=len(grown_text) - len(base_text),
        tokens=count_tokens(grown_text) - count_tokens(base_text) if with_tokens else None,
        added_tools=[n for n in after if n not in before],
        removed_tools=[n for n in before if n not in after],
        changed_tools=[n for n in after if n in before and after[n] != before[n]],
    )


async def _measure_one(
    item: Measurable, with_tokens: bool, with_growth: bool, protocol: str | None
) -> SurfaceMeasurement:
    wire = await wire_list(item, protocol=protocol)
    text = list_text(wire.tools)
    tokens = count_tokens(text) if with_tokens else None
    growth: Growth | None = None
    by_kinds: list[KindsPoint] = []
    if isinstance(item, SurfaceDefinition) and with_growth:
        if item.growth_kind is not None:
            grown = await wire_list(item, [*item.kinds, item.growth_kind], protocol)
            growth = _growth(wire, grown, item.growth_kind, with_tokens)
        series = [*item.kinds, *([item.growth_kind] if item.growth_kind else [])]
        for count in range(1, len(series) + 1):
            point = await wire_list(item, series[:count], protocol)
            point_text = list_text(point.tools)
            by_kinds.append(
                KindsPoint(
                    kinds=count,
                    kind=series[count - 1].name,
                    tools=len(point.tools),
                    chars=len(point_text),
                    tokens=count_tokens(point_text) if with_tokens else None,
                )
            )
    if isinstance(item, Snapshot):
        title, source = item.server or item.name, str(item.path)
    else:
        title, source = item.title, item.source
    return SurfaceMeasurement(
        name=item.name,
        title=title,
        source=source,
        protocol_version=wire.protocol_version,
        tools=len(wire.tools),
        chars=len(text),
        tokens=tokens,
        per_tool=_per_tool(wire.tools, with_tokens),
        growth=growth,
        by_kinds=by_kinds,
        text=text,
    )


def measure(
    items: Sequence[Measurable], *, tokens: bool = True, growth: bool = True, protocol: str | None = None
) -> Measurement:
    """Measure each surface as a client receives it, in `protocol` (None: the default version, and each
    snapshot as recorded); growth and by-kinds only for buildable surfaces."""
    import anyio

    async def run() -> list[SurfaceMeasurement]:
        return [await _measure_one(item, tokens, growth, protocol) for item in items]

    asked = protocol or PROTOCOL_VERSION
    return Measurement(encoding=ENCODING_NAME, protocol_version=asked, surfaces=anyio.run(run))
