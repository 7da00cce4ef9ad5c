"""A round trip's view: its tables, JSON and CSV rows, every format rendered from it."""

from __future__ import annotations

from toolsurface.harness.analyze.roundtrip._roundtrip import RoundTrip
from toolsurface.harness.output import Column, Table, View, columns_of, shown, signed

# A row per surface; with a client's round trip observed, its columns after these.
ROUNDTRIP_COLUMNS = tuple(
    Column(key) for key in ("surface", "tools", "chars", "tokens", "searches", "list_chars", "list_tokens", "chosen_by")
)
OBSERVED_COLUMNS = tuple(
    Column(key)
    for key in (
        "client", "observed_tools", "observed_chars", "observed_tokens", "difference_chars", "difference_tokens"
    )
)  # fmt: skip


def _records(result: RoundTrip) -> Table:
    observed = result.client is not None
    rows = []
    for s in result.surfaces:
        chosen = " ".join(sorted(set(s.chosen_by.values())))
        row: list[object] = [s.name, " ".join(s.tools), s.chars, s.tokens, s.searches, s.list_chars, s.list_tokens]
        row.append(chosen)
        if s.observed is not None:
            o = s.observed
            row += [f"{o.client} {o.version}", " ".join(o.tools), o.chars, o.tokens]
            row += [o.difference_chars, o.difference_tokens]
        rows.append(row)
    return Table((*ROUNDTRIP_COLUMNS, *(OBSERVED_COLUMNS if observed else ())), rows)


def _title(result: RoundTrip) -> str:
    return f"Round trip: {result.task} (compact JSON per tool, {result.encoding})"


_CAPTION = "on demand: each distinct tool loaded once, one search per step; whole list: every tool up front"
_COLUMNS = columns_of(
    ["surface", "tools loaded", "searches", "chars", "tokens", "list chars", "list tokens"],
    numbers={"searches", "chars", "tokens", "list chars", "list tokens"},
)


def _rows(result: RoundTrip) -> list[list[str]]:
    rows = []
    for s in result.surfaces:
        picked = [
            f"{tool or '(none)'}{'' if s.chosen_by[query] == 'expected' else ' (keyword)'}"
            for query, tool in s.found.items()
        ]
        rows.append(
            [
                s.name,
                " + ".join(picked),
                str(s.searches),
                shown(s.chars),
                shown(s.tokens),
                shown(s.list_chars),
                shown(s.list_tokens),
            ]
        )
    return rows


def _who(result: RoundTrip) -> str:
    client = result.client
    assert client is not None
    return f"{client.client} {client.version} ({client.mode})"


_STEP_COLUMNS = columns_of(
    ["surface", "step", "returned", "loaded", "added chars", "added tokens", "computed", "chars", "tokens"],
    numbers={"added chars", "added tokens", "chars", "tokens"},
)
_STEP_CAPTION = (
    "returned: its search's tools in order; loaded: those the next request newly carried; added: what they added to"
    " its tools array; computed: our model's tool for the step and its cost where first loaded"
)


def _step_rows(result: RoundTrip) -> list[list[list[str]]]:
    """Per surface, a row per step of the client's round trip."""
    surfaces = []
    for s in result.surfaces:
        assert s.observed is not None
        surfaces.append(
            [
                [
                    s.name,
                    step.query,
                    ", ".join(step.returned) or "(none)",
                    ", ".join(step.loaded) or "-",
                    shown(step.chars),
                    shown(step.tokens),
                    step.computed_tool or "(none)",
                    shown(step.computed_chars),
                    shown(step.computed_tokens),
                ]
                for step in s.observed.steps
            ]
        )
    return surfaces


_SUMMARY_COLUMNS = tuple(
    Column(label, numeric=label != "surface")
    for label in (
        "surface", "computed tools", "computed chars", "computed tokens", "observed tools", "observed chars",
        "observed tokens", "difference chars", "difference tokens", "search tool chars",
    )
)  # fmt: skip
_SUMMARY_CAPTION = (
    "observed: what the searches added to the tools array (the search tool itself, carried by every request, not"
    " counted); difference: observed - computed"
)


def _summary_rows(result: RoundTrip) -> list[list[str]]:
    rows = []
    for s in result.surfaces:
        o = s.observed
        assert o is not None
        rows.append(
            [
                s.name,
                str(len(s.tools)),
                shown(s.chars),
                shown(s.tokens),
                str(len(o.tools)),
                shown(o.chars),
                shown(o.tokens),
                signed(o.difference_chars),
                signed(o.difference_tokens),
                shown(o.search_tool_chars),
            ]
        )
    return rows


def roundtrip_view(result: RoundTrip) -> View:
    """The round trip's table; with a client's observed, its steps (a line under each surface's) and the sum."""
    tables = [Table(_COLUMNS, _rows(result), title=_title(result), caption=_CAPTION)]
    if result.client is not None:
        steps: list[list[str]] = []
        ends = set()
        for surface in _step_rows(result):
            steps += surface
            ends.add(len(steps) - 1)
        title = f"Round trip as {_who(result)} paid it, per step"
        tables.append(Table(_STEP_COLUMNS, steps, title=title, caption=_STEP_CAPTION, sections=ends))
        title = f"Round trip: computed against {_who(result)}"
        tables.append(Table(_SUMMARY_COLUMNS, _summary_rows(result), title=title, caption=_SUMMARY_CAPTION))
    return View(tables, data=result.to_json(), records=_records(result))
