"""What an on-demand client loads for a named task, against what loading the whole list costs.

A task is a sequence of queries (one ToolSearch call each). Each query's tool is the one the task file
names for the surface, or, where it names none, the keyword scorer's best tool. Every distinct tool is
loaded once: its cost is the compact JSON of the tool as received (characters) and that text's own
o200k_base token count, summed over the distinct tools. For contrast, the whole list's characters and
tokens: what a client that loads every tool up front pays. Library only: returns records and strings.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.analyze._findability_model import Query, SurfaceTools, load_tools, parse_queries, read_json_file
from harness.analyze._findability_scoring import QueryFileError, rank_tools
from harness.surface import Snapshot, SurfaceDefinition

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = [
    "BUNDLED_TASK",
    "RoundTrip",
    "RoundTripTask",
    "SurfaceRoundTrip",
    "load_task",
    "roundtrip",
    "roundtrip_csv",
    "roundtrip_json",
    "roundtrip_rich",
]

BUNDLED_TASK = Path(str(resources.files("surfaces.conderis") / "roundtrip.json"))


@dataclass(frozen=True)
class RoundTripTask:
    source: str
    name: str
    steps: list[Query]


def load_task(path: Path | None = None) -> RoundTripTask:
    """A task file {"name": ..., "steps": [{"query", "expected"}, ...]}; without a path, the bundled one."""
    path = path or BUNDLED_TASK
    data = read_json_file(path)
    if not isinstance(data, dict) or "steps" not in data:
        raise QueryFileError(f'{path}: not a round-trip task: expected a JSON object {{"name": ..., "steps": [...]}}')
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise QueryFileError(f"{path}: name must be a non-empty string")
    return RoundTripTask(source=str(path), name=name, steps=parse_queries(data["steps"], f"{path}: steps"))


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


@dataclass(frozen=True)
class RoundTrip:
    task: str
    encoding: str
    surfaces: list[SurfaceRoundTrip]

    def surface(self, name: str) -> SurfaceRoundTrip:
        return next(s for s in self.surfaces if s.name == name)

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "encoding": self.encoding, "surfaces": [asdict(s) for s in self.surfaces]}


def _choose(surface: SurfaceTools, step: Query, use_stem: bool) -> tuple[str | None, str]:
    expected = step.expected_for(surface.name)
    if expected is not None or surface.name in step.expected:
        return expected, "expected"
    return rank_tools(surface.tools, step.text, "keyword", use_stem=use_stem).top, "keyword"


def _surface_roundtrip(surface: SurfaceTools, task: RoundTripTask, use_stem: bool) -> SurfaceRoundTrip:
    from harness.measure import compact_json, count_tokens, list_text

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


def roundtrip(
    items: Sequence[SurfaceDefinition | Snapshot], task: RoundTripTask, *, use_stem: bool = False
) -> RoundTrip:
    """The on-demand and whole-list cost of the task on each surface."""
    from harness.measure import ENCODING_NAME

    surfaces = load_tools(items)
    for surface in surfaces:
        surface.check_expected(task.steps, task.source)
    return RoundTrip(
        task=task.name, encoding=ENCODING_NAME, surfaces=[_surface_roundtrip(s, task, use_stem) for s in surfaces]
    )


def roundtrip_json(result: RoundTrip) -> str:
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def roundtrip_csv(result: RoundTrip) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["surface", "tools", "chars", "tokens", "searches", "list_chars", "list_tokens", "chosen_by"])
    for s in result.surfaces:
        chosen = " ".join(sorted(set(s.chosen_by.values())))
        writer.writerow([s.name, " ".join(s.tools), s.chars, s.tokens, s.searches, s.list_chars, s.list_tokens, chosen])
    return out.getvalue()


def roundtrip_rich(result: RoundTrip) -> list[RenderableType]:
    from rich.table import Table

    table = Table(
        title=f"Round trip: {result.task} (compact JSON per tool, {result.encoding})",
        caption="on demand: each distinct tool loaded once, one search per step; whole list: every tool up front",
    )
    for column in ("surface", "tools loaded", "searches", "chars", "tokens", "list chars", "list tokens"):
        table.add_column(column, justify="left" if column in ("surface", "tools loaded") else "right")
    for s in result.surfaces:
        picked = [
            f"{tool or '(none)'}{'' if s.chosen_by[query] == 'expected' else ' (keyword)'}"
            for query, tool in s.found.items()
        ]
        table.add_row(
            s.name,
            " + ".join(picked),
            str(s.searches),
            f"{s.chars:,}",
            f"{s.tokens:,}",
            f"{s.list_chars:,}",
            f"{s.list_tokens:,}",
        )
    return [table]
