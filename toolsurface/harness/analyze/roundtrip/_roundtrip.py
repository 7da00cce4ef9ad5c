"""What an on-demand client loads for a named task, against what loading the whole list costs.

A task is a sequence of queries (one ToolSearch call each). Each query's tool is the one the task file
names for the surface, or, where it names none, the keyword scorer's best tool. Every distinct tool is
loaded once: its cost is the compact JSON of the tool as received (characters) and that text's own
o200k_base token count, summed over the distinct tools. For contrast, the whole list's characters and
tokens: what a client that loads every tool up front pays.

Beside it, the round trip as a client paid it (`observe`: Claude Code in a real on-demand session): per
step, the tools its search returned and those it loaded, and the chars and o200k tokens they added to the
next request's tools array, with the difference from our model per surface. Library only: returns records
and strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolsurface.harness.analyze.findability import (
    Query,
    QueryFileError,
    QuerySet,
    SearchObserver,
    SurfaceTools,
    keyed_surfaces,
    load_tools,
    parse_queries,
    rank_tools,
    read_json_file,
    search_requests,
)
from toolsurface.harness.surface import Snapshot, SurfaceDefinition, study_file

if TYPE_CHECKING:
    from toolsurface.harness.session.tool_search import ToolSearchRun


@dataclass(frozen=True)
class RoundTripTask:
    source: str
    name: str
    steps: list[Query]


def load_task(path: Path | None = None) -> RoundTripTask:
    """A task file {"name": ..., "steps": [{"query", "expected"}, ...]}; without a path, the default study's task."""
    path = path or study_file((), "task")
    data = read_json_file(path)
    if not isinstance(data, dict) or "steps" not in data:
        raise QueryFileError(f'{path}: not a round-trip task: expected a JSON object {{"name": ..., "steps": [...]}}')
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise QueryFileError(f"{path}: name must be a non-empty string")
    return RoundTripTask(source=str(path), name=name, steps=parse_queries(data["steps"], f"{path}: steps"))


def queries_task(queries: QuerySet) -> RoundTripTask:
    """A queries file as a round-trip task: a step per query, in its order (a configured project's queries)."""
    return RoundTripTask(
        source=queries.source, name=f"every query of {Path(queries.source).name}", steps=list(queries.queries)
    )


@dataclass(frozen=True)
class ObservedStep:
    """One step as the client ran it: its search's tools in order, those the next request newly carried, and
    the chars and tokens they added to its tools array; beside it our model's tool for the step and what
    that tool costs where the step first loads it (0 when an earlier step did)."""

    query: str
    returned: list[str]
    loaded: list[str]
    chars: int
    tokens: int
    computed_tool: str | None
    computed_chars: int
    computed_tokens: int


@dataclass(frozen=True)
class ObservedRoundTrip:
    """The round trip as the client paid it. `chars`/`tokens`: what the steps' searches added to the tools
    array, in all; `search_tool_*`: the tools array before any search (the search tool alone), which every
    request carries; `difference_*`: observed minus our computed round trip."""

    client: str
    version: str
    mode: str
    steps: list[ObservedStep]
    tools: list[str]
    chars: int
    tokens: int
    search_tool_chars: int
    search_tool_tokens: int
    difference_chars: int
    difference_tokens: int


@dataclass(frozen=True)
class SurfaceRoundTrip:
    name: str
    tools: list[str]
    chars: int
    tokens: int
    searches: int
    list_chars: int
    list_tokens: int
    found: dict[str, str | None]
    chosen_by: dict[str, str]
    observed: ObservedRoundTrip | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.observed is None:
            del data["observed"]
        return data


@dataclass(frozen=True)
class RoundTrip:
    task: str
    encoding: str
    surfaces: list[SurfaceRoundTrip]

    def surface(self, name: str) -> SurfaceRoundTrip:
        return next(s for s in self.surfaces if s.name == name)

    @property
    def client(self) -> ObservedRoundTrip | None:
        """The first surface's observed round trip (every surface's has the same client), if observed."""
        return self.surfaces[0].observed if self.surfaces else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"task": self.task, "encoding": self.encoding}
        client = self.client
        if client is not None:
            data["client"] = {"name": client.client, "version": client.version, "mode": client.mode}
        data["surfaces"] = [s.to_json() for s in self.surfaces]
        return data


def _choose(surface: SurfaceTools, step: Query, use_stem: bool) -> tuple[str | None, str]:
    expected = step.expected_of(surface)
    if expected is not None or step.names(surface):
        return expected, "expected"
    return rank_tools(surface.tools, step.text, "keyword", use_stem=use_stem).top, "keyword"


def _surface_roundtrip(surface: SurfaceTools, task: RoundTripTask, use_stem: bool) -> SurfaceRoundTrip:
    from toolsurface.harness.measure import count_tokens, list_text
    from toolsurface.harness.output import compact_json

    found: dict[str, str | None] = {}
    chosen_by: dict[str, str] = {}
    for step in task.steps:
        found[step.text], chosen_by[step.text] = _choose(surface, step, use_stem)
    loaded = list(dict.fromkeys(tool for tool in found.values() if tool is not None))
    by_name = {str(t.get("name")): t for t in surface.tools}
    texts = [compact_json(by_name[name]) for name in loaded]
    whole = list_text(surface.tools)
    return SurfaceRoundTrip(
        name=surface.name,
        tools=loaded,
        chars=sum(len(text) for text in texts),
        tokens=sum(count_tokens(text) for text in texts),
        searches=len(task.steps),
        list_chars=len(whole),
        list_tokens=count_tokens(whole),
        found=found,
        chosen_by=chosen_by,
    )


def _observed(surface: SurfaceTools, computed: SurfaceRoundTrip, run: ToolSearchRun) -> ObservedRoundTrip:
    from toolsurface.harness.measure import count_tokens
    from toolsurface.harness.output import compact_json

    by_name = {str(t.get("name")): t for t in surface.tools}
    steps = []
    loaded_before: set[str] = set()
    for search in run.searches:
        tool = computed.found.get(search.query)
        first = tool is not None and tool not in loaded_before
        text = compact_json(by_name[tool]) if first and tool is not None else ""
        if tool is not None:
            loaded_before.add(tool)
        steps.append(
            ObservedStep(
                query=search.query,
                returned=list(search.returned),
                loaded=search.loaded,
                chars=search.added_chars,
                tokens=search.added_tokens,
                computed_tool=tool,
                computed_chars=len(text),
                computed_tokens=count_tokens(text) if text else 0,
            )
        )
    chars, tokens = sum(s.chars for s in steps), sum(s.tokens for s in steps)
    return ObservedRoundTrip(
        client=run.client,
        version=run.version,
        mode=run.mode,
        steps=steps,
        tools=list(dict.fromkeys(tool for s in steps for tool in s.loaded)),
        chars=chars,
        tokens=tokens,
        search_tool_chars=run.first_chars,
        search_tool_tokens=run.first_tokens,
        difference_chars=chars - computed.chars,
        difference_tokens=tokens - computed.tokens,
    )


def roundtrip(
    items: Sequence[SurfaceDefinition | Snapshot],
    task: RoundTripTask,
    *,
    use_stem: bool = False,
    observe: SearchObserver | None = None,
    max_results: int | None = None,
) -> RoundTrip:
    """The on-demand and whole-list cost of the task on each surface; with `observe`, also the round trip a
    client's own search paid, one session per surface with one search per step (the step's text as given)."""
    from dataclasses import replace

    from toolsurface.harness.measure import ENCODING_NAME

    surfaces = load_tools(items)
    keyed_surfaces(task.steps, surfaces, task.source, "steps")
    for surface in surfaces:
        surface.check_expected(task.steps, task.source)
    computed = [_surface_roundtrip(s, task, use_stem) for s in surfaces]
    if observe is not None:
        runs = list(observe(search_requests([step.text for step in task.steps], max_results)))
        if len(runs) != len(surfaces) or any(len(r.searches) != len(task.steps) for r in runs):
            raise ValueError("the observed searches do not match the surfaces and the task's steps")
        computed = [
            replace(trip, observed=_observed(surface, trip, run))
            for surface, trip, run in zip(surfaces, computed, runs, strict=True)
        ]
    return RoundTrip(task=task.name, encoding=ENCODING_NAME, surfaces=computed)
