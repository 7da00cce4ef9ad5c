"""The seed's figures beside ours: each figure the seed page gives (a data file, `toolsurface-seed-figures/1`,
with the seed lines it comes from and its band) measured again from what the report already has, with the
difference and whether ours is within the band.

Bands: `relative` (chars within 10 %, tokens within 15 % of the seed's), `exact`, `range` (ours within the
seed's [low, high]); a figure given per run is within its band when every run is. A figure no command measures
(a sentence of the seed) is shown with its seed value only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.analyze.findability import Findability
from toolsurface.harness.analyze.roundtrip import RoundTrip
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import read_json
from toolsurface.harness.measure import Measurement, SurfaceMeasurement
from toolsurface.harness.report._bundle import SeedRow
from toolsurface.harness.run_folder import CALLS
from toolsurface.harness.session.gate import judge_gate
from toolsurface.harness.session.record import RunRecord

__all__ = ["SEED_FORMAT", "SeedContext", "SeedFigure", "compare_seed", "load_seed"]

SEED_FORMAT = "toolsurface-seed-figures/1"


@dataclass(frozen=True)
class SeedFigure:
    id: str
    what: str
    surface: str | None
    tool: str | None
    unit: str
    value: Any
    band: dict[str, Any]
    seed_lines: tuple[int, ...]
    measure: dict[str, Any] | None
    quote: str = ""
    note: str = ""


def load_seed(path: Path | None = None) -> list[SeedFigure]:
    """A seed figures file; without a path, the default study's."""
    from toolsurface.harness.surface import study_file

    path = path or study_file((), "seed_figures")
    data = read_json(path, ToolsurfaceError, "seed figures file")
    if not isinstance(data, dict) or data.get("format") != SEED_FORMAT or not isinstance(data.get("figures"), list):
        found = data.get("format") if isinstance(data, dict) else None
        raise ToolsurfaceError(f"{path}: seed figures format {found!r} is not {SEED_FORMAT!r}")
    figures = []
    for n, item in enumerate(data["figures"]):
        try:
            figures.append(
                SeedFigure(
                    id=str(item["id"]),
                    what=str(item["what"]),
                    surface=item.get("surface"),
                    tool=item.get("tool"),
                    unit=str(item["unit"]),
                    value=item["value"],
                    band=dict(item.get("band") or {}),
                    seed_lines=tuple(int(x) for x in item.get("seed_lines") or ()),
                    measure=item.get("measure"),
                    quote=str(item.get("quote") or ""),
                    note=str(item.get("note") or ""),
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ToolsurfaceError(f"{path}: figures[{n}] does not match {SEED_FORMAT}: {error}") from None
    return figures


@dataclass(frozen=True)
class SeedContext:
    """What the report has measured and read, from which ours are computed."""

    measured: Measurement
    roundtrip: RoundTrip | None = None
    findability: Findability | None = None
    records: list[RunRecord] = field(default_factory=list)


class _NotMeasured(Exception):
    """Ours cannot be computed here (a surface not in the report, no runs of the scenario)."""


def _surface(ctx: SeedContext, name: str) -> SurfaceMeasurement:
    for surface in ctx.measured.surfaces:
        if surface.name == name:
            return surface
    raise _NotMeasured(name)


def _wire_tools(ctx: SeedContext, surface: str) -> list[dict[str, Any]]:
    """The surface's tools as received (the measurement keeps the list's text)."""
    import json

    tools: list[dict[str, Any]] = json.loads(_surface(ctx, surface).text or "[]")
    return tools


def _tool(ctx: SeedContext, surface: str, tool: str) -> dict[str, Any]:
    for item in _wire_tools(ctx, surface):
        if item.get("name") == tool:
            return item
    raise _NotMeasured(f"{surface}/{tool}")


def _tool_field(ctx: SeedContext, surface: str, tool: str, name: str) -> int:
    if name == "params":
        schema = _tool(ctx, surface, tool).get("inputSchema") or {}
        return len(schema.get("properties") or {})
    size = next((t for t in _surface(ctx, surface).per_tool if t.name == tool), None)
    if size is None:
        raise _NotMeasured(f"{surface}/{tool}")
    value = size.chars if name == "chars" else size.tokens
    if value is None:
        raise _NotMeasured(f"{surface}/{tool} {name}")
    return value


def _list_field(ctx: SeedContext, surface: str, name: str) -> int:
    measured = _surface(ctx, surface)
    value = {"tools": measured.tools, "chars": measured.chars, "tokens": measured.tokens}[name]
    if value is None:
        raise _NotMeasured(f"{surface} {name}")
    return value


def _runs(ctx: SeedContext, surface: str, scenario: str) -> list[RunRecord]:
    runs = [r for r in ctx.records if r.spec.surface == surface and r.spec.scenario == scenario]
    if not runs:
        raise _NotMeasured(f"runs of {surface} in {scenario}")
    return sorted(runs, key=lambda r: r.spec.run_index)


def _ours(spec: Mapping[str, Any], ctx: SeedContext) -> Any:
    of, surface = spec["of"], str(spec.get("surface"))
    if of == "list":
        value = _list_field(ctx, surface, spec["field"])
        return value - _list_field(ctx, spec["minus"], spec["field"]) if "minus" in spec else value
    if of == "tool":
        value = _tool_field(ctx, surface, spec["tool"], spec["field"])
        return value - _tool_field(ctx, spec["minus"], spec["tool"], spec["field"]) if "minus" in spec else value
    if of == "tools":
        return sum(_tool_field(ctx, surface, tool, spec["field"]) for tool in spec["tools"])
    if of == "present":
        names = {t.get("name") for t in _wire_tools(ctx, surface)}
        return sum(1 for tool in spec["tools"] if tool in names)
    if of == "growth":
        growth = _surface(ctx, surface).growth
        if growth is None:
            raise _NotMeasured(f"growth of {surface}")
        grown: dict[str, Any] = {
            "chars": growth.chars,
            "tokens": growth.tokens,
            "tools": growth.tools,
            "changed_tools": ", ".join(sorted(growth.changed_tools)),
            "added_tools": ", ".join(growth.added_tools),
        }
        if grown[spec["field"]] is None:
            raise _NotMeasured(f"growth {spec['field']} of {surface}")
        return grown[spec["field"]]
    if of == "smaller":
        return f"{1 - _list_field(ctx, surface, 'chars') / _list_field(ctx, spec['than'], 'chars'):.0%}".replace(
            "%", " %"
        )
    if of == "access":
        return sum(1 for t in _wire_tools(ctx, surface) if _access(t) == spec["field"])
    if of == "paging":
        return sum(1 for t in _wire_tools(ctx, surface) if _paging(t) == spec["field"])
    if of == "roundtrip":
        return _roundtrip(ctx, spec)
    if of == "findability":
        return _rank(ctx, surface, spec["query"], spec["tool"])
    if of == "sessions":
        return _sessions(ctx, spec)
    if of == "runs_calling":
        return _runs_calling(ctx, spec)
    if of == "gate":
        chars = {s.name: s.chars for s in ctx.measured.surfaces}
        runs = [r for r in ctx.records if r.spec.scenario == spec["scenario"]]
        if spec["baseline"] not in chars or spec["candidate"] not in chars or not runs:
            raise _NotMeasured("gate")
        try:
            verdict = judge_gate(runs, spec["baseline"], spec["candidate"], chars.__getitem__)
        except ToolsurfaceError:
            raise _NotMeasured("gate") from None
        return "met" if verdict.met else "not met"
    raise ToolsurfaceError(f"seed figures: unknown measure {of!r}")


def _access(tool: Mapping[str, Any]) -> str:
    hints = tool.get("annotations") or {}
    if hints.get("readOnlyHint") is True:
        return "read"
    return "irreversible" if hints.get("destructiveHint") is True else "write"


def _paging(tool: Mapping[str, Any]) -> str | None:
    names = set((tool.get("inputSchema") or {}).get("properties") or {})
    if {"offset", "limit"} <= names:
        return "offset_limit"
    return "limit_only" if "limit" in names else None


def _roundtrip(ctx: SeedContext, spec: Mapping[str, Any]) -> Any:
    if ctx.roundtrip is None:
        raise _NotMeasured("round trip")

    def of(name: str) -> Any:
        found = next((s for s in ctx.roundtrip.surfaces if s.name == name), None) if ctx.roundtrip else None
        if found is None:
            raise _NotMeasured(f"round trip of {name}")
        return {"tokens": found.tokens, "chars": found.chars, "tools": " + ".join(found.tools)}[spec["field"]]

    value = of(spec["surface"])
    return value - of(spec["minus"]) if "minus" in spec else value


def _rank(ctx: SeedContext, surface: str, query: str, tool: str) -> int | None:
    if ctx.findability is None:
        raise _NotMeasured("findability")
    for found in ctx.findability.surfaces:
        if found.name != surface:
            continue
        for row in found.queries:
            if row.query == query and row.scorer == "keyword" and row.expected == tool:
                return row.rank
    raise _NotMeasured(f"findability of {query!r} on {surface}")


def _sessions(ctx: SeedContext, spec: Mapping[str, Any]) -> Any:
    runs = _runs(ctx, spec["surface"], spec["scenario"])
    name = spec["field"]
    if name == "runs":
        return len(runs)
    if name == "calls":
        calls = [r.result.calls for r in runs]
        return calls[0] if min(calls) == max(calls) else [min(calls), max(calls)]
    if name == "refused":
        return [r.result.refused for r in runs]
    if name == "refused_total":
        return sum(r.result.refused for r in runs)
    if name == "failed":
        return sum(1 for r in runs if any(c.name == spec["check"] and not c.passed for c in r.result.checks))
    raise ToolsurfaceError(f"seed figures: unknown sessions field {name!r}")


def _runs_calling(ctx: SeedContext, spec: Mapping[str, Any]) -> int:
    from toolsurface.stubs.calllog import read_log

    count = 0
    for surface in spec["surfaces"]:
        for run in _runs(ctx, surface, spec["scenario"]):
            calls = read_log(run.path / CALLS) if (run.path / CALLS).exists() else []
            wanted = spec.get("arguments", {})
            count += any(
                c.is_call
                and c.tool == spec["tool"]
                and all((c.arguments or {}).get(k) == v for k, v in wanted.items())
                and spec["without"] not in (c.arguments or {})
                for c in calls
            )
    return count


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _within(figure: SeedFigure, ours: Any) -> bool | None:
    kind = figure.band.get("kind")
    seed = figure.value
    if kind == "relative" and _number(seed) and _number(ours) and seed:
        return bool(abs(ours - seed) / abs(seed) <= float(figure.band["plus_minus"]))
    if kind == "exact" and ours is not None:
        return bool(ours == seed)
    if kind == "range" and isinstance(seed, list) and len(seed) == 2:
        values = ours if isinstance(ours, list) else [ours]
        return all(_number(v) and seed[0] <= v <= seed[1] for v in values)
    if kind in ("per_run_exact", "per_run") and ours is not None:
        return bool(ours == seed)
    if kind == "text" and isinstance(ours, str) and isinstance(seed, str):
        return _words(ours) == _words(seed)
    return None


def _words(text: str) -> frozenset[str]:
    """A sentence's words, order, commas and "and" aside: "a, b and c" says what "c, b, a" says."""
    return frozenset(re.findall(r"[a-z0-9_]+", text.lower())) - {"and", "or"}


def compare_seed(figures: Sequence[SeedFigure], ctx: SeedContext) -> list[SeedRow]:
    rows = []
    for figure in figures:
        ours: Any = None
        if figure.measure is not None:
            try:
                ours = _ours(figure.measure, ctx)
            except _NotMeasured:
                ours = None
        difference = None
        if _number(figure.value) and _number(ours) and figure.value:
            difference = round((ours - figure.value) / abs(figure.value), 4)
        rows.append(
            SeedRow(
                id=figure.id,
                what=figure.what,
                surface=figure.surface,
                tool=figure.tool,
                unit=figure.unit,
                seed=figure.value,
                ours=ours,
                difference=difference,
                within_band=_within(figure, ours) if ours is not None else None,
                seed_lines=figure.seed_lines,
            )
        )
    return rows
