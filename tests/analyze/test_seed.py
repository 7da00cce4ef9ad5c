"""The seed's figures beside ours: the data file reads, ours are measured again from what a report has, and
each figure's band says whether ours is within it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolsurface.harness.analyze.findability import findability, load_queries
from toolsurface.harness.analyze.roundtrip import load_task, roundtrip
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.measure import measure
from toolsurface.harness.report import SeedContext, SeedFigure, compare_seed, load_seed
from toolsurface.harness.surface import resolve_all
from toolsurface.surfaces.conderis import STUDY
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER


@pytest.fixture(scope="module")
def rows() -> dict[str, object]:
    items = resolve_all(BUNDLED_ORDER)
    ctx = SeedContext(measure(items), roundtrip(items, load_task()), findability(items, load_queries()))
    return {row.id: row for row in compare_seed(load_seed(), ctx)}


def test_every_figure_names_its_seed_lines_and_a_band() -> None:
    figures = load_seed()
    assert len(figures) > 100 and len({f.id for f in figures}) == len(figures)
    assert all(f.seed_lines and f.band.get("kind") for f in figures)


def test_list_sizes_are_compared_with_the_seed_and_judged_by_their_band(rows: dict[str, object]) -> None:
    row = rows["list_chars_before_v2"]
    assert row.seed == 19014 and row.ours == measure(resolve_all(["before-v2"]), growth=False).surfaces[0].chars  # type: ignore[attr-defined]
    assert row.within_band is True and row.difference == round((row.ours - 19014) / 19014, 4)  # type: ignore[attr-defined]
    assert rows["list_tools_v2"].ours == 8 and rows["list_tools_v2"].within_band is True  # type: ignore[attr-defined]


def test_findability_and_round_trip_figures_are_ours_as_measured(rows: dict[str, object]) -> None:
    assert rows["findability_before_v2_read_page"].ours == 2  # type: ignore[attr-defined]
    assert rows["findability_v2_read_page"].ours == 1  # type: ignore[attr-defined]
    assert rows["roundtrip_tokens_before_v2"].within_band is True  # type: ignore[attr-defined]


def test_a_figure_measured_from_runs_is_left_open_without_runs(rows: dict[str, object]) -> None:
    row = rows["sessions_refused_v2"]
    assert row.ours is None and row.within_band is None and row.seed == [0, 1, 0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("band", "seed", "ours", "within"),
    [
        ({"kind": "relative", "plus_minus": 0.1}, 1000, 1099, True),
        ({"kind": "relative", "plus_minus": 0.1}, 1000, 1101, False),
        ({"kind": "exact"}, 8, 8, True),
        ({"kind": "exact"}, 38, 37, False),
        ({"kind": "range"}, [1200, 1500], 1453, True),
        ({"kind": "range"}, [8, 9], [8, 9, 10], False),
        ({"kind": "text"}, "item_store, item_list and item_get", "item_get, item_list, item_store", True),
    ],
)
def test_bands(band: dict[str, object], seed: object, ours: object, within: bool) -> None:
    from toolsurface.harness.report._seed import _within

    figure = SeedFigure("f", "f", None, None, "chars", seed, band, (1,), None)
    assert _within(figure, ours) is within


def test_a_seed_file_of_another_format_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "seed.json"
    path.write_text(json.dumps({"format": "toolsurface-seed-figures/9", "figures": []}), encoding="utf-8")
    with pytest.raises(ToolsurfaceError, match="is not 'toolsurface-seed-figures/1'"):
        load_seed(path)
    assert STUDY.seed_figures is not None and STUDY.seed_figures.is_file()
