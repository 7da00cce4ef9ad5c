"""List size, tokens, per-tool cost and growth per kind, from tool lists as a client received them; and the
same counting rule over the other parts a server advertises (instructions, prompts, resources, templates, skills:
what a client puts before the model of each), with each skill's SKILL.md sized apart, as a cost on demand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from toolsurface.harness.errors import InvalidToolList
from toolsurface.harness.measure._counts import CounterFigures, CounterInfo, ListCounter, counter_figures, is_o200k
from toolsurface.harness.measure._drafts_sizes import DraftSizes, draft_sizes
from toolsurface.harness.measure._tokens import ENCODING_NAME, count_tokens
from toolsurface.harness.measure._wire import PROTOCOL_VERSION, WireList, list_plainly, list_surface
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import (
    PART_KEYS,
    Kind,
    Snapshot,
    SnapshotAnswers,
    SurfaceDefinition,
    SurfaceParts,
    included_keys,
)

if TYPE_CHECKING:
    from toolsurface.harness.corpus import Standing
    from toolsurface.harness.measure._anatomy import ListAnatomy, ToolAnatomy

__all__ = [
    "Growth",
    "KeptLists",
    "KindsPoint",
    "Measurable",
    "Measurement",
    "PartSize",
    "SkillSize",
    "SurfaceMeasurement",
    "ToolSize",
    "kept_lists",
    "list_text",
    "listed",
    "lists_kept",
    "marginal_tokens",
    "measure",
    "part_sizes",
    "part_text",
    "plain_lists",
    "skill_sizes",
    "snapshot_protocol",
    "wire_list",
]

Measurable = SurfaceDefinition | Snapshot


def list_text(tools: Sequence[dict[str, Any]]) -> str:
    return compact_json(list(tools))


@dataclass(frozen=True)
class ToolSize:
    name: str
    chars: int
    tokens: int | None
    marginal_tokens: int | None
    # Why a client refuses, repairs or may drop the tool as published (no object schema, a second tool of its
    # name, ...); it is measured as it is.
    problem: str | None = None
    # An MCP Apps tool for the App's UI alone (`_meta.ui.visibility` without "model"): not in the model's cost; and
    # why its visibility could not be read (then it is counted as the model's).
    app_only: bool = False
    visibility_problem: str | None = None
    # Its o200k tokens and chars by part, when asked for (measure --anatomy); they add up to its own.
    anatomy: ToolAnatomy | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "chars": self.chars,
            "tokens": self.tokens,
            "marginal_tokens": self.marginal_tokens,
            "problem": self.problem,
            "app_only": self.app_only,
            "visibility_problem": self.visibility_problem,
        }
        if self.anatomy is not None:
            data["anatomy"] = self.anatomy.to_json()
        return data


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
class PartSize:
    """One part beside the tools (`instructions`, `prompts`, `resources`, `resourceTemplates`): a list by the tools'
    counting rule, the compact JSON of the part as received; the instructions by the characters of their text as
    received, as `clients` counts what of them reaches a model (no quotes, no JSON escapes). `entries` is None
    for the instructions; `advertised` False: the server advertises none. A part with nothing in it (not
    advertised, or an empty list) counts 0: nothing of it reaches a model."""

    part: str
    advertised: bool
    entries: int | None
    chars: int
    tokens: int | None


def part_text(key: str, value: Any) -> str:
    """What of a part a client puts before a model, as counted: the instructions' text, a list's compact JSON, the
    skills' frontmatter as listed (compact JSON of each skill's frontmatter object); nothing for an empty part."""
    if isinstance(value, str):
        return value
    if value in (None, []):
        return ""
    if key == "skills":
        return compact_json([entry.get("frontmatter") for entry in value])
    return compact_json(value)


def part_sizes(parts: SurfaceParts, with_tokens: bool) -> list[PartSize]:
    """Each part's size; none when the parts were not recorded (a snapshot of the tools alone)."""
    if not parts.recorded:
        return []
    sizes = []
    for key in PART_KEYS:
        value = parts.get(key)
        text = part_text(key, value)
        sizes.append(
            PartSize(
                part=key,
                advertised=value is not None,
                entries=len(value) if isinstance(value, list) else None,
                chars=len(text),
                tokens=(count_tokens(text) if text else 0) if with_tokens else None,
            )
        )
    return sizes


@dataclass(frozen=True)
class SkillSize:
    """One listed skill (SEP-2640): what is put before the model for it every session, its frontmatter as listed
    (`chars`, `tokens`: its compact JSON), and what loading it costs, on demand: its SKILL.md as read (`body_chars`,
    `body_tokens`; None where it could not be read) and its other files as listed (`files` and `file_bytes`, the
    SKILL.md with them; None for a skill whose resources are "dynamic"). `problem`: why a host may not load it."""

    uri: str
    name: str
    chars: int
    tokens: int | None
    body_chars: int | None
    body_tokens: int | None
    files: int | None
    file_bytes: int | None
    problem: str | None = None


def skill_sizes(parts: SurfaceParts, with_tokens: bool) -> list[SkillSize]:
    """A size per listed skill, in the order listed."""
    from toolsurface.harness.surface import skill_name, skill_problem

    sizes = []
    for entry in parts.skills or []:
        uri = str(entry.get("uri"))
        text = compact_json(entry.get("frontmatter"))
        body = parts.skill_body(uri)
        read = body.text if body is not None else None
        found = entry.get("resources")
        files = (
            found
            if isinstance(found, list) and all(isinstance(f, dict) and type(f.get("size")) is int for f in found)
            else None
        )
        sizes.append(
            SkillSize(
                uri=uri,
                name=skill_name(entry),
                chars=len(text),
                tokens=count_tokens(text) if with_tokens else None,
                body_chars=len(read) if read is not None else None,
                body_tokens=count_tokens(read) if read is not None and with_tokens else None,
                files=len(files) if files is not None else None,
                file_bytes=sum(f["size"] for f in files) if files is not None else None,
                problem=skill_problem(entry, body),
            )
        )
    return sizes


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
    # Each counter's figures when counters other than o200k were asked for; the fields above then hold the
    # first counter's.
    counts: list[CounterFigures] = field(default_factory=list)
    # The other parts beside the tools; empty when they were not recorded (a snapshot of the tools alone).
    parts: list[PartSize] = field(default_factory=list)
    # Each skill listed through the skills extension, and why a part the server declared could not be read.
    skills: list[SkillSize] = field(default_factory=list)
    unread: dict[str, str] = field(default_factory=dict)
    # The app-only tools (MCP Apps), in a column of their own: how many, their chars and tokens (each standalone),
    # and the list the model is shown without them (`model_chars`, `model_tokens`: the list's own figures when
    # there are none; tokens: the list's less what leaving them out takes off by o200k).
    app_only_tools: int = 0
    app_only_chars: int = 0
    app_only_tokens: int | None = None
    model_chars: int | None = None
    model_tokens: int | None = None
    # What the drafts the server advertises cost (measure --drafts), where they were read.
    drafts: DraftSizes | None = None
    # What its tools' answers cost, as a snapshot taken with --probe recorded them.
    answers: SnapshotAnswers | None = None
    # A server's list as listed (a live server, a snapshot of one), not a surface of its own: the tables call
    # it a server.
    server: bool = field(default=False, compare=False)
    # Where its list stands among the corpus of public servers' lists (measure.with_standing), when asked.
    standing: Standing | None = None

    @property
    def parts_recorded(self) -> bool:
        return bool(self.parts)

    @property
    def shown_chars(self) -> int:
        """The tools' chars the model is shown: the list without its app-only tools."""
        return self.chars if self.model_chars is None else self.model_chars

    @property
    def shown_tokens(self) -> int | None:
        return self.tokens if self.model_tokens is None else self.model_tokens

    @property
    def total_chars(self) -> int:
        """What the whole surface costs every session: the tools the model is shown and every part beside them."""
        return self.shown_chars + sum(p.chars for p in self.parts)

    @property
    def total_tokens(self) -> int | None:
        if self.shown_tokens is None:
            return None
        return self.shown_tokens + sum(p.tokens or 0 for p in self.parts)

    def counted(self, include: Sequence[str]) -> tuple[int, int | None]:
        """Chars and tokens of the tools the model is shown, with the parts named (`instructions`, `prompts`,
        `resources` with the resource templates, `skills`)."""
        chosen = [p for p in self.parts if p.part in included_keys(include)]
        tokens = None if self.shown_tokens is None else self.shown_tokens + sum(p.tokens or 0 for p in chosen)
        return self.shown_chars + sum(p.chars for p in chosen), tokens

    @property
    def anatomy(self) -> ListAnatomy | None:
        """Where the tools' tokens go, part by part, when their anatomy was asked for."""
        from toolsurface.harness.measure._anatomy import list_anatomy

        found = [t.anatomy for t in self.per_tool if t.anatomy is not None]
        return list_anatomy(found) if found and len(found) == len(self.per_tool) else None

    def to_json(self) -> dict[str, Any]:
        data = asdict(replace(self, per_tool=[]))
        del data["text"], data["counts"], data["answers"], data["server"], data["standing"]
        data["per_tool"] = [t.to_json() for t in self.per_tool]
        if self.drafts is None:
            del data["drafts"]
        if self.counts:
            data["counts"] = [c.to_json() for c in self.counts]
        data["parts_recorded"] = self.parts_recorded
        data["total_chars"] = self.total_chars
        data["total_tokens"] = self.total_tokens
        if self.answers is not None:
            data["answers"] = self.answers.to_wire()
        if self.standing is not None:
            data["standing"] = self.standing.to_json()
        anatomy = self.anatomy
        if anatomy is not None:
            data["anatomy"] = anatomy.to_json()
        return data

    def largest(self, count: int) -> list[ToolSize]:
        return sorted(self.per_tool, key=lambda t: t.chars, reverse=True)[:count]


@dataclass(frozen=True)
class Measurement:
    """`encoding` names what counted the `tokens` figures: o200k_base, or the first counter asked for."""

    encoding: str
    protocol_version: str
    surfaces: list[SurfaceMeasurement]
    # The counters asked for, when other than o200k alone (each surface's `counts` follow this order).
    counters: list[CounterInfo] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"encoding": self.encoding}
        if self.counters:
            data["counters"] = [c.to_json() for c in self.counters]
        data["protocol_version"] = self.protocol_version
        data["surfaces"] = [s.to_json() for s in self.surfaces]
        return data


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
        return WireList(tools=item.tools, protocol_version=snapshot_protocol(item, protocol), parts=item.parts)
    asked = protocol or PROTOCOL_VERSION
    kept = _KEPT.get()
    # A definition's own kinds are what it builds with none given: one list, whichever way it is asked for.
    key = (id(item), tuple(k.name for k in (item.kinds if kinds is None else kinds)), asked)
    if kept is not None and key in kept:
        return kept[key][1]
    plain = list_plainly(item, kinds, asked)
    wire = plain if plain is not None else await list_surface(item.build_surface(kinds), protocol=asked)
    if wire.protocol_version != asked:
        raise InvalidToolList(f"the MCP client negotiated protocol {wire.protocol_version}, not {asked}")
    if kept is not None:
        kept[key] = (item, wire)  # the item is held so that its id is not another's while the lists are kept
    return wire


# Lists already received while `lists_kept` is open: (definition id, kinds, protocol) -> (definition, list).
_KEPT: ContextVar[dict[tuple[int, tuple[str, ...], str], tuple[Measurable, WireList]] | None] = ContextVar(
    "toolsurface_kept_lists", default=None
)


# Lists received, by the position of their definition among the items measured: what crosses to another
# process (which holds the same definitions at the same positions) to be given there again.
KeptLists = dict[tuple[int, tuple[str, ...], str], WireList]


@contextmanager
def lists_kept(items: Sequence[Measurable] = (), given: KeptLists | None = None) -> Iterator[None]:
    """Within it, each definition is built and listed once for each set of kinds and protocol, and the same
    list (not to be changed) is given again: a report measures the surfaces, then lints, searches and
    round-trips the very lists it measured. `given`: lists of `items` received elsewhere (`kept_lists`),
    given as if received here."""
    kept: dict[tuple[int, tuple[str, ...], str], tuple[Measurable, WireList]] = {}
    for (position, kinds, protocol), wire in (given or {}).items():
        item = items[position]
        kept[(id(item), kinds, protocol)] = (item, wire)
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)


def kept_lists(items: Sequence[Measurable]) -> KeptLists:
    """The lists of `items` received so far within `lists_kept`, by the items' positions."""
    kept = _KEPT.get() or {}
    positions = {id(item): n for n, item in enumerate(items)}
    return {(positions[key[0]], key[1], key[2]): wire for key, (_, wire) in kept.items() if key[0] in positions}


def plain_lists(items: Sequence[Measurable]) -> KeptLists | None:
    """Each surface's own list (as `kept_lists` gives them) where every surface among `items` is listed without
    the SDK (measure._plain); None where one needs a real connection. Snapshots are read as recorded."""
    kept: KeptLists = {}
    for position, item in enumerate(items):
        if isinstance(item, SurfaceDefinition):
            wire = list_plainly(item)
            if wire is None:
                return None
            kept[(position, tuple(k.name for k in item.kinds), PROTOCOL_VERSION)] = wire
    return kept


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


def _per_tool(tools: list[dict[str, Any]], with_tokens: bool, anatomy: bool = False) -> list[ToolSize]:
    """Each tool's size; with `anatomy`, its tokens are those its anatomy counted (each tool tokenized once)."""
    from toolsurface.harness.measure._anatomy import tool_anatomy
    from toolsurface.harness.surface import tool_problems, tool_visibility

    texts = [compact_json(tool) for tool in tools]
    marginal = marginal_tokens(texts) if with_tokens else [None] * len(texts)
    problems = {p.index: p.problem for p in tool_problems(tools)}
    texts = [compact_json(tool) for tool in tools]
    marginal = marginal_tokens(texts) if with_tokens else [None] * len(texts)
    problems = {p.index: p.problem for p in tool_problems(tools)}
    parts = [tool_anatomy(tool) for tool in tools] if anatomy else [None] * len(tools)
    sizes = []
    for index, (tool, text, extra, parted) in enumerate(zip(tools, texts, marginal, parts, strict=True)):
        seen = tool_visibility(tool)
        sizes.append(
            ToolSize(
                name=str(tool.get("name")),
                chars=len(text),
                tokens=(parted.tokens if parted is not None else count_tokens(text)) if with_tokens else None,
                marginal_tokens=extra,
                problem=problems.get(index),
                anatomy=parted,
                app_only=seen.app_only,
                visibility_problem=seen.problem,
            )
        )
    return sizes


def _apart(m: SurfaceMeasurement, tools: list[dict[str, Any]], with_tokens: bool) -> SurfaceMeasurement:
    """The measurement with its app-only tools in their column, and the list the model is shown without them."""
    apart = [size for size in m.per_tool if size.app_only]
    if not apart:
        return m
    shown = list_text([tool for tool, size in zip(tools, m.per_tool, strict=True) if not size.app_only])
    return replace(
        m,
        app_only_tools=len(apart),
        app_only_chars=sum(size.chars for size in apart),
        app_only_tokens=sum(size.tokens or 0 for size in apart) if with_tokens else None,
        model_chars=len(shown),
        model_tokens=count_tokens(shown) if with_tokens else None,
    )


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


def _snapshot_title(item: Snapshot) -> str:
    """A server's own name and version beside the name every table calls it by, where they differ."""
    if not item.server or item.server == item.name:
        return item.name
    return item.server if item.server.startswith(f"{item.name} ") else f"{item.name} ({item.server})"


async def _measure_one(
    item: Measurable,
    with_tokens: bool,
    with_growth: bool,
    counters: Sequence[ListCounter] = (),
    protocol: str | None = None,
    anatomy: bool = False,
    drafts: bool = False,
) -> SurfaceMeasurement:
    wire = await wire_list(item, protocol=protocol)
    text = list_text(wire.tools)
    tokens = count_tokens(text) if with_tokens else None
    per_tool = _per_tool(wire.tools, with_tokens, anatomy)
    growth: Growth | None = None
    by_kinds: list[KindsPoint] = []
    grown_tools: list[dict[str, Any]] | None = None
    points: list[list[dict[str, Any]]] = []
    if isinstance(item, SurfaceDefinition) and with_growth:
        if item.growth_kind is not None:
            grown = await wire_list(item, [*item.kinds, item.growth_kind], protocol)
            growth = _growth(wire, grown, item.growth_kind, with_tokens)
            grown_tools = grown.tools
        series = [*item.kinds, *([item.growth_kind] if item.growth_kind else [])]
        for count in range(1, len(series) + 1):
            point = await wire_list(item, series[:count], protocol)
            points.append(point.tools)
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
        title, source = _snapshot_title(item), item.source
    else:
        title, source = item.title, item.source
    measured = SurfaceMeasurement(
        name=item.name,
        title=title,
        source=source,
        protocol_version=wire.protocol_version,
        server=isinstance(item, Snapshot),
        tools=len(wire.tools),
        chars=len(text),
        tokens=tokens,
        per_tool=per_tool,
        growth=growth,
        by_kinds=by_kinds,
        text=text,
        parts=part_sizes(wire.parts, with_tokens),
        skills=skill_sizes(wire.parts, with_tokens),
        unread=dict(wire.parts.unread),
        drafts=draft_sizes(wire.parts.drafts, wire.tools, with_tokens) if drafts else None,
        answers=item.answers if isinstance(item, Snapshot) else None,
    )
    measured = _apart(measured, wire.tools, with_tokens)
    if not counters:
        return measured
    assert tokens is not None
    counts = [
        _o200k_figures(measured)
        if is_o200k(counter)
        else counter_figures(counter, wire.tools, tokens, grown_tools, points)
        for counter in counters
    ]
    return _with_primary(replace(measured, counts=counts), counts[0])


def _o200k_figures(m: SurfaceMeasurement) -> CounterFigures:
    from toolsurface.harness.measure._counts import O200K, ToolCount

    assert m.tokens is not None
    return CounterFigures(
        counter=O200K,
        tokens=m.tokens,
        framing=None,
        ratio=None,
        per_tool=[ToolCount(t.name, t.tokens, t.marginal_tokens) for t in m.per_tool],
        growth_tokens=m.growth.tokens if m.growth else None,
        by_kinds=[p.tokens for p in m.by_kinds if p.tokens is not None],
    )


def _with_primary(m: SurfaceMeasurement, first: CounterFigures) -> SurfaceMeasurement:
    """The measurement with its token figures taken from the first counter asked for."""
    if is_o200k(first.counter):
        return m
    return replace(
        m,
        tokens=first.tokens,
        per_tool=[
            replace(size, tokens=count.tokens, marginal_tokens=count.marginal_tokens)
            for size, count in zip(m.per_tool, first.per_tool, strict=True)
        ],
        growth=replace(m.growth, tokens=first.growth_tokens) if m.growth else None,
        by_kinds=[replace(p, tokens=n) for p, n in zip(m.by_kinds, first.by_kinds, strict=True)],
        # What leaving the app-only tools out takes off, by o200k, taken off the counter's figure.
        model_tokens=None if m.model_tokens is None or m.tokens is None else first.tokens - (m.tokens - m.model_tokens),
    )


def measure(
    items: Sequence[Measurable],
    *,
    tokens: bool = True,
    growth: bool = True,
    counters: Sequence[ListCounter] = (),
    protocol: str | None = None,
    anatomy: bool = False,
    drafts: bool = False,
) -> Measurement:
    """Measure each surface as a client receives it, in `protocol` (None: the default version, and each
    snapshot as recorded); growth and by-kinds only for buildable surfaces. `anatomy`: each tool's o200k tokens
    and chars by part too (ToolSize.anatomy), whatever counter counts `tokens`. `drafts`: with what the drafts a
    server advertises cost, where they were read (harness.measure._drafts_sizes).

    `counters` (default: o200k alone) count the tokens; the first one's figures fill `tokens`, and with any
    other than o200k each surface carries every counter's figures (`counts`), side by side.
    """
    import anyio

    asked = [] if all(is_o200k(c) for c in counters) else list(counters)

    async def run() -> list[SurfaceMeasurement]:
        return [
            await _measure_one(item, tokens or bool(asked) or anatomy, growth, asked, protocol, anatomy, drafts)
            for item in items
        ]

    # A surface's own list is also a by-kinds point, and its list grown by one kind the last: each listed once.
    with lists_kept() if _KEPT.get() is None else nullcontext():
        surfaces = anyio.run(run)
    version = protocol or PROTOCOL_VERSION
    if not asked:
        return Measurement(encoding=ENCODING_NAME, protocol_version=version, surfaces=surfaces)
    # Read after counting: a counter's name says whose figures they are (the scripted endpoint's, say).
    infos = [CounterInfo(c.id, c.name, c.label, c.source) for c in asked]
    return Measurement(
        encoding=ENCODING_NAME if is_o200k(asked[0]) else infos[0].name,
        protocol_version=version,
        surfaces=[_named(s, infos) for s in surfaces],
        counters=infos,
    )


def _named(m: SurfaceMeasurement, infos: Sequence[CounterInfo]) -> SurfaceMeasurement:
    """Each counter's figures under the name it has once it has counted."""
    return replace(m, counts=[replace(c, counter=i.name) for c, i in zip(m.counts, infos, strict=True)])
