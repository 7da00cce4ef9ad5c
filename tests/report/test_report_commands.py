"""Every command the report prints under a table or a chart, run as printed from the repository root,
reproduces it: its output holds every figure and every tool of the table, and a printed `toolsurface report`
writes the same table and chart again."""

from __future__ import annotations

import html
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Run, conderis_search_path, run_cli
from tests.helpers.paths import FIXTURES
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER

NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")


def numbers(text: str) -> list[float]:
    """The numbers in `text`; "1,352" is read both as 1352 and as 1 and 352, since CSV separates with commas."""
    found = NUMBER.findall(text)
    return [float(n.replace(",", "")) for n in found] + [float(part) for n in found for part in n.split(",") if part]


def figures(rows: list[dict[str, Any]]) -> tuple[set[float], set[str]]:
    """The numbers and the underscored names (tools, metrics) in a table's cells."""
    values: set[float] = set()
    names: set[str] = set()
    for row in rows:
        for value in row.values():
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int | float):
                values.add(float(value))
            else:
                values |= set(numbers(str(value)))
                names |= set(NAME.findall(str(value)))
    return values, names


def rounded_alike(value: float, shown: list[float]) -> bool:
    """`value` is among `shown`, as it is or rounded to the places one of them has."""
    return any(abs(value - other) < 1e-9 or round(other, 4) == round(value, 4) for other in shown)


def run_printed(command: str, out: Path | None = None) -> Run:
    """The printed command, from the repository root, with the Claude Code the report searched with first on PATH; a
    `--out` it names is moved to `out`."""
    args = shlex.split(command)
    assert args[0] == "toolsurface", command
    args = args[1:]
    if out is not None and "--out" in args:
        args[args.index("--out") + 1] = str(out)
    return run_cli(*args, cwd=ROOT, env={"PATH": conderis_search_path()}, timeout=300)


def tables(report: Path) -> dict[str, dict[str, Any]]:
    """Each table of the report by its key: title, command and rows (tables/KEY.json)."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((report / "tables").glob("*.json"))}


def chart_commands(report: Path) -> dict[str, str]:
    """Each chart's key and the command its caption on the page gives."""
    page = (report / "report.html").read_text(encoding="utf-8")
    found = re.findall(r'data-chart="([^"]+)".*?<figcaption>[^<]*<code>([^<]+)</code></figcaption>', page)
    return {key: html.unescape(command) for key, command in found}


@pytest.fixture(scope="module")
def report(conderis_report: tuple[Path, Run]) -> Path:
    return conderis_report[0]


def assert_reproduces(command: str, table: dict[str, Any]) -> None:
    done = run_printed(command)
    assert done.returncode in (0, 1), (command, done.stderr)
    values, names = figures(table["rows"])
    shown = numbers(done.stdout)
    assert sorted(v for v in values if not rounded_alike(v, shown)) == [], (table["title"], command)
    assert sorted(n for n in names if n not in done.stdout) == [], (table["title"], command)


def test_every_command_under_a_table_prints_its_figures_and_tools(report: Path) -> None:
    printed = {key: t for key, t in tables(report).items() if not t["command"].startswith("toolsurface report ")}
    assert len(printed) >= 10, sorted(printed)
    for table in printed.values():
        assert_reproduces(table["command"], table)


def test_every_command_under_a_chart_prints_the_figures_it_draws(report: Path) -> None:
    commands = chart_commands(report)
    assert len(commands) == len(list((report / "charts").glob("*.png")))
    by_key = tables(report)
    for key, command in commands.items():
        if not command.startswith("toolsurface report "):
            assert_reproduces(command, by_key[key.partition(".")[0]])


def test_a_printed_report_command_writes_the_same_tables_and_charts_again(report: Path, tmp_path: Path) -> None:
    by_key = tables(report)
    commands = {t["command"] for t in by_key.values()} | set(chart_commands(report).values())
    reports = sorted(c for c in commands if c.startswith("toolsurface report "))
    assert reports, "the report prints no report command"
    for n, command in enumerate(reports):
        again = tmp_path / f"again-{n}"
        done = run_printed(command, out=again)
        assert done.returncode == 0, (command, done.stderr)
        for key, table in tables(again).items():
            assert table["rows"] == by_key[key]["rows"], (command, key)
        assert sorted(tables(again)) == sorted(by_key), command
        for chart in sorted((report / "charts").glob("*.png")):
            assert (again / "charts" / chart.name).read_bytes() == chart.read_bytes(), (command, chart.name)


def test_the_reports_help_names_the_surfaces_it_measures_by_default(report: Path) -> None:
    shown = " ".join(run_cli("report", "--help").stdout.split())
    measured = [row["surface"] for row in tables(report)["list_size"]["rows"]]
    assert measured == list(BUNDLED_ORDER)
    assert f"the bundled {len(measured)}: {', '.join(measured)})" in shown.replace("five", "5")


# -- a designer's own server ---------------------------------------------------------------------------------

HELP_DESK = [sys.executable, str(FIXTURES / "servers" / "acme_help_desk.py")]
CONDERIS_QUERIES = ("create task", "store memory", "read page", "approve proposal", "block task", "recall project")


@pytest.fixture(scope="module")
def own_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`report --surface own.snap.json --html` in the designer's folder, as they would run it."""
    folder = tmp_path_factory.mktemp("own")
    assert run_cli("snapshot", "-o", "own.snap.json", "--", *HELP_DESK, cwd=folder).returncode == 0
    done = run_cli("report", "--surface", "own.snap.json", "--out", "rep", "--html", cwd=folder, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder / "rep"


def test_a_report_of_a_surface_of_no_study_applies_no_studys_queries_or_task(own_report: Path) -> None:
    text = (own_report / "report.md").read_text(encoding="utf-8")
    task = json.loads((ROOT / "toolsurface" / "surfaces" / "conderis" / "roundtrip.json").read_text(encoding="utf-8"))
    for needle in [*CONDERIS_QUERIES, task["name"], "<NA>", "Findability: rank", "Round trip for on-demand"]:
        assert needle not in text, needle
    assert "## Not in this report" in text
    assert "`toolsurface new queries own.snap.json -o queries.json` writes a starter file" in text
    # Growth and kinds are figures of surfaces of ours: no empty tables, no empty chart.
    assert not {"growth", "by_kinds", "findability", "roundtrip"} & set(tables(own_report))
    assert sorted(p.name for p in (own_report / "charts").glob("*.png")) == ["list_size_by_tool.png"]


def test_the_page_of_one_surface_compares_it_with_nothing(own_report: Path) -> None:
    page = (own_report / "report.html").read_text(encoding="utf-8")
    assert 'id="compare"' not in page and 'href="#compare"' not in page
    assert '<section id="left-out"><h2>Not in this report</h2>' in page
    assert "acme-help-desk" in page and "acme/help desk 0.1.0" in page


def test_every_command_the_report_of_a_users_server_prints_runs_as_printed(own_report: Path) -> None:
    printed = tables(own_report)
    assert printed
    for table in printed.values():
        args = shlex.split(table["command"])
        done = run_cli(*args[1:], cwd=own_report.parent, timeout=300)
        assert done.returncode in (0, 1), (table["command"], done.stderr)


def test_report_reads_a_live_server_and_prints_commands_that_name_it(tmp_path: Path) -> None:
    queries = tmp_path / "q.json"
    assert run_cli("new", "queries", "-o", str(queries), "--", *HELP_DESK).returncode == 0
    # The commands naming the live server are the subject, not a client's own search: no search session is run.
    done = run_cli(
        "report", "--surface", "v2", "--queries", str(queries), "--out", str(tmp_path / "rep"),
        "--search-client", "none", "--", *HELP_DESK,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    by_key = tables(tmp_path / "rep")
    assert [r["surface"] for r in by_key["list_size"]["rows"]] == ["v2", "acme-help-desk"]
    live = shlex.join(HELP_DESK)
    for key, table in by_key.items():
        assert table["command"].endswith(f" -- {live}"), (key, table["command"])
    assert_reproduces(by_key["findability"]["command"], by_key["findability"])
    assert_reproduces(by_key["list_size"]["command"], by_key["list_size"])
