"""The measurements reproduce the seed's figures with one counting rule for every row."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import by_name, run_cli
from toolsurface.harness.measure import PROTOCOL_VERSION, Measurement, count_tokens
from toolsurface.harness.output import compact_json

BANDS = {
    # surface: (tools, chars low, chars high, seed tokens)
    "before-v2": (27, 17_100, 20_900, 4_043),
    "consistent": (28, 11_350, 13_900, 2_872),
    "v2-first": (8, 5_650, 6_950, 1_410),
    "v2": (8, 5_750, 7_050, 1_431),
    "v2-live": (8, 5_800, 7_110, 1_450),  # the seed: "about 1,450" tokens
}


@pytest.mark.parametrize("name", list(BANDS))
def test_each_surface_lands_in_the_seed_band(bundled: Measurement, name: str) -> None:
    tools, low, high, seed_tokens = BANDS[name]
    s = by_name(bundled)[name]
    assert s.tools == tools
    assert low <= s.chars <= high
    assert s.tokens is not None and abs(s.tokens - seed_tokens) <= 0.15 * seed_tokens


def test_v2_is_at_most_36_percent_of_before_and_55_percent_of_consistent(bundled: Measurement) -> None:
    s = by_name(bundled)
    assert s["v2"].chars <= 0.36 * s["before-v2"].chars
    assert s["v2"].chars <= 0.55 * s["consistent"].chars


def test_item_store_is_the_largest_v2_tool_then_list_action_and_get(bundled: Measurement) -> None:
    ranked = [t.name for t in by_name(bundled)["v2"].largest(4)]
    assert ranked[0] == "item_store"
    assert set(ranked[1:]) == {"item_list", "item_action", "item_get"}


def test_growth_by_commit_matches_the_seed(bundled: Measurement) -> None:
    s = by_name(bundled)
    for name in ("v2", "v2-first"):
        growth = s[name].growth
        assert growth is not None and growth.kind == "commit"
        assert growth.tools == 0 and 50 <= growth.chars <= 200
    for name in ("before-v2", "consistent"):
        growth = s[name].growth
        assert growth is not None
        assert growth.tools == 3 and 700 <= growth.chars <= 1_400
        assert growth.added_tools == ["commit_list", "commit_link", "commit_unlink"]


def test_size_by_kinds_ends_with_the_bundled_list_and_the_grown_one(bundled: Measurement) -> None:
    for s in bundled.surfaces:
        assert [p.kinds for p in s.by_kinds] == [1, 2, 3, 4, 5, 6]
        assert s.by_kinds[4].chars == s.chars and s.by_kinds[4].tools == s.tools
        assert s.growth is not None and s.by_kinds[5].chars == s.chars + s.growth.chars
    flat = by_name(bundled)["v2"].by_kinds
    assert {p.tools for p in flat} == {8}


def test_per_tool_figures_follow_the_counting_rule(bundled: Measurement) -> None:
    for s in bundled.surfaces:
        tools = json.loads(s.text)
        assert len(s.text) == s.chars and count_tokens(s.text) == s.tokens
        assert sum(t.chars for t in s.per_tool) + len(tools) + 1 == s.chars  # commas and brackets
        for size, tool in zip(s.per_tool, tools, strict=True):
            assert size.name == tool["name"] and size.chars == len(compact_json(tool))
            rest = [t for t in tools if t is not tool]
            assert size.marginal_tokens == s.tokens - count_tokens(compact_json(rest))
            assert size.tokens == count_tokens(compact_json(tool))


def test_measure_json_has_the_shape_outside_tests_read() -> None:
    run = run_cli("measure", "--format", "json")
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert data["encoding"] == "o200k_base" and data["protocol_version"] == PROTOCOL_VERSION
    assert [s["name"] for s in data["surfaces"]] == ["before-v2", "consistent", "v2-first", "v2", "v2-live"]
    v2 = data["surfaces"][3]
    assert {"name", "tools", "chars", "tokens", "per_tool", "growth", "by_kinds"} <= set(v2)
    assert set(v2["per_tool"][0]) >= {"name", "chars", "tokens", "marginal_tokens"}
    assert {"kind", "tools", "chars", "tokens"} <= set(v2["growth"])
    assert {"kinds", "tools", "chars"} <= set(v2["by_kinds"][0])
    assert v2["protocol_version"] == PROTOCOL_VERSION


def test_measure_writes_json_csv_and_markdown(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = run_cli("measure", "v2", "before-v2", "--out", str(tmp_path / "out"), "--format", "markdown")
    assert run.returncode == 0, run.stderr
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"measure.json", "measure.csv", "measure.md", "per_tool.csv", "by_kinds.csv"} <= written
    assert not [n for n in written if n.endswith(".partial")]
    data = json.loads((tmp_path / "out" / "measure.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in data["surfaces"]] == ["v2", "before-v2"]
    csv_lines = (tmp_path / "out" / "measure.csv").read_text(encoding="utf-8").splitlines()
    assert csv_lines[0].startswith("surface,title,tools,chars,tokens") and len(csv_lines) == 3
    assert "| Surface |" in run.stdout and "item_store" in (tmp_path / "out" / "measure.md").read_text("utf-8")


def test_measure_formats_per_tool_as_csv_and_table() -> None:
    csv_run = run_cli("measure", "v2", "--per-tool", "--format", "csv", "--no-growth")
    assert csv_run.returncode == 0, csv_run.stderr
    lines = csv_run.stdout.splitlines()
    assert lines[0] == "surface,tool,chars,tokens,marginal_tokens" and len(lines) == 9
    table = run_cli("measure", "v2", "--per-tool")
    assert table.returncode == 0 and "item_store" in table.stdout and "marginal" in table.stdout


def test_unwritable_output_directory_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    run = run_cli("measure", "v2", "--no-growth", "--out", str(blocker / "out"))
    assert run.returncode == 2
    assert run.stderr.startswith("toolsurface: cannot write to") and "Traceback" not in run.stderr


def test_lists_kept_elsewhere_measure_as_lists_received_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report lists in one process and measures in another: the lists cross by position and none is
    listed again."""
    from toolsurface.harness.measure import _measure, kept_lists, lists_kept, measure
    from toolsurface.harness.surface import SurfaceDefinition, resolve_all

    items = resolve_all(["v2", "before-v2"])
    with lists_kept():
        direct = measure(items)
        lists = kept_lists(items)
    own = {
        (n, tuple(k.name for k in item.kinds)) for n, item in enumerate(items) if isinstance(item, SurfaceDefinition)
    }
    assert {(n, kinds) for n, kinds, _ in lists} >= own and len(own) == 2
    again = resolve_all(["v2", "before-v2"])  # other objects, as in another process

    async def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("listed again")

    monkeypatch.setattr(_measure, "list_surface", refuse)
    with lists_kept(again, lists):
        assert measure(again).to_json() == direct.to_json()


def test_a_surface_is_listed_once_for_its_own_kinds_however_they_are_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its list and the by-kinds point of all its kinds are one list: a report measures nothing twice."""
    from toolsurface.harness.measure import _measure, measure
    from toolsurface.harness.surface import resolve_all

    listed: list[tuple[str, ...]] = []
    real, real_plainly = _measure.list_surface, _measure.list_plainly

    def names(kinds: Any) -> tuple[str, ...]:
        return tuple(getattr(k, "name", k) for k in kinds)

    async def counted(surface: Any, **kwargs: Any) -> Any:
        listed.append(names(surface.kinds))
        return await real(surface, **kwargs)

    # A bundled surface of plain data is listed without a connection (measure._plain): counted the same.
    def counted_plainly(item: Any, kinds: Any = None, *args: Any) -> Any:
        wire = real_plainly(item, kinds, *args)
        if wire is not None:
            listed.append(names(item.kinds if kinds is None else kinds))
        return wire

    monkeypatch.setattr(_measure, "list_surface", counted)
    monkeypatch.setattr(_measure, "list_plainly", counted_plainly)
    [item] = resolve_all(["v2"])
    measured = measure([item])
    assert sorted(listed) == sorted(set(listed))
    assert len(listed) == len(measured.surfaces[0].by_kinds) == len(item.kinds) + 1


MEASURE_AND_SAY_WHAT_LOADED = """
import sys
from toolsurface.harness.measure import measure
from toolsurface.harness.surface import resolve_all
measure(resolve_all(["v2", "before-v2"]))
print(sorted({m.split(".")[0] for m in sys.modules} & {"jsonschema", "jsonschema_rs"}))
"""


def test_measuring_valid_surfaces_loads_no_jsonschema() -> None:
    """A valid list passes the quick check (jsonschema-rs); jsonschema, a fifth of a second to import, is for the
    message of a schema that fails it, and for a stub's first call."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE_AND_SAY_WHAT_LOADED], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "['jsonschema_rs']"
